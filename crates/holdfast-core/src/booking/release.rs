//! Ending holds: the owner's release (`cancel_hold`) and the sweeper's
//! `expire_due_holds`. Both only tidy what the claim condition already
//! ignores: an expired hold is free for others with or without them.

use super::store;
use super::BookingStatus;
use crate::platform::{db, retry};
use crate::{ApiError, AppState};
use holdfast_model::{BookingId, BuyerId};

/// HELD → CANCELLED by the buyer who holds it; run again whole when the
/// database rolls it back for contention (`retry::retried`).
pub async fn cancel_hold(
    state: &AppState,
    buyer: &BuyerId,
    booking_id: &BookingId,
) -> Result<BookingStatus, ApiError> {
    retry::retried("release", || cancel_hold_once(state, buyer, booking_id)).await
}

async fn cancel_hold_once(
    state: &AppState,
    buyer: &BuyerId,
    booking_id: &BookingId,
) -> Result<BookingStatus, ApiError> {
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    let released = store::cancel_hold(&mut tx, booking_id, buyer, now).await?;
    db::commit(tx).await?;
    if let Some(released) = released {
        state
            .seat_maps
            .publish(released.event_id, &released.as_changes(), now);
        return Ok(BookingStatus::Cancelled);
    }
    match store::status_of(&state.db, booking_id, buyer).await? {
        None => Err(ApiError::NotFound("booking")),
        Some((BookingStatus::Held, _)) => Err(ApiError::HoldExpired),
        Some((status, _)) => Err(ApiError::InvalidState(format!(
            "a {status} booking cannot be released"
        ))),
    }
}

/// Marks up to `batch` due holds EXPIRED; returns how many this call ended.
/// Safe with many sweepers at once: each booking is claimed by a conditional
/// update, so each expiry is counted once.
pub async fn expire_due_holds(state: &AppState, batch: i64) -> Result<u64, ApiError> {
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    let due = store::due_holds(&mut tx, &state.db, now, batch).await?;
    let released = store::expire_stale(&mut tx, &due, now).await?;
    db::commit(tx).await?;
    for r in &released {
        state.seat_maps.publish(r.event_id, &r.as_changes(), now);
    }
    crate::platform::metrics::holds_expired(released.len() as u64);
    Ok(released.len() as u64)
}
