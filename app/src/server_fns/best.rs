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
        ],
    )
    .map_err(server_error)?;
    let request = BestRequest {
        quantity,
        together: true,
        ..BestRequest::default()
    };
    HoldOutcome::from_hold(hold_best(&state, &admitted, &request, Some(&key)).await)
}
