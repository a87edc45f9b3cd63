//! `hold_general_admission`: places in a standing area, sold by count. The
//! claim (`store::claim`) decrements the area's count only where enough
//! places are left (invariant 2);
//! expiry and cancellation give the places back exactly once, in the same
//! transaction as the transition that ends the booking.

use super::store::{self, Claim, Claimed, Claiming, NewBooking};
use super::{shared_answer, Idempotent};
use crate::core::platform::clock::rfc3339;
use crate::core::platform::idempotency::IdempotencyKey;
use crate::core::waiting_room::Admitted;
use crate::core::{ApiError, AppState};
use crate::model::BookingId;
use crate::model::BuyerId;
use crate::model::{BookingStatus, EventId, GeneralAdmissionLine, HoldResponse};

pub async fn hold_general_admission(
    state: &AppState,
    admitted: &Admitted,
    area_id: i64,
    quantity: i64,
    key: Option<&IdempotencyKey>,
) -> Result<Idempotent<HoldResponse>, ApiError> {
    super::attempt(state, admitted, async |buyer, event_id| {
        claim(state, buyer, event_id, area_id, quantity, key).await
    })
    .await
}

async fn claim(
    state: &AppState,
    buyer: &BuyerId,
    event_id: EventId,
    area_id: i64,
    quantity: i64,
    key: Option<&IdempotencyKey>,
) -> Result<Idempotent<HoldResponse>, ApiError> {
    let rules = &state.rules;
    if quantity < 1 || quantity > rules.max_seats_per_booking as i64 {
        return Err(ApiError::unprocessable(
            format!(
                "quantity must be between 1 and {}",
                rules.max_seats_per_booking
            ),
            "quantity",
        ));
    }
    let area = store::area_price(&state.db, area_id, event_id).await?;
    let (price, currency) = area.ok_or(ApiError::NotFound("general-admission area"))?;
    let now = state.clock.now_ms();
    let held_until = now + rules.hold_ttl_ms;
    let booking_id = BookingId::random();
    let response = HoldResponse {
        booking_id: booking_id.clone(),
        status: BookingStatus::Held,
        seat_ids: vec![],
        held_until: rfc3339(held_until),
        expires_in_ms: held_until - now,
        amount_cents: price * quantity,
        currency: currency.clone(),
        general_admission: Some(GeneralAdmissionLine { area_id, quantity }),
    };
    let body = serde_json::to_string(&response).map_err(ApiError::internal)?;

    let claim = Claim {
        booking: NewBooking {
            id: booking_id,
            event_id,
            buyer_id: buyer.clone(),
            held_until,
            amount_cents: price * quantity,
            currency,
            ga: Some((area_id, quantity)),
            now_ms: now,
        },
        what: Claiming::Places { area_id, quantity },
        limit: rules.max_places_per_buyer,
        key: key.map(|k| (k.clone(), body)),
    };
    let outcome = state.claims.claim(claim).await?;
    if let Some(answer) = shared_answer(state, buyer, key, &outcome).await? {
        return Ok(answer);
    }
    if !matches!(outcome, Claimed::Held { .. }) {
        return Err(ApiError::SoldOut(format!(
            "fewer than {quantity} places are left in this area"
        )));
    }
    Ok(Idempotent::Fresh(response))
}
