//! What an admin does to a booking: release a hold, extend it (bounded),
//! refund a booked booking through the provider, resend the confirmation.
//! Each is one conditional transition plus its audit row in one
//! transaction; seat-map changes are published after the commit.

use super::audit::{self, Entry};
use super::audit_detail::Detail;
use super::auth::Admin;
use crate::core::booking::store::{self, Locked, Released};
use crate::core::payments::outbox::{self, RefundReason};
use crate::core::payments::store as payments;
use crate::core::platform::db::Tx;
use crate::core::seat_map::Occupancy;
use crate::core::{ApiError, AppState};
use crate::i18n::Locale;
use crate::model::console::ActionOutcome;
use crate::model::BookingId;
use crate::model::{BookingStatus, EventId, PaymentStatus};

/// One extension adds at most this much.
pub const MAX_EXTENSION_SECS: i64 = 600;
/// …and a hold never runs more than this far ahead of now.
pub const MAX_HOLD_AHEAD_MS: i64 = 30 * 60 * 1000;

/// An action's start: its time, its transaction, and the booking as it is,
/// read under its row lock (the lock every change of a booking takes).
async fn acting_on(
    state: &AppState,
    booking_id: &BookingId,
) -> Result<(i64, Tx, Locked), ApiError> {
    let now = state.clock.now_ms();
    let mut tx = state.db.begin().await?;
    let booking = store::lock(&mut tx, booking_id)
        .await?
        .ok_or(ApiError::NotFound("booking"))?;
    Ok((now, tx, booking))
}

/// The audit row of an action on a booking, in the action's transaction.
async fn audited(
    tx: &mut Tx,
    admin: &Admin,
    action: &str,
    event_id: EventId,
    booking_id: &BookingId,
    detail: &Detail,
    now: i64,
) -> Result<i64, sqlx::Error> {
    let entry = Entry {
        actor: &admin.actor,
        action,
        event_id: Some(event_id),
        booking_id: Some(booking_id),
        detail,
    };
    audit::record(tx, &entry, now).await
}

fn outcome(
    booking_id: &BookingId,
    action: &str,
    status: BookingStatus,
    detail: String,
) -> ActionOutcome {
    ActionOutcome {
        booking_id: booking_id.clone(),
        action: action.into(),
        status,
        detail,
    }
}

/// HELD → CANCELLED, whoever holds it.
pub async fn release(
    state: &AppState,
    admin: &Admin,
    booking_id: &BookingId,
) -> Result<ActionOutcome, ApiError> {
    let (now, mut tx, booking) = acting_on(state, booking_id).await?;
    let (status, event_id) = (booking.status, booking.event_id);
    let Some(released) = store::cancel_hold_by_admin(&mut tx, booking_id, now).await? else {
        return Err(ApiError::InvalidState(format!(
            "only a running hold can be released; this booking is {status}"
        )));
    };
    let said = Detail::Released {
        seats: released.seats.len(),
    };
    Done::new("release", event_id, booking_id, said)
        .giving_back_seats(state, tx, admin, released, now)
        .await
}

/// A running hold gets `seconds` more (1..=600), never ending more than 30
/// minutes from now.
pub async fn extend(
    state: &AppState,
    admin: &Admin,
    booking_id: &BookingId,
    seconds: i64,
) -> Result<ActionOutcome, ApiError> {
    if !(1..=MAX_EXTENSION_SECS).contains(&seconds) {
        return Err(ApiError::unprocessable(
            format!("seconds must be between 1 and {MAX_EXTENSION_SECS}"),
            "seconds",
        ));
    }
    let (now, mut tx, booking) = acting_on(state, booking_id).await?;
    let (status, event_id, held_until) = (booking.status, booking.event_id, booking.held_until);
    if status != BookingStatus::Held || held_until <= now {
        return Err(ApiError::InvalidState(format!(
            "only a running hold can be extended; this booking is {status}"
        )));
    }
    let until = (held_until + seconds * 1000).min(now + MAX_HOLD_AHEAD_MS);
    if store::extend_hold(&mut tx, booking_id, until, now)
        .await?
        .is_none()
    {
        return Err(ApiError::InvalidState(
            "this hold already runs as long as a hold may".into(),
        ));
    }
    let said = Detail::Extended {
        seconds: (until - held_until) / 1000,
    };
    audited(&mut tx, admin, "extend", event_id, booking_id, &said, now).await?;
    let detail = said.say(Locale::En);
    let seats = store::seats_of(&mut tx, booking_id).await?;
    tx.commit().await?;
    let changes: Vec<_> = seats
        .into_iter()
        .map(|s| (s, Occupancy::Held(until)))
        .collect();
    state.seat_maps.publish(event_id, &changes, now);
    Ok(outcome(booking_id, "extend", BookingStatus::Held, detail))
}

