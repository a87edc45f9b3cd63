//! The page's "Find best seats": the server picks and holds the best block
//! for a quantity (`core::booking::best`), answered like a hold.

use leptos::prelude::*;

#[cfg(feature = "ssr")]
use super::admit_to_hold;
use super::buyer::HoldOutcome;
#[cfg(feature = "ssr")]
use crate::core::booking::hold_gate::HoldPass;
use crate::model::{EventId, SeatId};

#[server]
pub async fn hold_best_seats(
    event_id: EventId,
    quantity: usize,
    // A form's fields (the page posts them url-encoded): category codes
    // joined by commas ("" for any); a negative cap for none (a cap of 0
    // is a real one: free seats only); 0 or less for no seat to be near.
    categories: String,
    max_price_cents: i64,
    near_seat_id: SeatId,
    idempotency_key: String,
) -> Result<HoldOutcome, ServerFnError> {
    use crate::core::booking::best::{hold_best, BestRequest};

    let state = expect_context::<crate::core::AppState>();
    let fingerprint: [&[u8]; 6] = [
        b"hold_best_seats",
        &event_id.to_be_bytes(),
        &quantity.to_be_bytes(),
        categories.as_bytes(),
        &max_price_cents.to_be_bytes(),
        &near_seat_id.to_be_bytes(),
    ];
    let HoldPass { admitted, key } =
        match admit_to_hold(&state, event_id, &idempotency_key, &fingerprint).await {
            Ok(pass) => pass,
            Err(e) => return HoldOutcome::from_hold(Err(e)),
        };
    let request = BestRequest {
        quantity,
        categories: categories
            .split(',')
            .filter(|c| !c.is_empty())
            .map(str::to_string)
            .collect(),
        max_price_cents: (max_price_cents >= 0).then_some(max_price_cents),
        together: true,
        near: (near_seat_id.0 > 0).then_some(near_seat_id),
    };
    HoldOutcome::from_hold(hold_best(&state, &admitted, &request, Some(&key)).await)
}
