//! The dispatcher: claims due outbox rows with a lease and carries each out —
//! an email (its ticket and booking link added when sent), or a refund.

use std::collections::HashSet;

use crate::platform::clock::At;
use crate::platform::db;

use super::super::mail::Letter;
use super::super::store as payments;
use super::{Email, LEASE_MS, REDACTED};
use crate::ticket::in_mail as tickets;
use crate::{ApiError, AppState};
use holdfast_model::i18n::Msg;
use holdfast_model::BookingId;

use super::refund::refund;

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

/// Rows one `dispatch_due` claims.
pub const BATCH: usize = 20;

/// Attempts at a mail before it is given up: with the doubling backoff
/// (capped at about 17 minutes) about two hours of a relay refusing.
pub const MAIL_ATTEMPTS: i64 = 16;

/// What an operator reads of a failed delivery: the cause (the relay's or
/// the provider's words), never just "internal error"; at most 300
/// characters.
fn cause_of(e: &ApiError) -> String {
    let text = match e {
        ApiError::Internal(cause) => cause.to_string(),
        other => other.to_string(),
    };
    text.chars().take(300).collect()
}

/// Carries out due outbox rows; returns how many were delivered. Per run:
/// one transaction leases the rows (one statement for all of them), one
/// marks those delivered; a failure is marked for its retry on its own.
pub async fn dispatch_due(state: &AppState) -> Result<usize, ApiError> {
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    let sql = format!(
        "select id, kind, booking_id, dedupe_key, payload, attempts from outbox
         where delivered_at is null and failed_at is null and next_attempt_at <= $1 and lease_until <= $1
         order by id limit {BATCH}{}",
        state.db.skip_locked()
    );
    let due: Vec<Due> = sqlx::query_as(&sql).bind(now).fetch_all(&mut *tx).await?;
    let claimed = lease(&mut tx, due, now).await?;
    db::commit(tx).await?;

    let mut delivered = Vec::new();
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
        match result {
            Ok(()) => delivered.push(id),
            Err(e) => {
                let cause = cause_of(&e);
                // A mail is given up after its last attempt; a refund is
                // money owed and is tried until it goes (the canary and
                // the stuck alert keep pointing at it).
                let given_up = kind == "email" && attempts + 1 >= MAIL_ATTEMPTS;
                if given_up {
                    tracing::error!(cause, booking_id = ?booking_id, outbox_id = id, attempts = attempts + 1, "mail given up (dead letter)");
                    crate::platform::metrics::outbox_dead_letter();
                } else {
                    tracing::warn!(cause, kind, booking_id = ?booking_id, outbox_id = id, "outbox delivery failed; will retry");
                }
                let backoff = 1000 * 2i64.pow(attempts.clamp(0, 10) as u32);
                let now = state.clock.now();
                // Committed through `db::commit`: inside the outbox job,
                // only while its lease holds.
                let mut tx = state.db.begin().await?;
                sqlx::query(
                    "update outbox set attempts = attempts + 1, next_attempt_at = $2, lease_until = 0,
                            last_error = $3, failed_at = $4
                     where id = $1",
                )
                .bind(id)
                .bind(now + backoff)
                .bind(&cause)
                .bind(given_up.then_some(now))
                .execute(&mut *tx)
                .await?;
                db::commit(tx).await?;
            }
        }
    }
    mark_delivered(state, &delivered).await?;
    Ok(delivered.len())
}

/// Takes the lease of the due rows nobody else took meanwhile, in one
/// statement; the rows this run won.
async fn lease(tx: &mut db::Tx, due: Vec<Due>, now: At) -> Result<Vec<Due>, ApiError> {
    if due.is_empty() {
        return Ok(due);
    }
    let sql = format!(
        "update outbox set lease_until = $1
         where lease_until <= $2 and delivered_at is null and id in ({})
         returning id",
        db::placeholders(3, due.len())
    );
    let mut query = sqlx::query_as::<_, (i64,)>(&sql)
        .bind(now + LEASE_MS)
        .bind(now);
    for row in &due {
        query = query.bind(row.id);
    }
    let won: HashSet<i64> = query
        .fetch_all(&mut **tx)
        .await?
        .into_iter()
        .map(|(id,)| id)
        .collect();
    Ok(due
        .into_iter()
        .filter(|row| won.contains(&row.id))
        .collect())
}

/// Marks a run's delivered rows at once, in one transaction committed
/// through `db::commit` (only while the job's lease holds). Were the run to
/// end before this, the rows come due again when their lease ends, and each
/// mail is found already in the mailbox (or marked as sending) and is not
/// sent twice; a refund asks the provider again with the same key.
async fn mark_delivered(state: &AppState, ids: &[i64]) -> Result<(), ApiError> {
    if ids.is_empty() {
        return Ok(());
    }
    let sql = format!(
        "update outbox set delivered_at = $1 where id in ({})",
        db::placeholders(2, ids.len())
    );
    let mut query = sqlx::query(&sql).bind(state.clock.now());
    for id in ids {
        query = query.bind(id);
    }
    let mut tx = state.db.begin().await?;
    query.execute(&mut *tx).await?;
    db::commit(tx).await?;
    Ok(())
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
    let l = crate::buyer_language::of_booking_now(&state.db, booking_id).await?;
    let mut end = String::new();
    if !confirmation {
        let mut conn = state.db.reader().acquire().await?;
        if let Some((_, about)) =
            super::super::confirmation::about(&mut conn, booking_id, l).await?
        {
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
