//! Ending a booking gives back what it owned — seats (live → 0), standing
//! places, a promo use — in the transaction of the transition that ended
//! it, and only when that transition won.

use super::BookingStatus::{self, *};
use crate::platform::clock::At;
use crate::platform::db::Tx;
use crate::seat_map::Occupancy;
use holdfast_model::BuyerId;
use holdfast_model::{BookingId, Cause};
use holdfast_model::{EventId, SeatId};

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
    Admin(&'a Cause),
}

/// Ends a HELD booking (one statement naming its source state), gives back
/// its promo use, seats and places — all only when this update won.
async fn end_hold(
    tx: &mut Tx,
    id: &BookingId,
    how: HoldEnd<'_>,
    now: At,
) -> Result<Option<Released>, sqlx::Error> {
    let (to, condition, cause) = match how {
        HoldEnd::Expiry => (Expired, "held_until <= $2", Cause::Expiry),
        HoldEnd::Owner(_) => (Cancelled, "held_until > $2 and buyer_id = $4", Cause::Buyer),
        HoldEnd::Admin(by) => (Cancelled, "held_until > $2", by.clone()),
    };
    debug_assert!(Held.can_become(to));
    let sql = format!(
        "update booking set status = {}, updated_at = $2, cause = $3
         where id = $1 and status = {} and {condition}
         returning event_id, ga_area_id, ga_quantity",
        to.sql(),
        Held.sql()
    );
    let mut q = sqlx::query_as(&sql).bind(id).bind(now).bind(cause.stored());
    if let HoldEnd::Owner(buyer) = how {
        q = q.bind(buyer);
    }
    let ended: Option<Ended> = q.fetch_optional(&mut **tx).await?;
    if ended.is_some() {
        crate::promo::give_back(tx, id).await?;
    }
    release(tx, id, ended).await
}

/// Expires the holds among `ids` whose time is up, in one transaction: the
/// capped promo campaigns they would give uses back to are locked first, in
/// id order (`promo::store::lock_campaigns_of`), then the holds themselves,
/// in id order too, so transactions ending several holds never wait on each
/// other in a circle. (Taken in the order the database lists them, two
/// claims over the seats of the same stale holds could deadlock, and a
/// claim that lost three times would answer 503, in a full on-sale's
/// tail.) Every path that ends stale holds in bulk — a claim over
/// them, the sweeper, a late payment's re-take — comes through here.
pub async fn expire_stale(
    tx: &mut Tx,
    ids: &[BookingId],
    now: At,
) -> Result<Vec<Released>, sqlx::Error> {
    crate::promo::store::lock_campaigns_of(tx, ids).await?;
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    let mut released = Vec::new();
    for id in &ids {
        if let Some(r) = expire_hold(tx, id, now).await? {
            released.push(r);
        }
    }
    Ok(released)
}

/// HELD → EXPIRED, only once `held_until` has passed.
pub async fn expire_hold(
    tx: &mut Tx,
    id: &BookingId,
    now: At,
) -> Result<Option<Released>, sqlx::Error> {
    end_hold(tx, id, HoldEnd::Expiry, now).await
}

/// HELD → CANCELLED by its owner, while the hold still runs.
pub async fn cancel_hold(
    tx: &mut Tx,
    id: &BookingId,
    buyer: &BuyerId,
    now: At,
) -> Result<Option<Released>, sqlx::Error> {
    end_hold(tx, id, HoldEnd::Owner(buyer), now).await
}

/// HELD → CANCELLED by an admin (`by`), whoever holds it.
pub async fn cancel_hold_by_admin(
    tx: &mut Tx,
    id: &BookingId,
    by: &Cause,
    now: At,
) -> Result<Option<Released>, sqlx::Error> {
    end_hold(tx, id, HoldEnd::Admin(by), now).await
}

