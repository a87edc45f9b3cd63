//! The page's "Find best seats": the server picks and holds the best block
//! for a quantity (`core::booking::best`), answered like a hold.

use leptos::prelude::*;

use super::buyer::HoldOutcome;
#[cfg(feature = "ssr")]
use super::{admit_to_hold, server_error};

#[server]
pub async fn hold_best_seats(
    event_id: i64,
    quantity: usize,
    categories: Vec<String>,
    max_price_cents: Option<i64>,
    near_seat_id: Option<i64>,
    idempotency_key: String,
) -> Result<HoldOutcome, ServerFnError> {
    use crate::core::booking::best::{hold_best, BestRequest};
    use crate::core::platform::idempotency::IdempotencyKey;

    let state = expect_context::<crate::core::AppState>();
    let admitted = match admit_to_hold(&state, event_id).await? {
        Ok(admitted) => admitted,
        Err(e) => return Ok(HoldOutcome::refused(e)),
    };
    let key = IdempotencyKey::parse(
        &idempotency_key,
        &[
            b"hold_best_seats",
            &event_id.to_be_bytes(),
            &quantity.to_be_bytes(),
            categories.join(",").as_bytes(),
            &max_price_cents.unwrap_or(-1).to_be_bytes(),
            &near_seat_id.unwrap_or(-1).to_be_bytes(),
        ],
    )
    .map_err(server_error)?;
    let request = BestRequest {
        quantity,
        categories,
        max_price_cents: max_price_cents.filter(|p| *p >= 0),
        together: true,
        near: near_seat_id,
    };
    HoldOutcome::from_hold(hold_best(&state, &admitted, &request, Some(&key)).await)
}
