//! Group commit of claims: the claims that arrive while one transaction
//! commits wait for the next, and go in together — one transaction, one
//! commit (one WAL flush on Postgres), however many holds it carries.
//!
//! - **Adaptive, no timer**: a writer task takes every claim queued when
//!   it is free (up to `max_batch`). Alone, a claim goes at once, in a
//!   transaction of its own; in a crowd, the claims that queued behind one
//!   commit share the next.
//! - **Each claim all or nothing**: every claim runs behind a savepoint;
//!   one that is refused (seat taken by an earlier claim of the batch or
//!   by anyone else, over the limit, not on sale, key taken) is rolled back
//!   to its savepoint and answers as it would alone. The others go on.
//! - **Answered after the commit**: no claim of a batch hears `Held` before
//!   the commit that contains it returned, so nothing acknowledged can be
//!   lost and nothing unacknowledged is half applied (a crash before the
//!   commit loses the whole batch, unanswered).
//! - **Independent claims as a set** (Postgres): the claims of a batch
//!   that share no seat and no buyer with another are decided in one
//!   statement for all of them (`claim_set`), not a trip or two each; the
//!   rest go one by one after. When anything contends, the set is rolled
//!   back to its savepoint and every claim goes one by one.
//! - **A batch never waits long on another** (Postgres): two batches that
//!   insert the same seats in different orders would wait on each other
//!   until Postgres broke the deadlock a second later, and that again when
//!   their claims were retried. So a batch waits at most `BATCH_LOCK_WAIT`
//!   for a row another transaction holds; a claim that would wait longer
//!   is rolled back to its savepoint and run alone after the commit, when
//!   the other side has decided (a claim alone inserts its seats in one
//!   ordered statement, and batches give way, so no cycle is left).
//! - **A batch whose connection was lost** (its primary gone in a
//!   failover, its backend terminated): the commit may have happened, or
//!   not, or — cut off while waiting for the synchronous standby — be
//!   visible on that primary for a moment and then lost when a standby
//!   without it is promoted. Run again at once, a claim could find its own
//!   key there and replay an answer nothing durable backs. So each claim
//!   hears the loss (503, nothing known: send it again), and the client's
//!   retry with its Idempotency-Key hears the truth from whichever primary
//!   it then reaches.
//! - **A batch that fails as a whole otherwise** is rolled back, and its
//!   claims are run again one by one, each in its own transaction: the same
//!   answers, slower.
//!
//! Writers per instance (`Db::claim_writers`): one on SQLite, its single
//! writer; four on Postgres, on connections of their own (one writer
//! running every statement in turn was slower than the pool). Writers and
//! instances race safely: the partial unique index decides.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use sqlx::Executor;
use tokio::sync::{mpsc, oneshot};

use super::claim::{claim as claim_alone, decide, Claim, Claimed};
use super::claim_set;
use crate::platform::db;
use crate::platform::db::{Backend, Db};
use crate::platform::retry;

/// Claims waiting for the writer at most (then `claim` waits to queue).
const QUEUE: usize = 8_192;

/// The longest a batch waits for a row another transaction holds
/// (Postgres `lock_timeout`) before the claim waiting is put aside.
const BATCH_LOCK_WAIT: &str = "50ms";

/// Where claims queue for the writers.
#[derive(Clone)]
pub struct ClaimQueue {
    /// `None`: group commit is off, every claim its own transaction.
    orders: Option<mpsc::Sender<Order>>,
    db: Db,
    tally: Arc<Tally>,
}

/// What the writers did, for tests and the bench.
#[derive(Default)]
struct Tally {
    /// The most claims one batch has carried so far.
    largest: AtomicUsize,
    /// Claims decided as a set (`claim_set`), all told.
    in_sets: AtomicUsize,
}

struct Order {
    claim: Claim,
    answer: oneshot::Sender<Result<Claimed, sqlx::Error>>,
}

type Queued = Arc<tokio::sync::Mutex<mpsc::Receiver<Order>>>;

