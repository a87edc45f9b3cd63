//! The only SQL that creates and moves bookings. Every transition is one
//! conditional `update … where id = $1 and status = '<source>'` and reports
//! whether it won: when two actors race, the database decides and the loser
//! sees `false`.

use super::status::BookingStatus::{self, *};
use crate::core::db::{Db, Tx};
use crate::core::seat_map::Occupancy;
use crate::model::{EventId, SeatId};

pub struct NewBooking<'a> {
    pub id: &'a str,
    pub event_id: EventId,
    pub buyer_id: &'a str,
    pub held_until: i64,
    pub amount_cents: i64,
    pub currency: &'a str,
    pub ga: Option<(i64, i64)>,
    pub now_ms: i64,
}

/// Inserts the HELD booking — only while its event is published and on
/// sale (checked here, in the claim, so every instance agrees at once);
/// `false` when it is not.
pub async fn insert_held(tx: &mut Tx, b: &NewBooking<'_>) -> Result<bool, sqlx::Error> {
    let sql = format!(
        "insert into booking (id, event_id, buyer_id, status, held_until, amount_cents, currency,
                              ga_area_id, ga_quantity, created_at, updated_at)
         select $1, $2, $3, {}, $4, $5, $6, $7, $8, $9, $9 from event
         where id = $2 and published = 1 and on_sale_at <= $9",
        Held.sql()
    );
    let inserted = sqlx::query(&sql)
        .bind(b.id)
        .bind(b.event_id)
        .bind(b.buyer_id)
        .bind(b.held_until)
        .bind(b.amount_cents)
        .bind(b.currency)
        .bind(b.ga.map(|g| g.0))
        .bind(b.ga.map(|g| g.1).unwrap_or(0))
        .bind(b.now_ms)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    Ok(inserted == 1)
}

/// Claims the seats for a booking, in ascending seat order (the caller sorts):
/// the partial unique index refuses a seat that is already live elsewhere.
pub async fn insert_seats(
    tx: &mut Tx,
    booking_id: &str,
    event_id: EventId,
    seats: &[(SeatId, i64)],
) -> Result<(), sqlx::Error> {
    let mut sql = String::from(
        "insert into booking_seat (booking_id, seat_id, event_id, price_cents, live) values ",
    );
    for i in 0..seats.len() {
        if i > 0 {
            sql.push(',');
        }
        sql.push_str(&format!("($1, ${}, $2, ${}, 1)", 3 + 2 * i, 4 + 2 * i));
    }
    let mut q = sqlx::query(&sql).bind(booking_id).bind(event_id);
    for (seat, price) in seats {
        q = q.bind(*seat).bind(*price);
    }
    q.execute(&mut **tx).await?;
    Ok(())
}

/// Takes a row lock on (buyer, event) so one buyer's concurrent holds count
/// their seats one after the other (SQLite has a single writer anyway).
pub async fn lock_buyer(
    tx: &mut Tx,
    buyer: &str,
    event_id: EventId,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into buyer_event (buyer_id, event_id, touched_at) values ($1, $2, $3)
         on conflict (buyer_id, event_id) do update set touched_at = excluded.touched_at",
    )
    .bind(buyer)
    .bind(event_id)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Seats plus general-admission places this buyer holds or owns for the event.
pub async fn live_places_of_buyer(
    tx: &mut Tx,
    buyer: &str,
    event_id: EventId,
    now: i64,
) -> Result<i64, sqlx::Error> {
    let sql = format!(
        "select cast(coalesce(sum(case when b.ga_quantity > 0 then b.ga_quantity
                                       else (select count(*) from booking_seat bs
                                             where bs.booking_id = b.id and bs.live = 1) end), 0) as bigint)
         from booking b
         where b.buyer_id = $1 and b.event_id = $2
           and (b.status in {} or (b.status = {} and b.held_until > $3))",
        BookingStatus::sql_list(&[PaymentPending, Booked]),
        Held.sql()
    );
    let (n,): (i64,) = sqlx::query_as(&sql)
        .bind(buyer)
        .bind(event_id)
        .bind(now)
        .fetch_one(&mut **tx)
        .await?;
    Ok(n)
}

