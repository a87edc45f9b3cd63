//! Money that went back after it arrived, outside Holdfast: refunded from
//! the provider's dashboard (in full or in part), or disputed by the buyer's
//! bank — or our own refund's echo. A full refund or a dispute voids the
//! ticket (REFUNDED / DISPUTED), frees its seats and tells the buyer; a
//! partial refund is recorded and the ticket stays. Applied in the
//! webhook's transaction, under the booking's row lock, like every verdict.

use super::effects::MapChanges;
use super::outbox;
use super::store as payments;
use crate::booking::store;
use crate::platform::clock::At;
use crate::platform::db::Tx;
use holdfast_model::i18n::Msg;
use holdfast_model::{BookingId, Cause};
use holdfast_model::{BookingStatus, PaymentStatus};

/// What the provider says happened to the money after it arrived, outside
/// Holdfast: refunded (in full or in part) from the provider's dashboard,
/// or disputed by the buyer's bank.
#[derive(Debug, Clone, Copy)]
pub enum MoneyBack<'a> {
    Refunded {
        refunded_cents: i64,
        charged_cents: i64,
        refund_id: Option<&'a str>,
    },
    Disputed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoneyBackOutcome {
    /// The ticket is void (booking REFUNDED or DISPUTED), seats released.
    TicketVoided,
    /// Our own refund confirmed (the booking had already ended).
    RefundConfirmed,
    /// Part of the money went back; the ticket stays.
    PartialRefundRecorded,
    /// Nothing left to change.
    AlreadySettled,
    UnknownBooking,
}

impl MoneyBackOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            MoneyBackOutcome::TicketVoided => "ticket_voided",
            MoneyBackOutcome::RefundConfirmed => "refund_confirmed",
            MoneyBackOutcome::PartialRefundRecorded => "partial_refund_recorded",
            MoneyBackOutcome::AlreadySettled => "already_settled",
            MoneyBackOutcome::UnknownBooking => "unknown_booking",
        }
    }
}

pub async fn apply_money_back(
    tx: &mut Tx,
    booking_id: &BookingId,
    what: MoneyBack<'_>,
    by: &Cause,
    now: At,
) -> Result<(MoneyBackOutcome, MapChanges), sqlx::Error> {
    let Some(booking) = store::lock(tx, booking_id).await? else {
        return Ok((MoneyBackOutcome::UnknownBooking, MapChanges::default()));
    };
    let (moved, to, subject, body) = match what {
        MoneyBack::Refunded {
            refunded_cents,
            charged_cents,
            refund_id,
        } if refunded_cents < charged_cents => {
            payments::record_partial_refund(tx, booking_id, refunded_cents, refund_id, now).await?;
            return Ok((
                MoneyBackOutcome::PartialRefundRecorded,
                MapChanges::default(),
            ));
        }
        MoneyBack::Refunded { refund_id, .. } => (
            payments::refunded_in_full(tx, booking_id, refund_id, now).await?,
            BookingStatus::Refunded,
            Msg::MailRefundedSubject,
            Msg::MailRefundedInFull,
        ),
        MoneyBack::Disputed => (
            payments::disputed(tx, booking_id, now).await?,
            BookingStatus::Disputed,
            Msg::MailDisputedSubject,
            Msg::MailDisputed,
        ),
    };
    let Some(from) = moved else {
        return Ok((MoneyBackOutcome::AlreadySettled, MapChanges::default()));
    };
    let released = store::void(tx, booking_id, to, by, now).await?;
    let outcome = if from == PaymentStatus::RefundPending && to == BookingStatus::Refunded {
        crate::platform::metrics::payment("refunded");
        MoneyBackOutcome::RefundConfirmed
    } else {
        crate::platform::metrics::payment(match to {
            BookingStatus::Disputed => "disputed",
            _ => "refunded_outside",
        });
        MoneyBackOutcome::TicketVoided
    };
    // Our own refund's email says why it was made (the outbox sends it);
    // money sent back or disputed elsewhere is told here.
    if outcome == MoneyBackOutcome::TicketVoided {
        let key = match to {
            BookingStatus::Disputed => format!("disputed-{booking_id}"),
            _ => format!("refunded-{booking_id}"),
        };
        let to_buyer = format!("buyer:{}", booking.buyer_id);
        let l = crate::buyer_language::of_booking(tx, booking_id).await?;
        let (subject, body) = (l.t(subject), l.t(body));
        outbox::enqueue_email(tx, booking_id, &key, &to_buyer, subject, body, now).await?;
    }
    Ok((outcome, released.map(MapChanges::from).unwrap_or_default()))
}