impl ClaimQueue {
    /// Starts the writers of this instance. `max_batch` is the most claims
    /// one commit carries (1: group commit off, each claim in a transaction
    /// of its own from the pool, as many at once as the pool allows).
    pub fn start(db: Db, max_batch: usize) -> ClaimQueue {
        let tally = Arc::new(Tally::default());
        if max_batch <= 1 {
            return ClaimQueue {
                orders: None,
                db,
                tally,
            };
        }
        let (orders, queued) = mpsc::channel(QUEUE);
        let queued: Queued = Arc::new(tokio::sync::Mutex::new(queued));
        let claims_db = db.for_claims();
        for _ in 0..db.claim_writers() {
            tokio::spawn(write(
                claims_db.clone(),
                queued.clone(),
                max_batch,
                tally.clone(),
            ));
        }
        ClaimQueue {
            orders: Some(orders),
            db,
            tally,
        }
    }

    /// Claims, answered once the commit that carries the claim is done.
    pub async fn claim(&self, claim: Claim) -> Result<Claimed, sqlx::Error> {
        let Some(orders) = &self.orders else {
            return claim_alone(&self.db, &claim).await;
        };
        let (answer, answered) = oneshot::channel();
        orders
            .send(Order { claim, answer })
            .await
            .map_err(|_| sqlx::Error::PoolClosed)?;
        answered.await.unwrap_or(Err(sqlx::Error::PoolClosed))
    }

    /// The most claims one batch has carried so far (1: none shared).
    pub fn largest_batch(&self) -> usize {
        self.tally.largest.load(Ordering::Relaxed)
    }

    /// How many claims were decided as a set so far (Postgres batches).
    pub fn decided_as_sets(&self) -> usize {
        self.tally.in_sets.load(Ordering::Relaxed)
    }
}

/// A writer: takes what is queued, commits it, answers, again.
async fn write(db: Db, queued: Queued, max_batch: usize, tally: Arc<Tally>) {
    let mut batch: Vec<Order> = Vec::with_capacity(max_batch);
    loop {
        let taken = queued.lock().await.recv_many(&mut batch, max_batch).await;
        if taken == 0 {
            return;
        }
        metrics::histogram!("holdfast_claims_per_commit").record(batch.len() as f64);
        tally.largest.fetch_max(batch.len(), Ordering::Relaxed);
        if batch.len() > 1 {
            let claims: Vec<&Claim> = batch.iter().map(|o| &o.claim).collect();
            match together(&db, &claims, &tally).await {
                Ok(outcomes) => {
                    let mut aside = Vec::new();
                    for (order, outcome) in batch.drain(..).zip(outcomes) {
                        match outcome {
                            Some(outcome) => {
                                let _ = order.answer.send(Ok(outcome));
                            }
                            None => aside.push(order),
                        }
                    }
                    // Those that would have waited on another transaction:
                    // alone, now that it has decided.
                    for order in aside {
                        let outcome = alone(&db, &order.claim).await;
                        let _ = order.answer.send(outcome);
                    }
                    continue;
                }
                Err(e) if retry::is_connection_lost(&e) => {
                    tracing::warn!(
                        claims = batch.len(),
                        "a batch of claims lost its connection; each answered 503"
                    );
                    for order in batch.drain(..) {
                        let _ = order.answer.send(Err(connection_lost()));
                    }
                    continue;
                }
                Err(e) => tracing::warn!(
                    error = %e,
                    claims = batch.len(),
                    "a batch of claims failed as a whole; each is tried alone"
                ),
            }
        }
        // Alone, or the batch failed as a whole: one transaction each.
        for order in batch.drain(..) {
            let outcome = alone(&db, &order.claim).await;
            let _ = order.answer.send(outcome);
        }
    }
}

/// One claim in its own transaction, tried again when Postgres chose it as
/// a deadlock's victim (it waited on another writer's batch that waited on
/// it): the other side has gone on, the retry finds its seats decided.
async fn alone(db: &Db, claim: &Claim) -> Result<Claimed, sqlx::Error> {
    const TRIES: usize = 3;
    let mut tried = 1;
    loop {
        match claim_alone(db, claim).await {
            Err(e) if is_deadlock(&e) && tried < TRIES => tried += 1,
            outcome => return outcome,
        }
    }
}

