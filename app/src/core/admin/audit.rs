//! The audit log: every admin action, in the transaction of its effect.

use crate::core::platform::clock::rfc3339;
use crate::core::platform::db::{Db, Tx};
use crate::model::console::AuditRow;
use crate::model::EventId;

pub struct Entry<'a> {
    pub actor: &'a str,
    pub action: &'a str,
    pub event_id: Option<EventId>,
    pub booking_id: Option<&'a str>,
    pub detail: &'a str,
}

pub async fn record(tx: &mut Tx, entry: &Entry<'_>, now: i64) -> Result<i64, sqlx::Error> {
    let (id,): (i64,) = sqlx::query_as(
        "insert into audit_log (actor, action, event_id, booking_id, detail, created_at)
         values ($1, $2, $3, $4, $5, $6) returning id",
    )
    .bind(entry.actor)
    .bind(entry.action)
    .bind(entry.event_id)
    .bind(entry.booking_id)
    .bind(entry.detail)
    .bind(now)
    .fetch_one(&mut **tx)
    .await?;
    Ok(id)
}

/// The latest entries, for one event or for all.
pub async fn recent(
    db: &Db,
    event_id: Option<EventId>,
    limit: i64,
) -> Result<Vec<AuditRow>, sqlx::Error> {
    /// Actor, action, booking, detail, when, and the event's time zone.
    type Row = (String, String, Option<String>, String, i64, Option<String>);
    let rows: Vec<Row> = sqlx::query_as(
        "select a.actor, a.action, a.booking_id, a.detail, a.created_at, e.time_zone
         from audit_log a left join event e on e.id = a.event_id
         where $1 is null or a.event_id = $1 order by a.id desc limit $2",
    )
    .bind(event_id)
    .bind(limit)
    .fetch_all(db.reader())
    .await?;
    Ok(rows
        .into_iter()
        .map(|(actor, action, booking_id, detail, at, zone)| AuditRow {
            actor,
            action,
            booking_id,
            detail,
            at: rfc3339(at),
            // In the event's zone; UTC for what concerns no event.
            at_local: crate::core::event_time::local_start(at, zone.as_deref().unwrap_or("UTC")).at,
        })
        .collect())
}
