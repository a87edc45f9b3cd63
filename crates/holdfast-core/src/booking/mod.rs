//! Bookings: the state machine (`status`), the only SQL that moves them
//! (`store`), and one use-case function per step, each one transaction,
//! called alike by REST handlers, server functions and workers.

pub mod best;
pub mod blocks;
pub mod ga;
pub mod history;
pub mod hold;
pub mod hold_gate;
pub mod query;
pub mod release;
pub mod status;
pub mod store;
pub mod suggest;

pub use status::BookingStatus;

/// The result of a step that takes an Idempotency-Key: either freshly done,
/// or the stored answer of the first request with that key.
#[derive(Debug)]
pub enum Idempotent<T> {
    Fresh(T),
    Replay { status: u16, body: String },
}

use crate::platform::clock::At;
use crate::platform::db::Tx;
use crate::platform::idempotency::{self, IdempotencyKey, Stored};
use crate::waiting_room::Admitted;
use crate::{ApiError, AppState};
use holdfast_model::money::Money;
use holdfast_model::{BuyerId, EventId, HoldResponse};

impl<T> From<Stored> for Idempotent<T> {
    fn from(stored: Stored) -> Self {
        Idempotent::Replay {
            status: stored.status,
            body: stored.body,
        }
    }
}

/// The answer given earlier to this buyer's key, if any (checked before any
/// work, outside a transaction; not for a buyer this request made up).
pub(crate) async fn earlier_answer<T>(
    state: &AppState,
    buyer: &BuyerId,
    key: Option<&IdempotencyKey>,
) -> Result<Option<Idempotent<T>>, ApiError> {
    match key {
        Some(key) if key.new_buyer => Ok(None),
        Some(key) => Ok(
            idempotency::lookup(&state.db, buyer, key, state.clock.now())
                .await?
                .map(Into::into),
        ),
        None => Ok(None),
    }
}

/// Begins the step's transaction with its key inserted; `Err(answer)` when
/// another request with this key committed first (the transaction is then
/// dropped, which rolls it back).
pub(crate) async fn begin_with_key<T>(
    state: &AppState,
    buyer: &BuyerId,
    key: Option<&IdempotencyKey>,
    now: At,
) -> Result<Result<Tx, Idempotent<T>>, ApiError> {
    let mut tx = state.db.begin().await?;
    if let Some(key) = key {
        if !idempotency::claim(&mut tx, buyer, key, now).await? {
            tx.rollback().await?;
            return Ok(Err(idempotency::answer_for_loser(
                &state.db, buyer, key, now,
            )
            .await?
            .into()));
        }
    }
    Ok(Ok(tx))
}

/// A new hold's claim as it ran: what came of it, the answer a fresh hold
/// gives, and when the hold ends.
pub(crate) struct NewHold {
    pub outcome: store::Claimed,
    pub response: HoldResponse,
    pub held_until: At,
}

/// Claims a new hold of `what` at `price`, from `now` for the hold's time:
/// `Err(answer)` when the claim ended in an answer every kind of claim
/// shares (`shared_answer`); else what came of it, for the caller to word
/// a seat taken or places sold out.
pub(crate) async fn claim_new_hold(
    state: &AppState,
    buyer: &BuyerId,
    event_id: EventId,
    what: store::Claiming,
    price: Money,
    now: At,
    key: Option<&IdempotencyKey>,
) -> Result<Result<NewHold, Idempotent<HoldResponse>>, ApiError> {
    let rules = &state.rules;
    let held_until = now + rules.hold_ttl_ms;
    let limit = rules.max_places_per_buyer;
    let (claim, response) =
        store::Claim::new_hold(event_id, buyer, what, price, (now, held_until), limit, key)
            .map_err(ApiError::internal)?;
    let outcome = state.claims.claim(claim).await?;
    Ok(match shared_answer(state, buyer, key, &outcome).await? {
        Some(answer) => Err(answer),
        None => Ok(NewHold {
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
