//! What was mailed to one address, for support ("I never got my link")
//! and for tests reading the mailbox. Sent by a relay, a sign-in link's
//! copy kept here no longer carries the link (`outbox::REDACTED`); without
//! a relay the mailbox is the delivery and keeps it.

use crate::platform::clock::{rfc3339, At};
use crate::{ApiError, AppState};
use holdfast_model::console::MailMessage;
use holdfast_model::BookingId;

/// The newest 50 mails to `recipient` (any case), newest first.
pub async fn mail_to(state: &AppState, recipient: &str) -> Result<Vec<MailMessage>, ApiError> {
    let rows: Vec<(Option<BookingId>, String, String, String, String, At)> = sqlx::query_as(
        "select booking_id, recipient, subject, body, channel, created_at from mailbox
         where lower(recipient) = $1 order by id desc limit 50",
    )
    .bind(recipient.trim().to_lowercase())
    .fetch_all(state.db.reader())
    .await?;
    Ok(rows
        .into_iter()
        .map(
            |(booking_id, recipient, subject, body, channel, at)| MailMessage {
                booking_id,
                recipient,
                subject,
                body,
                channel,
                at: rfc3339(at),
            },
        )
        .collect())
}
