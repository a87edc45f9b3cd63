//! The only SQL that creates and moves bookings. Every transition is one
//! conditional `update … where id = $1 and status = <source>` (the source
//! named by the state machine) and reports whether it won: when two actors
//! race, the database decides and the loser sees `false`.
//!
//! Here: claiming (a new hold, its seats and places) and reading under lock;
//! `group_commit` carries the claims that arrive together in one commit.
//! `ending` gives seats and places back; `settling` moves a booking through
//! its payment (pay, book, re-take for a late payment, refunded).

mod claim;
mod claim_set;
mod claim_sql;
mod claim_sqlite;
mod ending;
mod group_commit;
mod moving;
mod settling;

pub use claim::{claim, Claim, Claimed, Claiming};
pub use ending::*;
pub use group_commit::ClaimQueue;
pub use moving::{adopt_guest_bookings, bound_moving, claim_moved, complete_move, unclaim_moved};
pub use settling::*;

use super::status::BookingStatus::{self, *};
use crate::platform::clock::At;
use crate::platform::db::{self, Db, Tx};
use crate::seat_map::cabins::PricedPlace;
use crate::seat_map::Occupancy;
use holdfast_model::money::Money;
use holdfast_model::{BookingId, BuyerId};
use holdfast_model::{EventId, SeatId};

pub struct NewBooking {
    pub id: BookingId,
    pub event_id: EventId,
    pub buyer_id: BuyerId,
    pub held_until: At,
    pub price: Money,
    pub ga: Option<(i64, i64)>,
    /// Its seats, or its standing places (`ga`'s quantity).
    pub places: i64,
    pub now_ms: At,
}

/// Inserts the HELD booking — only while its event is published and on
/// sale (a sailing: not cancelled) (checked here, in the claim, so every instance agrees at once);
/// `false` when it is not.
pub async fn insert_held(tx: &mut Tx, b: &NewBooking) -> Result<bool, sqlx::Error> {
    let sql = held_booking_insert("");
    let inserted = sqlx::query_with(&sql, held_booking_args(b)?)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    Ok(inserted == 1)
}

/// The insert of a HELD booking ($1 to $10, `held_booking_args`), made only
/// while its event is on sale and `also` (further conditions, from $11)
/// holds.
fn held_booking_insert(also: &str) -> String {
    format!(
        "insert into booking (id, event_id, buyer_id, status, held_until, amount_cents, currency,
                              ga_area_id, ga_quantity, places, created_at, updated_at)
         select $1, $2, $3, {}, $4, $5, $6, $7, $8, $10, $9, $9 from event
         where id = $2 and published = 1 and on_sale_at <= $9
           and not exists (select 1 from sailing where event_id = $2 and cancelled_at is not null)
           {also}",
        Held.sql()
    )
}

/// $1 to $10 of `held_booking_insert` ($10 the places), for the caller to
/// add its own to.
fn held_booking_args<'q>(b: &NewBooking) -> Result<sqlx::any::AnyArguments<'q>, sqlx::Error> {
    use sqlx::Arguments;
    let mut args = sqlx::any::AnyArguments::default();
    let add = |args: &mut sqlx::any::AnyArguments<'q>| -> Result<(), sqlx::error::BoxDynError> {
        args.add(b.id.clone())?;
        args.add(b.event_id)?;
        args.add(b.buyer_id.clone())?;
        args.add(b.held_until)?;
        args.add(b.price.minor())?;
        args.add(b.price.currency())?;
        args.add(b.ga.map(|g| g.0))?;
        args.add(b.ga.map(|g| g.1).unwrap_or(0))?;
        args.add(b.now_ms)?;
        args.add(b.places)
    };
    add(&mut args).map_err(sqlx::Error::Encode)?;
    Ok(args)
}

