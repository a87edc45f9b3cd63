//! How long an unpaid checkout may keep its seats. Paying moves a hold into
//! a checkout that lasts `CHECKOUT_TTL_SECONDS` — unless the event is
//! selling fast (its waiting room is open, or fewer than
//! `FAST_SALE_FREE_PERCENT` of its places are free): then the checkout ends
//! `CHECKOUT_GRACE_SECONDS` after the hold would have, so calling pay
//! cannot stretch a 5-minute hold into a 30-minute one. The provider's
//! session may have to live longer (Stripe's is at least 30 minutes); it is
//! expired there when the seats go back (`reconcile`), and a payment that
//! still lands is settled like any late one (booked again or refunded).
//!
//! A buyer whose checkouts keep ending unpaid (more than
//! `ABANDONED_CHECKOUTS_PER_HOUR`) is refused new ones for the hour.

use crate::core::platform::clock::At;
use crate::core::waiting_room::view::places;
use crate::core::{ApiError, AppState};
use crate::model::BuyerId;
use crate::model::{BookingStatus, EventId};

const HOUR_MS: i64 = 3_600_000;

/// The payment deadline for a hold of `event_id` ending at `held_until`,
/// paid `now`.
pub async fn for_checkout(
    state: &AppState,
    event_id: EventId,
    held_until: At,
    now: At,
) -> Result<At, ApiError> {
    let settings = &state.payments.settings;
    let full = now + settings.checkout_ttl_ms;
    if !selling_fast(state, event_id, now).await? {
        return Ok(full);
    }
    Ok(full.min(held_until.max(now) + settings.checkout_grace_ms))
}

/// The waiting room is open, or few places are left.
pub async fn selling_fast(state: &AppState, event_id: EventId, now: At) -> Result<bool, ApiError> {
    let Some(room) = state
        .waiting_rooms
        .view(&state.db, &state.seat_maps, event_id, now)
        .await?
    else {
        return Ok(false);
    };
    if room.enabled {
        return Ok(true);
    }
    // Counted now, not from the room's picture (which may be half a second
    // old): the seat map is in memory, standing places one query.
    let percent = state.payments.settings.fast_sale_free_percent;
    let places = places(&state.db, &state.seat_maps, event_id, now).await?;
    Ok(places.free * 100 < places.total * percent)
}

/// 429 for a buyer whose recent checkouts ended unpaid too often (those
/// the provider never opened, in an outage, do not count).
pub async fn refuse_serial_abandoner(
    state: &AppState,
    buyer: &BuyerId,
    now: At,
) -> Result<(), ApiError> {
    let allowed = state.payments.settings.abandoned_checkouts_per_hour;
    if allowed <= 0 {
        return Ok(());
    }
    let (abandoned, oldest): (i64, Option<At>) = sqlx::query_as(&format!(
        "select count(*), min(p.created_at) from booking b join payment p on p.booking_id = b.id
         where b.buyer_id = $1 and b.status = {} and p.created_at > $2
           and p.checkout_session_id is not null",
        BookingStatus::Expired.sql()
    ))
    .bind(buyer)
    .bind(now - HOUR_MS)
    .fetch_one(state.db.reader())
    .await?;
    if abandoned < allowed {
        return Ok(());
    }
    let until = oldest.unwrap_or(now) + HOUR_MS;
    Err(ApiError::RateLimited {
        retry_after_secs: ((until - now) / 1000).max(1) as u64,
    })
}
