//! A booking's history: every status it took, why and when. The rows are
//! appended by the database's trigger in each transition's own transaction
//! (migration 0013), from the cause the transition's statement names
//! (`booking.cause`); a part refund adds its own row (`refund_part`). This
//! only reads them.

use crate::platform::clock::{rfc3339, At};
use crate::platform::db::Db;
use holdfast_model::{BookingId, BookingStatus, Cause, HistoryEntry};

#[derive(sqlx::FromRow)]
struct Row {
    from_status: Option<BookingStatus>,
    to_status: BookingStatus,
    cause: String,
    at: At,
    refund_cents: Option<i64>,
    currency: Option<String>,
    note: Option<String>,
}

/// The booking's history, oldest first; `None` for a booking that does not
/// exist.
pub async fn of(db: &Db, id: &BookingId) -> Result<Option<Vec<HistoryEntry>>, sqlx::Error> {
    let rows: Vec<Row> = sqlx::query_as(
        "select h.from_status, h.to_status, h.cause, h.at, h.refund_cents, h.note,
                case when h.refund_cents is null then null else b.currency end as currency
         from booking_history h join booking b on b.id = h.booking_id
         where h.booking_id = $1 order by h.id",
    )
    .bind(id)
    .fetch_all(db.reader())
    .await?;
    if rows.is_empty() {
        return Ok(None);
    }
    Ok(Some(
        rows.into_iter()
            .map(|r| {
                let cause = Cause::from_stored(&r.cause);
                HistoryEntry {
                    from: r.from_status,
                    to: r.to_status,
                    cause: cause.kind(),
                    by: cause.by().map(str::to_string),
                    at: rfc3339(r.at),
                    refund_cents: r.refund_cents,
                    currency: r.currency,
                    note: r.note,
                }
            })
            .collect(),
    ))
}

/// The ids of the bookings whose id starts with `prefix` (at most two: one
/// is an answer, two say the prefix is too short). `prefix` holds only hex
/// digits and dashes (the caller keeps it so), never `%` or `_`.
pub async fn starting_with(db: &Db, prefix: &str) -> Result<Vec<BookingId>, sqlx::Error> {
    debug_assert!(prefix.chars().all(|c| c.is_ascii_hexdigit() || c == '-'));
    sqlx::query_scalar("select id from booking where id like $1 order by id limit 2")
        .bind(format!("{prefix}%"))
        .fetch_all(db.reader())
        .await
}
