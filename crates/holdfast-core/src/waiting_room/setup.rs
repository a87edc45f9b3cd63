//! The admin switches an event's waiting room on or off and sets its rate;
//! the console watches how many joined, were let in, still wait.

use crate::admin::audit::{self, Entry};
use crate::admin::audit_detail::Detail;
use crate::admin::auth::Admin;
use crate::platform::clock::rfc3339;
use crate::platform::db;
use crate::{ApiError, AppState};
use holdfast_model::console::RoomSummary;
use holdfast_model::EventId;

use super::store;

/// The highest rate one room takes.
pub const MAX_ADMIT_PER_MINUTE: i64 = 1_000_000;

pub async fn configure(
    state: &AppState,
    admin: &Admin,
    event_id: EventId,
    enabled: bool,
    admit_per_minute: i64,
) -> Result<RoomSummary, ApiError> {
    if !(1..=MAX_ADMIT_PER_MINUTE).contains(&admit_per_minute) {
        return Err(ApiError::unprocessable(
            "admitPerMinute must be from 1 to 1,000,000",
            "admitPerMinute",
        ));
    }
    let now = state.clock.now();
    if !crate::catalog::exists(state, event_id).await? {
        return Err(ApiError::NotFound("event"));
    }
    let mut tx = state.db.begin().await?;
    store::set_room(&mut tx, event_id, enabled, admit_per_minute, now).await?;
    let detail = Detail::WaitingRoom {
        open: enabled,
        per_minute: admit_per_minute,
    };
    let entry = Entry::on_event(admin, "waiting_room", event_id, &detail);
    audit::record(&mut tx, &entry, now).await?;
    db::commit(tx).await?;
    state.waiting_rooms.forget(event_id);
    summary(state, event_id).await
}

/// Moves the event's on-sale time to `at`: RFC 3339, or a wall-clock time
/// ("2027-06-01T10:00") read in the event's own zone. Holds and the room's
/// admission follow it at once (both read it from the event's row).
pub async fn move_on_sale(
    state: &AppState,
    admin: &Admin,
    event_id: EventId,
    at: &str,
) -> Result<RoomSummary, ApiError> {
    let zone = crate::catalog::time_zone(state, event_id).await?;
    let Some(on_sale_at) = crate::event_time::parse_start(at.trim(), &zone) else {
        return Err(ApiError::unprocessable(
            "onSaleAt must be a date and time, such as 2027-06-01T10:00",
            "onSaleAt",
        ));
    };
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    sqlx::query("update event set on_sale_at = $2 where id = $1")
        .bind(event_id)
        .bind(on_sale_at)
        .execute(&mut *tx)
        .await?;
    let detail = Detail::OnSaleMoved {
        at: crate::event_time::local_start(on_sale_at, &zone).at,
    };
    let entry = Entry::on_event(admin, "move_on_sale", event_id, &detail);
    audit::record(&mut tx, &entry, now).await?;
    db::commit(tx).await?;
    state.waiting_rooms.forget(event_id);
    summary(state, event_id).await
}

pub async fn summary(state: &AppState, event_id: EventId) -> Result<RoomSummary, ApiError> {
    let now = state.clock.now();
    state.waiting_rooms.forget(event_id);
    let room = state
        .waiting_rooms
        .view(&state.db, &state.seat_maps, event_id, now)
        .await?
        .ok_or(ApiError::NotFound("event"))?;
    Ok(RoomSummary {
        event_id,
        enabled: room.enabled,
        admit_per_minute: if room.configured {
            room.admit_per_minute
        } else {
            0
        },
        joined: room.issued,
        admitted: room.admitted_through,
        waiting: room.waiting(),
        free_places: room.free_places,
        on_sale_at: rfc3339(room.on_sale_at),
        on_sale_at_local: crate::event_time::local_start(room.on_sale_at, &room.time_zone).at,
        admitting: room.enabled && room.on_sale_at <= now,
        // 0: never set, on sale since its publication.
        on_sale_set: room.on_sale_at.ms() > 0,
    })
}

/// Opens a waiting room by itself, at `per_minute`, for every published
/// event whose on-sale is at most `lead_ms` away (or began within the last
/// minute) and whose room the admin has not set: early arrivals line up in
/// arrival order and admission starts at the on-sale time. A room the admin
/// switched off stays off. The events whose room opened.
pub async fn open_automatic_rooms(
    state: &AppState,
    per_minute: i64,
    lead_ms: i64,
) -> Result<Vec<EventId>, ApiError> {
    let now = state.clock.now();
    let per_minute = per_minute.clamp(1, MAX_ADMIT_PER_MINUTE);
    let opened = store::open_rooms_before_on_sale(&state.db, per_minute, now, lead_ms).await?;
    for event_id in &opened {
        state.waiting_rooms.forget(*event_id);
        tracing::info!(%event_id, per_minute, "waiting room opened for the on-sale");
    }
    Ok(opened)
}
