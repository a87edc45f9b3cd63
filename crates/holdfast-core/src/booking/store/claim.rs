//! Claiming: the one transaction that turns free seats, or places of a
//! standing area, into a HELD booking, written once per backend.
//!
//! What it decides, on both: the Idempotency-Key is this request's (or the
//! caller replays the first answer); the buyer's row is locked and their
//! live places counted after the lock (so one buyer's concurrent claims
//! count one after the other; on Postgres the places the buyer ever
//! claimed, kept on the same row, stand in for the count while they are
//! within the limit); holds on these seats whose time is up are
//! expired on the spot; the event is published and on sale; the booking
//! and its seats are inserted, seats in ascending order, and the partial
//! unique index refuses a seat live elsewhere (or the area's count is
//! decremented where enough places are left: invariant 2); the key gets its
//! answer.
//!
//! - **Postgres**: one statement of data-modifying CTEs (`claim_sql`):
//!   key, buyer's lock, count, checks, the booking and its seats. A claim
//!   alone is that statement and nothing else, committed by Postgres when
//!   it ends: one round trip (it falls back to the transaction below when
//!   its count may be short or a stale hold is in the way). In a batch's
//!   transaction (`group_commit`), with BEGIN and COMMIT around it, three
//!   trips where it once was ten. When another
//!   claim of the same buyer committed while this one waited for the
//!   buyer's lock, the count was taken too early: a second statement, its
//!   snapshot taken after the lock, decides instead (four trips). A
//!   standing area's row is locked for one statement and the commit. A
//!   stale hold on one of the seats or in the area (rare: the sweeper ends
//!   them) sends the claim through the step-by-step path.
//! - **SQLite**: seats in one trip to SQLite's thread (`claim_sqlite`),
//!   four statements in one call; places, and a claim that would be
//!   refused or meets a stale hold, step by step.

use super::claim_sql::{self, Statement};
use super::ending::{expire_stale, Released};
use super::BookingStatus::*;
use super::{BookingStatus, NewBooking};
use crate::platform::clock::{rfc3339, At};
use crate::platform::db;
use crate::platform::db::{is_unique_violation, Backend, Db, Tx};
use crate::platform::idempotency::{self, IdempotencyKey};
use crate::platform::jobs::fence::Fence;
use crate::seat_map::cabins::PricedPlace;
use holdfast_model::money::Money;
use holdfast_model::{BookingId, BuyerId, EventId, GeneralAdmissionLine, HoldResponse, SeatId};

/// What a hold claims.
#[derive(Debug, Clone)]
pub enum Claiming {
    /// Seats with their prices and parties, in ascending seat order.
    Seats(Vec<PricedPlace>),
    /// Places of a standing area (the booking's `ga` names the same).
    Places { area_id: i64, quantity: i64 },
}

impl Claiming {
    fn count(&self) -> i64 {
        match self {
            Claiming::Seats(seats) => seats.len() as i64,
            Claiming::Places { quantity, .. } => *quantity,
        }
    }
}

/// A hold to claim.
pub struct Claim {
    pub booking: NewBooking,
    pub what: Claiming,
    /// The most places the buyer may hold or own for the event.
    pub limit: i64,
    /// The request's key and the answer to store with it.
    pub key: Option<(IdempotencyKey, String)>,
}

impl Claim {
    /// A new HELD booking of `what`, from `now` to `held_until`, and the
    /// answer the hold gives (kept with the request's key, if any).
    pub fn new_hold(
        event_id: EventId,
        buyer: &BuyerId,
        what: Claiming,
        price: Money,
        (now, held_until): (At, At),
        limit: i64,
        key: Option<&IdempotencyKey>,
    ) -> Result<(Claim, HoldResponse), serde_json::Error> {
        let (seat_ids, ga) = match &what {
            Claiming::Seats(seats) => (seats.iter().map(|s| s.seat).collect(), None),
            Claiming::Places { area_id, quantity } => (Vec::new(), Some((*area_id, *quantity))),
        };
        let response = HoldResponse {
            booking_id: BookingId::random(),
            status: BookingStatus::Held,
            seat_ids,
            held_until: rfc3339(held_until),
            expires_in_ms: held_until - now,
            amount_cents: price.minor(),
            currency: price.currency().code().to_string(),
            general_admission: ga
                .map(|(area_id, quantity)| GeneralAdmissionLine { area_id, quantity }),
        };
        let body = serde_json::to_string(&response)?;
        let claim = Claim {
            booking: NewBooking {
                id: response.booking_id.clone(),
                event_id,
                buyer_id: buyer.clone(),
                held_until,
                price,
                ga,
                places: what.count(),
                now_ms: now,
            },
            what,
            limit,
            key: key.map(|k| (k.clone(), body)),
        };
        Ok((claim, response))
    }
}