/// Claims the seats for a booking (each priced for its party), in ascending seat order (the caller sorts):
/// the partial unique index refuses a seat that is already live elsewhere.
pub async fn insert_seats(
    tx: &mut Tx,
    booking_id: &BookingId,
    event_id: EventId,
    seats: &[PricedPlace],
) -> Result<(), sqlx::Error> {
    let mut sql = String::from(
        "insert into booking_seat (booking_id, seat_id, event_id, price_cents, guests, live) values ",
    );
    for i in 0..seats.len() {
        if i > 0 {
            sql.push(',');
        }
        let p = 3 + 3 * i;
        sql.push_str(&format!("($1, ${p}, $2, ${}, ${}, 1)", p + 1, p + 2));
    }
    let mut q = sqlx::query(&sql).bind(booking_id).bind(event_id);
    for place in seats {
        q = q
            .bind(place.seat)
            .bind(place.price_cents)
            .bind(place.guests);
    }
    q.execute(&mut **tx).await?;
    Ok(())
}

/// Seats plus general-admission places this buyer holds or owns for the event.
pub async fn live_places_of_buyer(
    tx: &mut Tx,
    buyer: &BuyerId,
    event_id: EventId,
    now: At,
) -> Result<i64, sqlx::Error> {
    let sql = places_owned("$1", "$2", "$3");
    let (n,): (i64,) = sqlx::query_as(&sql)
        .bind(buyer)
        .bind(event_id)
        .bind(now)
        .fetch_one(&mut **tx)
        .await?;
    Ok(n)
}

/// The query of the places buyer `buyer` holds or owns for event `event`
/// at `now` (each a parameter's name or a column), for a statement to
/// count with: the `places` of the buyer's bookings that own theirs, read
/// from the buyer's index (`booking_by_buyer` carries what it needs).
fn places_owned(buyer: &str, event: &str, now: &str) -> String {
    owned_sum(buyer, event, now, "")
}

/// `places_owned` for Postgres' claim statements: `offset 0` keeps the
/// buyer's bookings a scan of the buyer's index whatever a plan would make
/// of the statistics (never an AND with the (status, held_until) index,
/// which covers every live hold of every buyer). SQLite has no `offset`
/// without a `limit`.
fn places_owned_pg(buyer: &str, event: &str, now: &str) -> String {
    owned_sum(buyer, event, now, " offset 0")
}

fn owned_sum(buyer: &str, event: &str, now: &str, fence: &str) -> String {
    format!(
        "select cast(coalesce(sum(b.places), 0) as bigint) as n
         from (select status, held_until, places from booking
               where buyer_id = {buyer} and event_id = {event}{fence}) as b
         where {}",
        BookingStatus::owns_places_sql("b", now)
    )
}

/// HELD bookings past their `held_until` that still own one of these seats.
pub async fn stale_holds_on(
    tx: &mut Tx,
    seats: &[SeatId],
    now: At,
) -> Result<Vec<BookingId>, sqlx::Error> {
    let sql = format!(
        "select distinct b.id from booking_seat bs join booking b on b.id = bs.booking_id
         where bs.live = 1 and bs.seat_id in ({}) and b.status = {} and b.held_until <= $1",
        db::placeholders(2, seats.len()),
        Held.sql()
    );
    let mut q = sqlx::query_as::<_, (BookingId,)>(&sql).bind(now);
    for s in seats {
        q = q.bind(*s);
    }
    Ok(q.fetch_all(&mut **tx)
        .await?
        .into_iter()
        .map(|r| r.0)
        .collect())
}

/// Which of these seats are in a live booking now (expired holds excluded).
pub async fn taken_seats(
    db: &Db,
    seats: &[SeatId],
    now: At,
) -> Result<Vec<(SeatId, Occupancy)>, sqlx::Error> {
    let sql = format!(
        "select bs.seat_id, b.status, b.held_until from booking_seat bs join booking b on b.id = bs.booking_id
         where bs.live = 1 and bs.seat_id in ({}) and (b.status <> {} or b.held_until > $1)
         order by bs.seat_id",
        db::placeholders(2, seats.len()),
        Held.sql()
    );
    let mut q = sqlx::query_as::<_, (SeatId, BookingStatus, At)>(&sql).bind(now);
    for s in seats {
        q = q.bind(*s);
    }
    let rows = q.fetch_all(db.reader()).await?;
    Ok(rows
        .into_iter()
        .map(|(id, st, until)| (id, Occupancy::from_booking(st, until)))
        .collect())
}

