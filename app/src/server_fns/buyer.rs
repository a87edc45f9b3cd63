//! Server functions for the pages. Each calls the same use-case function as
//! the REST handler of the same step; none holds logic of its own.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use super::{admit_to_hold, count_client_attempt, counted_buyer, server_error};
#[cfg(feature = "ssr")]
use crate::core::booking::hold_gate::HoldPass;
#[cfg(feature = "ssr")]
use crate::i18n::page_locale;
use crate::model::geometry::MapLayout;
use crate::model::BookingId;
use crate::model::EventId;
use crate::model::{EventDetail, EventSummary, HoldResponse, SeatId};

/// The booking page's calls, where the pages have always found them.
pub use super::bookings::{booking, my_bookings, pay_booking, ticket_codes, PayOutcome};

#[server]
pub async fn list_events() -> Result<Vec<EventSummary>, ServerFnError> {
    let state = expect_context::<crate::core::AppState>();
    crate::core::catalog::list_events(&state)
        .await
        .map_err(server_error)
}

/// What the seat-map page needs besides the seats themselves: those the
/// browser fetches apart (`ui::buyer::event::drawing`), the drawing from
/// `drawing_url`, cached for good, and the statuses.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EventPageData {
    pub detail: EventDetail,
    /// The view box, the stage, section labels and deck tabs.
    pub layout: MapLayout,
    /// The seats' drawing, named by its hash.
    pub drawing_url: String,
    /// Set while the event's waiting room is on and this buyer is not
    /// admitted: the page shows the queue instead of the map.
    pub waiting: Option<crate::model::QueueStatus>,
    /// The most seats one booking may have.
    pub max_per_booking: usize,
    /// On a sailing: its route, ports and fares.
    #[serde(default)]
    pub sailing: Option<crate::model::sailing::SailingPage>,
}

#[server]
pub async fn event_page(event_id: EventId) -> Result<Option<EventPageData>, ServerFnError> {
    // Asked while the page itself is rendered: the data the page was
    // rendered for, already read (`holdfast::server::page_cache`).
    let ready = use_context::<axum::http::request::Parts>()
        .and_then(|p| p.extensions.get::<PageDataOfRequest>().cloned())
        .filter(|ready| ready.event_id == event_id);
    if let Some(ready) = ready {
        return Ok(Some((*ready.data).clone()));
    }
    let state = expect_context::<crate::core::AppState>();
    let headers: axum::http::HeaderMap = leptos_axum::extract().await.unwrap_or_default();
    let holdfast_web::Caller(crate::core::buyer::MaybeBuyer(buyer)) = leptos_axum::extract()
        .await
        .unwrap_or(holdfast_web::Caller(crate::core::buyer::MaybeBuyer(None)));
    event_page_data(&state, event_id, &headers, buyer.as_ref())
        .await
        .map_err(server_error)
}

/// The data an event page request renders, read before the page is
/// rendered and handed to the render in the request's extensions: the
/// render then shows exactly the data a kept page was kept for.
#[cfg(feature = "ssr")]
#[derive(Debug, Clone)]
pub struct PageDataOfRequest {
    pub event_id: EventId,
    pub data: std::sync::Arc<EventPageData>,
}

/// What an event's page shows this request (`None`: no such event): the
/// event, its map's frame and drawing, or the waiting room while it
/// stands between this buyer (session, queue and admission cookies in
/// `headers`) and the map.
#[cfg(feature = "ssr")]
pub async fn event_page_data(
    state: &crate::core::AppState,
    event_id: EventId,
    headers: &axum::http::HeaderMap,
    buyer: Option<&crate::model::BuyerId>,
) -> Result<Option<EventPageData>, crate::core::ApiError> {
    use crate::core::ApiError;
    let detail = match crate::core::catalog::event_for_page(state, event_id).await {
        Ok(detail) => (*detail).clone(),
        Err(ApiError::NotFound(_)) => return Ok(None),
        Err(e) => return Err(e),
    };
    if let Some(status) = waiting_status(state, event_id, headers, buyer).await? {
        return Ok(Some(EventPageData {
            detail,
            layout: MapLayout::default(),
            drawing_url: String::new(),
            waiting: Some(status),
            max_per_booking: state.rules.max_seats_per_booking,
            sailing: None,
        }));
    }
    let Some(map) = state.seat_maps.cached(event_id) else {
        return Ok(None);
    };
    let drawing = map.drawing();
    let sailing = match detail.summary.kind {
        crate::model::EventKind::Cruise => {
            match crate::core::sailing::catalog::detail(state, event_id).await {
                Ok(sailing) => Some(crate::model::sailing::SailingPage {
                    summary: sailing.summary,
                    itinerary: sailing.itinerary,
                }),
                Err(ApiError::NotFound(_)) => None,
                Err(e) => return Err(e),
            }
        }
        crate::model::EventKind::Concert => None,
    };
    Ok(Some(EventPageData {
        sailing,
        max_per_booking: state.rules.max_seats_per_booking,
        waiting: None,
        layout: drawing.layout.clone(),
        drawing_url: format!("/api/events/{event_id}/seats/drawing?v={}", drawing.hash),
        detail,
    }))
}