/// What each claim of a batch whose connection was lost hears (one error
/// for the batch, which `sqlx::Error` cannot share).
fn connection_lost() -> sqlx::Error {
    sqlx::Error::Io(std::io::Error::new(
        std::io::ErrorKind::ConnectionAborted,
        "the batch's database connection was lost",
    ))
}

/// Postgres's `deadlock_detected`.
fn is_deadlock(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.code().as_deref() == Some("40P01"))
}

/// Every claim behind its own savepoint, one commit for all. `None`: the
/// claim would have waited on another transaction's rows longer than
/// `BATCH_LOCK_WAIT`; it was rolled back, to be run alone. On Postgres the
/// batch's independent claims are first decided as a set (`claim_set`).
async fn together(
    db: &Db,
    claims: &[&Claim],
    tally: &Tally,
) -> Result<Vec<Option<Claimed>>, sqlx::Error> {
    // On Postgres, in the BEGIN's trip: the lock timeout; plans made once
    // per connection (the set's statement would otherwise be planned anew
    // each time, which cost more than running it); the set's savepoint.
    let mut tx = db
        .begin_then(&format!(
            "set local lock_timeout = '{BATCH_LOCK_WAIT}';
             set local plan_cache_mode = force_generic_plan;
             savepoint claims"
        ))
        .await?;
    let mut decided: Vec<Option<Option<Claimed>>> = claims.iter().map(|_| None).collect();
    if db.backend == Backend::Postgres {
        let n = as_a_set(&mut tx, claims, &mut decided).await?;
        tally.in_sets.fetch_add(n, Ordering::Relaxed);
    }
    let mut first = true;
    for (claim, decision) in claims.iter().zip(decided.iter_mut()) {
        if decision.is_some() {
            continue;
        }
        // One trip: the claim before released (the commit releases the
        // last), this one's savepoint taken. A plain string, so both
        // backends run its two statements in one go.
        let step = match first {
            true => "savepoint claim",
            false => "release savepoint claim; savepoint claim",
        };
        first = false;
        tx.execute(step).await?;
        let outcome = match decide(db.backend, &mut tx, claim).await {
            Ok(outcome) => Some(outcome),
            Err(e) if is_lock_wait(&e) => None,
            Err(e) => return Err(e),
        };
        if !matches!(outcome, Some(Claimed::Held { .. })) {
            sqlx::query("rollback to savepoint claim")
                .execute(&mut *tx)
                .await?;
        }
        *decision = Some(outcome);
    }
    db::commit(tx).await?;
    Ok(decided.into_iter().map(Option::flatten).collect())
}

/// Decides the independent claims of a Postgres batch in one statement,
/// behind the savepoint `claims` (taken by the caller). When anything contends (a seat inserted by another
/// transaction since, a row held past the lock timeout) it is rolled back
/// and every claim goes one by one. A claim with a stale hold in its way
/// is left to go alone. How many were decided.
async fn as_a_set(
    tx: &mut db::Tx,
    claims: &[&Claim],
    decided: &mut [Option<Option<Claimed>>],
) -> Result<usize, sqlx::Error> {
    let set = claim_set::independent(claims);
    if set.is_empty() {
        return Ok(0);
    }
    match claim_set::decide(tx, claims, &set).await {
        Ok(outcomes) => {
            metrics::counter!("holdfast_claim_sets_total", "outcome" => "decided").increment(1);
            let mut n = 0;
            for (i, outcome) in outcomes {
                if let Some(outcome) = outcome {
                    decided[i] = Some(Some(outcome));
                    n += 1;
                }
            }
            Ok(n)
        }
        Err(sqlx::Error::Database(e)) => {
            metrics::counter!("holdfast_claim_sets_total", "outcome" => "contended").increment(1);
            // A seat taken since the snapshot, a lock waited for too long,
            // a deadlock: contention. Anything else is worth a look.
            if !matches!(e.code().as_deref(), Some("23505" | "55P03" | "40P01")) {
                tracing::warn!(error = %e, "a set of claims failed; each goes alone");
            }
            sqlx::query("rollback to savepoint claims")
                .execute(&mut **tx)
                .await?;
            Ok(0)
        }
        Err(e) => Err(e),
    }
}

/// Postgres's `lock_not_available`: `lock_timeout` ran out.
fn is_lock_wait(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.code().as_deref() == Some("55P03"))
}
