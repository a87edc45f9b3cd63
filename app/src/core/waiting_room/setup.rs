//! The admin switches an event's waiting room on or off and sets its rate;
//! the console watches how many joined, were let in, still wait.

use crate::core::admin::audit::{self, Entry};
use crate::core::admin::audit_detail::Detail;
use crate::core::admin::auth::Admin;
use crate::core::platform::clock::rfc3339;
use crate::core::{ApiError, AppState};
use crate::model::console::RoomSummary;
use crate::model::EventId;

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
    let now = state.clock.now_ms();
    let mut tx = state.db.begin().await?;
    let found: Option<(i64,)> = sqlx::query_as("select id from event where id = $1")
        .bind(event_id)
        .fetch_optional(&mut *tx)
        .await?;
    if found.is_none() {
        return Err(ApiError::NotFound("event"));
    }
    sqlx::query(
        "insert into waiting_room (event_id, enabled, admit_per_minute, updated_at) values ($1, $2, $3, $4)
         on conflict (event_id) do update set enabled = excluded.enabled,
             admit_per_minute = excluded.admit_per_minute, updated_at = excluded.updated_at",
    )
    .bind(event_id)
    .bind(i64::from(enabled))
    .bind(admit_per_minute)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    let detail = Detail::WaitingRoom {
        open: enabled,
        per_minute: admit_per_minute,
    };
    audit::record(
        &mut tx,
        &Entry {
            actor: &admin.actor,
            action: "waiting_room",
            event_id: Some(event_id),
            booking_id: None,
            detail: &detail,
        },
        now,
    )
    .await?;
    tx.commit().await?;
    state.waiting_rooms.forget(event_id);
    summary(state, event_id).await
}

pub async fn summary(state: &AppState, event_id: EventId) -> Result<RoomSummary, ApiError> {
    let now = state.clock.now_ms();
    state.waiting_rooms.forget(event_id);
    let room = state
        .waiting_rooms
        .view(&state.db, &state.seat_maps, event_id, now)
        .await?
        .ok_or(ApiError::NotFound("event"))?;
    let per_minute: Option<(i64,)> =
        sqlx::query_as("select admit_per_minute from waiting_room where event_id = $1")
            .bind(event_id)
            .fetch_optional(state.db.reader())
            .await?;
    let (zone,): (String,) = sqlx::query_as("select time_zone from event where id = $1")
        .bind(event_id)
        .fetch_one(state.db.reader())
        .await?;
    Ok(RoomSummary {
        event_id,
        enabled: room.enabled,
        admit_per_minute: per_minute.map_or(0, |p| p.0),
        joined: room.issued,
        admitted: room.admitted_through,
        waiting: room.waiting(),
        free_places: room.free_places,
        on_sale_at: rfc3339(room.on_sale_at),
        on_sale_at_local: crate::core::event_time::local_start(room.on_sale_at, &zone).at,
        admitting: room.enabled && room.on_sale_at <= now,
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
    let now = state.clock.now_ms();
    let opened: Vec<(i64,)> = sqlx::query_as(
        "insert into waiting_room (event_id, enabled, admit_per_minute, updated_at)
         select id, 1, $1, $2 from event
         where published = 1 and on_sale_at > $2 - 60000 and on_sale_at <= $2 + $3
         on conflict (event_id) do nothing
         returning event_id",
    )
    .bind(per_minute.clamp(1, MAX_ADMIT_PER_MINUTE))
    .bind(now)
    .bind(lead_ms)
    .fetch_all(state.db.writer())
    .await?;
    let opened: Vec<EventId> = opened.into_iter().map(|r| r.0).collect();
    for event_id in &opened {
        state.waiting_rooms.forget(*event_id);
        tracing::info!(event_id, per_minute, "waiting room opened for the on-sale");
    }
    Ok(opened)
}
