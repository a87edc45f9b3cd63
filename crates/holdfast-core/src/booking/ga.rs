//! `hold_general_admission`: places in a standing area, sold by count. The
//! claim (`store::claim`) decrements the area's count only where enough
//! places are left (invariant 2);
//! expiry and cancellation give the places back exactly once, in the same
//! transaction as the transition that ends the booking.

use super::claim_flow::{attempt, claim_new_hold, HoldClaim};
use super::idempotent::Idempotent;
use super::store::{self, Claimed, Claiming};
use crate::platform::idempotency::IdempotencyKey;
use crate::waiting_room::Admitted;
use crate::{ApiError, AppState};
use holdfast_model::money::Money;
use holdfast_model::BuyerId;
use holdfast_model::{EventId, HoldResponse};

pub async fn hold_general_admission(
    state: &AppState,
    admitted: &Admitted,
    area_id: i64,
    quantity: i64,
    key: Option<&IdempotencyKey>,
) -> Result<Idempotent<HoldResponse>, ApiError> {
    attempt(state, admitted, async |buyer, event_id| {
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
    let place = area.ok_or(ApiError::NotFound("general-admission area"))?;
    let what = Claiming::Places { area_id, quantity };
    let price = Money::new(place.minor() * quantity, place.currency());
    let now = state.clock.now();
    let hold = match claim_new_hold(state, buyer, event_id, what, price, now, key).await? {
        HoldClaim::Ran(hold) => hold,
        HoldClaim::Answered(answer) => return Ok(answer),
    };
    if !matches!(hold.outcome, Claimed::Held { .. }) {
        return Err(ApiError::SoldOut(format!(
            "fewer than {quantity} places are left in this area"
        )));
    }
    Ok(Idempotent::Fresh(hold.response))
}
