//! Reading the catalogue: events, their price categories and standing areas.
//! Seat counts come from the in-memory seat maps.

use super::platform::clock::rfc3339;
use super::platform::db::Db;
use super::{ApiError, AppState};
use crate::platform::clock::At;
use holdfast_model::{
    EventBrief, EventDetail, EventId, EventKind, EventSummary, GeneralAdmissionArea, PriceCategory,
    RefundWindow,
};

/// An event as the `event` table keeps it.
#[derive(sqlx::FromRow)]
struct EventRow {
    id: EventId,
    name: String,
    kind: String,
    venue: String,
    starts_at: At,
    currency: String,
    time_zone: String,
}

pub async fn list_events(state: &AppState) -> Result<Vec<EventSummary>, ApiError> {
    let rows: Vec<EventRow> = sqlx::query_as(
        "select id, name, kind, venue, starts_at, currency, time_zone from event where published = 1 order by starts_at, id",
    )
    .fetch_all(state.db.reader())
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        out.push(summary(state, row).await?);
    }
    Ok(out)
}

/// How long an event page reuses the details it read (per instance): a
/// page render is then the copy of a few kilobytes, not four queries. The
/// seat map beside it is live; the API's `GET /api/events/{id}` is exact.
pub const PAGE_FRESHNESS: std::time::Duration = std::time::Duration::from_millis(250);

/// The event as its page shows it: read at most every `PAGE_FRESHNESS`,
/// kept with the event's seat map (so a withdrawn event, whose map this
/// instance drops, is not shown from memory).
pub async fn event_for_page(
    state: &AppState,
    event_id: EventId,
) -> Result<std::sync::Arc<EventDetail>, ApiError> {
    let Some(map) = state.seat_maps.cached(event_id) else {
        return Ok(std::sync::Arc::new(event_detail(state, event_id).await?));
    };
    if let Some(kept) = map.page_detail(PAGE_FRESHNESS) {
        return Ok(kept);
    }
    // A crowd that finds them stale at once waits for one read.
    let _reading = map.refreshing_page_detail().await;
    if let Some(kept) = map.page_detail(PAGE_FRESHNESS) {
        return Ok(kept);
    }
    let detail = std::sync::Arc::new(event_detail(state, event_id).await?);
    map.keep_page_detail(detail.clone());
    Ok(detail)
}

/// An event with its refund policy, as its detail reads it.
#[derive(sqlx::FromRow)]
struct DetailRow {
    #[sqlx(flatten)]
    event: EventRow,
    #[sqlx(flatten)]
    policy: crate::booking::query::RefundPolicyRow,
}

pub async fn event_detail(state: &AppState, event_id: EventId) -> Result<EventDetail, ApiError> {
    let row: Option<DetailRow> = sqlx::query_as(
        "select id, name, kind, venue, starts_at, currency, time_zone,
                refund_full_days, refund_partial_days, refund_partial_percent
         from event where id = $1 and published = 1",
    )
    .bind(event_id)
    .fetch_optional(state.db.reader())
    .await?;
    let DetailRow { event: row, policy } = row.ok_or(ApiError::NotFound("event"))?;
    let categories: Vec<PriceCategory> = sqlx::query_as(
        "select code, name, price_cents, color from price_category where event_id = $1 order by price_cents desc",
    )
    .bind(event_id)
    .fetch_all(state.db.reader())
    .await?;
    let areas: Vec<GeneralAdmissionArea> = sqlx::query_as(
        "select a.id, a.name, c.code as category, c.price_cents, a.capacity, a.remaining
         from ga_area a join price_category c on c.id = a.category_id where a.event_id = $1 order by a.id",
    )
    .bind(event_id)
    .fetch_all(state.db.reader())
    .await?;
    let policy = holdfast_model::RefundPolicy::from(policy);
    let now = state.clock.now();
    let refund_windows = refund_windows(&policy, row.starts_at, &row.time_zone, now);
    Ok(EventDetail {
        summary: summary(state, row).await?,
        categories,
        general_admission: areas,
        refund_windows,
    })
}