/// BOOKED → CANCELLED with the refund queued (the provider call leaves
/// through the outbox with the booking's one refund key). Asking again
/// answers the refund already under way and changes nothing.
pub async fn refund(
    state: &AppState,
    admin: &Admin,
    booking_id: &BookingId,
) -> Result<ActionOutcome, ApiError> {
    let (now, mut tx, booking) = acting_on(state, booking_id).await?;
    let (status, event_id) = (booking.status, booking.event_id);
    let Some(released) = store::cancel_booked(&mut tx, booking_id, now).await? else {
        return match payments::status(&mut tx, booking_id).await? {
            Some(
                p @ (PaymentStatus::RefundPending
                | PaymentStatus::Refunded
                | PaymentStatus::Disputed),
            ) => Ok(outcome(
                booking_id,
                "refund",
                status,
                format!("already refunded (payment {p})"),
            )),
            _ => Err(ApiError::InvalidState(format!(
                "only a booked booking can be refunded; this one is {status}"
            ))),
        };
    };
    if !payments::begin_refund(&mut tx, booking_id, now).await? {
        // BOOKED always has a paid payment (invariant 5); never refund blind.
        return Err(ApiError::InvalidState(
            "this booking has no paid payment to refund".into(),
        ));
    }
    outbox::enqueue_refund(&mut tx, booking_id, RefundReason::Admin, now).await?;
    let seats = released.seats.len();
    let done = Done::new(
        "refund",
        event_id,
        booking_id,
        Detail::RefundQueued { seats },
    );
    done.giving_back_seats(state, tx, admin, released, now)
        .await
}

/// An admin action on a booking, as its audit row and answer tell it.
struct Done<'a> {
    action: &'a str,
    event_id: EventId,
    booking_id: &'a BookingId,
    said: Detail,
}

impl<'a> Done<'a> {
    fn new(action: &'a str, event_id: EventId, booking_id: &'a BookingId, said: Detail) -> Self {
        Done {
            action,
            event_id,
            booking_id,
            said,
        }
    }

    /// The end of an action that cancelled a booking and gave its seats
    /// back: the audit row in the same transaction, the commit, every map
    /// told, the answer.
    async fn giving_back_seats(
        self,
        state: &AppState,
        mut tx: Tx,
        admin: &Admin,
        released: Released,
        now: i64,
    ) -> Result<ActionOutcome, ApiError> {
        let Done {
            action,
            event_id,
            booking_id,
            said,
        } = self;
        audited(&mut tx, admin, action, event_id, booking_id, &said, now).await?;
        tx.commit().await?;
        state
            .seat_maps
            .publish(released.event_id, &released.as_changes(), now);
        Ok(outcome(
            booking_id,
            action,
            BookingStatus::Cancelled,
            said.say(Locale::En),
        ))
    }
}

/// Queues the confirmation again (a fresh dedupe key per resend).
pub async fn resend_confirmation(
    state: &AppState,
    admin: &Admin,
    booking_id: &BookingId,
) -> Result<ActionOutcome, ApiError> {
    let (now, mut tx, booking) = acting_on(state, booking_id).await?;
    let (status, event_id) = (booking.status, booking.event_id);
    if status != BookingStatus::Booked {
        return Err(ApiError::InvalidState(format!(
            "only a booked booking has a confirmation; this one is {status}"
        )));
    }
    let (buyer, price) = (booking.buyer_id, booking.price);
    let said = Detail::ConfirmationQueued;
    let audit_id = audited(&mut tx, admin, "resend", event_id, booking_id, &said, now).await?;
    let detail = said.say(Locale::En);
    let (subject, text) =
        crate::core::payments::confirmation::confirmation(&mut tx, booking_id, price).await?;
    outbox::enqueue_email(
        &mut tx,
        booking_id,
        &format!("resend-{booking_id}-{audit_id}"),
        &format!("buyer:{buyer}"),
        &subject,
        &text,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(outcome(booking_id, "resend", status, detail))
}
