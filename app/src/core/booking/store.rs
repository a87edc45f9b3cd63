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
    let inserted = sqlx::query(
        "insert into booking (id, event_id, buyer_id, status, held_until, amount_cents, currency,
                              ga_area_id, ga_quantity, created_at, updated_at)
         select $1, $2, $3, 'HELD', $4, $5, $6, $7, $8, $9, $9 from event
         where id = $2 and published = 1 and on_sale_at <= $9",
    )
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
    let (n,): (i64,) = sqlx::query_as(
        "select cast(coalesce(sum(case when b.ga_quantity > 0 then b.ga_quantity
                                       else (select count(*) from booking_seat bs
                                             where bs.booking_id = b.id and bs.live = 1) end), 0) as bigint)
         from booking b
         where b.buyer_id = $1 and b.event_id = $2
           and (b.status in ('PAYMENT_PENDING', 'BOOKED') or (b.status = 'HELD' and b.held_until > $3))",
    )
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
         where bs.live = 1 and bs.seat_id in ({}) and b.status = 'HELD' and b.held_until <= $1",
        placeholders(2, seats.len())
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
         where bs.live = 1 and bs.seat_id in ({}) and (b.status <> 'HELD' or b.held_until > $1)
         order by bs.seat_id",
        placeholders(2, seats.len())
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

/// HELD → EXPIRED, only once `held_until` has passed.
pub async fn expire_hold(tx: &mut Tx, id: &str, now: i64) -> Result<Option<Released>, sqlx::Error> {
    debug_assert!(Held.can_become(Expired));
    let ended: Option<Ended> = sqlx::query_as(
        "update booking set status = 'EXPIRED', updated_at = $2
         where id = $1 and status = 'HELD' and held_until <= $2
         returning event_id, ga_area_id, ga_quantity",
    )
    .bind(id)
    .bind(now)
    .fetch_optional(&mut **tx)
    .await?;
    if ended.is_some() {
        crate::core::promo::give_back(tx, id).await?;
    }
    release(tx, id, ended).await
}

/// HELD → CANCELLED by its owner, while the hold still runs.
pub async fn cancel_hold(
    tx: &mut Tx,
    id: &str,
    buyer: &str,
    now: i64,
) -> Result<Option<Released>, sqlx::Error> {
    debug_assert!(Held.can_become(Cancelled));
    let ended: Option<Ended> = sqlx::query_as(
        "update booking set status = 'CANCELLED', updated_at = $3
         where id = $1 and buyer_id = $2 and status = 'HELD' and held_until > $3
         returning event_id, ga_area_id, ga_quantity",
    )
    .bind(id)
    .bind(buyer)
    .bind(now)
    .fetch_optional(&mut **tx)
    .await?;
    if ended.is_some() {
        crate::core::promo::give_back(tx, id).await?;
    }
    release(tx, id, ended).await
}

/// HELD → CANCELLED by an admin, whoever holds it.
pub async fn cancel_hold_by_admin(
    tx: &mut Tx,
    id: &str,
    now: i64,
) -> Result<Option<Released>, sqlx::Error> {
    debug_assert!(Held.can_become(Cancelled));
    let ended: Option<Ended> = sqlx::query_as(
        "update booking set status = 'CANCELLED', updated_at = $2
         where id = $1 and status = 'HELD' and held_until > $2
         returning event_id, ga_area_id, ga_quantity",
    )
    .bind(id)
    .bind(now)
    .fetch_optional(&mut **tx)
    .await?;
    if ended.is_some() {
        crate::core::promo::give_back(tx, id).await?;
    }
    release(tx, id, ended).await
}

/// BOOKED → CANCELLED when an admin refunds it: the seats go back; the
/// refund itself leaves through the outbox.
pub async fn cancel_booked(
    tx: &mut Tx,
    id: &str,
    now: i64,
) -> Result<Option<Released>, sqlx::Error> {
    debug_assert!(Booked.can_become(Cancelled));
    let ended: Option<Ended> = sqlx::query_as(
        "update booking set status = 'CANCELLED', updated_at = $2
         where id = $1 and status = 'BOOKED'
         returning event_id, ga_area_id, ga_quantity",
    )
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
    let row: Option<(i64,)> = sqlx::query_as(
        "update booking set held_until = $2, updated_at = $3
         where id = $1 and status = 'HELD' and held_until > $3 and held_until < $2
         returning event_id",
    )
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
        "select id from booking where status = 'HELD' and held_until <= $1
         order by held_until limit $2{}",
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
    let row: Option<(i64,)> = sqlx::query_as(
        "update booking set status = 'PAYMENT_PENDING', held_until = $4, updated_at = $3
         where id = $1 and buyer_id = $2 and status = 'HELD' and held_until > $3
         returning event_id",
    )
    .bind(id)
    .bind(buyer)
    .bind(now)
    .bind(deadline)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.map(|r| r.0))
}

/// PAYMENT_PENDING → BOOKED: the provider says it is paid.
pub async fn book(tx: &mut Tx, id: &str, now: i64) -> Result<bool, sqlx::Error> {
    debug_assert!(PaymentPending.can_become(Booked));
    Ok(sqlx::query(
        "update booking set status = 'BOOKED', updated_at = $2 where id = $1 and status = 'PAYMENT_PENDING'",
    )
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
    let ended: Option<Ended> = sqlx::query_as(
        "update booking set status = 'EXPIRED', updated_at = $2
         where id = $1 and status = 'PAYMENT_PENDING'
         returning event_id, ga_area_id, ga_quantity",
    )
    .bind(id)
    .bind(now)
    .fetch_optional(&mut **tx)
    .await?;
    release(tx, id, ended).await
}

/// EXPIRED / CANCELLED → BOOKED for a late payment: takes back exactly the
/// same seats (or standing places). `Ok(false)` when any of them is taken;
/// the caller then refunds. A race with a concurrent claim surfaces as a
/// unique violation, which aborts the whole transaction (nothing half-done).
pub async fn retake(tx: &mut Tx, id: &str, now: i64) -> Result<bool, sqlx::Error> {
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
            return Ok(false);
        }
    }
    let (ga_area, qty): (Option<i64>, i64) =
        sqlx::query_as("select ga_area_id, ga_quantity from booking where id = $1")
            .bind(id)
            .fetch_one(&mut **tx)
            .await?;
    if let (Some(area), true) = (ga_area, qty > 0) {
        if !claim_ga(tx, area, qty).await? {
            return Ok(false);
        }
    }
    let won = sqlx::query(
        "update booking set status = 'BOOKED', updated_at = $2
         where id = $1 and status in ('EXPIRED', 'CANCELLED')",
    )
    .bind(id)
    .bind(now)
    .execute(&mut **tx)
    .await?
    .rows_affected()
        == 1;
    if won {
        sqlx::query("update booking_seat set live = 1 where booking_id = $1")
            .bind(id)
            .execute(&mut **tx)
            .await?;
    }
    Ok(won)
}

/// EXPIRED / CANCELLED → REFUNDED once the provider confirmed the refund.
pub async fn mark_refunded(tx: &mut Tx, id: &str, now: i64) -> Result<bool, sqlx::Error> {
    debug_assert!(Expired.can_become(Refunded));
    Ok(sqlx::query(
        "update booking set status = 'REFUNDED', updated_at = $2
         where id = $1 and status in ('EXPIRED', 'CANCELLED')",
    )
    .bind(id)
    .bind(now)
    .execute(&mut **tx)
    .await?
    .rows_affected()
        == 1)
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
