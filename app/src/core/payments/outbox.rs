//! The outbox: side effects written in the transaction of the state change
//! and carried out afterwards by a dispatcher on every instance. A row is
//! claimed with a lease before it is acted on, and each effect carries its
//! own dedupe key (mailbox) or idempotency key (refund), so a buyer never
//! gets the same email twice and a payment is never refunded twice.

use crate::core::platform::clock::At;
use crate::core::platform::db;
use serde::{Deserialize, Serialize};

use super::effects::MapChanges;
use super::mail::Letter;
use super::store as payments;
use super::tickets;
use crate::core::booking::store;
use crate::core::platform::db::Tx;
use crate::core::{ApiError, AppState};
use crate::i18n::Msg;
use crate::model::money::Money;
use crate::model::BookingId;
use crate::model::BuyerId;
use crate::model::PaymentStatus;

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
    let payload = serde_json::to_string(&Refund { reason, cents }).unwrap_or_default();
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

/// An outbox row due for delivery.
#[derive(sqlx::FromRow)]
struct Due {
    id: i64,
    /// `email` or `refund`.
    kind: String,
    /// None for mail to an address (sign-in links).
    booking_id: Option<BookingId>,
    dedupe_key: String,
    payload: String,
    attempts: i64,
}

/// Carries out due outbox rows; returns how many were delivered.
/// Rows one `dispatch_due` claims.
pub const BATCH: usize = 20;

pub async fn dispatch_due(state: &AppState) -> Result<usize, ApiError> {
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    let sql = format!(
        "select id, kind, booking_id, dedupe_key, payload, attempts from outbox
         where delivered_at is null and next_attempt_at <= $1 and lease_until <= $1
         order by id limit {BATCH}{}",
        state.db.skip_locked()
    );
    let due: Vec<Due> = sqlx::query_as(&sql).bind(now).fetch_all(&mut *tx).await?;
    let mut claimed = Vec::new();
    for row in due {
        let won = sqlx::query("update outbox set lease_until = $2 where id = $1 and lease_until <= $3 and delivered_at is null")
            .bind(row.id)
            .bind(now + LEASE_MS)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected()
            == 1;
        if won {
            claimed.push(row);
        }
    }
    db::commit(tx).await?;

    let mut delivered = 0;
    for Due {
        id,
        kind,
        booking_id,
        dedupe_key: key,
        payload,
        attempts,
    } in claimed
    {
        let result = match (kind.as_str(), &booking_id) {
            ("email", _) => deliver_email(state, id, booking_id.as_ref(), &key, &payload).await,
            (_, Some(booking_id)) => refund(state, booking_id, &payload).await,
            (_, None) => Err(ApiError::InvalidState(
                "a refund without its booking".into(),
            )),
        };
        // Each mark in a transaction of its own, committed through
        // `db::commit`: inside the outbox job, only while its lease holds.
        let mut tx = state.db.begin().await?;
        match result {
            Ok(()) => {
                sqlx::query("update outbox set delivered_at = $2 where id = $1")
                    .bind(id)
                    .bind(state.clock.now())
                    .execute(&mut *tx)
                    .await?;
                delivered += 1;
            }
            Err(e) => {
                tracing::warn!(error = %e, kind, booking_id = ?booking_id, "outbox delivery failed; will retry");
                let backoff = 1000 * 2i64.pow(attempts.clamp(0, 10) as u32);
                sqlx::query("update outbox set attempts = attempts + 1, next_attempt_at = $2, lease_until = 0 where id = $1")
                    .bind(id)
                    .bind(state.clock.now() + backoff)
                    .execute(&mut *tx)
                    .await?;
            }
        }
        db::commit(tx).await?;
    }
    Ok(delivered)
}

