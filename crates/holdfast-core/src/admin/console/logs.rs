//! What came in and went out for an event: payment webhooks and mail
//! (sent, or still waiting in the outbox).

use crate::event_time::Moment;
use crate::platform::clock::{rfc3339, At};
use crate::{ApiError, AppState};
use holdfast_model::console::{MailRow, WebhookRow};
use holdfast_model::{BookingId, EventId};

use super::recent_rows;

/// A webhook as the inbox keeps it.
#[derive(sqlx::FromRow)]
struct Webhook {
    event_id: String,
    kind: String,
    booking_id: Option<BookingId>,
    outcome: String,
    received_at: At,
}

pub(super) async fn webhooks(
    state: &AppState,
    event_id: EventId,
    local: &impl Fn(At) -> Moment,
) -> Result<Vec<WebhookRow>, ApiError> {
    let rows: Vec<Webhook> = recent_rows(
        state,
        "select w.event_id, w.type as kind, w.booking_id, w.outcome, w.received_at
         from webhook_inbox w
         where w.booking_id is null
            or w.booking_id in (select id from booking where event_id = $1)
         order by w.received_at desc limit $2",
        event_id,
    )
    .await?;
    Ok(rows
        .into_iter()
        .map(|w| WebhookRow {
            received_at: rfc3339(w.received_at),
            at_local: local(w.received_at).at_local,
            event_id: w.event_id,
            kind: w.kind,
            booking_id: w.booking_id,
            outcome: w.outcome,
        })
        .collect())
}

/// A mail, sent or waiting.
#[derive(sqlx::FromRow)]
struct Mail {
    booking_id: BookingId,
    recipient: String,
    subject: String,
    channel: String,
    created_at: At,
}

pub(super) async fn mail(
    state: &AppState,
    event_id: EventId,
    local: &impl Fn(At) -> Moment,
) -> Result<Vec<MailRow>, ApiError> {
    let rows: Vec<Mail> = recent_rows(
        state,
        "select m.booking_id, m.recipient, m.subject, m.channel, m.created_at from mailbox m
         join booking b on b.id = m.booking_id where b.event_id = $1
         union all
         select o.booking_id, '', o.dedupe_key, 'pending', o.created_at from outbox o
         join booking b on b.id = o.booking_id
         where b.event_id = $1 and o.kind = 'email' and o.delivered_at is null
         order by 5 desc limit $2",
        event_id,
    )
    .await?;
    Ok(rows
        .into_iter()
        .map(|m| {
            let when = local(m.created_at);
            MailRow {
                at: when.at,
                at_local: when.at_local,
                booking_id: m.booking_id,
                recipient: m.recipient,
                subject: m.subject,
                channel: m.channel,
            }
        })
        .collect())
}
