//! The only SQL that creates and moves payments. Every transition is one
//! conditional `update payment … where status in (<sources>)` whose sources
//! come from the pure machine (`PaymentStatus::can_become`), checked here in
//! one place; it reports whether it won, so when two verdicts race the
//! database decides and the loser changes nothing.

use crate::platform::clock::At;
use crate::platform::db::{Db, Tx};
use holdfast_model::money::Money;
use holdfast_model::PaymentStatus::{self, *};

use super::CheckoutSession;
use holdfast_model::BookingId;

/// `from → to` for one booking's payment, only from a listed state. Panics
/// on a step the machine forbids: that is a bug, not a runtime condition.
async fn transition(
    tx: &mut Tx,
    booking_id: &BookingId,
    from: &[PaymentStatus],
    to: PaymentStatus,
    now: At,
) -> Result<bool, sqlx::Error> {
    Ok(sqlx::query(&transition_sql(from, to, ""))
        .bind(booking_id)
        .bind(now)
        .execute(&mut **tx)
        .await?
        .rows_affected()
        == 1)
}

/// The conditional update of `from → to` ($1 the booking, $2 now), setting
/// `also` too (more columns, from $3) in the same statement.
fn transition_sql(from: &[PaymentStatus], to: PaymentStatus, also: &str) -> String {
    assert!(
        from.iter().all(|f| f.can_become(to)),
        "payment machine forbids {from:?} → {to}"
    );
    format!(
        "update payment set status = {}, updated_at = $2{also}
         where booking_id = $1 and status in {}",
        to.sql(),
        PaymentStatus::sql_list(from)
    )
}

