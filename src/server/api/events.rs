//! Events (their seat maps: `seat_map`).

use axum::extract::State;
use axum::Json;
use holdfast_core::platform::error::ErrorBody;
use holdfast_core::{catalog, AppState};
use holdfast_model::{EventDetail, EventSummary};
use holdfast_web::HttpError;

use super::extract::EventPath;

#[utoipa::path(
    get,
    path = "/api/events",
    tag = "events",
    summary = "Published events with seat counts",
    responses((status = 200, body = Vec<EventSummary>)),
)]
pub async fn list(State(state): State<AppState>) -> Result<Json<Vec<EventSummary>>, HttpError> {
    Ok(Json(catalog::list_events(&state).await?))
}

#[utoipa::path(
    get,
    path = "/api/events/{eventId}",
    tag = "events",
    summary = "One event with its price categories and standing areas",
    params(("eventId" = i64, Path, description = "event id", example = 1, minimum = 1)),
    responses((status = 200, body = EventDetail), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)),
)]
pub async fn detail(
    State(state): State<AppState>,
    EventPath(event_id): EventPath,
) -> Result<Json<EventDetail>, HttpError> {
    Ok(Json(catalog::event_detail(&state, event_id).await?))
}
