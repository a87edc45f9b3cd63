//! Letting buyers in: every instance's worker calls `admit_due` about once a
//! second; the room's row lock and `last_admit_at` make the instances share
//! one allowance, so the configured rate holds however many run.
//!
//! A step admits the fewest of
//! - the allowance: `admit_per_minute` × the time since the last step
//!   (counted from the on-sale at the earliest, at most `MAX_STEP_MS` or
//!   one buyer's worth, so an idle room does not bank a burst);
//! - the buyers waiting;
//! - the places free minus the buyers let in within the last shopping
//!   window (one hold's lifetime): never 10,000 people for the last 20 seats.
//!   Sold out, nobody more is let in; seats coming back (an expiry, a
//!   refund) let the queue move again.

use super::view::places;
use crate::core::{ApiError, AppState};
use crate::model::EventId;

/// The longest stretch one step makes up for.
pub const MAX_STEP_MS: i64 = 2_000;

/// Steps every enabled room; the number of buyers let in.
pub async fn admit_all_due(state: &AppState) -> Result<i64, ApiError> {
    let rooms: Vec<(i64,)> = sqlx::query_as(
        "select event_id from waiting_room where enabled = 1 and admitted_through < issued",
    )
    .fetch_all(state.db.reader())
    .await?;
    let mut admitted = 0;
    for (event_id,) in rooms {
        admitted += admit_due(state, event_id).await?;
    }
    Ok(admitted)
}

/// One admission step for one room; how many were let in.
pub async fn admit_due(state: &AppState, event_id: EventId) -> Result<i64, ApiError> {
    // Read before the lock: the seat map is in memory, standing places one
    // query. A step that sees slightly stale inventory errs by one step.
    let free = places(&state.db, &state.seat_maps, event_id, state.clock.now_ms())
        .await?
        .free;
    let (on_sale_at,): (i64,) = sqlx::query_as("select on_sale_at from event where id = $1")
        .bind(event_id)
        .fetch_one(state.db.reader())
        .await?;
    let mut tx = state.db.begin().await?;
    // Only the room's row is locked (never the event's: holds reference it).
    type Row = (i64, i64, i64, i64, i64);
    let row: Option<Row> = sqlx::query_as(&format!(
        "select enabled, admit_per_minute, issued, admitted_through, last_admit_at
         from waiting_room where event_id = $1{}",
        state.db.lock_row()
    ))
    .bind(event_id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((enabled, per_minute, issued, through, last)) = row else {
        return Ok(0);
    };
    // The time is read once the lock is ours: another instance's step may
    // have committed a later `last_admit_at` while this one waited.
    let now = state.clock.now_ms();
    if enabled != 1 || now < on_sale_at {
        return Ok(0);
    }
    // At least one buyer's worth, or a slow room would never admit anyone.
    let max_step = MAX_STEP_MS.max(60_000 / per_minute + 1);
    let since = last.max(on_sale_at).max(now - max_step);
    if now <= since {
        return Ok(0);
    }
    let allowance = (now - since).saturating_mul(per_minute) / 60_000;
    if allowance <= 0 {
        return Ok(0);
    }
    let (shopping_since,): (i64,) = sqlx::query_as(
        "select cast(coalesce(max(through_position), 0) as bigint) from admission_step
         where event_id = $1 and admitted_at <= $2",
    )
    .bind(event_id)
    .bind(now - state.rules.hold_ttl_ms)
    .fetch_one(&mut *tx)
    .await?;
    let shopping = through - shopping_since;
    let room_for = (free - shopping).max(0);
    let admit = allowance.min(issued - through).min(room_for).max(0);
    // The allowance used up carries its remainder to the next step; one
    // cut short by the queue or the inventory starts afresh.
    // Rounded up: the carried credit never exceeds what was earned.
    let next_since = if admit == allowance {
        (since + (admit * 60_000 + per_minute - 1) / per_minute).min(now)
    } else {
        now
    };
    sqlx::query("update waiting_room set admitted_through = admitted_through + $2, last_admit_at = $3 where event_id = $1")
        .bind(event_id)
        .bind(admit)
        .bind(next_since)
        .execute(&mut *tx)
        .await?;
    if admit > 0 {
        sqlx::query("insert into admission_step (event_id, through_position, admitted_at) values ($1, $2, $3)")
            .bind(event_id)
            .bind(through + admit)
            .bind(now)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    if admit > 0 {
        state.waiting_rooms.forget(event_id);
        crate::core::platform::metrics::admitted(admit);
    }
    Ok(admit)
}