/// How a claim ended. Only `Held` committed anything.
#[derive(Debug)]
pub enum Claimed {
    /// Committed; holds whose time was up were ended to make room.
    Held {
        freed: Vec<Released>,
    },
    /// Another request with this key came first: answer as it did.
    KeyTaken,
    /// The buyer already has `owned` places; the claim would pass the limit.
    OverLimit {
        owned: i64,
    },
    NotOnSale,
    /// The partial unique index refused a seat: someone else's hold won.
    SeatTaken,
    /// Fewer places are left in the standing area than asked for.
    SoldOut,
}

/// Claims in a transaction of its own (committed only when `Held`).
pub async fn claim(db: &Db, claim: &Claim) -> Result<Claimed, sqlx::Error> {
    // A job's run commits through its fence's check: a transaction.
    if db.backend == Backend::Postgres && Fence::current().is_none() {
        if let Some(outcome) = in_one_trip(db, claim).await? {
            return Ok(outcome);
        }
    }
    let mut tx = db.begin().await?;
    let outcome = decide(db.backend, &mut tx, claim).await?;
    if matches!(outcome, Claimed::Held { .. }) {
        db::commit(tx).await?;
    } else {
        tx.rollback().await?;
    }
    Ok(outcome)
}

/// The claim's statements inside `tx` (a seat the partial unique index
/// refuses is `SeatTaken`). Only `Held` leaves anything worth keeping: the
/// caller rolls back whatever else was written.
pub(super) async fn decide(
    backend: Backend,
    tx: &mut Tx,
    claim: &Claim,
) -> Result<Claimed, sqlx::Error> {
    let outcome = match backend {
        Backend::Postgres => on_postgres(tx, claim).await,
        Backend::Sqlite => on_sqlite(tx, claim).await,
    };
    match outcome {
        Err(e) if is_unique_violation(&e) => Ok(Claimed::SeatTaken),
        other => other,
    }
}

/// SQLite: seats in one trip when nothing refuses them; places, and a
/// claim the one trip leaves alone (refused, or a stale hold in the way),
/// step by step.
async fn on_sqlite(tx: &mut Tx, claim: &Claim) -> Result<Claimed, sqlx::Error> {
    if let Claiming::Seats(seats) = &claim.what {
        if let Some(claimed) = super::claim_sqlite::in_one_trip(tx, claim, seats).await? {
            return Ok(claimed);
        }
    }
    step_by_step(tx, claim, true).await
}

/// The claim as separate statements; `take_key` is false when the key row
/// is already this transaction's, the buyer locked and counted (Postgres).
/// On SQLite no buyer lock is taken: its single writer already runs one
/// buyer's claims one after the other.
async fn step_by_step(tx: &mut Tx, c: &Claim, take_key: bool) -> Result<Claimed, sqlx::Error> {
    let b = &c.booking;
    if let (true, Some((key, _))) = (take_key, &c.key) {
        if !idempotency::claim(tx, &b.buyer_id, key, b.now_ms).await? {
            return Ok(Claimed::KeyTaken);
        }
    }
    if take_key {
        let owned = super::live_places_of_buyer(tx, &b.buyer_id, b.event_id, b.now_ms).await?;
        if owned + c.what.count() > c.limit {
            return Ok(Claimed::OverLimit { owned });
        }
    }
    let freed = match &c.what {
        Claiming::Seats(seats) => {
            let ids: Vec<SeatId> = seats.iter().map(|s| s.seat).collect();
            let stale = super::stale_holds_on(tx, &ids, b.now_ms).await?;
            let freed = expire_stale(tx, &stale, b.now_ms).await?;
            if !super::insert_held(tx, b).await? {
                return Ok(Claimed::NotOnSale);
            }
            super::insert_seats(tx, &b.id, b.event_id, seats).await?;
            freed
        }
        Claiming::Places { area_id, quantity } => {
            // Places of expired holds come back before what is left counts.
            let stale = stale_places(tx, *area_id, b.now_ms).await?;
            let freed = expire_stale(tx, &stale, b.now_ms).await?;
            if !super::claim_ga(tx, *area_id, *quantity).await? {
                return Ok(Claimed::SoldOut);
            }
            if !super::insert_held(tx, b).await? {
                return Ok(Claimed::NotOnSale);
            }
            freed
        }
    };
    if let Some((key, body)) = &c.key {
        idempotency::complete(tx, &b.buyer_id, key, 200, body).await?;
    }
    Ok(Claimed::Held { freed })
}

/// Postgres: the whole claim in one statement; a second one counts the
/// buyer's places again when another claim of theirs committed while the
/// first waited for the buyer's lock (`claim_sql`).
async fn on_postgres(tx: &mut Tx, c: &Claim) -> Result<Claimed, sqlx::Error> {
    let whole = statement(&mut **tx, c, Statement::Whole).await?;
    if whole.key_taken {
        return Ok(Claimed::KeyTaken);
    }
    let decided = match whole.counted {
        true => whole,
        false => statement(&mut **tx, c, Statement::AfterLock).await?,
    };
    if decided.inserted {
        return Ok(Claimed::Held { freed: Vec::new() });
    }
    match refusal(&decided, c) {
        Some(refused) => Ok(refused),
        None => step_by_step(tx, c, false).await,
    }
}

