//! `GET /api/events/{eventId}/seats/stream`: seat changes as server-sent
//! events (`event: seats`, `id:` the version). A client that reconnects
//! with `Last-Event-ID` (or opens with `?since=`) first gets what it missed
//! — or `event: reset` when that is no longer kept, and refetches the
//! snapshot. On an event with standing areas, `event: standing` carries
//! their places left: once when the stream opens, then whenever they change.

use holdfast_core::platform::error::ErrorBody;
use holdfast_web::Caller;
use holdfast_web::HttpError;
use std::convert::Infallible;
use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::Extension;
use futures::stream::{self, Stream, StreamExt};
use holdfast_core::buyer::MaybeBuyer;
use holdfast_core::catalog;
use holdfast_core::platform::client_addr::ClientAddr;
use holdfast_core::seat_map::SeatChanges;
use holdfast_core::seat_map::RESET;
use holdfast_core::{ApiError, AppState};
use holdfast_model::{AreaLeft, EventId, StandingLeft};
use serde::Deserialize;
use tokio::sync::broadcast::error::RecvError;

use super::extract::{self, EventPath};

#[derive(Deserialize)]
pub struct Since {
    since: Option<u64>,
}

#[utoipa::path(
    get,
    path = "/api/events/{eventId}/seats/stream",
    tag = "events",
    summary = "Seat changes as server-sent events (`event: seats`, `event: reset`)",
    params(("eventId" = i64, Path, description = "event id", example = 1, minimum = 1), ("since" = Option<u64>, Query, description = "resume after this version (or Last-Event-ID)")),
    responses((status = 200, content_type = "text/event-stream", description = "event stream"), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
)]
pub async fn seats(
    State(state): State<AppState>,
    Caller(MaybeBuyer(buyer)): Caller<MaybeBuyer>,
    client: Option<Extension<ClientAddr>>,
    EventPath(event_id): EventPath,
    Query(q): Query<Since>,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, HttpError> {
    let stopping = state.stopping.clone();
    if !extract::is_staff(&state, client.as_deref(), &headers) {
        extract::admitted(&state, buyer.as_deref(), event_id, &headers).await?;
    }
    // Held while the stream lives (and counted in holdfast_sse_clients).
    let slot = state.streams.take(client.map(|c| c.limit_key()))?;
    let map = state
        .seat_maps
        .get(&state.db, event_id)
        .await?
        .ok_or(ApiError::NotFound("event"))?;
    // Subscribe before reading the backlog, so nothing falls in between.
    let rx = state.seat_maps.subscribe();
    // `Some(None)`: a Last-Event-ID that is no version of ours — what the
    // client has is unknown, so it is told to refetch.
    let last_seen = match headers.get("last-event-id") {
        Some(v) => Some(v.to_str().ok().and_then(|v| v.trim().parse::<u64>().ok())),
        None => q.since.map(Some),
    };
    let (first, mut sent): (Vec<Event>, u64) = match last_seen {
        None => (Vec::new(), map.current_version()),
        Some(v) => match v.and_then(|v| Some((v, map.changes_since(v)?))) {
            Some((v, batches)) => {
                let sent = batches.last().map_or(v, |b| b.version);
                (batches.iter().map(seats_event).collect(), sent)
            }
            None => (
                vec![reset_event(map.current_version())],
                map.current_version(),
            ),
        },
    };
    let live = stream::unfold(rx, move |mut rx| async move {
        loop {
            match rx.recv().await {
                Ok(batch) if batch.event_id == event_id => return Some((Some(batch), rx)),
                Ok(_) => continue,
                // Fell behind: tell the client to refetch.
                Err(RecvError::Lagged(_)) => return Some((None, rx)),
                Err(RecvError::Closed) => return None,
            }
        }
    })
    .filter_map(move |item| {
        let event = match item {
            // The instance's map was dropped and will be read again: the
            // client reads it too, and every change of the new map counts.
            Some(batch) if batch.version == RESET => {
                sent = RESET;
                Some(reset_event(RESET))
            }
            Some(batch) if batch.version <= sent => None,
            Some(batch) => {
                sent = batch.version;
                Some(seats_event(&batch))
            }
            None => Some(reset_event(sent)),
        };
        futures::future::ready(event)
    });
    let has_standing = !catalog::event_for_page(&state, event_id)
        .await?
        .general_admission
        .is_empty();
    let seats = stream::iter(first).chain(live);
    let events = if has_standing {
        stream::select(seats, standing_changes(state, event_id)).boxed()
    } else {
        seats.boxed()
    };
    let all = events.map(move |e| {
        let _open = &slot;
        Ok(e)
    });
    Ok(Sse::new(super::ending::until_stopping(stopping, all)).keep_alive(KeepAlive::default()))
}

/// How often a stream looks at its event's standing places. They are read
/// from the event's details as pages read them (kept a quarter of a second
/// per instance), so a crowd of streams costs the database one query per
/// instance a few times a second, not one per stream.
const STANDING_EVERY: std::time::Duration = std::time::Duration::from_secs(2);

/// `event: standing` now, then whenever the places left change.
fn standing_changes(state: AppState, event_id: EventId) -> impl Stream<Item = Event> + Send {
    stream::unfold(
        (state, None::<Vec<AreaLeft>>),
        move |(state, mut sent)| async move {
            loop {
                if sent.is_some() {
                    // Up to a quarter more, so streams opened together do
                    // not all look at the same instant.
                    let nanos = std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |d| d.subsec_nanos());
                    let jitter = f64::from(nanos % 1_000) / 4_000.0;
                    tokio::time::sleep(STANDING_EVERY.mul_f64(1.0 + jitter)).await;
                }
                let Ok(detail) = catalog::event_for_page(&state, event_id).await else {
                    // Withdrawn, or the database is away: look again later.
                    sent.get_or_insert_with(Vec::new);
                    continue;
                };
                let now: Vec<AreaLeft> = detail
                    .general_admission
                    .iter()
                    .map(|a| AreaLeft {
                        id: a.id,
                        remaining: a.remaining,
                    })
                    .collect();
                if sent.as_ref() != Some(&now) {
                    let event = Event::default().event("standing").data(
                        serde_json::to_string(&StandingLeft {
                            event_id,
                            standing: now.clone(),
                        })
                        .unwrap_or_default(),
                    );
                    return Some((event, (state, Some(now))));
                }
            }
        },
    )
}

fn seats_event(batch: &Arc<SeatChanges>) -> Event {
    Event::default()
        .event("seats")
        .id(batch.version.to_string())
        .data(serde_json::to_string(&**batch).unwrap_or_default())
}

fn reset_event(version: u64) -> Event {
    Event::default()
        .event("reset")
        .id(version.to_string())
        .data("{}")
}
