//! Events and their seat maps.

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use holdfast_app::core::buyer::MaybeBuyer;
use holdfast_app::core::platform::client_addr::ClientAddr;
use holdfast_app::core::platform::error::ErrorBody;
use holdfast_app::core::{catalog, ApiError, AppState};
use holdfast_app::model::SeatMapSnapshot;
use holdfast_app::model::{EventDetail, EventSummary};

use super::extract;

#[utoipa::path(
    get,
    path = "/api/events",
    tag = "events",
    summary = "Published events with seat counts",
    responses((status = 200, body = Vec<EventSummary>)),
)]
pub async fn list(State(state): State<AppState>) -> Result<Json<Vec<EventSummary>>, ApiError> {
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
    Path(event_id): Path<String>,
) -> Result<Json<EventDetail>, ApiError> {
    let event_id = extract::id(&event_id, "eventId")?;
    Ok(Json(catalog::event_detail(&state, event_id).await?))
}

/// The snapshot from memory, with an ETag; `304` when the client has it.
#[utoipa::path(
    get,
    path = "/api/events/{eventId}/seats",
    tag = "events",
    summary = "The seat map snapshot (ETag; 304 on If-None-Match)",
    params(("eventId" = i64, Path, description = "event id", example = 1, minimum = 1)),
    responses((status = 200, body = SeatMapSnapshot), (status = 304, description = "unchanged"), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
)]
pub async fn seats(
    State(state): State<AppState>,
    MaybeBuyer(buyer): MaybeBuyer,
    client: Option<Extension<ClientAddr>>,
    Path(event_id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let event_id = extract::id(&event_id, "eventId")?;
    if !extract::is_staff(&state, client.as_deref(), &headers) {
        extract::admitted(&state, buyer.as_deref(), event_id, &headers).await?;
    }
    let map = state
        .seat_maps
        .get(&state.db, event_id)
        .await?
        .ok_or(ApiError::NotFound("event"))?;
    let snapshot = map.snapshot(state.clock.now_ms(), state.rules.seat_map_staleness);
    let cache = [
        (header::ETAG, snapshot.etag.clone()),
        (header::CACHE_CONTROL, "no-cache".to_string()),
    ];
    let matches = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(',')
                .any(|t| t.trim().trim_start_matches("W/") == snapshot.etag)
        });
    if matches {
        return Ok((StatusCode::NOT_MODIFIED, cache).into_response());
    }
    Ok((
        cache,
        [(header::CONTENT_TYPE, "application/json".to_string())],
        snapshot.json.clone(),
    )
        .into_response())
}
