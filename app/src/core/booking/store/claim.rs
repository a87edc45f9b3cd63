//! Claiming seats: the one transaction that turns free seats into a HELD
//! booking, written once per backend.
//!
//! What it decides, on both: the Idempotency-Key is this request's (or the
//! caller replays the first answer); the buyer's row is locked and their
//! live places counted after the lock (so one buyer's concurrent claims
//! count one after the other); holds on these seats whose time is up are
//! expired on the spot; the event is published and on sale; the booking
//! and its seats are inserted, seats in ascending order, and the partial
//! unique index refuses a seat live elsewhere; the key gets its answer.
//!
//! - **Postgres**: two statements. The first inserts the key and locks the
//!   buyer; the second — its snapshot taken after that lock — counts,
//!   checks, inserts the booking and its seats and completes the key, as
//!   one statement of data-modifying CTEs. With BEGIN and COMMIT, four round
//!   trips instead of ten. A stale hold on one of the seats (rare: the
//!   sweeper ends them) sends the claim through the step-by-step path.
//! - **SQLite**: the same steps one by one in the single writer, where a
//!   statement costs a function call, not a round trip.

use super::ending::{expire_stale, Released};
use super::BookingStatus::*;
use super::NewBooking;
use crate::core::platform::db::{is_unique_violation, Backend, Db, Tx};
use crate::core::platform::idempotency::{self, IdempotencyKey};
use crate::model::SeatId;

/// A hold to claim.
pub struct SeatClaim<'a> {
    pub booking: NewBooking<'a>,
    /// Seats with their prices, in ascending seat order.
    pub seats: &'a [(SeatId, i64)],
    /// The most places the buyer may hold or own for the event.
    pub limit: i64,
    /// The request's key and the answer to store with it.
    pub key: Option<(&'a IdempotencyKey, &'a str)>,
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
}

/// Claims the seats in one transaction (committed only when `Held`).
pub async fn claim_seats(db: &Db, claim: &SeatClaim<'_>) -> Result<Claimed, sqlx::Error> {
    let mut tx = db.begin().await?;
    let outcome = match db.backend {
        Backend::Postgres => in_two_statements(&mut tx, claim).await,
        Backend::Sqlite => step_by_step(&mut tx, claim, true).await,
    };
    match outcome {
        Ok(held @ Claimed::Held { .. }) => {
            tx.commit().await?;
            Ok(held)
        }
        Ok(refused) => {
            tx.rollback().await?;
            Ok(refused)
        }
        Err(e) if is_unique_violation(&e) => {
            tx.rollback().await?;
            Ok(Claimed::SeatTaken)
        }
        Err(e) => Err(e),
    }
}

/// The claim as separate statements; `take_key` is false when the key row
/// is already this transaction's.
async fn step_by_step(
    tx: &mut Tx,
    c: &SeatClaim<'_>,
    take_key: bool,
) -> Result<Claimed, sqlx::Error> {
    let b = &c.booking;
    if let (true, Some((key, _))) = (take_key, c.key) {
        if !idempotency::claim(tx, b.buyer_id, key, b.now_ms).await? {
            return Ok(Claimed::KeyTaken);
        }
    }
    if take_key {
        super::lock_buyer(tx, b.buyer_id, b.event_id, b.now_ms).await?;
        let owned = super::live_places_of_buyer(tx, b.buyer_id, b.event_id, b.now_ms).await?;
        if owned + c.seats.len() as i64 > c.limit {
            return Ok(Claimed::OverLimit { owned });
        }
    }
    let ids: Vec<SeatId> = c.seats.iter().map(|s| s.0).collect();
    let stale = super::stale_holds_on(tx, &ids, b.now_ms).await?;
    let freed = expire_stale(tx, &stale, b.now_ms).await?;
    if !super::insert_held(tx, b).await? {
        return Ok(Claimed::NotOnSale);
    }
    super::insert_seats(tx, b.id, b.event_id, c.seats).await?;
    if let Some((key, body)) = c.key {
        idempotency::complete(tx, b.buyer_id, key, 200, body).await?;
    }
    Ok(Claimed::Held { freed })
}

