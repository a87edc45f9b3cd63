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

use crate::platform::clock::At;
use crate::waiting_room::view::places_with;
use crate::{ApiError, AppState};
use holdfast_model::{BookingId, BuyerId};
use holdfast_model::{BookingStatus, EventId};

const HOUR_MS: i64 = 3_600_000;

/// What the pay step reads before it moves a hold, in one statement: the
/// buyer's recent checkouts that ended unpaid, and the hold's event, end
/// and standing places (none of them when the booking is not this buyer's).
#[derive(sqlx::FromRow)]
struct BeforePay {
    abandoned: i64,
    oldest_abandoned: Option<At>,
    event_id: Option<EventId>,
    held_until: Option<At>,
    free_standing: i64,
    standing: i64,
}

/// The payment deadline for `booking_id` paid `now` — after refusing (429)
/// a buyer whose checkouts keep ending unpaid. A booking that is not this
/// buyer's gets the full checkout time; the conditional move refuses it
/// anyway.
pub async fn for_pay(
    state: &AppState,
    buyer: &BuyerId,
    booking_id: &BookingId,
    now: At,
) -> Result<At, ApiError> {
    let read: BeforePay = sqlx::query_as(&format!(
        "select a.abandoned, a.oldest_abandoned, h.event_id, h.held_until,
           (select cast(coalesce(sum(g.remaining), 0) as bigint) from ga_area g
             where g.event_id = h.event_id) as free_standing,
           (select cast(coalesce(sum(g.capacity), 0) as bigint) from ga_area g
             where g.event_id = h.event_id) as standing
         from (select count(*) as abandoned, min(p.created_at) as oldest_abandoned
               from booking b join payment p on p.booking_id = b.id
               where b.buyer_id = $1 and b.status = {} and p.created_at > $2
                 and p.checkout_session_id is not null) a
         left join booking h on h.id = $3 and h.buyer_id = $1",
        BookingStatus::Expired.sql()
    ))
    .bind(buyer)
    .bind(now - HOUR_MS)
    .bind(booking_id)
    .fetch_one(state.db.reader())
    .await?;
    refuse_serial_abandoner(state, read.abandoned, read.oldest_abandoned, now)?;
    let full = now + state.payments.settings.checkout_ttl_ms;
    let (Some(event_id), Some(held_until)) = (read.event_id, read.held_until) else {
        return Ok(full);
    };
    let standing = (read.free_standing, read.standing);
    if !selling_fast(state, event_id, standing, now).await? {
        return Ok(full);
    }
    Ok(full.min(held_until.max(now) + state.payments.settings.checkout_grace_ms))
}

/// The waiting room is open, or few places are left (`standing`: the
/// standing areas' places left and in all).
async fn selling_fast(
    state: &AppState,
    event_id: EventId,
    standing: (i64, i64),
    now: At,
) -> Result<bool, ApiError> {
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
    // old): the seat map is in memory, standing places read with the hold.
    let percent = state.payments.settings.fast_sale_free_percent;
    let places = places_with(&state.db, &state.seat_maps, event_id, standing, now).await?;
    Ok(places.free * 100 < places.total * percent)
}

/// 429 for a buyer whose recent checkouts ended unpaid too often (those
/// the provider never opened, in an outage, do not count): `abandoned` in
/// the last hour, the oldest at `oldest`.
fn refuse_serial_abandoner(
    state: &AppState,
    abandoned: i64,
    oldest: Option<At>,
    now: At,
) -> Result<(), ApiError> {
    let allowed = state.payments.settings.abandoned_checkouts_per_hour;
    if allowed <= 0 || abandoned < allowed {
        return Ok(());
    }
    let until = oldest.unwrap_or(now) + HOUR_MS;
    Err(ApiError::RateLimited {
        retry_after_secs: ((until - now) / 1000).max(1) as u64,
    })
}
