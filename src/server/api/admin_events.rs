//! The admin API's event setup: the event list, a new event from a layout,
//! its layout read and edited until published, publishing and withdrawing,
//! and its refund policy. Every handler takes an `Admin`.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use holdfast_core::admin::{console, setup};
use holdfast_core::platform::error::ErrorBody;
use holdfast_core::AppState;
use holdfast_model::console::{AdminEvent, CreatedEvent, EventLayout};
use holdfast_model::RefundPolicy;
use holdfast_web::caller::{may, Allowed};
use holdfast_web::HttpError;

use super::extract::{EventPath, JsonBody};

#[utoipa::path(
    get,
    path = "/api/admin/events",
    tag = "admin",
    summary = "Every event the caller's grant reaches, published or not",
    responses((status = 200, description = "`[{ id, name, kind, published, seatCount }]`"), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)),
    security(("bearer" = ["list_events"]), ("console_session" = ["list_events"])),
)]
pub async fn events(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::ListEvents>,
) -> Result<Json<Vec<AdminEvent>>, HttpError> {
    Ok(Json(console::events_of(&state, &admin).await?))
}

/// `POST /api/admin/events`: a new, unpublished event from a layout.
#[utoipa::path(
    post,
    path = "/api/admin/events",
    tag = "admin",
    summary = "Create an unpublished event from a layout",
    request_body = EventLayout,
    responses((status = 201, body = CreatedEvent), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = ["event_setup"]), ("console_session" = ["event_setup"])),
)]
pub async fn create_event(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::EventSetup>,
    JsonBody(layout): JsonBody<EventLayout>,
) -> Result<Response, HttpError> {
    let created: CreatedEvent = setup::create_event(&state, &admin, &layout).await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

/// `GET /api/admin/events/{eventId}/layout`: the layout the event was made
/// from, to export or edit.
#[utoipa::path(
    get,
    path = "/api/admin/events/{eventId}/layout",
    tag = "admin",
    summary = "The layout an event was made from (404 for an event not made from one)",
    params(("eventId" = i64, Path, description = "event id", example = 1, minimum = 1)),
    responses((status = 200, body = EventLayout), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = ["event_setup"]), ("console_session" = ["event_setup"])),
)]
pub async fn layout(
    State(state): State<AppState>,
    _admin: Allowed<may::EventSetup>,
    EventPath(event_id): EventPath,
) -> Result<Json<EventLayout>, HttpError> {
    Ok(Json(setup::layout_of(&state, event_id).await?))
}

/// `PUT /api/admin/events/{eventId}/layout`: a new layout for an event not
/// yet on sale and without bookings.
#[utoipa::path(
    put,
    path = "/api/admin/events/{eventId}/layout",
    tag = "admin",
    summary = "Replace the layout of an unpublished event without bookings (409 INVALID_STATE otherwise)",
    description = "Checked like `POST /api/admin/events`; the event's seats, categories and standing areas become the new layout's in one transaction. The refund policy is kept.",
    params(("eventId" = i64, Path, description = "event id", example = 1, minimum = 1)),
    request_body = EventLayout,
    responses((status = 200, body = CreatedEvent), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = ["event_setup"]), ("console_session" = ["event_setup"])),
)]
pub async fn edit_layout(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::EventSetup>,
    EventPath(event_id): EventPath,
    JsonBody(layout): JsonBody<EventLayout>,
) -> Result<Json<CreatedEvent>, HttpError> {
    Ok(Json(
        setup::edit_layout(&state, &admin, event_id, &layout).await?,
    ))
}

#[utoipa::path(
    post,
    path = "/api/admin/events/{eventId}/publish",
    tag = "admin",
    summary = "Publish an event",
    params(("eventId" = i64, Path, description = "event id", example = 1, minimum = 1)),
    responses((status = 200, body = CreatedEvent), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = ["event_setup"]), ("console_session" = ["event_setup"])),
)]
pub async fn publish(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::EventSetup>,
    EventPath(event_id): EventPath,
) -> Result<Json<CreatedEvent>, HttpError> {
    Ok(Json(
        setup::set_published(&state, &admin, event_id, true).await?,
    ))
}

#[utoipa::path(
    put,
    path = "/api/admin/events/{eventId}/refund-policy",
    tag = "admin",
    summary = "Set what buyers get back when they cancel (an empty policy: no cancellation)",
    params(("eventId" = i64, Path, description = "event id", example = 1, minimum = 1)),
    request_body = RefundPolicy,
    responses((status = 200, body = RefundPolicy), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = ["event_setup"]), ("console_session" = ["event_setup"])),
)]
pub async fn set_refund_policy(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::EventSetup>,
    EventPath(event_id): EventPath,
    JsonBody(policy): JsonBody<RefundPolicy>,
) -> Result<Json<RefundPolicy>, HttpError> {
    Ok(Json(
        setup::set_refund_policy(&state, &admin, event_id, policy).await?,
    ))
}

#[utoipa::path(
    post,
    path = "/api/admin/events/{eventId}/unpublish",
    tag = "admin",
    summary = "Withdraw an event (no new holds)",
    params(("eventId" = i64, Path, description = "event id", example = 1, minimum = 1)),
    responses((status = 200, body = CreatedEvent), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = ["event_setup"]), ("console_session" = ["event_setup"])),
)]
pub async fn unpublish(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::EventSetup>,
    EventPath(event_id): EventPath,
) -> Result<Json<CreatedEvent>, HttpError> {
    Ok(Json(
        setup::set_published(&state, &admin, event_id, false).await?,
    ))
}