/// Sends one mail at most once per dedupe key: a key already in the mailbox
/// was delivered; otherwise over SMTP when the buyer's address is known,
/// then recorded in the mailbox. The send is written down first
/// (`sending_at`): if a dispatcher died after asking the relay and before the
/// mailbox row, the next one finds the mark and skips the mail rather than
/// send it twice (recorded as `smtp-unconfirmed`). A relay that refuses sent
/// nothing: the mark is taken back and the mail waits for its retry.
async fn deliver_email(
    state: &AppState,
    outbox_id: i64,
    booking_id: Option<&BookingId>,
    key: &str,
    payload: &str,
) -> Result<(), ApiError> {
    let email: Email = serde_json::from_str(payload).map_err(ApiError::internal)?;
    let sent: Option<(i64,)> = sqlx::query_as("select id from mailbox where dedupe_key = $1")
        .bind(key)
        .fetch_optional(state.db.writer())
        .await?;
    if sent.is_some() {
        return Ok(());
    }
    let address = match booking_id {
        Some(booking_id) => payments::customer_email(&state.db, booking_id).await?,
        None => Some(email.to.clone()),
    };
    let mailer = &state.payments.mailer;
    let mut channel = mailer.channel_for(address.as_deref());
    let mut letter = Letter {
        subject: email.subject.clone(),
        text: email.body.clone(),
        images: Vec::new(),
    };
    if let Some(booking_id) = booking_id {
        letter
            .text
            .push_str(&about_and_link(state, booking_id, email.tickets).await?);
    }
    if let (Some(to), "smtp") = (&address, channel) {
        if let (Some(booking_id), true) = (booking_id, email.tickets) {
            letter.images = tickets::images(state, booking_id).await?;
        }
        if mark_sending(state, outbox_id, true).await? {
            if let Err(e) = mailer.send(to, &letter).await {
                mark_sending(state, outbox_id, false).await?;
                return Err(ApiError::Internal(e.into()));
            }
        } else {
            tracing::warn!(booking_id = ?booking_id, key, "an earlier attempt may have sent this mail; not sent again");
            channel = "smtp-unconfirmed";
        }
    }
    let mut kept = letter.text;
    if let (Some(secret), true) = (&email.secret, channel != "mailbox") {
        kept = kept.replace(secret.as_str(), REDACTED);
        let payload = Email::new(&email.to, &email.subject, &kept);
        let payload = serde_json::to_string(&payload).map_err(ApiError::internal)?;
        sqlx::query("update outbox set payload = $2 where id = $1")
            .bind(outbox_id)
            .bind(payload)
            .execute(state.db.writer())
            .await?;
    }
    sqlx::query(
        "insert into mailbox (dedupe_key, booking_id, recipient, subject, body, created_at, channel)
         values ($1, $2, $3, $4, $5, $6, $7) on conflict (dedupe_key) do nothing",
    )
    .bind(key)
    .bind(booking_id)
    .bind(address.as_deref().unwrap_or(&email.to))
    .bind(&email.subject)
    .bind(&kept)
    .bind(state.clock.now())
    .bind(channel)
    .execute(state.db.writer())
    .await?;
    Ok(())
}

/// The end of every booking mail: what the booking is for (a confirmation
/// says it already) and where to see it (signing in by email link on a
/// device that has not booked it).
async fn about_and_link(
    state: &AppState,
    booking_id: &BookingId,
    confirmation: bool,
) -> Result<String, ApiError> {
    let l = crate::core::buyer_language::of_booking_now(&state.db, booking_id).await?;
    let mut end = String::new();
    if !confirmation {
        let mut conn = state.db.reader().acquire().await?;
        if let Some((_, about)) = super::confirmation::about(&mut conn, booking_id, l).await? {
            end.push_str(&format!("\n\n{}", about.trim_end()));
        }
    }
    let base = state
        .payments
        .settings
        .public_base_url
        .trim_end_matches('/');
    end.push_str(&format!(
        "\n\n{}\n{base}/bookings/{booking_id}\n",
        l.t(Msg::MailSeeBooking)
    ));
    Ok(end)
}

/// Writes down (`on`) that the row's mail is being handed to the relay,
/// only if no earlier attempt did; or takes the mark back after a refusal.
/// Whether it changed the row. Fenced like every job write.
async fn mark_sending(state: &AppState, outbox_id: i64, on: bool) -> Result<bool, ApiError> {
    let mut tx = state.db.begin().await?;
    let query = if on {
        sqlx::query("update outbox set sending_at = $2 where id = $1 and sending_at is null")
            .bind(outbox_id)
            .bind(state.clock.now())
    } else {
        sqlx::query("update outbox set sending_at = null where id = $1").bind(outbox_id)
    };
    let changed = query.execute(&mut *tx).await?.rows_affected() == 1;
    db::commit(tx).await?;
    Ok(changed)
}

