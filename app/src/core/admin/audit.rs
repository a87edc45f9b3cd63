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
    let rows: Vec<(String, String, Option<String>, String, i64)> = sqlx::query_as(
        "select actor, action, booking_id, detail, created_at from audit_log
         where $1 is null or event_id = $1 order by id desc limit $2",
    )
    .bind(event_id)
    .bind(limit)
    .fetch_all(db.reader())
    .await?;
    Ok(rows
        .into_iter()
        .map(|(actor, action, booking_id, detail, at)| AuditRow {
            actor,
            action,
            booking_id,
            detail,
            at: rfc3339(at),
        })
        .collect())
}
