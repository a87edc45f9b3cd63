//! What a provider's verdict does to a booking, in the caller's transaction.
//! Shared by the webhook and by reconciliation, so both paths decide alike;
//! every step is conditional on the current state, so applying the same
//! verdict twice changes nothing the second time.

use super::outbox;
use crate::core::booking::store;
use crate::core::db::Tx;
use crate::core::seat_map::Occupancy;
use crate::model::{format_price, EventId, SeatId};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaidOutcome {
    Booked,
    /// A late payment took back the very same seats.
    Retaken,
    /// A late payment whose seats are gone (or a wrong amount): refund queued.
    RefundQueued,
    /// Already BOOKED or REFUNDED (or refund under way).
    AlreadySettled,
    UnknownBooking,
}

impl PaidOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            PaidOutcome::Booked => "booked",
            PaidOutcome::Retaken => "late_payment_retaken",
            PaidOutcome::RefundQueued => "late_payment_refund_queued",
            PaidOutcome::AlreadySettled => "already_settled",
            PaidOutcome::UnknownBooking => "unknown_booking",
        }
    }
}

/// Seat-map changes to publish after commit.
#[derive(Debug, Default)]
pub struct MapChanges {
    pub event_id: EventId,
    pub changes: Vec<(SeatId, Occupancy)>,
}

/// What the provider reports about a paid checkout.
#[derive(Debug, Clone, Copy)]
pub struct Paid<'a> {
    pub payment_intent: Option<&'a str>,
    pub amount_cents: i64,
    pub currency: &'a str,
    /// The address the buyer gave at checkout (for the confirmation).
    pub customer_email: Option<&'a str>,
}

/// The provider says the booking's checkout is paid.
pub async fn apply_paid(
    tx: &mut Tx,
    booking_id: &str,
    paid: Paid<'_>,
    now: i64,
) -> Result<(PaidOutcome, MapChanges), sqlx::Error> {
    let (outcome, changes) = settle_paid(tx, booking_id, paid, now).await?;
    crate::core::metrics::payment(match outcome {
        PaidOutcome::Booked => "booked",
        PaidOutcome::Retaken => "late_retaken",
        PaidOutcome::RefundQueued => "late_refund_queued",
        PaidOutcome::AlreadySettled | PaidOutcome::UnknownBooking => "paid_again",
    });
    Ok((outcome, changes))
}

async fn settle_paid(
    tx: &mut Tx,
    booking_id: &str,
    paid: Paid<'_>,
    now: i64,
) -> Result<(PaidOutcome, MapChanges), sqlx::Error> {
    let Paid {
        payment_intent,
        amount_cents,
        currency,
        customer_email,
    } = paid;
    let row: Option<(String, i64, String, String, i64)> = sqlx::query_as(
        "select status, amount_cents, currency, buyer_id, event_id from booking where id = $1",
    )
    .bind(booking_id)
    .fetch_optional(&mut **tx)
    .await?;
    let Some((status, amount, booking_currency, buyer, event_id)) = row else {
        return Ok((PaidOutcome::UnknownBooking, MapChanges::default()));
    };
    sqlx::query(
        "update payment set status = 'paid', payment_intent_id = coalesce($2, payment_intent_id), updated_at = $3
         where booking_id = $1 and status in ('creating', 'open', 'expired')",
    )
    .bind(booking_id)
    .bind(payment_intent)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "update payment set customer_email = $2 where booking_id = $1 and customer_email is null",
    )
    .bind(booking_id)
    .bind(customer_email)
    .execute(&mut **tx)
    .await?;
    let right_amount = amount == amount_cents && booking_currency.eq_ignore_ascii_case(currency);
    if !right_amount {
        tracing::error!(
            booking_id,
            amount_cents,
            currency,
            "paid amount does not match the booking"
        );
    }
    let mut changes = MapChanges {
        event_id,
        changes: Vec::new(),
    };
    let outcome = match status.as_str() {
        "PAYMENT_PENDING" if right_amount => {
            if store::book(tx, booking_id, now).await? {
                confirmed(tx, booking_id, &buyer, amount, &booking_currency, now).await?;
                booked_seats(tx, booking_id, &mut changes).await?;
                PaidOutcome::Booked
            } else {
                PaidOutcome::AlreadySettled
            }
        }
        "PAYMENT_PENDING" => {
            if let Some(r) = store::end_unpaid_checkout(tx, booking_id, now).await? {
                changes.changes = r.as_changes();
            }
            queue_refund(tx, booking_id, now).await?
        }
        "EXPIRED" | "CANCELLED" => {
            if right_amount && store::retake(tx, booking_id, now).await? {
                confirmed(tx, booking_id, &buyer, amount, &booking_currency, now).await?;
                booked_seats(tx, booking_id, &mut changes).await?;
                PaidOutcome::Retaken
            } else {
                queue_refund(tx, booking_id, now).await?
            }
        }
        _ => PaidOutcome::AlreadySettled,
    };
    Ok((outcome, changes))
}

/// The provider says the checkout ended without money: the seats go back.
pub async fn apply_checkout_ended(
    tx: &mut Tx,
    booking_id: &str,
    now: i64,
) -> Result<(bool, MapChanges), sqlx::Error> {
    sqlx::query(
        "update payment set status = 'expired', updated_at = $2 where booking_id = $1 and status in ('creating', 'open')",
    )
    .bind(booking_id)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    let Some(released) = store::end_unpaid_checkout(tx, booking_id, now).await? else {
        return Ok((false, MapChanges::default()));
    };
    crate::core::metrics::payment("failed");
    let buyer: (String,) = sqlx::query_as("select buyer_id from booking where id = $1")
        .bind(booking_id)
        .fetch_one(&mut **tx)
        .await?;
    outbox::enqueue_email(
        tx,
        booking_id,
        &format!("expired-{booking_id}"),
        &format!("buyer:{}", buyer.0),
        "Your reservation has ended",
        "The payment was not completed in time, so the seats were released. Nothing was charged.",
        now,
    )
    .await?;
    Ok((
        true,
        MapChanges {
            event_id: released.event_id,
            changes: released.as_changes(),
        },
    ))
}

/// paid → refund_pending exactly once, with the refund in the outbox.
async fn queue_refund(tx: &mut Tx, booking_id: &str, now: i64) -> Result<PaidOutcome, sqlx::Error> {
    let won = sqlx::query(
        "update payment set status = 'refund_pending', updated_at = $2 where booking_id = $1 and status = 'paid'",
    )
    .bind(booking_id)
    .bind(now)
    .execute(&mut **tx)
    .await?
    .rows_affected()
        == 1;
    if !won {
        return Ok(PaidOutcome::AlreadySettled);
    }
    outbox::enqueue_refund(tx, booking_id, outbox::RefundReason::LatePayment, now).await?;
    Ok(PaidOutcome::RefundQueued)
}

async fn confirmed(
    tx: &mut Tx,
    booking_id: &str,
    buyer: &str,
    amount: i64,
    currency: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    outbox::enqueue_email(
        tx,
        booking_id,
        &format!("confirmed-{booking_id}"),
        &format!("buyer:{buyer}"),
        "Your booking is confirmed",
        &format!(
            "Booking {booking_id} is paid ({}). Your tickets are ready.",
            format_price(amount, currency)
        ),
        now,
    )
    .await
}

async fn booked_seats(
    tx: &mut Tx,
    booking_id: &str,
    changes: &mut MapChanges,
) -> Result<(), sqlx::Error> {
    changes.changes = store::seats_of(tx, booking_id)
        .await?
        .into_iter()
        .map(|s| (s, Occupancy::Booked))
        .collect();
    Ok(())
}