/// Postgres: the claim as one statement that is a transaction of its own
/// (`Statement::Alone`). `None`: it wrote nothing worth keeping and needs
/// the claim's transaction — another claim of the buyer committed while
/// it waited for the buyer's lock, or a stale hold is in the way.
async fn in_one_trip(db: &Db, c: &Claim) -> Result<Option<Claimed>, sqlx::Error> {
    let mut connection = db.write_connection().await?;
    let found = match statement(&mut *connection, c, Statement::Alone).await {
        Ok(found) => found,
        Err(e) if is_unique_violation(&e) => {
            return Ok(Some(match violated_index(&e) {
                Some(claim_sql::KEY_INDEX) => Claimed::KeyTaken,
                _ => Claimed::SeatTaken,
            }));
        }
        Err(e) => return Err(e),
    };
    if found.key_taken {
        return Ok(Some(Claimed::KeyTaken));
    }
    if found.inserted {
        return Ok(Some(Claimed::Held { freed: Vec::new() }));
    }
    if !found.counted {
        return Ok(None);
    }
    Ok(refusal(&found, c))
}

/// Why a counted claim that inserted nothing was refused; `None`: a stale
/// hold was in its way (expiring it takes the step-by-step path).
fn refusal(found: &Found, c: &Claim) -> Option<Claimed> {
    if found.owned + c.what.count() > c.limit {
        return Some(Claimed::OverLimit { owned: found.owned });
    }
    if found.stale {
        return None;
    }
    if !found.ready {
        return Some(Claimed::NotOnSale);
    }
    if found.seat_taken {
        return Some(Claimed::SeatTaken);
    }
    Some(Claimed::SoldOut)
}

/// The index or constraint a database error names, if any.
fn violated_index(e: &sqlx::Error) -> Option<&str> {
    match e {
        sqlx::Error::Database(d) => d.constraint(),
        _ => None,
    }
}

/// The statement's answer, column by column (`claim_sql`).
type Verdicts = (i64, i64, i64, i64, i64, i64, i64);

/// What one of the claim's statements found.
struct Found {
    owned: i64,
    stale: bool,
    ready: bool,
    inserted: bool,
    /// The buyer's places were counted with every earlier claim of theirs.
    counted: bool,
    key_taken: bool,
    /// A seat was live elsewhere in the statement's snapshot.
    seat_taken: bool,
}

async fn statement<'c, E>(on: E, c: &Claim, statement: Statement) -> Result<Found, sqlx::Error>
where
    E: sqlx::Executor<'c, Database = sqlx::Any>,
{
    let b = &c.booking;
    let sql = match &c.what {
        Claiming::Seats(seats) => claim_sql::seats(statement, seats.len()),
        Claiming::Places { .. } => claim_sql::places(statement),
    };
    let mut q = sqlx::query_as(&sql)
        .bind(&b.buyer_id)
        .bind(b.event_id)
        .bind(&b.id)
        .bind(b.now_ms)
        .bind(b.held_until)
        .bind(b.price.minor())
        .bind(b.price.currency())
        .bind(c.what.count())
        .bind(c.limit)
        .bind(c.key.as_ref().map(|k| k.0.key.as_str()))
        .bind(c.key.as_ref().map(|k| k.1.as_str()))
        .bind(c.key.as_ref().map(|k| k.0.fingerprint.as_str()));
    match &c.what {
        Claiming::Seats(seats) => {
            for place in seats {
                q = q
                    .bind(place.seat)
                    .bind(place.price_cents)
                    .bind(place.guests);
            }
        }
        Claiming::Places { area_id, .. } => q = q.bind(*area_id),
    }
    let (owned, stale, ready, inserted, counted, key_taken, seat_taken): Verdicts =
        // To the end of the answer: `Alone` commits as it ends (see `db`).
        q.fetch_all(on)
            .await?
            .into_iter()
            .next()
            .ok_or(sqlx::Error::RowNotFound)?;
    Ok(Found {
        owned,
        stale: stale > 0,
        ready: ready > 0,
        inserted: inserted == 1,
        counted: counted == 1,
        key_taken: key_taken == 1,
        seat_taken: seat_taken > 0,
    })
}

/// HELD bookings of a standing area whose time is up (a batch of them).
async fn stale_places(tx: &mut Tx, area_id: i64, now: At) -> Result<Vec<BookingId>, sqlx::Error> {
    let sql = format!(
        "select id from booking where ga_area_id = $1 and status = {} and held_until <= $2 limit 100",
        Held.sql()
    );
    let rows: Vec<(BookingId,)> = sqlx::query_as(&sql)
        .bind(area_id)
        .bind(now)
        .fetch_all(&mut **tx)
        .await?;
    Ok(rows.into_iter().map(|r| r.0).collect())
}