/// HELD bookings whose time is up, oldest first, claimed for this sweeper
/// (`skip locked` on Postgres lets several instances sweep side by side).
pub async fn due_holds(
    tx: &mut Tx,
    db: &Db,
    now: At,
    limit: i64,
) -> Result<Vec<BookingId>, sqlx::Error> {
    let sql = format!(
        "select id from booking where status = {} and held_until <= $1
         order by held_until limit $2{}",
        Held.sql(),
        db.skip_locked()
    );
    let rows: Vec<(BookingId,)> = sqlx::query_as(&sql)
        .bind(now)
        .bind(limit)
        .fetch_all(&mut **tx)
        .await?;
    Ok(rows.into_iter().map(|r| r.0).collect())
}

/// A standing area's price per place, when the area belongs to this
/// published event.
pub async fn area_price(
    db: &Db,
    area_id: i64,
    event_id: EventId,
) -> Result<Option<Money>, sqlx::Error> {
    sqlx::query_as(
        "select c.price_cents as amount_cents, e.currency from ga_area a
         join price_category c on c.id = a.category_id join event e on e.id = a.event_id
         where a.id = $1 and a.event_id = $2 and e.published = 1",
    )
    .bind(area_id)
    .bind(event_id)
    .fetch_optional(db.reader())
    .await
}

/// Claims `n` places of a general-admission area: invariant 2 is the `where`
/// (and the `check (remaining >= 0)` behind it).
pub async fn claim_ga(tx: &mut Tx, area_id: i64, n: i64) -> Result<bool, sqlx::Error> {
    Ok(sqlx::query(
        "update ga_area set remaining = remaining - $2 where id = $1 and remaining >= $2",
    )
    .bind(area_id)
    .bind(n)
    .execute(&mut **tx)
    .await?
    .rows_affected()
        == 1)
}

/// The status of a booking if it belongs to this buyer.
pub async fn status_of(
    db: &Db,
    id: &BookingId,
    buyer: &BuyerId,
) -> Result<Option<(BookingStatus, i64)>, sqlx::Error> {
    sqlx::query_as("select status, held_until from booking where id = $1 and buyer_id = $2")
        .bind(id)
        .bind(buyer)
        .fetch_optional(db.reader())
        .await
}

/// A booking as a provider's verdict (or a promo code) sees it, read
/// under its row lock.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Locked {
    pub status: BookingStatus,
    pub held_until: At,
    #[sqlx(flatten)]
    pub price: Money,
    pub buyer_id: BuyerId,
    pub event_id: EventId,
    /// Standing places (0 for a seated booking).
    pub ga_quantity: i64,
}

/// Reads the booking and locks its row until the transaction ends, so two
/// verdicts for one booking decide one after the other (a no-op update takes
/// the row lock on Postgres, and SQLite has one writer).
pub async fn lock(tx: &mut Tx, id: &BookingId) -> Result<Option<Locked>, sqlx::Error> {
    sqlx::query_as(
        "update booking set updated_at = updated_at where id = $1
         returning status, held_until, amount_cents, currency, buyer_id, event_id, ga_quantity",
    )
    .bind(id)
    .fetch_optional(&mut **tx)
    .await
}

/// The seats of a booking, in order.
pub async fn seats_of(tx: &mut Tx, id: &BookingId) -> Result<Vec<SeatId>, sqlx::Error> {
    let rows: Vec<(SeatId,)> =
        sqlx::query_as("select seat_id from booking_seat where booking_id = $1 order by seat_id")
            .bind(id)
            .fetch_all(&mut **tx)
            .await?;
    Ok(rows.into_iter().map(|r| r.0).collect())
}
