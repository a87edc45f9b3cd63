//! What an admin does to a booking: release a hold, extend it (bounded),
//! refund a booked booking through the provider, resend the confirmation.
//! Each is one conditional transition plus its audit row in one
//! transaction; seat-map changes are published after the commit.

use super::access::{self, Permission, Target};
use super::audit::{self, Entry};
use super::audit_detail::Detail;
use super::auth::Admin;
use crate::booking::store::{self, Locked, Released};
use crate::payments::outbox::{self, RefundReason};
use crate::payments::store as payments;
use crate::platform::clock::At;
use crate::platform::db::Tx;
use crate::platform::{db, retry};
use crate::seat_map::Occupancy;
use crate::{ApiError, AppState};
use holdfast_model::console::{ActionOutcome, BookingAction};
use holdfast_model::i18n::Locale;
use holdfast_model::{BookingId, Cause};
use holdfast_model::{BookingStatus, PaymentStatus};

/// One extension adds at most this much.
pub const MAX_EXTENSION_SECS: i64 = 600;
/// …and a hold never runs more than this far ahead of now.
pub const MAX_HOLD_AHEAD_MS: i64 = 30 * 60 * 1000;

/// An action and what it needs besides the booking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Act {
    Release,
    /// Seconds more (1..=600).
    Extend(i64),
    Refund,
    Resend,
}

impl Act {
    /// The action of this name; `extend`'s seconds come from `seconds`.
    pub fn named(
        action: BookingAction,
        seconds: impl FnOnce() -> Result<i64, ApiError>,
    ) -> Result<Act, ApiError> {
        Ok(match action {
            BookingAction::Release => Act::Release,
            BookingAction::Extend => Act::Extend(seconds()?),
            BookingAction::Refund => Act::Refund,
            BookingAction::Resend => Act::Resend,
        })
    }

    fn action(self) -> BookingAction {
        match self {
            Act::Release => BookingAction::Release,
            Act::Extend(_) => BookingAction::Extend,
            Act::Refund => BookingAction::Refund,
            Act::Resend => BookingAction::Resend,
        }
    }
}

/// Does `act` to the booking, as `admin`; run again whole when the database
/// rolls it back for contention.
pub async fn act(
    state: &AppState,
    admin: &Admin,
    booking_id: &BookingId,
    act: Act,
) -> Result<ActionOutcome, ApiError> {
    // Looking after a booking is `Bookings`; sending its money back is more.
    if matches!(act, Act::Refund) {
        access::authorize(
            state,
            admin,
            Permission::Refunds,
            Target::Booking(booking_id),
        )
        .await?;
    }
    retry::retried("admin action", || act_once(state, admin, booking_id, act)).await
}

/// One attempt of `act`.
async fn act_once(
    state: &AppState,
    admin: &Admin,
    booking_id: &BookingId,
    act: Act,
) -> Result<ActionOutcome, ApiError> {
    if let Act::Extend(seconds) = act {
        if !(1..=MAX_EXTENSION_SECS).contains(&seconds) {
            return Err(ApiError::unprocessable(
                format!("seconds must be between 1 and {MAX_EXTENSION_SECS}"),
                "seconds",
            ));
        }
    }
    let acting = Acting::begin(state, admin, booking_id, act.action()).await?;
    match act {
        Act::Release => release(acting).await,
        Act::Extend(seconds) => extend(acting, seconds).await,
        Act::Refund => refund(acting).await,
        Act::Resend => resend_confirmation(acting).await,
    }
}

/// An action under way: its time, its transaction, and the booking as it
/// is, read under its row lock (the lock every change of a booking takes).
struct Acting<'a> {
    state: &'a AppState,
    admin: &'a Admin,
    booking_id: &'a BookingId,
    action: BookingAction,
    now: At,
    tx: Tx,
    booking: Locked,
}

impl<'a> Acting<'a> {
    /// The cause the booking's history records for this action.
    fn by(&self) -> Cause {
        Cause::Admin(self.admin.actor.clone())
    }

