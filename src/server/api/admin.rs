//! The admin API: the live picture of an event (JSON and SSE), actions on
//! bookings, event setup, the invariant canary (sign-in is in
//! `admin_session`). Every handler takes an `Admin` (bearer token or
//! console session); anyone else gets 401/403 in the API's error shape.

use holdfast_core::platform::error::ErrorBody;
use holdfast_web::caller::{may, Allowed};
use holdfast_web::HttpError;
use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::Json;
use futures::stream::{Stream, StreamExt};
use holdfast_app::i18n::Locale;
use holdfast_core::admin::{actions, audit, canary, console, mailbox};
use holdfast_core::platform::client_addr::ClientAddr;
use holdfast_core::{ApiError, AppState};
use holdfast_model::console::{
    ActionOutcome, AuditRow, BookingAction, CanaryReport, Dashboard, LiveHold, MailMessage,
};
use serde::Deserialize;

use super::extract::{self, EventPath, RawBody};
use holdfast_model::EventId;

#[derive(Deserialize)]
pub struct EventQuery {
    #[serde(rename = "eventId")]
    event_id: Option<String>,
}

fn event_filter(q: &EventQuery) -> Result<Option<EventId>, ApiError> {
    q.event_id.as_deref().map(extract::event_id).transpose()
}

/// `GET /api/admin/holds?eventId=`.
#[utoipa::path(
    get,
    path = "/api/admin/holds",
    tag = "admin",
    summary = "Live holds and pending payments",
    params(("eventId" = Option<i64>, Query, description = "one event only")),
    responses((status = 200, body = Vec<LiveHold>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)),
    security(("bearer" = ["operations"]), ("console_session" = ["operations"])),
)]
pub async fn holds(
    State(state): State<AppState>,
    _admin: Allowed<may::Operations>,
    Query(q): Query<EventQuery>,
) -> Result<Json<Vec<LiveHold>>, HttpError> {
    Ok(Json(console::live_holds(&state, event_filter(&q)?).await?))
}

/// `GET /api/admin/invariants`: checked now.
#[utoipa::path(
    get,
    path = "/api/admin/invariants",
    tag = "admin",
    summary = "The invariants, checked now",
    responses((status = 200, body = CanaryReport), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)),
    security(("bearer" = ["operations"]), ("console_session" = ["operations"])),
)]
pub async fn invariants(
    State(state): State<AppState>,
    _admin: Allowed<may::Operations>,
) -> Result<Json<CanaryReport>, HttpError> {
    Ok(Json(canary::check(&state).await?))
}

/// `GET /api/admin/audit?eventId=`.
#[utoipa::path(
    get,
    path = "/api/admin/audit",
    tag = "admin",
    summary = "Admin actions, latest first",
    params(("eventId" = Option<i64>, Query, description = "one event only")),
    responses((status = 200, body = Vec<AuditRow>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)),
    security(("bearer" = ["reports"]), ("console_session" = ["reports"])),
)]
pub async fn audit_log(
    State(state): State<AppState>,
    _admin: Allowed<may::Reports>,
    Query(q): Query<EventQuery>,
) -> Result<Json<Vec<AuditRow>>, HttpError> {
    Ok(Json(
        audit::recent(&state.db, event_filter(&q)?, 200, Locale::En).await?,
    ))
}

/// `GET /api/admin/events`: every event, published or not.
#[derive(Deserialize)]
pub struct MailboxQuery {
    recipient: String,
}

#[utoipa::path(
    get,
    path = "/api/admin/mailbox",
    tag = "admin",
    summary = "What was mailed to an address, newest first (50)",
    params(("recipient" = String, Query, description = "the address")),
    responses((status = 200, body = Vec<MailMessage>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)),
    security(("bearer" = ["operations"]), ("console_session" = ["operations"])),
)]
pub async fn mailbox(
    State(state): State<AppState>,
    _admin: Allowed<may::Operations>,
    Query(q): Query<MailboxQuery>,
) -> Result<Json<Vec<MailMessage>>, HttpError> {
    Ok(Json(mailbox::mail_to(&state, &q.recipient).await?))
}

/// `GET /api/admin/events/{eventId}/dashboard`.
#[utoipa::path(
    get,
    path = "/api/admin/events/{eventId}/dashboard",
    tag = "admin",
    summary = "An event's live picture",
    params(("eventId" = i64, Path, description = "event id", example = 1, minimum = 1)),
    responses((status = 200, body = Dashboard), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = ["reports"]), ("console_session" = ["reports"])),
)]
pub async fn dashboard(
    State(state): State<AppState>,
    _admin: Allowed<may::Reports>,
    EventPath(event_id): EventPath,
) -> Result<Json<Dashboard>, HttpError> {
    Ok(Json(
        console::dashboard(&state, event_id, Locale::En).await?,
    ))
}