fn placeholders(from: usize, n: usize) -> String {
    (from..from + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// HELD bookings past their `held_until` that still own one of these seats.
pub async fn stale_holds_on(
    tx: &mut Tx,
    seats: &[SeatId],
    now: i64,
) -> Result<Vec<String>, sqlx::Error> {
    let sql = format!(
        "select distinct b.id from booking_seat bs join booking b on b.id = bs.booking_id
         where bs.live = 1 and bs.seat_id in ({}) and b.status = {} and b.held_until <= $1",
        placeholders(2, seats.len()),
        Held.sql()
    );
    let mut q = sqlx::query_as::<_, (String,)>(&sql).bind(now);
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
    now: i64,
) -> Result<Vec<(SeatId, Occupancy)>, sqlx::Error> {
    let sql = format!(
        "select bs.seat_id, b.status, b.held_until from booking_seat bs join booking b on b.id = bs.booking_id
         where bs.live = 1 and bs.seat_id in ({}) and (b.status <> {} or b.held_until > $1)
         order by bs.seat_id",
        placeholders(2, seats.len()),
        Held.sql()
    );
    let mut q = sqlx::query_as::<_, (i64, String, i64)>(&sql).bind(now);
    for s in seats {
        q = q.bind(*s);
    }
    let rows = q.fetch_all(db.reader()).await?;
    Ok(rows
        .into_iter()
        .map(|(id, st, until)| (id, Occupancy::from_booking(&st, until)))
        .collect())
}

/// What ending a booking freed, for the seat map.
#[derive(Debug, Default)]
pub struct Released {
    pub event_id: EventId,
    pub seats: Vec<SeatId>,
}

impl Released {
    pub fn as_changes(&self) -> Vec<(SeatId, Occupancy)> {
        self.seats.iter().map(|s| (*s, Occupancy::Free)).collect()
    }
}

/// Who ends a hold, and so which condition the ending update names.
#[derive(Debug, Clone, Copy)]
enum HoldEnd<'a> {
    /// The time is up (`held_until` has passed): → EXPIRED.
    Expiry,
    /// Its owner lets it go while it runs: → CANCELLED.
    Owner(&'a str),
    /// An admin releases it while it runs: → CANCELLED.
    Admin,
}

/// Ends a HELD booking (one statement naming its source state), gives back
/// its promo use, seats and places — all only when this update won.
async fn end_hold(
    tx: &mut Tx,
    id: &str,
    how: HoldEnd<'_>,
    now: i64,
) -> Result<Option<Released>, sqlx::Error> {
    let (to, condition) = match how {
        HoldEnd::Expiry => (Expired, "held_until <= $2"),
        HoldEnd::Owner(_) => (Cancelled, "held_until > $2 and buyer_id = $3"),
        HoldEnd::Admin => (Cancelled, "held_until > $2"),
    };
    debug_assert!(Held.can_become(to));
    let sql = format!(
        "update booking set status = {}, updated_at = $2
         where id = $1 and status = {} and {condition}
         returning event_id, ga_area_id, ga_quantity",
        to.sql(),
        Held.sql()
    );
    let mut q = sqlx::query_as(&sql).bind(id).bind(now);
    if let HoldEnd::Owner(buyer) = how {
        q = q.bind(buyer);
    }
    let ended: Option<Ended> = q.fetch_optional(&mut **tx).await?;
    if ended.is_some() {
        crate::core::promo::give_back(tx, id).await?;
    }
    release(tx, id, ended).await
}

/// HELD → EXPIRED, only once `held_until` has passed.
pub async fn expire_hold(tx: &mut Tx, id: &str, now: i64) -> Result<Option<Released>, sqlx::Error> {
    end_hold(tx, id, HoldEnd::Expiry, now).await
}

/// HELD → CANCELLED by its owner, while the hold still runs.
pub async fn cancel_hold(
    tx: &mut Tx,
    id: &str,
    buyer: &str,
    now: i64,
) -> Result<Option<Released>, sqlx::Error> {
    end_hold(tx, id, HoldEnd::Owner(buyer), now).await
}

/// HELD → CANCELLED by an admin, whoever holds it.
pub async fn cancel_hold_by_admin(
    tx: &mut Tx,
    id: &str,
    now: i64,
) -> Result<Option<Released>, sqlx::Error> {
    end_hold(tx, id, HoldEnd::Admin, now).await
}

/// BOOKED → CANCELLED when an admin refunds it: the seats go back; the
/// refund itself leaves through the outbox.
pub async fn cancel_booked(
    tx: &mut Tx,
    id: &str,
    now: i64,
) -> Result<Option<Released>, sqlx::Error> {
    debug_assert!(Booked.can_become(Cancelled));
    let sql = format!(
        "update booking set status = {}, updated_at = $2 where id = $1 and status = {}
         returning event_id, ga_area_id, ga_quantity",
        Cancelled.sql(),
        Booked.sql()
    );
    let ended: Option<Ended> = sqlx::query_as(&sql)
        .bind(id)
        .bind(now)
        .fetch_optional(&mut **tx)
        .await?;
    release(tx, id, ended).await
}

/// A running hold gets a later `held_until` (HELD stays HELD); answers the
/// event when it won.
pub async fn extend_hold(
    tx: &mut Tx,
    id: &str,
    held_until: i64,
    now: i64,
) -> Result<Option<EventId>, sqlx::Error> {
    let sql = format!(
        "update booking set held_until = $2, updated_at = $3
         where id = $1 and status = {} and held_until > $3 and held_until < $2
         returning event_id",
        Held.sql()
    );
    let row: Option<(i64,)> = sqlx::query_as(&sql)
        .bind(id)
        .bind(held_until)
        .bind(now)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(row.map(|r| r.0))
}

/// What a winning end-of-booking update returns: (event, standing area, places).
type Ended = (i64, Option<i64>, i64);

/// Gives back what an ended booking owned: its seats (live → 0) and its
/// general-admission places. Runs only when the transition that ended the
/// booking won (`ended` is its returned row), so it happens exactly once.
async fn release(
    tx: &mut Tx,
    id: &str,
    ended: Option<Ended>,
) -> Result<Option<Released>, sqlx::Error> {
    let Some((event_id, ga_area, qty)) = ended else {
        return Ok(None);
    };
    let seats: Vec<(i64,)> = sqlx::query_as(
        "update booking_seat set live = 0 where booking_id = $1 and live = 1 returning seat_id",
    )
    .bind(id)
    .fetch_all(&mut **tx)
    .await?;
    if let (Some(area), true) = (ga_area, qty > 0) {
        sqlx::query("update ga_area set remaining = remaining + $2 where id = $1")
            .bind(area)
            .bind(qty)
            .execute(&mut **tx)
            .await?;
    }
    let mut seat_ids: Vec<SeatId> = seats.into_iter().map(|(s,)| s).collect();
    seat_ids.sort_unstable();
    Ok(Some(Released {
        event_id,
        seats: seat_ids,
    }))
}

/// HELD bookings whose time is up, oldest first, claimed for this sweeper
/// (`skip locked` on Postgres lets several instances sweep side by side).
pub async fn due_holds(
    tx: &mut Tx,
    db: &Db,
    now: i64,
    limit: i64,
) -> Result<Vec<String>, sqlx::Error> {
    let sql = format!(
        "select id from booking where status = {} and held_until <= $1
         order by held_until limit $2{}",
        Held.sql(),
        db.skip_locked()
    );
    let rows: Vec<(String,)> = sqlx::query_as(&sql)
        .bind(now)
        .bind(limit)
        .fetch_all(&mut **tx)
        .await?;
    Ok(rows.into_iter().map(|r| r.0).collect())
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
    id: &str,
    buyer: &str,
) -> Result<Option<(BookingStatus, i64)>, sqlx::Error> {
    let row: Option<(String, i64)> =
        sqlx::query_as("select status, held_until from booking where id = $1 and buyer_id = $2")
            .bind(id)
            .bind(buyer)
            .fetch_optional(db.reader())
            .await?;
    Ok(row.and_then(|(s, h)| BookingStatus::parse(&s).map(|s| (s, h))))
}

/// HELD → PAYMENT_PENDING by its owner while the hold runs; the deadline
/// becomes the checkout's.
pub async fn begin_payment(
    tx: &mut Tx,
    id: &str,
    buyer: &str,
    now: i64,
    deadline: i64,
) -> Result<Option<EventId>, sqlx::Error> {
    debug_assert!(Held.can_become(PaymentPending));
    let sql = format!(
        "update booking set status = {}, held_until = $4, updated_at = $3
         where id = $1 and buyer_id = $2 and status = {} and held_until > $3
         returning event_id",
        PaymentPending.sql(),
        Held.sql()
    );
    let row: Option<(i64,)> = sqlx::query_as(&sql)
        .bind(id)
        .bind(buyer)
        .bind(now)
        .bind(deadline)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(row.map(|r| r.0))
}

/// The provider's session sets a PAYMENT_PENDING booking's deadline.
pub async fn move_payment_deadline(
    tx: &mut Tx,
    id: &str,
    deadline: i64,
) -> Result<(), sqlx::Error> {
    let sql = format!(
        "update booking set held_until = $2 where id = $1 and status = {}",
        PaymentPending.sql()
    );
    sqlx::query(&sql)
        .bind(id)
        .bind(deadline)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// PAYMENT_PENDING → BOOKED: the provider says it is paid.
pub async fn book(tx: &mut Tx, id: &str, now: i64) -> Result<bool, sqlx::Error> {
    debug_assert!(PaymentPending.can_become(Booked));
    let sql = format!(
        "update booking set status = {}, updated_at = $2 where id = $1 and status = {}",
        Booked.sql(),
        PaymentPending.sql()
    );
    Ok(sqlx::query(&sql)
        .bind(id)
        .bind(now)
        .execute(&mut **tx)
        .await?
        .rows_affected()
        == 1)
}

/// PAYMENT_PENDING → EXPIRED: the checkout ended unpaid; the seats go back.
pub async fn end_unpaid_checkout(
    tx: &mut Tx,
    id: &str,
    now: i64,
) -> Result<Option<Released>, sqlx::Error> {
    debug_assert!(PaymentPending.can_become(Expired));
    let sql = format!(
        "update booking set status = {}, updated_at = $2 where id = $1 and status = {}
         returning event_id, ga_area_id, ga_quantity",
        Expired.sql(),
        PaymentPending.sql()
    );
    let ended: Option<Ended> = sqlx::query_as(&sql)
        .bind(id)
        .bind(now)
        .fetch_optional(&mut **tx)
        .await?;
    release(tx, id, ended).await
}

/// Why a late payment could not take its seats back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetakeRefused {
    /// A seat is in another live booking (committed before we looked).
    SeatsGone,
    /// A concurrent claim took a seat while we re-took it (unique index).
    LostRace,
    /// The standing area has fewer places left than the booking had.
    StandingFull,
    /// The booking is not EXPIRED or CANCELLED any more.
    NotEnded,
}

/// EXPIRED / CANCELLED → BOOKED for a late payment: takes back exactly the
/// same seats (or standing places), all or nothing. The caller holds the
/// booking's row lock (`lock`). Everything the re-take touches runs in a
/// savepoint: when it is refused, every seat and counter it touched is given
/// back in the caller's transaction, which goes on (to queue the refund).
pub async fn retake(
    tx: &mut Tx,
    id: &str,
    now: i64,
) -> Result<Result<(), RetakeRefused>, sqlx::Error> {
    debug_assert!(Expired.can_become(Booked) && Cancelled.can_become(Booked));
    let seats = seats_of(tx, id).await?;
    if !seats.is_empty() {
        for stale in stale_holds_on(tx, &seats, now).await? {
            expire_hold(tx, &stale, now).await?;
        }
        let sql = format!(
            "select count(*) from booking_seat where live = 1 and seat_id in ({})",
            placeholders(1, seats.len())
        );
        let mut q = sqlx::query_as::<_, (i64,)>(&sql);
        for s in &seats {
            q = q.bind(*s);
        }
        if q.fetch_one(&mut **tx).await?.0 > 0 {
            return Ok(Err(RetakeRefused::SeatsGone));
        }
    }
    let mut savepoint = sqlx::Connection::begin(&mut **tx).await?;
    let refused = retake_within(&mut savepoint, id, now).await?;
    match refused {
        None => savepoint.commit().await?,
        Some(_) => savepoint.rollback().await?,
    }
    Ok(refused.map_or(Ok(()), Err))
}

async fn retake_within(
    sp: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    now: i64,
) -> Result<Option<RetakeRefused>, sqlx::Error> {
    let sql = format!(
        "update booking set status = {}, updated_at = $2 where id = $1 and status in {}
         returning ga_area_id, ga_quantity",
        Booked.sql(),
        BookingStatus::sql_list(&[Expired, Cancelled])
    );
    let won: Option<(Option<i64>, i64)> = sqlx::query_as(&sql)
        .bind(id)
        .bind(now)
        .fetch_optional(&mut **sp)
        .await?;
    let Some((ga_area, qty)) = won else {
        return Ok(Some(RetakeRefused::NotEnded));
    };
    match sqlx::query("update booking_seat set live = 1 where booking_id = $1")
        .bind(id)
        .execute(&mut **sp)
        .await
    {
        Ok(_) => {}
        Err(e) if crate::core::db::is_unique_violation(&e) => {
            return Ok(Some(RetakeRefused::LostRace))
        }
        Err(e) => return Err(e),
    }
    if let (Some(area), true) = (ga_area, qty > 0) {
        let claimed = sqlx::query(
            "update ga_area set remaining = remaining - $2 where id = $1 and remaining >= $2",
        )
        .bind(area)
        .bind(qty)
        .execute(&mut **sp)
        .await?
        .rows_affected()
            == 1;
        if !claimed {
            return Ok(Some(RetakeRefused::StandingFull));
        }
    }
    Ok(None)
}

/// EXPIRED / CANCELLED → REFUNDED once the provider confirmed the refund.
pub async fn mark_refunded(tx: &mut Tx, id: &str, now: i64) -> Result<bool, sqlx::Error> {
    debug_assert!(Expired.can_become(Refunded));
    let sql = format!(
        "update booking set status = {}, updated_at = $2 where id = $1 and status in {}",
        Refunded.sql(),
        BookingStatus::sql_list(&[Expired, Cancelled])
    );
    Ok(sqlx::query(&sql)
        .bind(id)
        .bind(now)
        .execute(&mut **tx)
        .await?
        .rows_affected()
        == 1)
}

/// The money went back or is disputed outside Holdfast: the ticket ends as
/// `to` (REFUNDED or DISPUTED) from whatever state may reach it. A live
/// booking gives back its seats; an ended one already did. `None` when the
/// booking cannot become `to` (already there, or final).
pub async fn void(
    tx: &mut Tx,
    id: &str,
    to: BookingStatus,
    now: i64,
) -> Result<Option<Released>, sqlx::Error> {
    let sources = BookingStatus::sources_of(to);
    let (live, ended): (Vec<_>, Vec<_>) = sources.into_iter().partition(|s| s.is_live());
    for (from, gives_back) in [(live, true), (ended, false)] {
        if from.is_empty() {
            continue;
        }
        let sql = format!(
            "update booking set status = {}, updated_at = $2 where id = $1 and status in {}
             returning event_id, ga_area_id, ga_quantity",
            to.sql(),
            BookingStatus::sql_list(&from)
        );
        let row: Option<Ended> = sqlx::query_as(&sql)
            .bind(id)
            .bind(now)
            .fetch_optional(&mut **tx)
            .await?;
        if let Some(row) = row {
            if gives_back {
                return release(tx, id, Some(row)).await;
            }
            return Ok(Some(Released {
                event_id: row.0,
                seats: Vec::new(),
            }));
        }
    }
    Ok(None)
}

/// A booking as a provider's verdict sees it, read under its row lock.
#[derive(Debug, Clone)]
pub struct Locked {
    pub status: BookingStatus,
    pub amount_cents: i64,
    pub currency: String,
    pub buyer_id: String,
    pub event_id: EventId,
}

/// Reads the booking and locks its row until the transaction ends, so two
/// verdicts for one booking decide one after the other (a no-op update takes
/// the row lock on Postgres, and SQLite has one writer).
pub async fn lock(tx: &mut Tx, id: &str) -> Result<Option<Locked>, sqlx::Error> {
    let row: Option<(String, i64, String, String, i64)> = sqlx::query_as(
        "update booking set updated_at = updated_at where id = $1
         returning status, amount_cents, currency, buyer_id, event_id",
    )
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(
        row.and_then(|(status, amount_cents, currency, buyer_id, event_id)| {
            Some(Locked {
                status: BookingStatus::parse(&status)?,
                amount_cents,
                currency,
                buyer_id,
                event_id,
            })
        }),
    )
}

/// The seats of a booking, in order.
pub async fn seats_of(tx: &mut Tx, id: &str) -> Result<Vec<SeatId>, sqlx::Error> {
    let rows: Vec<(i64,)> =
        sqlx::query_as("select seat_id from booking_seat where booking_id = $1 order by seat_id")
            .bind(id)
            .fetch_all(&mut **tx)
            .await?;
    Ok(rows.into_iter().map(|r| r.0).collect())
}
