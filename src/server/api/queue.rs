//! The waiting room over HTTP: join (`POST`), look (`GET`), watch (SSE).
//! The answers set the queue and admission cookies, so a browser carries
//! them to the seat map and the hold endpoints by itself.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::Json;
use futures::stream::Stream;
use holdfast_app::core::buyer::Buyer;
use holdfast_app::core::error::ErrorBody;
use holdfast_app::core::waiting_room::gate::{cookie, queue_cookie, status_cookies};
use holdfast_app::core::waiting_room::{current_status, join};
use holdfast_app::core::{ApiError, AppState};
use holdfast_app::model::QueueStatus;

use super::extract;

const QUEUE_TOKEN_HEADER: &str = "queue-token";

#[utoipa::path(
    post,
    path = "/api/events/{eventId}/queue",
    tag = "queue",
    summary = "Join the waiting room (joining again keeps the place)",
    params(("eventId" = i64, Path, description = "event id", example = 1, minimum = 1)),
    responses((status = 200, body = QueueStatus), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)),
)]
pub async fn join_queue(
    State(state): State<AppState>,
    buyer: Buyer,
    Path(event_id): Path<String>,
) -> Result<Response, ApiError> {
    let event_id = extract::id(&event_id, "eventId")?;
    let status = join::join(&state, &buyer.0, event_id).await?;
    Ok(with_cookies(&state, event_id, status))
}

#[utoipa::path(
    get,
    path = "/api/events/{eventId}/queue",
    tag = "queue",
    summary = "Your place in the waiting room, fresh",
    params(("eventId" = i64, Path, description = "event id", example = 1, minimum = 1), ("Queue-Token" = Option<String>, Header, description = "the signed place (or its cookie)")),
    responses((status = 200, body = QueueStatus), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)),
)]
pub async fn queue_status(
    State(state): State<AppState>,
    buyer: Buyer,
    Path(event_id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let event_id = extract::id(&event_id, "eventId")?;
    let token = queue_token_in(&headers, event_id);
    let status = current_status(&state, &buyer.0, event_id, token.as_deref())
        .await?
        .ok_or(ApiError::NotFound("place in this queue"))?;
    Ok(with_cookies(&state, event_id, status))
}

#[utoipa::path(
    get,
    path = "/api/events/{eventId}/queue/stream",
    tag = "queue",
    summary = "Your place as server-sent events (`event: queue`), on every change",
    params(("eventId" = i64, Path, description = "event id", example = 1, minimum = 1)),
    responses((status = 200, content_type = "text/event-stream", description = "event stream"), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)),
)]
pub async fn queue_stream(
    State(state): State<AppState>,
    buyer: Buyer,
    Path(event_id): Path<String>,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let event_id = extract::id(&event_id, "eventId")?;
    let token = queue_token_in(&headers, event_id);
    let first = current_status(&state, &buyer.0, event_id, token.as_deref())
        .await?
        .ok_or(ApiError::NotFound("place in this queue"))?;
    // Later looks use the signed place: the room's picture is in memory.
    let token = first.queue_token.clone().or(token);
    let buyer = buyer.0;
    let changes = state.seat_maps.subscribe();
    let stream = futures::stream::unfold(
        (state, None::<QueueStatus>, Some(first), changes),
        move |(state, last, mut next, mut changes)| {
            let buyer = buyer.clone();
            let token = token.clone();
            async move {
                loop {
                    if let Some(status) = next.take() {
                        if last.as_ref() != Some(&status) {
                            let event = Event::default()
                                .event("queue")
                                .json_data(&status)
                                .unwrap_or_default();
                            return Some((Ok(event), (state, Some(status), None, changes)));
                        }
                    }
                    // A second passes, or the seats change (sold out at once).
                    tokio::select! {
                        _ = tokio::time::sleep(Duration::from_secs(1)) => {}
                        _ = changes.recv() => {}
                    }
                    next = current_status(&state, &buyer, event_id, token.as_deref())
                        .await
                        .ok()
                        .flatten();
                    // The place is gone (the room was reset): end the stream.
                    next.as_ref()?;
                }
            }
        },
    );
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

fn queue_token_in(headers: &HeaderMap, event_id: i64) -> Option<String> {
    headers
        .get(QUEUE_TOKEN_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
        .or_else(|| cookie(headers, &queue_cookie(event_id)))
}

/// The status as JSON, with the signed place and admission as cookies.
fn with_cookies(state: &AppState, event_id: i64, status: QueueStatus) -> Response {
    let cookies = status_cookies(state, event_id, &status);
    let mut response = Json(status).into_response();
    for c in cookies {
        if let Ok(v) = HeaderValue::from_str(&c) {
            response.headers_mut().append(header::SET_COOKIE, v);
        }
    }
    response
}
