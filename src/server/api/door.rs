//! `POST /api/admin/tickets/{token}/check-in`: staff at the door scan a
//! ticket; the first scan lets its holder in, a second says when and where
//! it was used.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use holdfast_app::i18n::Locale;
use holdfast_core::platform::error::ErrorBody;
use holdfast_core::ticket::door::{self, CheckedIn, Door};
use holdfast_core::AppState;
use holdfast_model::EventId;
use holdfast_web::caller::{may, Allowed};
use holdfast_web::HttpError;
use serde::Deserialize;

use super::extract::{self, RawBody};

/// Where the scan happened: the event whose door it is (a ticket of
/// another event is refused with 409 `WRONG_EVENT`; scanners should always
/// send it — without it the ticket's own event is taken), and the gate
/// ("main" when absent).
#[derive(Deserialize, Default, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CheckInRequest {
    #[schema(value_type = Option<i64>)]
    event_id: Option<EventId>,
    gate: Option<String>,
}

#[utoipa::path(
    post,
    path = "/api/admin/tickets/{token}/check-in",
    tag = "admin",
    summary = "Check a ticket in at an event's door (once); the answer names the event, its start in the venue's time and the places; 409 WRONG_EVENT refuses another event's ticket, 409 ALREADY_CHECKED_IN says when and at which gate it was used, 409 TICKET_VOID refuses a refunded or disputed booking's ticket",
    params(("token" = String, Path, description = "a booking's ticket (the whole party) or one seat's")),
    request_body(content = Option<CheckInRequest>, content_type = "application/json"),
    responses((status = 200, body = CheckedIn), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = ["check_in"]), ("console_session" = ["check_in"])),
)]
pub async fn check_in(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::CheckIn>,
    Path(token): Path<String>,
    headers: HeaderMap,
    RawBody(body): RawBody,
) -> Result<Json<CheckedIn>, HttpError> {
    let request: CheckInRequest = if body.is_empty() {
        CheckInRequest::default()
    } else {
        extract::json(&headers, &body)?
    };
    let at = Door {
        event: request.event_id,
        gate: request.gate.as_deref(),
        l: Locale::of_headers(&headers),
    };
    let done = door::check_in(&state, &admin, &token, at).await?;
    Ok(Json(done))
}
