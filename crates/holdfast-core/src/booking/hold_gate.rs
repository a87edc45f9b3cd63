//! The gate every hold passes, asked by the REST API and by the pages'
//! server functions alike, in one order: the buyer's admission from the
//! waiting room (when the event's room is on), then the request's
//! Idempotency-Key, made the buyer's. A key that does not parse is not
//! looked at before the room has let the buyer in, so a queued buyer hears
//! "join the queue" whatever else is wrong with the request.

use holdfast_model::EventId;
use http::HeaderMap;

use crate::buyer::SessionBuyer;
use crate::platform::idempotency::IdempotencyKey;
use crate::waiting_room::{admit, gate, Admitted};
use crate::{ApiError, AppState};

/// What a hold needs once through the gate: the admitted buyer, and the
/// key its answer is kept under.
pub struct HoldPass {
    pub admitted: Admitted,
    pub key: IdempotencyKey,
}

/// Lets a hold through, or says why not. `key` reads the request's
/// Idempotency-Key (a header, or a page's argument); the waiting room's
/// token is read from the request's `headers` (header or cookie).
pub async fn pass(
    state: &AppState,
    buyer: &SessionBuyer,
    event_id: EventId,
    headers: &HeaderMap,
    key: impl FnOnce() -> Result<IdempotencyKey, ApiError>,
) -> Result<HoldPass, ApiError> {
    let token = gate::admission_token_in(headers, event_id);
    let admitted = admit(state, &buyer.id, event_id, token.as_deref()).await?;
    let key = key()?.of_buyer(buyer.new);
    Ok(HoldPass { admitted, key })
}