/// `Some` when the waiting room stands between this buyer and the map: their
/// place if they joined, else an empty status (the page joins in the
/// browser, where the answer can set cookies).
#[cfg(feature = "ssr")]
async fn waiting_status(
    state: &crate::core::AppState,
    event_id: EventId,
    headers: &axum::http::HeaderMap,
    buyer: Option<&crate::model::BuyerId>,
) -> Result<Option<crate::model::QueueStatus>, crate::core::ApiError> {
    use crate::core::waiting_room::{current_status, gate};
    let token = gate::admission_token_in(headers, event_id);
    match gate::require_admission(state, buyer.map(|b| &**b), event_id, token.as_deref()).await {
        Ok(()) => return Ok(None),
        Err(crate::core::ApiError::AdmissionRequired) => {}
        Err(e) => return Err(e),
    }
    let place = gate::cookie(headers, &gate::queue_cookie(event_id));
    let status = match buyer {
        Some(b) => current_status(state, b, event_id, place.as_deref()).await?,
        None => None,
    };
    Ok(Some(status.unwrap_or(crate::model::QueueStatus {
        position: 0,
        estimated_wait_ms: 0,
        admitted: false,
        admission_token: None,
        sold_out: false,
        room_open: true,
        admission_expired: false,
        queue_token: None,
    })))
}

/// Joins the event's waiting room (again: the place is kept) and sets the
/// queue and admission cookies on the answer.
#[server]
pub async fn join_queue(event_id: EventId) -> Result<crate::model::QueueStatus, ServerFnError> {
    use crate::core::waiting_room::{gate, join};
    let state = expect_context::<crate::core::AppState>();
    // Counted before the session: a refused stranger costs no write.
    count_client_attempt(&state).await.map_err(server_error)?;
    let holdfast_web::Caller(crate::core::buyer::Buyer(buyer)) = leptos_axum::extract().await?;
    let status = join::join(&state, &buyer, event_id)
        .await
        .map_err(server_error)?;
    let response = expect_context::<leptos_axum::ResponseOptions>();
    for cookie in gate::status_cookies(&state, event_id, &status) {
        if let Ok(v) = axum::http::HeaderValue::from_str(&cookie) {
            response.append_header(axum::http::header::SET_COOKIE, v);
        }
    }
    Ok(status)
}

/// What the booking page gets back from a promo code.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum PromoOutcome {
    Applied(crate::model::PromoApplied),
    Refused(String),
}

#[server]
pub async fn apply_promo(
    booking_id: BookingId,
    code: String,
) -> Result<PromoOutcome, ServerFnError> {
    use crate::core::ApiError;
    let state = expect_context::<crate::core::AppState>();
    let buyer = match counted_buyer(&state).await {
        Ok(buyer) => buyer,
        Err(e @ ApiError::Internal(_)) => return Err(server_error(e)),
        Err(e) => return Ok(PromoOutcome::Refused(e.for_buyer(page_locale()))),
    };
    Ok(
        match crate::core::promo::apply::apply_promo(&state, &buyer, &booking_id, &code).await {
            Ok(applied) => PromoOutcome::Applied(applied),
            Err(e @ ApiError::Internal(_)) => return Err(server_error(e)),
            Err(e) => PromoOutcome::Refused(e.for_buyer(page_locale())),
        },
    )
}

