//! The admin's on-sale controls: an event's waiting room, promo campaigns.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use holdfast_core::platform::error::ErrorBody;
use holdfast_core::promo::campaigns;
use holdfast_core::waiting_room::setup;
use holdfast_core::AppState;
use holdfast_model::console::{NewPromo, PromoCampaign, RoomSummary};
use holdfast_web::caller::{may, Allowed};
use holdfast_web::HttpError;
use serde::Deserialize;

use super::extract::{EventPath, JsonBody};

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RoomSettings {
    enabled: bool,
    /// Buyers let in a minute at most (fewer as the places run out).
    #[schema(example = 600, minimum = 1, maximum = 1000000)]
    admit_per_minute: i64,
}

#[utoipa::path(
    put,
    path = "/api/admin/events/{eventId}/queue",
    tag = "admin",
    summary = "Switch an event's waiting room on or off, and set its rate",
    params(("eventId" = i64, Path, description = "event id", example = 1, minimum = 1)),
    request_body = RoomSettings,
    responses((status = 200, body = RoomSummary), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = ["event_setup"]), ("console_session" = ["event_setup"])),
)]
pub async fn set_queue(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::EventSetup>,
    EventPath(event_id): EventPath,
    JsonBody(form): JsonBody<RoomSettings>,
) -> Result<Json<RoomSummary>, HttpError> {
    Ok(Json(
        setup::configure(
            &state,
            &admin,
            event_id,
            form.enabled,
            form.admit_per_minute,
        )
        .await?,
    ))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OnSaleTime {
    /// RFC 3339, or the event's own wall-clock time without an offset.
    #[schema(example = "2027-06-01T10:00")]
    on_sale_at: String,
}

#[utoipa::path(
    put,
    path = "/api/admin/events/{eventId}/on-sale",
    tag = "admin",
    summary = "Move an event's on-sale time (holds and the waiting room follow at once)",
    params(("eventId" = i64, Path, description = "event id", example = 1, minimum = 1)),
    request_body = OnSaleTime,
    responses((status = 200, body = RoomSummary), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = ["event_setup"]), ("console_session" = ["event_setup"])),
)]
pub async fn move_on_sale(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::EventSetup>,
    EventPath(event_id): EventPath,
    JsonBody(form): JsonBody<OnSaleTime>,
) -> Result<Json<RoomSummary>, HttpError> {
    Ok(Json(
        setup::move_on_sale(&state, &admin, event_id, &form.on_sale_at).await?,
    ))
}

#[utoipa::path(
    get,
    path = "/api/admin/events/{eventId}/queue",
    tag = "admin",
    summary = "An event's waiting room: joined, admitted, waiting, places free",
    params(("eventId" = i64, Path, description = "event id", example = 1, minimum = 1)),
    responses((status = 200, body = RoomSummary), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = ["reports"]), ("console_session" = ["reports"])),
)]
pub async fn queue_summary(
    State(state): State<AppState>,
    _admin: Allowed<may::Reports>,
    EventPath(event_id): EventPath,
) -> Result<Json<RoomSummary>, HttpError> {
    Ok(Json(setup::summary(&state, event_id).await?))
}

#[utoipa::path(
    post,
    path = "/api/admin/promos",
    tag = "admin",
    summary = "Create a promo campaign: a single-use code, a capped code, or a pool of codes",
    request_body = NewPromo,
    responses((status = 201, body = PromoCampaign), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = ["event_setup"]), ("console_session" = ["event_setup"])),
)]
pub async fn create_promo(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::EventSetup>,
    JsonBody(form): JsonBody<NewPromo>,
) -> Result<Response, HttpError> {
    let created = campaigns::create(&state, &admin, &form).await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

#[utoipa::path(
    get,
    path = "/api/admin/promos",
    tag = "admin",
    summary = "Promo campaigns and how they are used",
    responses((status = 200, body = Vec<PromoCampaign>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)),
    security(("bearer" = ["event_setup"]), ("console_session" = ["event_setup"])),
)]
pub async fn list_promos(
    State(state): State<AppState>,
    _admin: Allowed<may::EventSetup>,
) -> Result<Json<Vec<PromoCampaign>>, HttpError> {
    Ok(Json(campaigns::list(&state).await?))
}
