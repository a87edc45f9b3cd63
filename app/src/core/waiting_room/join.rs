//! Joining the queue: a place in arrival order, kept when the same buyer
//! joins again; a buyer whose admission lapsed goes to the back.

use super::status_of;
use crate::core::{ApiError, AppState};
use crate::model::{EventId, QueueStatus};

pub async fn join(
    state: &AppState,
    buyer: &str,
    event_id: EventId,
) -> Result<QueueStatus, ApiError> {
    let now = state.clock.now_ms();
    let room = state
        .waiting_rooms
        .view(&state.db, &state.seat_maps, event_id, now)
        .await?
        .ok_or(ApiError::NotFound("event"))?;
    let signer = &state.waiting_rooms.signer;
    if !room.enabled {
        return Ok(status_of(&room, signer, event_id, buyer, None, now));
    }
    let place = take_place(state, buyer, event_id, now).await?;
    Ok(status_of(&room, signer, event_id, buyer, place, now))
}

/// The buyer's place (an existing one, or the next), in one transaction:
/// the room's row lock hands out positions one at a time, in arrival order.
/// `None` when the room has just been switched off.
async fn take_place(
    state: &AppState,
    buyer: &str,
    event_id: EventId,
    now: i64,
) -> Result<Option<i64>, ApiError> {
    let lapsed_before = now - state.waiting_rooms.admission_ttl_ms;
    let mut tx = state.db.begin().await?;
    let existing: Option<(i64,)> =
        sqlx::query_as("select position from queue_entry where event_id = $1 and buyer_id = $2")
            .bind(event_id)
            .bind(buyer)
            .fetch_optional(&mut *tx)
            .await?;
    if let Some((place,)) = existing {
        // The step that let this place in is the first one through it.
        let step: Option<(i64,)> = sqlx::query_as(
            "select admitted_at from admission_step where event_id = $1 and through_position >= $2
             order by through_position limit 1",
        )
        .bind(event_id)
        .bind(place)
        .fetch_optional(&mut *tx)
        .await?;
        let lapsed = step.is_some_and(|(at,)| at <= lapsed_before);
        if !lapsed {
            tx.commit().await?;
            return Ok(Some(place));
        }
    }
    let issued: Option<(i64,)> = sqlx::query_as(
        "update waiting_room set issued = issued + 1 where event_id = $1 and enabled = 1 returning issued",
    )
    .bind(event_id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((place,)) = issued else {
        tx.rollback().await?;
        return Ok(None);
    };
    let written = sqlx::query(
        "insert into queue_entry (event_id, buyer_id, position, joined_at) values ($1, $2, $3, $4)
         on conflict (event_id, buyer_id) do update set position = excluded.position, joined_at = excluded.joined_at
         where queue_entry.position = $5",
    )
    .bind(event_id)
    .bind(buyer)
    .bind(place)
    .bind(now)
    .bind(existing.map_or(-1, |e| e.0))
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if written == 0 {
        // The same buyer joined at the same moment elsewhere and won: give
        // the number back (rolled back with the transaction) and use theirs.
        tx.rollback().await?;
        let (place,): (i64,) = sqlx::query_as(
            "select position from queue_entry where event_id = $1 and buyer_id = $2",
        )
        .bind(event_id)
        .bind(buyer)
        .fetch_one(state.db.reader())
        .await?;
        return Ok(Some(place));
    }
    tx.commit().await?;
    Ok(Some(place))
}

/// The buyer's place without joining (a status read without a queue token).
pub async fn place_of(
    state: &AppState,
    buyer: &str,
    event_id: EventId,
) -> Result<Option<i64>, ApiError> {
    let row: Option<(i64,)> =
        sqlx::query_as("select position from queue_entry where event_id = $1 and buyer_id = $2")
            .bind(event_id)
            .bind(buyer)
            .fetch_optional(state.db.reader())
            .await?;
    Ok(row.map(|r| r.0))
}
