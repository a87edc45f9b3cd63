//! The waiting room: at an on-sale, buyers line up before they may see the
//! seat map or hold, and are let in at a rate the inventory can absorb.
//!
//! - `join` hands out places in arrival order (one row per buyer, in the
//!   database, so the queue survives restarts and spans instances);
//! - `admit` moves the admission watermark, at most `admit_per_minute`, never
//!   more buyers shopping than places are free, and not before the on-sale;
//! - `token` signs queue places and admissions (HMAC, bound to the buyer);
//! - `gate` is what the seat-map and hold endpoints ask;
//! - `view` is each instance's cached picture of a room, so status polls,
//!   streams and the gate cost no database read;
//! - `store` holds the only SQL on rooms, admission steps and queue places.

pub mod admit;
pub mod arrivals;
pub mod gate;
pub mod join;
pub mod setup;
pub mod store;
pub mod token;
pub mod view;

pub use gate::{admit, require_admission, Admitted};
pub use view::{RoomView, WaitingRooms};

use crate::platform::clock::At;
use holdfast_model::BuyerId;
use holdfast_model::{EventId, QueueStatus};

/// A buyer's status from their place and the room's picture, minting the
/// admission token when they are in.
pub fn status_of(
    room: &RoomView,
    signer: &token::AdmissionSigner,
    event_id: EventId,
    buyer: &BuyerId,
    place: Option<i64>,
    now: At,
) -> QueueStatus {
    let queue_token = place.map(|p| signer.queue_token(event_id, buyer, p));
    let mut status = QueueStatus {
        position: 0,
        estimated_wait_ms: 0,
        admitted: false,
        admission_token: None,
        sold_out: room.free_places <= 0,
        room_open: room.enabled,
        admission_expired: false,
        queue_token,
    };
    if !room.enabled {
        status.admitted = true;
        return status;
    }
    let Some(place) = place else {
        return status;
    };
    if place <= room.admitted_through {
        match room.admitted_at(place) {
            Some(at) if at + room.admission_ttl_ms > now => {
                status.admitted = true;
                status.admission_token =
                    Some(signer.admission_token(event_id, buyer, at + room.admission_ttl_ms));
            }
            _ => status.admission_expired = true,
        }
        return status;
    }
    status.position = place - room.admitted_through;
    let per_minute = room.admit_per_minute.max(1);
    let until_open = (room.on_sale_at - now).max(0);
    status.estimated_wait_ms = until_open + status.position * 60_000 / per_minute;
    status
}

/// A buyer's status now, from their signed place (no database read) or,
/// without one, from their row; `None` when the room is on and they never
/// joined.
pub async fn current_status(
    state: &crate::AppState,
    buyer: &BuyerId,
    event_id: EventId,
    queue_token: Option<&str>,
) -> Result<Option<QueueStatus>, crate::ApiError> {
    let now = state.clock.now();
    let rooms = &state.waiting_rooms;
    let room = rooms
        .view(&state.db, &state.seat_maps, event_id, now)
        .await?
        .ok_or(crate::ApiError::NotFound("event"))?;
    if !room.enabled {
        return Ok(Some(status_of(
            &room,
            &rooms.signer,
            event_id,
            buyer,
            None,
            now,
        )));
    }
    let signed = queue_token
        .and_then(|t| rooms.signer.read_queue_token(t))
        .filter(|t| t.event_id == event_id && &t.buyer == buyer)
        .map(|t| t.number);
    let place = match signed {
        Some(p) => Some(p),
        None => join::place_of(state, buyer, event_id).await?,
    };
    Ok(place.map(|p| status_of(&room, &rooms.signer, event_id, buyer, Some(p), now)))
}
