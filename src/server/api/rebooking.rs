//! A sailing cancelled by the line: the admin's cancel, the rebooking's
//! progress (JSON, and pushed as server-sent events), and the buyer's
//! answer for a moved booking.

use holdfast_web::caller::{may, Allowed};
use holdfast_web::Caller;
use holdfast_web::HttpError;
use std::convert::Infallible;
use std::time::Duration;

use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::{extract::State, Extension, Json};
use futures::stream::{Stream, StreamExt};
use holdfast_core::buyer::Owner;
use holdfast_core::platform::client_addr::ClientAddr;
use holdfast_core::platform::error::ErrorBody;
use holdfast_core::sailing::rebooking::{self, answer::Answer, cancel};
use holdfast_core::{ApiError, AppState};
use holdfast_model::sailing::{RebookingProgress, RebookingView};
use holdfast_model::EventId;
use serde::Deserialize;

use super::extract::{BookingPath, JsonBody};
use super::sailings::SailingPath;

/// `POST /api/admin/sailings/{sailingId}/cancel` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CancelBody {
    reason: String,
}

#[utoipa::path(
    post,
    path = "/api/admin/sailings/{sailingId}/cancel",
    tag = "admin",
    summary = "Cancel a sailing (weather, the sea): it stops selling, its holds end, its bookings move to the route's next sailing",
    params(("sailingId" = i64, Path, description = "sailing id (its event id)", example = 2, minimum = 1)),
    request_body = super::openapi::CancelSailingRequest,
    responses((status = 202, body = RebookingProgress), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 415, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = ["event_setup"]), ("console_session" = ["event_setup"])),
)]
pub async fn cancel_sailing(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::EventSetup>,
    SailingPath(id): SailingPath,
    JsonBody(req): JsonBody<CancelBody>,
) -> Result<(StatusCode, Json<RebookingProgress>), HttpError> {
    let progress = cancel::cancel(&state, id, &req.reason, &admin).await?;
    Ok((StatusCode::ACCEPTED, Json(progress)))
}

#[utoipa::path(
    get,
    path = "/api/admin/sailings/{sailingId}/rebooking",
    tag = "admin",
    summary = "How far a cancelled sailing's rebooking has gone",
    params(("sailingId" = i64, Path, description = "sailing id (its event id)", example = 2, minimum = 1)),
    responses((status = 200, body = RebookingProgress), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = ["reports"]), ("console_session" = ["reports"])),
)]
pub async fn progress(
    State(state): State<AppState>,
    _admin: Allowed<may::Reports>,
    SailingPath(id): SailingPath,
) -> Result<Json<RebookingProgress>, HttpError> {
    Ok(Json(rebooking::progress(&state, id).await?))
}

#[utoipa::path(
    get,
    path = "/api/admin/sailings/{sailingId}/rebooking/stream",
    tag = "admin",
    summary = "The rebooking's progress as server-sent events (`event: progress`, whenever it changed)",
    params(("sailingId" = i64, Path, description = "sailing id (its event id)", example = 2, minimum = 1)),
    responses((status = 200, content_type = "text/event-stream", description = "event stream"), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = ["reports"]), ("console_session" = ["reports"])),
)]
pub async fn progress_stream(
    State(state): State<AppState>,
    _admin: Allowed<may::Reports>,
    client: Option<Extension<ClientAddr>>,
    SailingPath(id): SailingPath,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, HttpError> {
    let stopping = state.stopping.clone();
    // Held while the stream lives, like every stream's.
    let slot = state.streams.take(client.map(|c| c.limit_key()))?;
    let first = rebooking::progress(&state, id).await?;
    let events = progress_events(state, id, first).map(move |e| {
        let _open = &slot;
        e
    });
    Ok(Sse::new(super::ending::until_stopping(stopping, events)).keep_alive(KeepAlive::default()))
}

/// The progress each time it changes, read every quarter second.
fn progress_events(
    state: AppState,
    id: EventId,
    first: RebookingProgress,
) -> impl Stream<Item = Result<Event, Infallible>> {
    futures::stream::unfold(
        (state, None::<RebookingProgress>, Some(first)),
        move |(state, mut last, mut next)| async move {
            loop {
                if let Some(p) = next.take() {
                    if last.as_ref() != Some(&p) {
                        let event = Event::default()
                            .event("progress")
                            .json_data(&p)
                            .unwrap_or_default();
                        return Some((Ok(event), (state, Some(p), None)));
                    }
                    last = Some(p);
                }
                tokio::time::sleep(Duration::from_millis(250)).await;
                match rebooking::progress(&state, id).await {
                    Ok(p) => next = Some(p),
                    Err(e) => tracing::warn!(error = %e, "reading a rebooking's progress failed"),
                }
            }
        },
    )
}

/// `POST /api/bookings/{bookingId}/rebooking` body.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AnswerBody {
    choice: String,
    #[serde(default)]
    sailing_id: Option<serde_json::Value>,
}

#[utoipa::path(
    post,
    path = "/api/bookings/{bookingId}/rebooking",
    tag = "bookings",
    summary = "Answer the move of your booking off a cancelled sailing: keep it, choose another sailing, or a full refund",
    params(("bookingId" = String, Path, pattern = "^[0-9a-fA-F-]{36}$", description = "booking id (UUID)")),
    request_body = super::openapi::RebookingAnswerRequest,
    responses((status = 200, body = RebookingView), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 415, body = ErrorBody), (status = 422, body = ErrorBody)),
)]
pub async fn answer(
    State(state): State<AppState>,
    Caller(owner): Caller<Owner>,
    BookingPath(id): BookingPath,
    JsonBody(req): JsonBody<AnswerBody>,
) -> Result<Json<RebookingView>, HttpError> {
    let answer = read_answer(&req.choice, req.sailing_id.as_ref())?;
    Ok(Json(
        rebooking::answer::answer(&state, &owner, &id, answer).await?,
    ))
}

/// The answer a body (or the booking page's form) names.
pub fn read_answer(
    choice: &str,
    sailing_id: Option<&serde_json::Value>,
) -> Result<Answer, ApiError> {
    match choice {
        "KEEP" => Ok(Answer::Keep),
        "REFUND" => Ok(Answer::Refund),
        "SAILING" => sailing_id
            .and_then(|v| {
                v.as_i64()
                    .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
            })
            .filter(|id| *id > 0)
            .map(|id| Answer::Sailing(EventId(id)))
            .ok_or_else(|| {
                ApiError::unprocessable(
                    "sailingId must name the sailing to move to (a positive whole number)",
                    "sailingId",
                )
            }),
        _ => Err(ApiError::unprocessable(
            "choice must be KEEP, SAILING or REFUND",
            "choice",
        )),
    }
}