/// What the page gets back from a hold attempt.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum HoldOutcome {
    Held(HoldResponse),
    Refused {
        code: String,
        message: String,
        seat_ids: Vec<SeatId>,
        suggestions: Vec<Vec<SeatId>>,
    },
}

#[cfg(feature = "ssr")]
impl HoldOutcome {
    /// A hold use case's answer as the page reads it.
    pub(crate) fn from_hold(
        outcome: Result<crate::core::booking::Idempotent<HoldResponse>, crate::core::ApiError>,
    ) -> Result<HoldOutcome, ServerFnError> {
        use crate::core::booking::Idempotent;
        Ok(match outcome {
            Ok(Idempotent::Fresh(r)) => HoldOutcome::Held(r),
            Ok(Idempotent::Replay { body, .. }) => HoldOutcome::Held(
                serde_json::from_str(&body).map_err(|e| ServerFnError::new(e.to_string()))?,
            ),
            Err(e @ crate::core::ApiError::Internal(_)) => return Err(server_error(e)),
            Err(e) => HoldOutcome::refused(e),
        })
    }

    pub(crate) fn refused(e: crate::core::ApiError) -> HoldOutcome {
        let message = e.for_buyer(page_locale());
        let body = e.body().error;
        HoldOutcome::Refused {
            code: body.code.to_string(),
            message,
            seat_ids: body.seat_ids.unwrap_or_default(),
            suggestions: body.suggestions.unwrap_or_default(),
        }
    }
}

/// Holds seats, and cabins for the parties `guests` names as
/// `seat:count,seat:count` (the usual party of two where it names none;
/// a string, as a form field carries it; a form without it — a page from
/// before cabins — holds seats as it always did).
#[server]
pub async fn hold_seats(
    event_id: EventId,
    seat_ids: Vec<SeatId>,
    #[server(default)] guests: String,
    idempotency_key: String,
) -> Result<HoldOutcome, ServerFnError> {
    use crate::core::booking::hold::hold_parties;

    let state = expect_context::<crate::core::AppState>();
    let body = serde_json::to_vec(&(&seat_ids, &guests)).unwrap_or_default();
    let fingerprint: [&[u8]; 3] = [b"hold_seats", &event_id.to_be_bytes(), &body];
    let HoldPass { admitted, key } =
        match admit_to_hold(&state, event_id, &idempotency_key, &fingerprint).await {
            Ok(pass) => pass,
            Err(e) => return HoldOutcome::from_hold(Err(e)),
        };
    let Some(guests) = parties(&guests) else {
        return Ok(HoldOutcome::refused(crate::core::ApiError::unprocessable(
            "guests must be seat:count pairs",
            "guests",
        )));
    };
    HoldOutcome::from_hold(hold_parties(&state, &admitted, &seat_ids, &guests, Some(&key)).await)
}

/// `12:3,15:2` → {12: 3, 15: 2}; `None` when it is not that.
#[cfg(feature = "ssr")]
fn parties(text: &str) -> Option<std::collections::HashMap<SeatId, i64>> {
    text.split(',')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (seat, count) = p.split_once(':')?;
            Some((seat.parse().ok()?, count.parse().ok()?))
        })
        .collect()
}

/// Holds places in a standing area (the page's stepper): the same use case
/// as `POST /api/events/{eventId}/general-admission/{areaId}/hold`.
#[server]
pub async fn hold_standing(
    event_id: EventId,
    area_id: i64,
    quantity: i64,
    idempotency_key: String,
) -> Result<HoldOutcome, ServerFnError> {
    use crate::core::booking::ga::hold_general_admission;

    let state = expect_context::<crate::core::AppState>();
    let fingerprint: [&[u8]; 4] = [
        b"hold_standing",
        &event_id.to_be_bytes(),
        &area_id.to_be_bytes(),
        &quantity.to_be_bytes(),
    ];
    let HoldPass { admitted, key } =
        match admit_to_hold(&state, event_id, &idempotency_key, &fingerprint).await {
            Ok(pass) => pass,
            Err(e) => return HoldOutcome::from_hold(Err(e)),
        };
    HoldOutcome::from_hold(
        hold_general_admission(&state, &admitted, area_id, quantity, Some(&key)).await,
    )
}