/// Refunds through the provider (its idempotency key makes a repeat the same
/// refund), then records REFUNDED and tells the buyer. A payment that is no
/// longer `refund_pending` needs nothing more: refunded already (our refund's
/// echo came first, or it was refunded in Stripe's dashboard) or disputed
/// (the bank took the money back; a refund would be refused).
async fn refund(state: &AppState, booking_id: &BookingId, payload: &str) -> Result<(), ApiError> {
    // Rows queued before reasons were recorded are late payments.
    let Refund { reason, cents } = serde_json::from_str::<Refund>(payload).unwrap_or(Refund {
        reason: RefundReason::LatePayment,
        cents: None,
    });
    let Some(target) = payments::refund_target(&state.db, booking_id).await? else {
        return Err(ApiError::InvalidState(format!(
            "no payment to refund for {booking_id}"
        )));
    };
    let amount = match cents {
        Some(cents) => Money::new(cents.clamp(0, target.left.minor()), target.left.currency()),
        None => target.left,
    };
    let mut refund_id = None;
    if target.status == Some(PaymentStatus::RefundPending) && amount.minor() == 0 {
        // Nothing due under the policy: no call, the payment still settles.
        refund_id = Some("none".to_string());
    } else if target.status == Some(PaymentStatus::RefundPending) {
        let Some(intent) = target.payment_intent else {
            return Err(ApiError::InvalidState(format!(
                "no payment intent to refund for {booking_id}"
            )));
        };
        let id = state
            .payments
            .provider
            .refund(&intent, amount, &refund_key(booking_id))
            .await
            .map_err(ApiError::internal)?;
        refund_id = Some(id);
    }
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    // The booking's row first, as every verdict takes it (no deadlock).
    store::lock(&mut tx, booking_id).await?;
    if let Some(id) = &refund_id {
        if payments::complete_refund(&mut tx, booking_id, id, now).await? {
            crate::core::platform::metrics::payment("refunded");
            if cents.is_some() {
                payments::record_partial_refund(&mut tx, booking_id, amount.minor(), None, now)
                    .await?;
            }
        }
    }
    // Only a refunded payment ends its booking as REFUNDED.
    if payments::status(&mut tx, booking_id).await? == Some(PaymentStatus::Refunded) {
        store::mark_refunded(&mut tx, booking_id, now).await?;
        let buyer: (BuyerId,) = sqlx::query_as("select buyer_id from booking where id = $1")
            .bind(booking_id)
            .fetch_one(&mut *tx)
            .await?;
        let l = crate::core::buyer_language::of_booking(&mut tx, booking_id).await?;
        let why = match reason {
            RefundReason::LatePayment => l.t(Msg::MailLatePaymentRefunded).to_string(),
            RefundReason::Admin => l.t(Msg::MailOrganizerRefunded).to_string(),
            RefundReason::BuyerCancelled => {
                let amount = l.price(amount.minor(), amount.currency().code());
                l.fill(Msg::MailBuyerCancelled, &[("amount", &amount)])
            }
            RefundReason::SailingCancelled => {
                let amount = l.price(amount.minor(), amount.currency().code());
                l.fill(Msg::MailSailingRefunded, &[("amount", &amount)])
            }
        };
        enqueue_email(
            &mut tx,
            booking_id,
            &format!("refunded-{booking_id}"),
            &format!("buyer:{}", buyer.0),
            l.t(Msg::MailRefundedSubject),
            &why,
            now,
        )
        .await?;
    }
    db::commit(tx).await?;
    Ok(())
}

/// Undelivered rows (for /metrics and the admin console).
/// Undelivered rows, and how long the oldest has waited (ms; 0 if none).
pub async fn backlog(state: &AppState) -> Result<(i64, i64), sqlx::Error> {
    let (n, oldest): (i64, Option<At>) =
        sqlx::query_as("select count(*), min(created_at) from outbox where delivered_at is null")
            .fetch_one(state.db.reader())
            .await?;
    Ok((n, oldest.map_or(0, |at| (state.clock.now() - at).max(0))))
}

/// Publishes committed seat changes to the map.
pub fn publish(state: &AppState, changes: &MapChanges) {
    if !changes.changes.is_empty() {
        state
            .seat_maps
            .publish(changes.event_id, &changes.changes, state.clock.now());
    }
}