/// `GET /api/admin/events/{eventId}/stream`: `event: dashboard` whenever
/// the picture changed — at once after a seat change, else once a second.
#[utoipa::path(
    get,
    path = "/api/admin/events/{eventId}/stream",
    tag = "admin",
    summary = "The live picture as server-sent events (`event: dashboard`)",
    params(("eventId" = i64, Path, description = "event id", example = 1, minimum = 1)),
    responses((status = 200, content_type = "text/event-stream", description = "event stream"), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = ["reports"]), ("console_session" = ["reports"])),
)]
pub async fn dashboard_stream(
    State(state): State<AppState>,
    _admin: Allowed<may::Reports>,
    client: Option<axum::Extension<ClientAddr>>,
    EventPath(event_id): EventPath,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, HttpError> {
    let stopping = state.stopping.clone();
    // Every stream holds a slot, the console's too.
    let slot = state.streams.take(client.map(|c| c.limit_key()))?;
    // The console's stream: the audit's details in its page's language.
    let locale = Locale::of_headers(&headers);
    let first = console::dashboard(&state, event_id, locale).await?;
    let rx = state.seat_maps.subscribe();
    let stream = futures::stream::unfold(
        (state, rx, None::<Dashboard>, Some(first)),
        move |(state, mut rx, mut last, mut next)| async move {
            loop {
                if let Some(d) = next.take() {
                    if last.as_ref() != Some(&d) {
                        let event = Event::default()
                            .event("dashboard")
                            .json_data(&d)
                            .unwrap_or_default();
                        last = Some(d);
                        return Some((Ok(event), (state, rx, last, None)));
                    }
                }
                // A seat change of this event, or a second gone by.
                let _ = tokio::time::timeout(Duration::from_secs(1), async {
                    loop {
                        match rx.recv().await {
                            Ok(batch) if batch.event_id == event_id => return,
                            Ok(_) => continue,
                            Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => return,
                            Err(_) => std::future::pending::<()>().await,
                        }
                    }
                })
                .await;
                match console::dashboard(&state, event_id, locale).await {
                    Ok(mut d) => {
                        // Countdowns tick in the browser; only send when
                        // something else changed.
                        if let Some(prev) = &last {
                            align_countdowns(&mut d, prev);
                        }
                        next = Some(d);
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "dashboard stream stopped");
                        return None;
                    }
                }
            }
        },
    )
    .map(move |e| {
        let _open = &slot;
        e
    });
    Ok(Sse::new(super::ending::until_stopping(stopping, stream)).keep_alive(KeepAlive::default()))
}

/// Copies the previous countdowns (and canary time) into a fresh picture,
/// so a picture that only differs by the passing of time counts as equal.
fn align_countdowns(fresh: &mut Dashboard, prev: &Dashboard) {
    for hold in &mut fresh.holds {
        if let Some(p) = prev.holds.iter().find(|p| p.booking_id == hold.booking_id) {
            if p.stage == hold.stage && (p.expires_in_ms - hold.expires_in_ms).abs() < 2_000 {
                hold.expires_in_ms = p.expires_in_ms;
            }
        }
    }
    if fresh.canary.ok == prev.canary.ok && fresh.canary.violations == prev.canary.violations {
        fresh.canary.checked_at = prev.canary.checked_at.clone();
    }
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Extension {
    seconds: i64,
}

/// `POST /api/admin/bookings/{bookingId}/{action}`: release, extend
/// (`{ seconds }`), refund, resend.
#[utoipa::path(
    post,
    path = "/api/admin/bookings/{bookingId}/{action}",
    tag = "admin",
    summary = "release | extend (`{ seconds }`, 1–600) | refund | resend",
    params(("bookingId" = String, Path, pattern = "^[0-9a-fA-F-]{36}$", description = "booking id (UUID)"), ("action" = String, Path, description = "release, extend, refund or resend", pattern = "^(release|extend|refund|resend)$")),
    responses((status = 200, body = ActionOutcome), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = ["bookings"]), ("console_session" = ["bookings"])),
)]
pub async fn booking_action(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::Bookings>,
    Path((booking_id, action)): Path<(String, String)>,
    headers: HeaderMap,
    RawBody(body): RawBody,
) -> Result<Json<ActionOutcome>, HttpError> {
    let booking_id = extract::booking_id(&booking_id)?;
    let action = BookingAction::parse(&action).ok_or(ApiError::NotFound("action"))?;
    let what = actions::Act::named(action, || {
        extract::json::<Extension>(&headers, &body).map(|e| e.seconds)
    })?;
    Ok(Json(actions::act(&state, &admin, &booking_id, what).await?))
}
