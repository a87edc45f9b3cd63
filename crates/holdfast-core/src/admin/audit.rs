//! The audit log: every admin action, in the transaction of its effect.

use super::access::Admin;
use super::audit_detail::Detail;
use crate::platform::clock::At;
use crate::platform::db::{Db, Tx};
use holdfast_model::console::AuditRow;
use holdfast_model::i18n::Locale;
use holdfast_model::{BookingId, EventId};

pub struct Entry<'a> {
    /// Who acted, and from where.
    pub by: &'a Admin,
    pub action: &'a str,
    pub event_id: Option<EventId>,
    pub booking_id: Option<&'a BookingId>,
    pub detail: &'a Detail,
}

impl<'a> Entry<'a> {
    /// An admin's action on an event as a whole.
    pub fn on_event(by: &'a Admin, action: &'a str, event_id: EventId, detail: &'a Detail) -> Self {
        Entry {
            by,
            action,
            event_id: Some(event_id),
            booking_id: None,
            detail,
        }
    }

    /// An admin's action on the team or its keys (no event's).
    pub fn about_team(by: &'a Admin, action: &'a str, detail: &'a Detail) -> Self {
        Entry {
            by,
            action,
            event_id: None,
            booking_id: None,
            detail,
        }
    }
}

pub async fn record(tx: &mut Tx, entry: &Entry<'_>, now: At) -> Result<i64, sqlx::Error> {
    let (id,): (i64,) = sqlx::query_as(
        "insert into audit_log (actor, action, event_id, booking_id, detail, words, created_at, client)
         values ($1, $2, $3, $4, $5, $6, $7, $8) returning id",
    )
    .bind(&entry.by.actor)
    .bind(entry.action)
    .bind(entry.event_id)
    .bind(entry.booking_id)
    .bind(entry.detail.say(Locale::En))
    .bind(entry.detail.json())
    .bind(now)
    .bind(&entry.by.client)
    .fetch_one(&mut **tx)
    .await?;
    Ok(id)
}

/// The latest entries, for one event or for all, their details also in
/// `locale` (`detailWords`).
pub async fn recent(
    db: &Db,
    event_id: Option<EventId>,
    limit: i64,
    locale: Locale,
) -> Result<Vec<AuditRow>, sqlx::Error> {
    let rows: Vec<Row> = sqlx::query_as(
        "select a.actor, a.client, a.action, a.booking_id, a.detail, a.words, a.created_at,
                e.time_zone as event_time_zone
         from audit_log a left join event e on e.id = a.event_id
         where $1 is null or a.event_id = $1 order by a.id desc limit $2",
    )
    .bind(event_id)
    .bind(limit)
    .fetch_all(db.reader())
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| {
            // In the event's zone; UTC for what concerns no event.
            let zone = r.event_time_zone.as_deref().unwrap_or("UTC");
            let when = crate::event_time::moment(r.created_at, zone);
            AuditRow {
                detail_words: Detail::read(r.words.as_deref(), &r.detail, locale),
                at: when.at,
                at_local: when.at_local,
                actor: r.actor,
                client: r.client,
                action: r.action,
                booking_id: r.booking_id,
                detail: r.detail,
            }
        })
        .collect())
}

/// An entry as the log keeps it, with its event's time zone.
#[derive(sqlx::FromRow)]
struct Row {
    actor: String,
    client: Option<String>,
    action: String,
    booking_id: Option<BookingId>,
    detail: String,
    /// What the detail says, as a kind and values (`Detail`).
    words: Option<String>,
    created_at: At,
    event_time_zone: Option<String>,
}
