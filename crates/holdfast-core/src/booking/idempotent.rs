//! A step that takes an Idempotency-Key: done once, and every later
//! request with the key answered as the first was (`Idempotent::Replay`).
//! The key is looked up before any work (`earlier_answer`) and inserted in
//! the step's own transaction (`begin_with_key`), so the answer and the
//! effect commit together.

use crate::platform::clock::At;
use crate::platform::db::Tx;
use crate::platform::idempotency::{self, IdempotencyKey, Stored};
use crate::{ApiError, AppState};
use holdfast_model::BuyerId;

/// The result of a step that takes an Idempotency-Key: either freshly done,
/// or the stored answer of the first request with that key.
#[derive(Debug)]
pub enum Idempotent<T> {
    Fresh(T),
    Replay { status: u16, body: String },
}

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

/// How a step under an Idempotency-Key began: its transaction, with the
/// key inserted, or the answer of the request that had the key first.
pub(crate) enum Began<T> {
    Work(Tx),
    Answered(Idempotent<T>),
}

/// Begins the step's transaction with its key inserted; `Answered` when
/// another request with this key committed first (the transaction is then
/// rolled back).
pub(crate) async fn begin_with_key<T>(
    state: &AppState,
    buyer: &BuyerId,
    key: Option<&IdempotencyKey>,
    now: At,
) -> Result<Began<T>, ApiError> {
    let mut tx = state.db.begin().await?;
    if let Some(key) = key {
        if !idempotency::claim(&mut tx, buyer, key, now).await? {
            tx.rollback().await?;
            let answer = idempotency::answer_for_loser(&state.db, buyer, key, now).await?;
            return Ok(Began::Answered(answer.into()));
        }
    }
    Ok(Began::Work(tx))
}
