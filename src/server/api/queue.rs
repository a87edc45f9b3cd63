//! The waiting room over HTTP: join (`POST`), look (`GET`), watch (SSE).
//! The answers set the queue and admission cookies, so a browser carries
//! them to the seat map and the hold endpoints by itself.

use holdfast_web::Caller;
use holdfast_web::HttpError;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use futures::stream::Stream;
use holdfast_core::buyer::Buyer;
use holdfast_core::platform::client_addr::ClientAddr;
use holdfast_core::platform::error::ErrorBody;
use holdfast_core::seat_map::SeatChanges;
use holdfast_core::waiting_room::gate::{cookie, queue_cookie, status_cookies};
use holdfast_core::waiting_room::{current_status, join};
use holdfast_core::{ApiError, AppState};
use holdfast_model::QueueStatus;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::broadcast::Receiver;

use super::extract::EventPath;
use holdfast_model::EventId;

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
    Caller(buyer): Caller<Buyer>,
    EventPath(event_id): EventPath,
) -> Result<Response, HttpError> {
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
    Caller(buyer): Caller<Buyer>,
    EventPath(event_id): EventPath,
    headers: HeaderMap,
) -> Result<Response, HttpError> {
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
    Caller(buyer): Caller<Buyer>,
    client: Option<Extension<ClientAddr>>,
    EventPath(event_id): EventPath,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, HttpError> {
    let stopping = state.stopping.clone();
    let slot = state.streams.take(client.map(|c| c.limit_key()))?;
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
            let _open = &slot;
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
                    // A second passes, or this event's seats change (sold
                    // out at once); other events' changes do not wake it.
                    tokio::select! {
                        _ = tokio::time::sleep(Duration::from_secs(1)) => {}
                        _ = change_of(&mut changes, event_id) => {}
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
    Ok(Sse::new(super::ending::until_stopping(stopping, stream)).keep_alive(KeepAlive::default()))
}

/// Waits for a seat change of this event (or for having fallen behind).
async fn change_of(changes: &mut Receiver<Arc<SeatChanges>>, event_id: EventId) {
    loop {
        match changes.recv().await {
            Ok(batch) if batch.event_id != event_id => continue,
            Ok(_) | Err(RecvError::Lagged(_)) => return,
            Err(RecvError::Closed) => std::future::pending().await,
        }
    }
}

fn queue_token_in(headers: &HeaderMap, event_id: EventId) -> Option<String> {
    headers
        .get(QUEUE_TOKEN_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
        .or_else(|| cookie(headers, &queue_cookie(event_id)))
}

/// The status as JSON, with the signed place and admission as cookies.
fn with_cookies(state: &AppState, event_id: EventId, status: QueueStatus) -> Response {
    let cookies = status_cookies(state, event_id, &status);
    let mut response = Json(status).into_response();
    for c in cookies {
        if let Ok(v) = HeaderValue::from_str(&c) {
            response.headers_mut().append(header::SET_COOKIE, v);
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A queue stream wakes for its own event's seat changes, not for
    /// every event's.
    #[tokio::test]
    async fn a_queue_stream_wakes_only_for_its_own_event() {
        let (tx, mut rx) = tokio::sync::broadcast::channel(16);
        let batch = |event_id| {
            Arc::new(SeatChanges {
                event_id,
                version: 1,
                changes: Vec::new(),
            })
        };
        tx.send(batch(EventId(2))).unwrap();
        tx.send(batch(EventId(3))).unwrap();
        let woke =
            tokio::time::timeout(Duration::from_millis(50), change_of(&mut rx, EventId(1))).await;
        assert!(woke.is_err(), "woken by other events' changes");
        tx.send(batch(EventId(1))).unwrap();
        let woke =
            tokio::time::timeout(Duration::from_millis(50), change_of(&mut rx, EventId(1))).await;
        assert!(woke.is_ok());
    }
}
