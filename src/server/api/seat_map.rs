//! An event's seat map as browsers and integrators fetch it: the full JSON
//! snapshot, the compact status letters, and the static drawing. All three
//! are served from memory, compressed once (`Compressed`), with an ETag and
//! `304` for a client that has them.

use axum::extract::{FromRequestParts, Query, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use holdfast_core::buyer::MaybeBuyer;
use holdfast_core::platform::client_addr::ClientAddr;
use holdfast_core::platform::compressed::{Compressed, Encoding};
use holdfast_core::platform::error::ErrorBody;
use holdfast_core::seat_map::Rendered;
use holdfast_core::{ApiError, AppState};
use holdfast_model::seat_drawing::SeatDrawing;
use holdfast_model::{SeatMapSnapshot, SeatStatuses};
use holdfast_web::{Caller, HttpError};
use serde::Deserialize;
use std::sync::Arc;

use super::extract::{self, EventPath};

/// Browsers keep a drawing fetched by its hash for a year, unasked.
const FOREVER: &str = "public, max-age=31536000, immutable";
/// Everything else is asked again each time (a `304` when unchanged).
const REVALIDATE: &str = "no-cache";

/// The snapshot from memory, with an ETag; `304` when the client has it.
#[utoipa::path(
    get,
    path = "/api/events/{eventId}/seats",
    tag = "events",
    summary = "The seat map snapshot (ETag; 304 on If-None-Match; gzip or brotli by Accept-Encoding)",
    params(("eventId" = i64, Path, description = "event id", example = 1, minimum = 1)),
    responses((status = 200, body = SeatMapSnapshot), (status = 304, description = "unchanged"), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
)]
pub async fn seats(AdmittedSnapshot(snapshot): AdmittedSnapshot, headers: HeaderMap) -> Response {
    revalidated(&headers, &snapshot, snapshot.json())
}

/// Every seat's status as one letter, in the drawing's order.
#[utoipa::path(
    get,
    path = "/api/events/{eventId}/seats/status",
    tag = "events",
    summary = "Every seat's status as one letter (a/h/b) in seat order: the compact snapshot (ETag; 304; gzip or brotli)",
    description = "The statuses of `GET /api/events/{eventId}/seats` in the same seat order, one letter each: `a` available, `h` held, `b` booked. `version` is the one to pass as `since` to the seat stream. Same admission rule as the full snapshot.",
    params(("eventId" = i64, Path, description = "event id", example = 1, minimum = 1)),
    responses((status = 200, body = SeatStatuses), (status = 304, description = "unchanged"), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
)]
pub async fn statuses(
    AdmittedSnapshot(snapshot): AdmittedSnapshot,
    headers: HeaderMap,
) -> Response {
    revalidated(&headers, &snapshot, &snapshot.statuses)
}

#[derive(Deserialize)]
pub struct DrawingVersion {
    v: Option<String>,
}

/// Where every seat is and what it is called, without statuses: seats
/// never move, so it is cached for good under its hash. Public (it shows
/// no one's seats), queue or not.
#[utoipa::path(
    get,
    path = "/api/events/{eventId}/seats/drawing",
    tag = "events",
    summary = "The seat map's drawing: every seat's place, name and category in compact columns, without statuses (immutable under ?v=hash)",
    description = "Seats in the order of `GET …/seats/status`. Columns `id`, `number`, `x`, `y` are differences from the previous seat (x, y in tenths of a map unit); `section`, `row`, `category` index the lists beside them. Asked for with the `v` the event page names, it is cached for a year; otherwise revalidated by ETag.",
    params(
        ("eventId" = i64, Path, description = "event id", example = 1, minimum = 1),
        ("v" = Option<String>, Query, description = "the drawing's hash, as the event page names it"),
    ),
    responses((status = 200, body = SeatDrawing), (status = 304, description = "unchanged"), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)),
)]
pub async fn drawing(
    State(state): State<AppState>,
    EventPath(event_id): EventPath,
    Query(version): Query<DrawingVersion>,
    headers: HeaderMap,
) -> Result<Response, HttpError> {
    let map = state
        .seat_maps
        .get(&state.db, event_id)
        .await?
        .ok_or(ApiError::NotFound("event"))?;
    // Built (and compressed) once; the first ask may take a moment.
    let drawing = tokio::task::spawn_blocking(move || {
        let drawing = map.drawing();
        let encoding = Encoding::preferred(accept_encoding(&headers));
        drawing.json.encoded(encoding);
        (drawing, headers)
    })
    .await
    .map_err(ApiError::internal)?;
    let (drawing, headers) = drawing;
    let cache = if version.v.as_deref() == Some(drawing.hash.as_str()) {
        FOREVER
    } else {
        REVALIDATE
    };
    Ok(answer(
        &headers,
        &format!("\"{}\"", drawing.hash),
        cache,
        "application/json",
        &drawing.json,
    ))
}

/// The event's current snapshot, once the waiting room (if on) has let
/// this buyer in (staff — the admin token or a console session — need no
/// admission).
pub struct AdmittedSnapshot(Arc<Rendered>);

impl FromRequestParts<AppState> for AdmittedSnapshot {
    type Rejection = HttpError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, HttpError> {
        let Caller(MaybeBuyer(buyer)) =
            Caller::<MaybeBuyer>::from_request_parts(parts, state).await?;
        let EventPath(event_id) = EventPath::from_request_parts(parts, state).await?;
        let client = parts.extensions.get::<ClientAddr>();
        if !extract::is_staff(state, client, &parts.headers) {
            if let Err(refused) =
                extract::admitted(state, buyer.as_deref(), event_id, &parts.headers).await
            {
                // A console session (the organizer's map by sale) is staff
                // too; asked only of those the room turned away, and not of
                // a request with a bearer token (`is_staff` judged, and
                // counted, that one already).
                let console = !parts
                    .headers
                    .contains_key(axum::http::header::AUTHORIZATION)
                    && Caller::<holdfast_core::admin::auth::Admin>::from_request_parts(
                        parts, state,
                    )
                    .await
                    .is_ok();
                if !console {
                    return Err(refused.into());
                }
            }
        }
        let map = state
            .seat_maps
            .get(&state.db, event_id)
            .await?
            .ok_or(ApiError::NotFound("event"))?;
        let snapshot = map.snapshot(state.clock.now(), state.rules.seat_map_staleness);
        Ok(AdmittedSnapshot(snapshot))
    }
}

/// One form of the snapshot, revalidated by its ETag.
fn revalidated(headers: &HeaderMap, snapshot: &Rendered, body: &Compressed) -> Response {
    answer(
        headers,
        &snapshot.etag,
        REVALIDATE,
        "application/json",
        body,
    )
}

fn accept_encoding(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
}

/// `304` when the client's `If-None-Match` names this ETag; otherwise the
/// body in the best encoding the client accepts.
fn answer(
    headers: &HeaderMap,
    etag: &str,
    cache_control: &'static str,
    content_type: &'static str,
    body: &Compressed,
) -> Response {
    let matches = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(',')
                .any(|t| t.trim() == "*" || t.trim().trim_start_matches("W/") == etag)
        });
    let mut response = if matches {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let encoding = Encoding::preferred(accept_encoding(headers));
        let mut r = body.encoded(encoding).into_response();
        let h = r.headers_mut();
        h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
        if let Some(e) = encoding.header() {
            h.insert(header::CONTENT_ENCODING, HeaderValue::from_static(e));
        }
        r
    };
    let h = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(etag) {
        h.insert(header::ETAG, v);
    }
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(cache_control),
    );
    h.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    response
}
