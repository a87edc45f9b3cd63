//! The page's "Find best seats": the server picks and holds the best block
//! for a quantity (`core::booking::best`), answered like a hold.

use leptos::prelude::*;

use super::buyer::HoldOutcome;
#[cfg(feature = "ssr")]
use super::{count_client_attempt, server_error};

#[server]
pub async fn hold_best_seats(
    event_id: i64,
    quantity: usize,
    idempotency_key: String,
) -> Result<HoldOutcome, ServerFnError> {
    use crate::core::booking::best::{hold_best, BestRequest};
    use crate::core::booking::Idempotent;
    use crate::core::buyer::Buyer;
    use crate::core::platform::idempotency::IdempotencyKey;
    use crate::core::ApiError;

    let state = expect_context::<crate::core::AppState>();
    if let Err(e) = count_client_attempt(&state).await {
        return Ok(HoldOutcome::refused(e));
    }
    let Buyer(buyer) = leptos_axum::extract::<Buyer>().await?;
    let headers: axum::http::HeaderMap = leptos_axum::extract().await?;
    let token = crate::core::waiting_room::gate::admission_token_in(&headers, event_id);
    let admitted =
        crate::core::waiting_room::admit(&state, &buyer, event_id, token.as_deref()).await;
    let key = IdempotencyKey::parse(
        &idempotency_key,
        &[
            b"hold_best_seats",
            &event_id.to_be_bytes(),
            &quantity.to_be_bytes(),
        ],
    )
    .map_err(server_error)?;
    let admitted = match admitted {
        Ok(admitted) => admitted,
        Err(e) => return Ok(HoldOutcome::refused(e)),
    };
    let request = BestRequest {
        quantity,
        together: true,
        ..BestRequest::default()
    };
    Ok(
        match hold_best(&state, &admitted, &request, Some(&key)).await {
            Ok(Idempotent::Fresh(r)) => HoldOutcome::Held(r),
            Ok(Idempotent::Replay { body, .. }) => HoldOutcome::Held(
                serde_json::from_str(&body).map_err(|e| ServerFnError::new(e.to_string()))?,
            ),
            Err(e @ ApiError::Internal(_)) => return Err(server_error(e)),
            Err(e) => HoldOutcome::refused(e),
        },
    )
}
