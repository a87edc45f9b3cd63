//! What a provider's verdict does to a booking, in the caller's transaction.
//! Shared by the webhook and by reconciliation, so both paths decide alike;
//! every step is conditional on the current state, so applying the same
//! verdict twice changes nothing the second time.

use super::outbox;
use super::store as payments;
use crate::booking::store::{self, Locked};
use crate::platform::clock::At;
use crate::platform::db::Tx;
use crate::seat_map::Occupancy;
use holdfast_model::i18n::Msg;
use holdfast_model::{BookingId, Cause};
use holdfast_model::{BookingStatus, EventId, PaymentStatus, SeatId};

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

/// What an ended booking gave back, as map changes (its seats are free).
impl From<store::Released> for MapChanges {
    fn from(released: store::Released) -> Self {
        MapChanges {
            changes: released.as_changes(),
            event_id: released.event_id,
        }
    }
}

/// What the provider reports about a paid checkout.
#[derive(Debug, Clone, Copy)]
pub struct Paid<'a> {
    pub payment_intent: Option<&'a str>,
    pub amount_cents: i64,
    pub currency: &'a str,
    /// The address the buyer gave at checkout (for the confirmation).
    pub customer_email: Option<&'a str>,
    /// Who says so: the provider's webhook event, or reconciliation.
    pub by: &'a Cause,
}

/// The provider says the booking's checkout is paid.
pub async fn apply_paid(
    tx: &mut Tx,
    booking_id: &BookingId,
    paid: Paid<'_>,
    now: At,
) -> Result<(PaidOutcome, MapChanges), sqlx::Error> {
    let (outcome, changes) = settle_paid(tx, booking_id, paid, now).await?;
    crate::platform::metrics::payment(match outcome {
        PaidOutcome::Booked => "booked",
        PaidOutcome::Retaken => "late_retaken",
        PaidOutcome::RefundQueued => "late_refund_queued",
        PaidOutcome::AlreadySettled | PaidOutcome::UnknownBooking => "paid_again",
    });
    Ok((outcome, changes))
}

async fn settle_paid(
    tx: &mut Tx,
    booking_id: &BookingId,
    paid: Paid<'_>,
    now: At,
) -> Result<(PaidOutcome, MapChanges), sqlx::Error> {
    let Some(booking) = store::lock(tx, booking_id).await? else {
        return Ok((PaidOutcome::UnknownBooking, MapChanges::default()));
    };
    // The payment decides: only the verdict that moves it to `paid` acts.
    // One already paid, being refunded, refunded or disputed is a duplicate
    // (a second event id for the same money, or a stale reconciliation).
    if !payments::mark_paid(
        tx,
        booking_id,
        paid.payment_intent,
        paid.customer_email,
        now,
    )
    .await?
    {
        return Ok((PaidOutcome::AlreadySettled, MapChanges::default()));
    }
    let right_amount = booking.price.is(paid.amount_cents, paid.currency);
    if !right_amount {
        tracing::error!(
            %booking_id,
            paid.amount_cents,
            paid.currency,
            "paid amount does not match the booking"
        );
    }
    let mut changes = MapChanges {
        event_id: booking.event_id,
        changes: Vec::new(),
    };
    let outcome = match booking.status {
        BookingStatus::PaymentPending if right_amount => {
            store::book(tx, booking_id, paid.by, now).await?;
            changes.changes = confirmed(tx, booking_id, &booking, now).await?;
            PaidOutcome::Booked
        }
        BookingStatus::PaymentPending => {
            if let Some(r) = store::end_unpaid_checkout(tx, booking_id, paid.by, now).await? {
                changes.changes = r.as_changes();
            }
            queue_refund(tx, booking_id, now).await?
        }
        BookingStatus::Expired | BookingStatus::Cancelled if right_amount => {
            match store::retake(tx, booking_id, paid.by, now).await? {
                Ok(()) => {
                    changes.changes = confirmed(tx, booking_id, &booking, now).await?;
                    PaidOutcome::Retaken
                }
                Err(why) => {
                    tracing::info!(%booking_id, ?why, "late payment cannot re-take its seats");
                    queue_refund(tx, booking_id, now).await?
                }
            }
        }
        // Money for a booking that cannot be booked: it goes back.
        _ => queue_refund(tx, booking_id, now).await?,
    };
    Ok((outcome, changes))
}

/// The provider says the checkout ended without money: the seats go back
/// (unless a paid verdict already won).
pub async fn apply_checkout_ended(
    tx: &mut Tx,
    booking_id: &BookingId,
    by: &Cause,
    now: At,
) -> Result<(bool, MapChanges), sqlx::Error> {
    let Some(booking) = store::lock(tx, booking_id).await? else {
        return Ok((false, MapChanges::default()));
    };
    payments::mark_expired(tx, booking_id, now).await?;
    if payments::status(tx, booking_id).await? != Some(PaymentStatus::Expired) {
        return Ok((false, MapChanges::default()));
    }
    let Some(released) = store::end_unpaid_checkout(tx, booking_id, by, now).await? else {
        return Ok((false, MapChanges::default()));
    };
    crate::platform::metrics::payment("failed");
    let l = crate::buyer_language::of_booking(tx, booking_id).await?;
    outbox::enqueue_email(
        tx,
        booking_id,
        &format!("expired-{booking_id}"),
        &format!("buyer:{}", booking.buyer_id),
        l.t(Msg::MailExpiredSubject),
        l.t(Msg::MailExpired),
        now,
    )
    .await?;
    Ok((true, released.into()))
}

/// paid → refund_pending exactly once, with the refund in the outbox.
async fn queue_refund(
    tx: &mut Tx,
    booking_id: &BookingId,
    now: At,
) -> Result<PaidOutcome, sqlx::Error> {
    if !payments::begin_refund(tx, booking_id, now).await? {
        return Ok(PaidOutcome::AlreadySettled);
    }
    outbox::enqueue_refund(tx, booking_id, outbox::RefundReason::LatePayment, now).await?;
    Ok(PaidOutcome::RefundQueued)
}

/// The confirmation mail queued; answers the booked seats, as the live map
/// shows them now.
async fn confirmed(
    tx: &mut Tx,
    booking_id: &BookingId,
    booking: &Locked,
    now: At,
) -> Result<Vec<(SeatId, Occupancy)>, sqlx::Error> {
    let mail = super::confirmation::confirmation(tx, booking_id, booking.price).await?;
    outbox::enqueue_confirmation(
        tx,
        booking_id,
        &format!("confirmed-{booking_id}"),
        &format!("buyer:{}", booking.buyer_id),
        (&mail.subject, &mail.text),
        now,
    )
    .await?;
    let seats = match mail.seats {
        Some(seats) => seats,
        None => store::seats_of(tx, booking_id).await?,
    };
    Ok(seats.into_iter().map(|s| (s, Occupancy::Booked)).collect())
}
