//! A booking through its payment: HELD → PAYMENT_PENDING → BOOKED, the
//! re-take of the same seats for a late payment (in a savepoint, all or
//! nothing), and REFUNDED once the money went back.

use super::ending::{expire_stale, transition};
use super::BookingStatus::{self, *};
use super::{seats_of, stale_holds_on};
use crate::platform::clock::At;
use crate::platform::db::placeholders;
use crate::platform::db::Tx;
use holdfast_model::money::Money;
use holdfast_model::BuyerId;
use holdfast_model::EventId;
use holdfast_model::{BookingId, Cause};

/// A hold just moved into its checkout, with what the provider's request
/// needs from its row (its deadline is the one it was given).
#[derive(sqlx::FromRow)]
pub struct InCheckout {
    pub event_id: EventId,
    #[sqlx(flatten)]
    pub price: Money,
    pub ga_quantity: i64,
}

/// HELD → PAYMENT_PENDING by its owner while the hold runs; the deadline
/// becomes the checkout's.
pub async fn begin_payment(
    tx: &mut Tx,
    id: &BookingId,
    buyer: &BuyerId,
    now: At,
    deadline: At,
) -> Result<Option<InCheckout>, sqlx::Error> {
    debug_assert!(Held.can_become(PaymentPending));
    let sql = format!(
        "update booking set status = {}, held_until = $4, updated_at = $3, cause = 'buyer'
         where id = $1 and buyer_id = $2 and status = {} and held_until > $3
         returning event_id, amount_cents, currency, ga_quantity",
        PaymentPending.sql(),
        Held.sql()
    );
    sqlx::query_as(&sql)
        .bind(id)
        .bind(buyer)
        .bind(now)
        .bind(deadline)
        .fetch_optional(&mut **tx)
        .await
}

/// The provider's session ends a PAYMENT_PENDING booking's deadline at the
/// latest (never later than the pay step set it).
pub async fn move_payment_deadline(
    tx: &mut Tx,
    id: &BookingId,
    deadline: At,
) -> Result<(), sqlx::Error> {
    let sql = format!(
        "update booking set held_until = case when $2 < held_until then $2 else held_until end
         where id = $1 and status = {}",
        PaymentPending.sql()
    );
    sqlx::query(&sql)
        .bind(id)
        .bind(deadline)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// PAYMENT_PENDING → BOOKED: the provider says it is paid (`cause`: its
/// webhook, or reconciliation).
pub async fn book(
    tx: &mut Tx,
    id: &BookingId,
    cause: &Cause,
    now: At,
) -> Result<bool, sqlx::Error> {
    // The seats stay live: nothing is given back.
    Ok(transition(tx, id, &[PaymentPending], Booked, cause, now)
        .await?
        .is_some())
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
    id: &BookingId,
    cause: &Cause,
    now: At,
) -> Result<Result<(), RetakeRefused>, sqlx::Error> {
    debug_assert!(Expired.can_become(Booked) && Cancelled.can_become(Booked));
    let seats = seats_of(tx, id).await?;
    if !seats.is_empty() {
        let stale = stale_holds_on(tx, &seats, now).await?;
        expire_stale(tx, &stale, now).await?;
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
    let refused = retake_within(&mut savepoint, id, cause, now).await?;
    match refused {
        None => savepoint.commit().await?,
        Some(_) => savepoint.rollback().await?,
    }
    Ok(refused.map_or(Ok(()), Err))
}

async fn retake_within(
    sp: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &BookingId,
    cause: &Cause,
    now: At,
) -> Result<Option<RetakeRefused>, sqlx::Error> {
    let sql = format!(
        "update booking set status = {}, updated_at = $2, cause = $3
         where id = $1 and status in {}
         returning ga_area_id, ga_quantity",
        Booked.sql(),
        BookingStatus::sql_list(&[Expired, Cancelled])
    );
    let won: Option<(Option<i64>, i64)> = sqlx::query_as(&sql)
        .bind(id)
        .bind(now)
        .bind(cause.stored())
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
        Err(e) if crate::platform::db::is_unique_violation(&e) => {
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
pub async fn mark_refunded(tx: &mut Tx, id: &BookingId, now: At) -> Result<bool, sqlx::Error> {
    // The seats went back when it ended.
    Ok(
        transition(tx, id, &[Expired, Cancelled], Refunded, &Cause::Refund, now)
            .await?
            .is_some(),
    )
}

/// Moves a booking's amount by `delta` cents (a promo code applied, or
/// given back when its hold ends unpaid).
pub async fn add_to_amount(tx: &mut Tx, id: &BookingId, delta: i64) -> Result<(), sqlx::Error> {
    sqlx::query("update booking set amount_cents = amount_cents + $2 where id = $1")
        .bind(id)
        .bind(delta)
        .execute(&mut **tx)
        .await?;
    Ok(())
}