    async fn begin(
        state: &'a AppState,
        admin: &'a Admin,
        booking_id: &'a BookingId,
        action: BookingAction,
    ) -> Result<Acting<'a>, ApiError> {
        let now = state.clock.now();
        let mut tx = state.db.begin().await?;
        let booking = store::lock(&mut tx, booking_id)
            .await?
            .ok_or(ApiError::NotFound("booking"))?;
        Ok(Acting {
            state,
            admin,
            booking_id,
            action,
            now,
            tx,
            booking,
        })
    }

    /// Refused: the booking is not in a state this action applies to
    /// ("{rule}; {this} is HELD").
    fn refused(&self, rule: &str, this: &str) -> ApiError {
        ApiError::InvalidState(format!("{rule}; {this} is {}", self.booking.status))
    }

    /// The action's audit row, in its transaction.
    async fn audited(&mut self, said: &Detail) -> Result<i64, sqlx::Error> {
        let entry = Entry {
            by: self.admin,
            action: self.action.as_str(),
            event_id: Some(self.booking.event_id),
            booking_id: Some(self.booking_id),
            detail: said,
        };
        audit::record(&mut self.tx, &entry, self.now).await
    }

    fn outcome(&self, status: BookingStatus, detail: String) -> ActionOutcome {
        ActionOutcome {
            booking_id: self.booking_id.clone(),
            action: self.action,
            status,
            detail,
        }
    }

    /// The end of an action that cancelled the booking and gave its seats
    /// back: the audit row, the commit, every map told, the answer.
    async fn gave_back_seats(
        mut self,
        released: Released,
        said: Detail,
    ) -> Result<ActionOutcome, ApiError> {
        self.audited(&said).await?;
        let outcome = self.outcome(BookingStatus::Cancelled, said.say(Locale::En));
        db::commit(self.tx).await?;
        self.state
            .seat_maps
            .publish(released.event_id, &released.as_changes(), self.now);
        Ok(outcome)
    }
}

/// HELD → CANCELLED, whoever holds it.
async fn release(mut a: Acting<'_>) -> Result<ActionOutcome, ApiError> {
    let by = a.by();
    let Some(released) = store::cancel_hold_by_admin(&mut a.tx, a.booking_id, &by, a.now).await?
    else {
        return Err(a.refused("only a running hold can be released", "this booking"));
    };
    let seats = released.seats.len();
    a.gave_back_seats(released, Detail::Released { seats })
        .await
}

/// A running hold gets `seconds` more, never ending more than 30 minutes
/// from now.
async fn extend(mut a: Acting<'_>, seconds: i64) -> Result<ActionOutcome, ApiError> {
    let held_until = a.booking.held_until;
    if a.booking.status != BookingStatus::Held || held_until <= a.now {
        return Err(a.refused("only a running hold can be extended", "this booking"));
    }
    let until = (held_until + seconds * 1000).min(a.now + MAX_HOLD_AHEAD_MS);
    if store::extend_hold(&mut a.tx, a.booking_id, until, a.now)
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
    a.audited(&said).await?;
    let seats = store::seats_of(&mut a.tx, a.booking_id).await?;
    let outcome = a.outcome(BookingStatus::Held, said.say(Locale::En));
    db::commit(a.tx).await?;
    let changes: Vec<_> = seats
        .into_iter()
        .map(|s| (s, Occupancy::Held(until)))
        .collect();
    a.state
        .seat_maps
        .publish(a.booking.event_id, &changes, a.now);
    Ok(outcome)
}

/// BOOKED → CANCELLED with the refund queued (the provider call leaves
/// through the outbox with the booking's one refund key). Asking again
/// answers the refund already under way and changes nothing.
async fn refund(mut a: Acting<'_>) -> Result<ActionOutcome, ApiError> {
    let by = a.by();
    let Some(released) = store::cancel_booked(&mut a.tx, a.booking_id, &by, a.now).await? else {
        return match payments::status(&mut a.tx, a.booking_id).await? {
            Some(
                p @ (PaymentStatus::RefundPending
                | PaymentStatus::Refunded
                | PaymentStatus::Disputed),
            ) => Ok(a.outcome(a.booking.status, format!("already refunded (payment {p})"))),
            _ => Err(a.refused("only a booked booking can be refunded", "this one")),
        };
    };
    if !payments::begin_refund(&mut a.tx, a.booking_id, a.now).await? {
        // BOOKED always has a paid payment (invariant 5); never refund blind.
        return Err(ApiError::InvalidState(
            "this booking has no paid payment to refund".into(),
        ));
    }
    outbox::enqueue_refund(&mut a.tx, a.booking_id, RefundReason::Admin, a.now).await?;
    let seats = released.seats.len();
    a.gave_back_seats(released, Detail::RefundQueued { seats })
        .await
}

/// Queues the confirmation again (a fresh dedupe key per resend).
async fn resend_confirmation(mut a: Acting<'_>) -> Result<ActionOutcome, ApiError> {
    if a.booking.status != BookingStatus::Booked {
        return Err(a.refused("only a booked booking has a confirmation", "this one"));
    }
    let said = Detail::ConfirmationQueued;
    let audit_id = a.audited(&said).await?;
    let booking_id = a.booking_id;
    let mail =
        crate::payments::confirmation::confirmation(&mut a.tx, booking_id, a.booking.price).await?;
    outbox::enqueue_confirmation(
        &mut a.tx,
        booking_id,
        &format!("resend-{booking_id}-{audit_id}"),
        &format!("buyer:{}", a.booking.buyer_id),
        (&mail.subject, &mail.text),
        a.now,
    )
    .await?;
    let outcome = a.outcome(BookingStatus::Booked, said.say(Locale::En));
    db::commit(a.tx).await?;
    Ok(outcome)
}
