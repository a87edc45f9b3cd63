//! The claim every kind of hold shares (seats, standing places, best
//! available): within the buyer's rate, claimed through the group commit,
//! the answers every kind gives alike (the key's first answer, over the
//! limit, not on sale), and counted by how it ended. Each kind words its
//! own refusal (a seat taken, places sold out).

use super::idempotent::Idempotent;
use super::store;
use crate::platform::clock::At;
use crate::platform::idempotency::{self, IdempotencyKey};
use crate::waiting_room::Admitted;
use crate::{ApiError, AppState};
use holdfast_model::money::Money;
use holdfast_model::{BuyerId, EventId, HoldResponse};

/// A new hold's claim as it ran: what came of it, the answer a fresh hold
/// gives, and when the hold ends.
pub(crate) struct NewHold {
    pub outcome: store::Claimed,
    pub response: HoldResponse,
    pub held_until: At,
}

/// What a new hold's claim came to: what it claimed (for the caller to
/// word a seat taken or places sold out), or an answer every kind of claim
/// shares (`shared_answer`).
pub(crate) enum HoldClaim {
    Ran(NewHold),
    Answered(Idempotent<HoldResponse>),
}

/// Claims a new hold of `what` at `price`, from `now` for the hold's time.
pub(crate) async fn claim_new_hold(
    state: &AppState,
    buyer: &BuyerId,
    event_id: EventId,
    what: store::Claiming,
    price: Money,
    now: At,
    key: Option<&IdempotencyKey>,
) -> Result<HoldClaim, ApiError> {
    let rules = &state.rules;
    let held_until = now + rules.hold_ttl_ms;
    let limit = rules.max_places_per_buyer;
    let (claim, response) =
        store::Claim::new_hold(event_id, buyer, what, price, (now, held_until), limit, key)
            .map_err(ApiError::internal)?;
    let outcome = state.claims.claim(claim).await?;
    Ok(match shared_answer(state, buyer, key, &outcome).await? {
        Some(answer) => HoldClaim::Answered(answer),
        None => HoldClaim::Ran(NewHold {
            outcome,
            response,
            held_until,
        }),
    })
}

/// What a claim that held nothing answers, for the outcomes every kind of
/// claim shares: the first answer when another request had the key, or the
/// refusal. `Ok(None)` for the outcomes each kind words itself (a seat
/// taken, places sold out) and for `Held`.
async fn shared_answer<T>(
    state: &AppState,
    buyer: &BuyerId,
    key: Option<&IdempotencyKey>,
    outcome: &store::Claimed,
) -> Result<Option<Idempotent<T>>, ApiError> {
    match outcome {
        store::Claimed::KeyTaken => {
            let key = key.expect("only a claim with a key loses it");
            let now = state.clock.now();
            Ok(Some(
                idempotency::answer_for_loser(&state.db, buyer, key, now)
                    .await?
                    .into(),
            ))
        }
        store::Claimed::OverLimit { owned } => {
            Err(over_limit(state.rules.max_places_per_buyer, *owned))
        }
        store::Claimed::NotOnSale => Err(ApiError::NotOnSale),
        _ => Ok(None),
    }
}

/// 409 LIMIT_EXCEEDED for a buyer who already has `owned` places.
fn over_limit(limit: i64, owned: i64) -> ApiError {
    ApiError::LimitExceeded(format!(
        "a buyer may hold or own at most {limit} places for this event (you have {owned})"
    ))
}

/// A hold attempt by an admitted buyer: within the buyer's rate, and
/// counted by how it ended.
pub(crate) async fn attempt<T>(
    state: &AppState,
    admitted: &Admitted,
    claim: impl AsyncFnOnce(&BuyerId, EventId) -> Result<Idempotent<T>, ApiError>,
) -> Result<Idempotent<T>, ApiError> {
    let buyer = admitted.buyer();
    state.limits.buyer_attempt(buyer)?;
    let outcome = claim(buyer, admitted.event_id()).await;
    count_attempt(&outcome);
    outcome
}

/// Counts a hold attempt by how it ended (see `core::platform::metrics`).
fn count_attempt<T>(outcome: &Result<Idempotent<T>, ApiError>) {
    crate::platform::metrics::hold_attempt(match outcome {
        Ok(_) => "held",
        Err(ApiError::SeatTaken { .. }) => "conflict",
        Err(ApiError::SoldOut(_)) => "sold_out",
        Err(ApiError::LimitExceeded(_)) => "limit",
        Err(ApiError::Internal(_)) => "error",
        Err(_) => "rejected",
    });
}