/// The pay step: a payment in `creating`, before the provider is asked.
pub async fn insert_creating(
    tx: &mut Tx,
    booking_id: &BookingId,
    provider: &str,
    now: At,
) -> Result<(), sqlx::Error> {
    let sql = format!(
        "insert into payment (booking_id, provider, status, amount_cents, currency, created_at, updated_at)
         select id, $2, {}, amount_cents, currency, $3, $3 from booking where id = $1",
        Creating.sql()
    );
    sqlx::query(&sql)
        .bind(booking_id)
        .bind(provider)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The payment's state (in the caller's transaction, after the booking's
/// row lock, so it cannot change under the caller).
pub async fn status(
    tx: &mut Tx,
    booking_id: &BookingId,
) -> Result<Option<PaymentStatus>, sqlx::Error> {
    let row: Option<(PaymentStatus,)> =
        sqlx::query_as("select status from payment where booking_id = $1")
            .bind(booking_id)
            .fetch_optional(&mut **tx)
            .await?;
    Ok(row.map(|(s,)| s))
}

/// Stores the provider's session (its id links later webhooks); a payment
/// still `creating` becomes `open`.
pub async fn record_session(
    tx: &mut Tx,
    booking_id: &BookingId,
    session: &CheckoutSession,
    now: At,
) -> Result<(), sqlx::Error> {
    // One statement: the session whatever the state, and `creating → open`.
    assert!(
        Creating.can_become(Open),
        "payment machine forbids creating → open"
    );
    let sql = format!(
        "update payment set checkout_session_id = $2, checkout_url = $3,
                payment_intent_id = coalesce($4, payment_intent_id), updated_at = $5,
                status = case when status in {creating} then {open} else status end
         where booking_id = $1",
        creating = PaymentStatus::sql_list(&[Creating]),
        open = Open.sql(),
    );
    sqlx::query(&sql)
        .bind(booking_id)
        .bind(&session.id)
        .bind(&session.url)
        .bind(session.payment_intent_id.as_deref())
        .bind(now)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// A paid verdict: `creating | open | expired → paid`. Only the caller that
/// wins this may book or re-take; a payment already past it is a duplicate.
pub async fn mark_paid(
    tx: &mut Tx,
    booking_id: &BookingId,
    payment_intent: Option<&str>,
    customer_email: Option<&str>,
    now: At,
) -> Result<bool, sqlx::Error> {
    let sql = transition_sql(
        &PaymentStatus::sources_of(Paid),
        Paid,
        ", payment_intent_id = coalesce($3, payment_intent_id),
           customer_email = coalesce(customer_email, $4)",
    );
    Ok(sqlx::query(&sql)
        .bind(booking_id)
        .bind(now)
        .bind(payment_intent)
        .bind(customer_email)
        .execute(&mut **tx)
        .await?
        .rows_affected()
        == 1)
}

/// The checkout ended without money: `creating | open → expired`.
pub async fn mark_expired(
    tx: &mut Tx,
    booking_id: &BookingId,
    now: At,
) -> Result<bool, sqlx::Error> {
    transition(tx, booking_id, &[Creating, Open], Expired, now).await
}

/// Money goes back through the outbox: `paid → refund_pending`.
pub async fn begin_refund(
    tx: &mut Tx,
    booking_id: &BookingId,
    now: At,
) -> Result<bool, sqlx::Error> {
    transition(tx, booking_id, &[Paid], RefundPending, now).await
}

/// The provider confirmed our refund: `refund_pending → refunded`.
pub async fn complete_refund(
    tx: &mut Tx,
    booking_id: &BookingId,
    refund_id: &str,
    now: At,
) -> Result<bool, sqlx::Error> {
    set_refund_id(tx, booking_id, Some(refund_id)).await?;
    transition(tx, booking_id, &[RefundPending], Refunded, now).await
}

/// Refunded in full outside Holdfast (or our own refund's echo): whatever
/// the payment was short of refunded or disputed, it is refunded now.
/// Answers the state it left, when it moved.
pub async fn refunded_in_full(
    tx: &mut Tx,
    booking_id: &BookingId,
    refund_id: Option<&str>,
    now: At,
) -> Result<Option<PaymentStatus>, sqlx::Error> {
    let Some(from) = status(tx, booking_id).await? else {
        return Ok(None);
    };
    set_refund_id(tx, booking_id, refund_id).await?;
    if !from.can_become(Refunded) || !transition(tx, booking_id, &[from], Refunded, now).await? {
        return Ok(None);
    }
    sqlx::query("update payment set refunded_cents = amount_cents where booking_id = $1")
        .bind(booking_id)
        .execute(&mut **tx)
        .await?;
    Ok(Some(from))
}

/// The bank disputes the charge. Answers the state it left, when it moved.
pub async fn disputed(
    tx: &mut Tx,
    booking_id: &BookingId,
    now: At,
) -> Result<Option<PaymentStatus>, sqlx::Error> {
    let Some(from) = status(tx, booking_id).await? else {
        return Ok(None);
    };
    if !from.can_become(Disputed) || !transition(tx, booking_id, &[from], Disputed, now).await? {
        return Ok(None);
    }
    Ok(Some(from))
}

/// The provider says `refunded_cents` went back in all (outside Holdfast,
/// or the echo of our own refunds): recorded, never lowered, the ticket
/// stays. Our refunds not yet marked done are left out of the provider's
/// total (the transaction that marks each adds it), and while the
/// booking's own refund is under way its completion records it.
pub async fn record_partial_refund(
    tx: &mut Tx,
    booking_id: &BookingId,
    refunded_cents: i64,
    refund_id: Option<&str>,
    now: At,
) -> Result<(), sqlx::Error> {
    set_refund_id(tx, booking_id, refund_id).await?;
    let unsent = super::refund_part::unsent_cents(&mut **tx, booking_id).await?;
    let known = (refunded_cents - unsent).max(0);
    sqlx::query(&format!(
        "update payment set refunded_cents = $2, updated_at = $3
         where booking_id = $1 and refunded_cents < $2 and status <> {}",
        RefundPending.sql()
    ))
    .bind(booking_id)
    .bind(known)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// One of our refunds went back (the provider answered it): added to what
/// went back (never beyond what was paid), in the transaction that marks
/// it done.
pub async fn add_refunded(
    tx: &mut Tx,
    booking_id: &BookingId,
    cents: i64,
    now: At,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "update payment set updated_at = $3,
                refunded_cents = case when refunded_cents + $2 > amount_cents then amount_cents
                                      else refunded_cents + $2 end
         where booking_id = $1",
    )
    .bind(booking_id)
    .bind(cents.max(0))
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

async fn set_refund_id(
    tx: &mut Tx,
    booking_id: &BookingId,
    refund_id: Option<&str>,
) -> Result<(), sqlx::Error> {
    if refund_id.is_some() {
        sqlx::query("update payment set refund_id = coalesce(refund_id, $2) where booking_id = $1")
            .bind(booking_id)
            .bind(refund_id)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// What a refund needs: the intent to refund, what is left of the money
/// (the amount less what went back and the part refunds not sent yet),
/// the state now.
pub struct RefundTarget {
    pub payment_intent: Option<String>,
    pub left: Money,
    pub status: Option<PaymentStatus>,
}

pub async fn refund_target(
    db: &Db,
    booking_id: &BookingId,
) -> Result<Option<RefundTarget>, sqlx::Error> {
    #[derive(sqlx::FromRow)]
    struct Row {
        payment_intent_id: Option<String>,
        #[sqlx(flatten)]
        left: Money,
        status: Option<PaymentStatus>,
    }
    let sql = format!(
        "select payment_intent_id, {} as amount_cents, currency, status
         from payment where booking_id = $1",
        super::refund_part::left_to_refund_sql("payment")
    );
    let row: Option<Row> = sqlx::query_as(&sql)
        .bind(booking_id)
        .fetch_optional(db.writer())
        .await?;
    Ok(row.map(|r| RefundTarget {
        payment_intent: r.payment_intent_id,
        left: r.left,
        status: r.status,
    }))
}

/// The booking a provider's payment intent paid for.
pub async fn booking_of_intent(db: &Db, intent: &str) -> Result<Option<BookingId>, sqlx::Error> {
    let row: Option<(BookingId,)> =
        sqlx::query_as("select booking_id from payment where payment_intent_id = $1")
            .bind(intent)
            .fetch_optional(db.reader())
            .await?;
    Ok(row.map(|r| r.0))
}

/// The provider's session of a booking, once one was recorded.
pub async fn session_of(db: &Db, booking_id: &BookingId) -> Result<Option<String>, sqlx::Error> {
    let row: Option<(Option<String>,)> =
        sqlx::query_as("select checkout_session_id from payment where booking_id = $1")
            .bind(booking_id)
            .fetch_optional(db.reader())
            .await?;
    Ok(row.and_then(|r| r.0))
}

/// Where mail about a booking goes: the address the checkout collected,
/// else the account its buyer was signed in to.
pub async fn customer_email(
    db: &Db,
    booking_id: &BookingId,
) -> Result<Option<String>, sqlx::Error> {
    let row: Option<(Option<String>,)> = sqlx::query_as(
        "select coalesce(p.customer_email, a.email) from booking b
         left join payment p on p.booking_id = b.id
         left join account a on a.buyer_id = b.buyer_id
         where b.id = $1",
    )
    .bind(booking_id)
    .fetch_optional(db.writer())
    .await?;
    Ok(row.and_then(|r| r.0))
}

/// PAYMENT_PENDING bookings reconciliation should settle now: past their
/// deadline, or whose checkout was never created and no longer can be
/// (under `min_ahead_ms` left), and not leased by another instance.
pub async fn due_for_reconciliation(
    db: &Db,
    now: At,
    min_ahead_ms: i64,
    checkout_ttl_ms: i64,
) -> Result<Vec<BookingId>, sqlx::Error> {
    // Past its deadline; or never created, and its session (ending at the
    // later of the deadline and the checkout's full time) could no longer be.
    let sql = format!(
        "select b.id from booking b join payment p on p.booking_id = b.id
         where b.status = {} and p.lease_until <= $1
           and (b.held_until <= $1
                or (p.status = {} and b.held_until < $2 and p.created_at + $3 < $2))
         order by b.held_until limit 50",
        holdfast_model::BookingStatus::PaymentPending.sql(),
        Creating.sql()
    );
    let rows: Vec<(BookingId,)> = sqlx::query_as(&sql)
        .bind(now)
        .bind(now + min_ahead_ms)
        .bind(checkout_ttl_ms)
        .fetch_all(db.reader())
        .await?;
    Ok(rows.into_iter().map(|r| r.0).collect())
}

/// Claims a payment for one reconciliation (a lease, not a status).
pub async fn lease(
    db: &Db,
    booking_id: &BookingId,
    until: At,
    now: At,
) -> Result<bool, sqlx::Error> {
    Ok(sqlx::query(
        "update payment set lease_until = $2 where booking_id = $1 and lease_until <= $3",
    )
    .bind(booking_id)
    .bind(until)
    .bind(now)
    .execute(db.writer())
    .await?
    .rows_affected()
        == 1)
}
