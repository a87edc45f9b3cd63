//! Joining the queue: a place in arrival order (written in batches by
//! `arrivals`), kept when the same buyer joins again; a buyer whose
//! admission lapsed goes to the back.

use super::status_of;
use crate::{ApiError, AppState};
use holdfast_model::BuyerId;
use holdfast_model::{EventId, QueueStatus};

pub async fn join(
    state: &AppState,
    buyer: &BuyerId,
    event_id: EventId,
) -> Result<QueueStatus, ApiError> {
    state.limits.buyer_attempt(buyer)?;
    let now = state.clock.now();
    let room = state
        .waiting_rooms
        .view(&state.db, &state.seat_maps, event_id, now)
        .await?
        .ok_or(ApiError::NotFound("event"))?;
    let signer = &state.waiting_rooms.signer;
    if !room.enabled {
        return Ok(status_of(&room, signer, event_id, buyer, None, now));
    }
    let place = state
        .waiting_rooms
        .arrivals
        .place(event_id, buyer, now)
        .await?;
    Ok(status_of(&room, signer, event_id, buyer, place, now))
}

/// The buyer's place without joining (a status read without a queue token).
pub async fn place_of(
    state: &AppState,
    buyer: &BuyerId,
    event_id: EventId,
) -> Result<Option<i64>, ApiError> {
    Ok(super::store::position_of(state.db.reader(), event_id, buyer).await?)
}
