//! An organizer gives back part of what a booking paid: any number of
//! times, each with a reason and a choice to tell the buyer, never together
//! above what was paid. While the ticket stands a part refund leaves some
//! of the payment (giving everything back is the booking's own refund,
//! which releases its places); once the booking ended — a buyer cancelled
//! under a policy that kept part of the money — the rest may go back to
//! the last cent.
//!
//! Asked under the booking's row lock (the lock every verdict takes), so
//! concurrent asks queue and each sees the others: what is left is the
//! payment less what went back (`payment.refunded_cents`) and less the
//! parts not sent yet. Each part is its own provider refund with its own
//! idempotency key, sent by the outbox; the transaction that marks it sent
//! adds it to `payment.refunded_cents`, and the provider's echo never
//! counts a part twice (`store::record_provider_total` leaves out the
//! parts still unsent, the one being sent among them).

use super::outbox;
use super::store as payments;
use crate::admin::audit::{self, Entry};
use crate::admin::audit_detail::Detail;
use crate::admin::auth::Admin;
use crate::booking::store;
use crate::platform::clock::{rfc3339, At};
use crate::platform::db::{self, Db, Tx};
use crate::platform::retry;
use crate::{ApiError, AppState};
use holdfast_model::i18n::Msg;
use holdfast_model::money::Money;
use holdfast_model::{
    BookingId, BookingStatus, PartRefund, PartRefundRequest, PartRefundState, PaymentStatus,
    REASON_MAX_CHARS,
};

/// Gives back `ask.amount_cents` of the booking's payment, as `admin`; run
/// again whole when the database rolls it back for contention.
pub async fn give(
    state: &AppState,
    admin: &Admin,
    booking_id: &BookingId,
    ask: &PartRefundRequest,
) -> Result<PartRefund, ApiError> {
    let reason = checked_reason(&ask.reason)?;
    if ask.amount_cents < 1 {
        return Err(ApiError::unprocessable(
            "amountCents must be at least 1 (minor units of the booking's currency)",
            "amountCents",
        ));
    }
    retry::retried("part refund", || {
        give_once(state, admin, booking_id, ask, reason)
    })
    .await
}

/// The reason, trimmed; 422 when empty or too long.
fn checked_reason(reason: &str) -> Result<&str, ApiError> {
    let reason = reason.trim();
    if reason.is_empty() || reason.chars().count() > REASON_MAX_CHARS {
        return Err(ApiError::unprocessable(
            format!("reason must say why in 1 to {REASON_MAX_CHARS} characters"),
            "reason",
        ));
    }
    Ok(reason)
}