/// BOOKED → CANCELLED when an admin refunds it: the seats go back; the
/// refund itself leaves through the outbox.
pub async fn cancel_booked(
    tx: &mut Tx,
    id: &BookingId,
    by: &Cause,
    now: At,
) -> Result<Option<Released>, sqlx::Error> {
    let ended = transition(tx, id, &[Booked], Cancelled, by, now).await?;
    release(tx, id, ended).await
}

/// A booking in one of `from` becomes `to`: one conditional update, checked
/// against the machine, answering what it owned when it won (the caller
/// gives that back if the booking was live; a settling move keeps it).
pub(super) async fn transition(
    tx: &mut Tx,
    id: &BookingId,
    from: &[BookingStatus],
    to: BookingStatus,
    cause: &Cause,
    now: At,
) -> Result<Option<Ended>, sqlx::Error> {
    debug_assert!(from.iter().all(|f| f.can_become(to)));
    if from.is_empty() {
        return Ok(None);
    }
    let sql = format!(
        "update booking set status = {}, updated_at = $2, cause = $3
         where id = $1 and status in {}
         returning event_id, ga_area_id, ga_quantity",
        to.sql(),
        BookingStatus::sql_list(from)
    );
    sqlx::query_as(&sql)
        .bind(id)
        .bind(now)
        .bind(cause.stored())
        .fetch_optional(&mut **tx)
        .await
}

/// A running hold gets a later `held_until` (HELD stays HELD); answers the
/// event when it won.
pub async fn extend_hold(
    tx: &mut Tx,
    id: &BookingId,
    held_until: At,
    now: At,
) -> Result<Option<EventId>, sqlx::Error> {
    let sql = format!(
        "update booking set held_until = $2, updated_at = $3
         where id = $1 and status = {} and held_until > $3 and held_until < $2
         returning event_id",
        Held.sql()
    );
    let row: Option<(EventId,)> = sqlx::query_as(&sql)
        .bind(id)
        .bind(held_until)
        .bind(now)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(row.map(|r| r.0))
}

/// What a winning end-of-booking update returns: (event, standing area, places).
type Ended = (EventId, Option<i64>, i64);

/// Gives back what an ended booking owned: its seats (live → 0) and its
/// general-admission places. Runs only when the transition that ended the
/// booking won (`ended` is its returned row), so it happens exactly once.
async fn release(
    tx: &mut Tx,
    id: &BookingId,
    ended: Option<Ended>,
) -> Result<Option<Released>, sqlx::Error> {
    let Some((event_id, ga_area, qty)) = ended else {
        return Ok(None);
    };
    let seats: Vec<(SeatId,)> = sqlx::query_as(
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

/// PAYMENT_PENDING → EXPIRED: the checkout ended unpaid; the seats go back.
pub async fn end_unpaid_checkout(
    tx: &mut Tx,
    id: &BookingId,
    cause: &Cause,
    now: At,
) -> Result<Option<Released>, sqlx::Error> {
    let ended = transition(tx, id, &[PaymentPending], Expired, cause, now).await?;
    release(tx, id, ended).await
}

/// The money went back or is disputed outside Holdfast: the ticket ends as
/// `to` (REFUNDED or DISPUTED) from whatever state may reach it. A live
/// booking gives back its seats; an ended one already did. `None` when the
/// booking cannot become `to` (already there, or final).
pub async fn void(
    tx: &mut Tx,
    id: &BookingId,
    to: BookingStatus,
    cause: &Cause,
    now: At,
) -> Result<Option<Released>, sqlx::Error> {
    let sources = BookingStatus::sources_of(to);
    let (live, ended): (Vec<_>, Vec<_>) = sources.into_iter().partition(|s| s.is_live());
    // A live booking gives its seats and places back; an ended one did.
    if let Some(row) = transition(tx, id, &live, to, cause, now).await? {
        return release(tx, id, Some(row)).await;
    }
    Ok(transition(tx, id, &ended, to, cause, now)
        .await?
        .map(|(event_id, _, _)| Released {
            event_id,
            seats: Vec::new(),
        }))
}
