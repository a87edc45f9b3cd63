//! What an organizer takes away from an event: its sales per category and
//! section (JSON) and its attendee list (CSV, for a spreadsheet or the
//! door staff's own tools). Admins only.

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use holdfast_core::admin::attendees;
use holdfast_core::admin::console;
use holdfast_core::platform::error::ErrorBody;
use holdfast_core::{ApiError, AppState};
use holdfast_model::console::SalesLine;
use holdfast_web::caller::{may, Allowed};
use holdfast_web::HttpError;

use super::extract::EventPath;

/// `GET /api/admin/events/{eventId}/sales`.
#[utoipa::path(
    get,
    path = "/api/admin/events/{eventId}/sales",
    tag = "admin",
    summary = "Sales per price category and section, then per standing area",
    params(("eventId" = i64, Path, description = "event id", example = 1, minimum = 1)),
    responses((status = 200, body = Vec<SalesLine>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = ["reports"]), ("console_session" = ["reports"])),
)]
pub async fn sales(
    State(state): State<AppState>,
    _admin: Allowed<may::Reports>,
    EventPath(event_id): EventPath,
) -> Result<Json<Vec<SalesLine>>, HttpError> {
    // The dashboard's own reading, so an unknown event answers 404 alike.
    let now = state.clock.now();
    let known: Vec<SalesLine> = console::sales(&state, event_id, now).await?;
    if known.is_empty() && !holdfast_core::catalog::exists(&state, event_id).await? {
        return Err(ApiError::NotFound("event").into());
    }
    Ok(Json(known))
}

/// `GET /api/admin/events/{eventId}/attendees.csv`.
#[utoipa::path(
    get,
    path = "/api/admin/events/{eventId}/attendees.csv",
    tag = "admin",
    summary = "The attendee list as CSV: a line per paid booking (booking, names, email, places, tickets, checked_in, status)",
    params(("eventId" = i64, Path, description = "event id", example = 1, minimum = 1)),
    responses((status = 200, content_type = "text/csv", description = "RFC 4180 CSV with a header line"), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = ["exports"]), ("console_session" = ["exports"])),
)]
pub async fn attendees_csv(
    State(state): State<AppState>,
    _admin: Allowed<may::Exports>,
    EventPath(event_id): EventPath,
) -> Result<Response, HttpError> {
    let list = attendees::attendees(&state, event_id).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"attendees-event-{event_id}.csv\""),
            ),
            (header::CACHE_CONTROL, "no-store".to_string()),
        ],
        attendees::csv(&list),
    )
        .into_response())
}