async fn give_once(
    state: &AppState,
    admin: &Admin,
    booking_id: &BookingId,
    ask: &PartRefundRequest,
    reason: &str,
) -> Result<PartRefund, ApiError> {
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    let booking = store::lock(&mut tx, booking_id)
        .await?
        .ok_or(ApiError::NotFound("booking"))?;
    let Some(money) = money_of(&mut tx, booking_id).await? else {
        return Err(ApiError::InvalidState(
            "this booking was never paid, so there is nothing to refund".into(),
        ));
    };
    let stands = booking.status == BookingStatus::Booked;
    match money.status {
        PaymentStatus::Paid if stands => {}
        // Ended, its own refund done: what the buyer's cancellation kept.
        PaymentStatus::Refunded if !stands => {}
        PaymentStatus::RefundPending => {
            return Err(ApiError::InvalidState(
                "this booking's refund is still on its way; ask again once it is done".into(),
            ))
        }
        other => {
            return Err(ApiError::InvalidState(format!(
                "a booking {} with its payment {other} cannot be refunded in part",
                booking.status
            )))
        }
    }
    // While the ticket stands, something stays paid: all of it back is the
    // booking's refund, which also frees its places.
    let most = if stands { money.left - 1 } else { money.left };
    if ask.amount_cents > most {
        let l = holdfast_model::i18n::Locale::En;
        let left = l.price(money.left, money.currency.code());
        let message = if stands {
            format!("at most {} can go back while the tickets stay valid ({left} is left of the payment); refund the booking to give back all of it", l.price(most.max(0), money.currency.code()))
        } else {
            format!("at most {left} is left of the payment to refund")
        };
        return Err(ApiError::unprocessable(message, "amountCents"));
    }
    let id = format!("rp_{}", uuid::Uuid::new_v4().simple());
    let amount = Money::new(ask.amount_cents, money.currency);
    sqlx::query(
        "insert into refund_part (id, booking_id, amount_cents, currency, reason, notify_buyer, actor, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(&id)
    .bind(booking_id)
    .bind(amount.minor())
    .bind(amount.currency().code())
    .bind(reason)
    .bind(i64::from(ask.notify_buyer))
    .bind(&admin.actor)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    history_row(
        &mut tx,
        booking_id,
        booking.status,
        admin,
        amount,
        reason,
        now,
    )
    .await?;
    let said = Detail::PartRefunded {
        cents: amount.minor(),
        currency: amount.currency().code().to_string(),
        reason: reason.to_string(),
    };
    let entry = Entry {
        by: admin,
        action: "refund_part",
        event_id: Some(booking.event_id),
        booking_id: Some(booking_id),
        detail: &said,
    };
    audit::record(&mut tx, &entry, now).await?;
    outbox::enqueue_refund_part(&mut tx, booking_id, &id, now).await?;
    db::commit(tx).await?;
    crate::platform::metrics::payment("refunded_in_part");
    Ok(PartRefund {
        refund_id: id,
        booking_id: booking_id.clone(),
        amount_cents: amount.minor(),
        currency: amount.currency().code().to_string(),
        reason: reason.to_string(),
        notify_buyer: ask.notify_buyer,
        state: PartRefundState::Asked,
        by: admin.actor.clone(),
        at: rfc3339(now),
        left_cents: money.left - amount.minor(),
    })
}

/// The part refund as a row of the booking's history: the status it stood
/// in, before and after, with the amount and why.
async fn history_row(
    tx: &mut Tx,
    booking_id: &BookingId,
    status: BookingStatus,
    admin: &Admin,
    amount: Money,
    reason: &str,
    now: At,
) -> Result<(), sqlx::Error> {
    let cause = holdfast_model::Cause::Admin(admin.actor.clone()).stored();
    sqlx::query(
        "insert into booking_history (booking_id, from_status, to_status, cause, at, refund_cents, note)
         values ($1, $2, $2, $3, $4, $5, $6)",
    )
    .bind(booking_id)
    .bind(status.as_str())
    .bind(cause)
    .bind(now)
    .bind(amount.minor())
    .bind(reason)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// A payment and what may still go back of it.
pub struct Left {
    pub status: PaymentStatus,
    pub currency: holdfast_model::money::Currency,
    /// Paid, less what went back and the parts not sent yet.
    pub left: i64,
}

/// The booking's payment and what is left of it; `None` without one.
async fn money_of(tx: &mut Tx, booking_id: &BookingId) -> Result<Option<Left>, sqlx::Error> {
    #[derive(sqlx::FromRow)]
    struct Row {
        status: PaymentStatus,
        #[sqlx(flatten)]
        paid: Money,
        refunded_cents: i64,
    }
    let row: Option<Row> = sqlx::query_as(
        "select status, amount_cents, currency, refunded_cents from payment where booking_id = $1",
    )
    .bind(booking_id)
    .fetch_optional(&mut **tx)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let unsent = unsent_cents(&mut **tx, booking_id).await?;
    Ok(Some(Left {
        status: row.status,
        currency: row.paid.currency(),
        left: (row.paid.minor() - row.refunded_cents - unsent).max(0),
    }))
}

/// SQL for what is left to give back of `payment` (a table alias or
/// name) once the parts not sent yet are counted: the paid amount less
/// what the provider has refunded and less those parts. Every question of
/// "how much may still go back" reads it, so the limit has one meaning.
pub fn left_to_refund_sql(payment: &str) -> String {
    format!(
        "{payment}.amount_cents - {payment}.refunded_cents
           - (select cast(coalesce(sum(unsent.amount_cents), 0) as bigint) from refund_part unsent
              where unsent.booking_id = {payment}.booking_id and unsent.sent_at is null)"
    )
}

/// What the booking's part refunds not sent yet add up to.
pub async fn unsent_cents<'e, E>(db: E, booking_id: &BookingId) -> Result<i64, sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let (cents,): (i64,) = sqlx::query_as(
        "select cast(coalesce(sum(amount_cents), 0) as bigint) from refund_part
         where booking_id = $1 and sent_at is null",
    )
    .bind(booking_id)
    .fetch_one(db)
    .await?;
    Ok(cents)
}

