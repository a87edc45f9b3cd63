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
//!   window (one hold's lifetime) who hold nothing yet: never 10,000 people
//!   for the last 20 seats. (A buyer who holds is already counted in the
//!   places taken: counting them again stalled the queue at the end of a
//!   sale, seats coming back while everybody let in lately had bought.)
//!   Sold out, nobody more is let in; seats coming back (an expiry, a
//!   refund) let the queue move again.

use super::store;
use super::view::places;
use crate::platform::db;
use crate::{catalog, ApiError, AppState};
use holdfast_model::EventId;

/// The longest stretch one step makes up for.
pub const MAX_STEP_MS: i64 = 2_000;

/// Steps every enabled room; the number of buyers let in.
pub async fn admit_all_due(state: &AppState) -> Result<i64, ApiError> {
    let mut admitted = 0;
    for event_id in store::rooms_with_a_queue(&state.db).await? {
        admitted += admit_due(state, event_id).await?;
    }
    Ok(admitted)
}

/// One admission step for one room; how many were let in.
pub async fn admit_due(state: &AppState, event_id: EventId) -> Result<i64, ApiError> {
    // Read before the lock: the seat map is in memory, standing places one
    // query. A step that sees slightly stale inventory errs by one step.
    let free = places(&state.db, &state.seat_maps, event_id, state.clock.now())
        .await?
        .free;
    let on_sale_at = catalog::on_sale_at(state, event_id).await?;
    let mut tx = state.db.begin().await?;
    let Some(room) = store::lock_room(&mut tx, &state.db, event_id).await? else {
        return Ok(0);
    };
    let (per_minute, issued, through) = (room.admit_per_minute, room.issued, room.admitted_through);
    // The time is read once the lock is ours: another instance's step may
    // have committed a later `last_admit_at` while this one waited.
    let now = state.clock.now();
    if room.enabled != 1 || now < on_sale_at {
        return Ok(0);
    }
    // At least one buyer's worth, or a slow room would never admit anyone.
    let max_step = MAX_STEP_MS.max(60_000 / per_minute + 1);
    let since = room.last_admit_at.max(on_sale_at).max(now - max_step);
    if now <= since {
        return Ok(0);
    }
    let allowance = (now - since).saturating_mul(per_minute) / 60_000;
    if allowance <= 0 {
        return Ok(0);
    }
    let shopping_since =
        store::admitted_through_at(&mut *tx, event_id, now - state.rules.hold_ttl_ms).await?;
    let shopping = store::still_choosing(&mut *tx, event_id, shopping_since, through, now).await?;
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
    store::record_step(&mut tx, event_id, through, admit, next_since, now).await?;
    db::commit(tx).await?;
    if admit > 0 {
        state.waiting_rooms.forget(event_id);
        crate::platform::metrics::admitted(admit);
    }
    Ok(admit)
}