/// The windows of `policy` for an event starting at `starts_at` that are
/// still open at `now`, their ends in the event's zone.
fn refund_windows(
    policy: &holdfast_model::RefundPolicy,
    starts_at: At,
    zone: &str,
    now: At,
) -> Vec<RefundWindow> {
    policy
        .windows(starts_at.ms())
        .into_iter()
        .filter(|(_, until)| *until > now.ms())
        .map(|(percent, until)| {
            let until = At::from_ms(until);
            let local = super::event_time::local_start(until, zone);
            RefundWindow {
                percent,
                until: rfc3339(until),
                local_until: local.at,
                time_zone_abbreviation: local.abbreviation,
            }
        })
        .collect()
}

async fn summary(state: &AppState, row: EventRow) -> Result<EventSummary, ApiError> {
    let EventRow {
        id,
        name,
        kind,
        venue,
        starts_at,
        currency,
        time_zone,
    } = row;
    let map = state
        .seat_maps
        .get(&state.db, id)
        .await?
        .ok_or(ApiError::NotFound("event"))?;
    let now = state.clock.now();
    let local = super::event_time::local_start(starts_at, &time_zone);
    Ok(EventSummary {
        id,
        name,
        kind: EventKind::parse(&kind).unwrap_or(EventKind::Concert),
        venue,
        starts_at: rfc3339(starts_at),
        seat_count: map.seats.len() as i64,
        available_count: map.available_count(now),
        currency,
        local_starts_at: local.at,
        time_zone_abbreviation: local.abbreviation,
        time_zone,
    })
}

/// The event's IANA time zone (`NotFound` for no event): where its
/// wall-clock times are read.
pub async fn time_zone(state: &AppState, event_id: EventId) -> Result<String, ApiError> {
    let row: Option<(String,)> = sqlx::query_as("select time_zone from event where id = $1")
        .bind(event_id)
        .fetch_optional(state.db.reader())
        .await?;
    row.map(|r| r.0).ok_or(ApiError::NotFound("event"))
}

/// When the event goes on sale (ms).
pub async fn on_sale_at(state: &AppState, event_id: EventId) -> Result<At, ApiError> {
    let row: Option<(At,)> = sqlx::query_as("select on_sale_at from event where id = $1")
        .bind(event_id)
        .fetch_optional(state.db.reader())
        .await?;
    row.map(|r| r.0).ok_or(ApiError::NotFound("event"))
}

/// Seats' and standing places' counts aside, the standing areas' places
/// left and in all.
pub async fn standing_places(db: &Db, event_id: EventId) -> Result<(i64, i64), sqlx::Error> {
    sqlx::query_as(
        "select cast(coalesce(sum(remaining), 0) as bigint), cast(coalesce(sum(capacity), 0) as bigint)
         from ga_area where event_id = $1",
    )
    .bind(event_id)
    .fetch_one(db.reader())
    .await
}

/// Whether an event of this id exists, published or not.
pub async fn exists(state: &AppState, event_id: EventId) -> Result<bool, ApiError> {
    let found: Option<(EventId,)> = sqlx::query_as("select id from event where id = $1")
        .bind(event_id)
        .fetch_optional(state.db.reader())
        .await?;
    Ok(found.is_some())
}

/// What a booking is for: the event's name, place and time, published or
/// not (a booking outlives its event's withdrawal).
pub async fn event_brief(
    state: &AppState,
    event_id: EventId,
) -> Result<Option<EventBrief>, ApiError> {
    let row: Option<EventRow> = sqlx::query_as(
        "select id, name, kind, venue, starts_at, currency, time_zone from event where id = $1",
    )
    .bind(event_id)
    .fetch_optional(state.db.reader())
    .await?;
    Ok(row.map(|e| brief(e.name, &e.kind, e.venue, e.starts_at, e.time_zone)))
}

/// An event's brief from its stored columns (read beside a booking).
pub fn brief(
    name: String,
    kind: &str,
    venue: String,
    starts_at: At,
    time_zone: String,
) -> EventBrief {
    let local = super::event_time::local_start(starts_at, &time_zone);
    EventBrief {
        name,
        kind: EventKind::parse(kind).unwrap_or(EventKind::Concert),
        venue,
        starts_at: rfc3339(starts_at),
        local_starts_at: local.at,
        time_zone_abbreviation: local.abbreviation,
        time_zone,
    }
}