/// A part refund as the outbox reads it.
#[derive(sqlx::FromRow)]
struct Unsent {
    #[sqlx(flatten)]
    amount: Money,
    reason: String,
    notify_buyer: i64,
    sent_at: Option<At>,
}

/// Sends part refund `part_id` of the booking through the provider (its
/// own idempotency key makes a repeat the same refund), then marks it sent,
/// adds it to what went back and, if asked, tells the buyer why.
pub(super) async fn send(
    state: &AppState,
    booking_id: &BookingId,
    part_id: &str,
) -> Result<(), ApiError> {
    let part: Option<Unsent> = sqlx::query_as(
        "select amount_cents, currency, reason, notify_buyer, sent_at from refund_part
         where id = $1 and booking_id = $2",
    )
    .bind(part_id)
    .bind(booking_id)
    .fetch_optional(state.db.writer())
    .await?;
    let Some(part) = part else {
        return Err(ApiError::InvalidState(format!(
            "no part refund {part_id} of {booking_id}"
        )));
    };
    if part.sent_at.is_some() {
        return Ok(());
    }
    let Some(target) = payments::refund_target(&state.db, booking_id).await? else {
        return Err(ApiError::InvalidState(format!(
            "no payment to refund for {booking_id}"
        )));
    };
    let Some(intent) = target.payment_intent else {
        return Err(ApiError::InvalidState(format!(
            "no payment intent to refund for {booking_id}"
        )));
    };
    let key = outbox::refund_part_key(booking_id, part_id);
    let refund_id = state
        .payments
        .provider
        .refund(&intent, part.amount, &key)
        .await
        .map_err(ApiError::internal)?;
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    let booking = store::lock(&mut tx, booking_id)
        .await?
        .ok_or(ApiError::NotFound("booking"))?;
    let marked = sqlx::query(
        "update refund_part set sent_at = $2, provider_refund_id = $3
         where id = $1 and sent_at is null",
    )
    .bind(part_id)
    .bind(now)
    .bind(&refund_id)
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    if marked {
        payments::add_refunded(&mut tx, booking_id, part.amount.minor(), now).await?;
        if part.notify_buyer == 1 {
            let l = crate::buyer_language::of_booking(&mut tx, booking_id).await?;
            let amount = l.price(part.amount.minor(), part.amount.currency().code());
            let body = l.fill(
                Msg::MailRefundedInPart,
                &[("amount", &amount), ("reason", &part.reason)],
            );
            outbox::enqueue_email(
                &mut tx,
                booking_id,
                &format!("refunded-part-{part_id}"),
                &format!("buyer:{}", booking.buyer_id),
                l.t(Msg::MailRefundedInPartSubject),
                &body,
                now,
            )
            .await?;
        }
    }
    db::commit(tx).await?;
    Ok(())
}

/// The booking's part refunds, oldest first.
pub async fn of_booking(db: &Db, booking_id: &BookingId) -> Result<Vec<PartRefund>, sqlx::Error> {
    #[derive(sqlx::FromRow)]
    struct Row {
        id: String,
        #[sqlx(flatten)]
        amount: Money,
        reason: String,
        notify_buyer: i64,
        actor: String,
        created_at: At,
        sent_at: Option<At>,
    }
    let rows: Vec<Row> = sqlx::query_as(
        "select id, amount_cents, currency, reason, notify_buyer, actor, created_at, sent_at
         from refund_part where booking_id = $1 order by created_at, id",
    )
    .bind(booking_id)
    .fetch_all(db.reader())
    .await?;
    let sql = format!(
        "select {} from payment where booking_id = $1",
        left_to_refund_sql("payment")
    );
    let left: Option<(i64,)> = sqlx::query_as(&sql)
        .bind(booking_id)
        .fetch_optional(db.reader())
        .await?;
    let left = left.map_or(0, |l| l.0.max(0));
    Ok(rows
        .into_iter()
        .map(|r| PartRefund {
            refund_id: r.id,
            booking_id: booking_id.clone(),
            amount_cents: r.amount.minor(),
            currency: r.amount.currency().code().to_string(),
            reason: r.reason,
            notify_buyer: r.notify_buyer == 1,
            state: match r.sent_at {
                Some(_) => PartRefundState::Sent,
                None => PartRefundState::Asked,
            },
            by: r.actor,
            at: rfc3339(r.created_at),
            left_cents: left,
        })
        .collect())
}
