//! The outbox: side effects written in the transaction of the state change
//! and carried out afterwards by a dispatcher on every instance. A row is
//! claimed with a lease before it is acted on, and each effect carries its
//! own dedupe key (mailbox) or idempotency key (refund), so a buyer never
//! gets the same email twice and a payment is never refunded twice.

use crate::platform::clock::At;
use serde::{Deserialize, Serialize};

use super::effects::MapChanges;
use crate::platform::db::Tx;
use crate::AppState;
use holdfast_model::BookingId;

mod dispatch;
mod refund;
pub use dispatch::{dispatch_due, BATCH, MAIL_ATTEMPTS};

const LEASE_MS: i64 = 60_000;

#[derive(Serialize, Deserialize)]
struct Email {
    to: String,
    subject: String,
    body: String,
    /// What only the recipient may read (a sign-in link): once the relay
    /// has the mail, the copies kept here and in the mailbox lose it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    secret: Option<String>,
    /// Carries the booking's tickets (a confirmation): each one's QR code
    /// goes along as an inline image.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    tickets: bool,
}

/// What the kept copy of a sent mail says instead of its secret.
pub const REDACTED: &str = "[sent by email only]";

impl Email {
    /// A plain mail: no secret, no tickets.
    fn new(to: &str, subject: &str, body: &str) -> Email {
        Email {
            to: to.into(),
            subject: subject.into(),
            body: body.into(),
            secret: None,
            tickets: false,
        }
    }
}

/// A mail about a booking, to its buyer (`to` is `buyer:{id}`: the
/// address the checkout collected is used).
pub async fn enqueue_email(
    tx: &mut Tx,
    booking_id: &BookingId,
    dedupe_key: &str,
    to: &str,
    subject: &str,
    body: &str,
    now: At,
) -> Result<(), sqlx::Error> {
    let email = Email::new(to, subject, body);
    enqueue_mail(tx, Some(booking_id), dedupe_key, &email, now).await
}

/// The confirmation of a paid booking: a booking mail with its tickets.
pub async fn enqueue_confirmation(
    tx: &mut Tx,
    booking_id: &BookingId,
    dedupe_key: &str,
    to: &str,
    (subject, body): (&str, &str),
    now: At,
) -> Result<(), sqlx::Error> {
    let email = Email {
        tickets: true,
        ..Email::new(to, subject, body)
    };
    enqueue_mail(tx, Some(booking_id), dedupe_key, &email, now).await
}

/// A mail to an address, about no booking, carrying `secret` (a sign-in
/// link: only the relay's copy keeps it; without a relay the mailbox is
/// the delivery and keeps it).
pub async fn enqueue_secret_email(
    tx: &mut Tx,
    dedupe_key: &str,
    to: &str,
    (subject, body): (&str, &str),
    secret: &str,
    now: At,
) -> Result<(), sqlx::Error> {
    let email = Email {
        secret: Some(secret.into()),
        ..Email::new(to, subject, body)
    };
    enqueue_mail(tx, None, dedupe_key, &email, now).await
}

async fn enqueue_mail(
    tx: &mut Tx,
    booking_id: Option<&BookingId>,
    dedupe_key: &str,
    email: &Email,
    now: At,
) -> Result<(), sqlx::Error> {
    let payload = serde_json::to_string(email).unwrap_or_default();
    enqueue(tx, "email", booking_id, dedupe_key, &payload, now).await
}

/// Why money goes back; decides what the buyer is told.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefundReason {
    /// The payment came after the hold ended and the seats were gone.
    LatePayment,
    /// An admin refunded a booked booking.
    Admin,
    /// The buyer cancelled under the event's refund policy.
    BuyerCancelled,
    /// The line cancelled the sailing and the buyer chose a full refund.
    SailingCancelled,
}

#[derive(Serialize, Deserialize)]
struct Refund {
    reason: RefundReason,
    /// How much goes back (minor units); none: all that is left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cents: Option<i64>,
    /// A part refund an organizer gave (`refund_part.id`): sent on its own
    /// key, the booking left as it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    part: Option<String>,
}

/// Queues the refund of all that is left of the booking's payment.
pub async fn enqueue_refund(
    tx: &mut Tx,
    booking_id: &BookingId,
    reason: RefundReason,
    now: At,
) -> Result<(), sqlx::Error> {
    enqueue_refund_of(tx, booking_id, reason, None, now).await
}

/// Queues a refund of `cents` (at most what is left; none: all of it).
pub async fn enqueue_refund_of(
    tx: &mut Tx,
    booking_id: &BookingId,
    reason: RefundReason,
    cents: Option<i64>,
    now: At,
) -> Result<(), sqlx::Error> {
    let payload = serde_json::to_string(&Refund {
        reason,
        cents,
        part: None,
    })
    .unwrap_or_default();
    enqueue(
        tx,
        "refund",
        Some(booking_id),
        &refund_key(booking_id),
        &payload,
        now,
    )
    .await
}

/// The refund's idempotency key at the provider: one per booking, ever.
pub fn refund_key(booking_id: &BookingId) -> String {
    format!("refund-{booking_id}")
}

/// Queues part refund `part_id` of the booking (its own key).
pub async fn enqueue_refund_part(
    tx: &mut Tx,
    booking_id: &BookingId,
    part_id: &str,
    now: At,
) -> Result<(), sqlx::Error> {
    let payload = serde_json::to_string(&Refund {
        reason: RefundReason::Admin,
        cents: None,
        part: Some(part_id.to_string()),
    })
    .unwrap_or_default();
    let key = refund_part_key(booking_id, part_id);
    enqueue(tx, "refund", Some(booking_id), &key, &payload, now).await
}

/// A part refund's idempotency key at the provider: one per part.
pub fn refund_part_key(booking_id: &BookingId, part_id: &str) -> String {
    format!("refund-{booking_id}-{part_id}")
}

async fn enqueue(
    tx: &mut Tx,
    kind: &str,
    booking_id: Option<&BookingId>,
    key: &str,
    payload: &str,
    now: At,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into outbox (kind, booking_id, dedupe_key, payload, next_attempt_at, created_at)
         values ($1, $2, $3, $4, $5, $5) on conflict (dedupe_key) do nothing",
    )
    .bind(kind)
    .bind(booking_id)
    .bind(key)
    .bind(payload)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Undelivered rows (for /metrics and the admin console).
/// Undelivered rows, and how long the oldest has waited (ms; 0 if none).
pub async fn backlog(state: &AppState) -> Result<Backlog, sqlx::Error> {
    let (waiting, oldest, given_up): (i64, Option<At>, i64) = sqlx::query_as(
        "select count(*) filter (where failed_at is null),
                min(created_at) filter (where failed_at is null),
                count(*) filter (where failed_at is not null)
         from outbox where delivered_at is null",
    )
    .fetch_one(state.db.reader())
    .await?;
    Ok(Backlog {
        waiting,
        oldest_age_ms: oldest.map_or(0, |at| (state.clock.now() - at).max(0)),
        given_up,
    })
}

/// The outbox as the metrics show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backlog {
    /// Rows still to be delivered.
    pub waiting: i64,
    /// How long the oldest of them has waited.
    pub oldest_age_ms: i64,
    /// Mails given up after their last attempt (dead letters).
    pub given_up: i64,
}

/// Publishes committed seat changes to the map.
pub fn publish(state: &AppState, changes: &MapChanges) {
    if !changes.changes.is_empty() {
        state
            .seat_maps
            .publish(changes.event_id, &changes.changes, state.clock.now());
    }
}