/// Postgres: the key and the buyer's lock, then everything else at once.
async fn in_two_statements(tx: &mut Tx, c: &SeatClaim<'_>) -> Result<Claimed, sqlx::Error> {
    let b = &c.booking;
    let (key_taken,): (i64,) = sqlx::query_as(
        "with new_key as (
             insert into idempotency_key (buyer_id, key, fingerprint, created_at)
             select $1, $3, $4, $5 where $3 is not null
             on conflict (buyer_id, key) do nothing returning 1),
         buyer_lock as (
             insert into buyer_event (buyer_id, event_id, touched_at) values ($1, $2, $5)
             on conflict (buyer_id, event_id) do update set touched_at = excluded.touched_at
             returning 1)
         select case when $3 is null or exists (select 1 from new_key) then 0 else 1 end
         from buyer_lock",
    )
    .bind(b.buyer_id)
    .bind(b.event_id)
    .bind(c.key.map(|k| k.0.key.as_str()))
    .bind(c.key.map(|k| k.0.fingerprint.as_str()))
    .bind(b.now_ms)
    .fetch_one(&mut **tx)
    .await?;
    if key_taken == 1 {
        return Ok(Claimed::KeyTaken);
    }

    let sql = claim_sql(c.seats.len());
    let mut q = sqlx::query_as(&sql)
        .bind(b.buyer_id)
        .bind(b.event_id)
        .bind(b.id)
        .bind(b.now_ms)
        .bind(b.held_until)
        .bind(b.amount_cents)
        .bind(b.currency)
        .bind(c.seats.len() as i64)
        .bind(c.limit)
        .bind(c.key.map(|k| k.0.key.as_str()))
        .bind(c.key.map(|k| k.1));
    for (seat, price) in c.seats {
        q = q.bind(*seat).bind(*price);
    }
    let (owned, stale, inserted): (i64, i64, i64) = q.fetch_one(&mut **tx).await?;
    if inserted == 1 {
        return Ok(Claimed::Held { freed: Vec::new() });
    }
    if owned + c.seats.len() as i64 > c.limit {
        return Ok(Claimed::OverLimit { owned });
    }
    if stale > 0 {
        return step_by_step(tx, c, false).await;
    }
    Ok(Claimed::NotOnSale)
}

/// The second statement, for `seats` seats: (places the buyer owns, stale
/// holds on the seats, bookings inserted). Data-modifying CTEs all run to
/// completion, read or not. `offset 0` keeps the buyer's bookings a scan of
/// the buyer's index whatever a generic plan would make of the statistics
/// (never an AND with the (status, held_until) index, which covers every
/// live hold of every buyer).
fn claim_sql(seats: usize) -> String {
    const FIRST_SEAT_PARAM: usize = 12;
    let seat_rows: Vec<String> = (0..seats)
        .map(|i| {
            let p = FIRST_SEAT_PARAM + 2 * i;
            format!("({i}, cast(${p} as bigint), cast(${} as bigint))", p + 1)
        })
        .collect();
    let seat_params: Vec<String> = (0..seats)
        .map(|i| format!("${}", FIRST_SEAT_PARAM + 2 * i))
        .collect();
    format!(
        "with owned as (
             select cast(coalesce(sum(case when b.ga_quantity > 0 then b.ga_quantity
                     else (select count(*) from booking_seat bs
                           where bs.booking_id = b.id and bs.live = 1) end), 0) as bigint) as n
             from (select id, status, held_until, ga_quantity from booking
                   where buyer_id = $1 and event_id = $2 offset 0) as b
             where b.status in {live} or (b.status = {held} and b.held_until > $4)),
         stale as (
             select bs.booking_id from booking_seat bs join booking b on b.id = bs.booking_id
             where bs.live = 1 and bs.seat_id in ({seat_params})
               and b.status = {held} and b.held_until <= $4),
         new_booking as (
             insert into booking (id, event_id, buyer_id, status, held_until, amount_cents,
                                  currency, ga_area_id, ga_quantity, created_at, updated_at)
             select $3, $2, $1, {held}, $5, $6, $7, null, 0, $4, $4 from event
             where id = $2 and published = 1 and on_sale_at <= $4
               and (select n from owned) + $8 <= $9
               and not exists (select 1 from stale)
             returning id),
         new_seats as (
             insert into booking_seat (booking_id, seat_id, event_id, price_cents, live)
             select nb.id, s.seat_id, $2, s.price_cents, 1
             from new_booking nb cross join (values {seat_rows}) as s(n, seat_id, price_cents)
             order by s.n),
         answer as (
             update idempotency_key set status_code = 200, response_body = $11
             where buyer_id = $1 and key = $10 and exists (select 1 from new_booking))
         select (select n from owned), (select count(*) from stale), (select count(*) from new_booking)",
        live = super::BookingStatus::sql_list(&[PaymentPending, Booked]),
        held = Held.sql(),
        seat_rows = seat_rows.join(", "),
        seat_params = seat_params.join(", "),
    )
}
