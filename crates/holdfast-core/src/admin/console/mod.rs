//! What the console shows: one event's counts, money, live holds, recent
//! settlements, webhook inbox, mail and audit — read-only queries.

use crate::event_time::{local_start, moment};
use crate::payments::outbox;
use crate::platform::clock::{rfc3339, At};
use crate::{ApiError, AppState};
use holdfast_model::console::{
    AdminEvent, Dashboard, HeatMap, SaleState, SeatCounts, StandingCount,
};
use holdfast_model::{BookingStatus, EventId, EventKind};

use super::access::{Admin, Permission};
use super::{audit, canary};

mod chart;
mod holds;
mod logs;
mod sales;
mod settled;

pub use holds::live_holds;
pub use sales::sales;

const RECENT: i64 = 25;

/// The latest rows of a query about one event: `$1` is the event, `$2`
/// how many (`RECENT`).
async fn recent_rows<R>(
    state: &AppState,
    sql: &str,
    event_id: EventId,
) -> Result<Vec<R>, sqlx::Error>
where
    R: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> + Send + Unpin,
{
    sqlx::query_as(sql)
        .bind(event_id)
        .bind(RECENT)
        .fetch_all(state.db.reader())
        .await
}

/// The events `admin`'s grant reaches, as the console lists them; what
/// they took in only for a role that reads reports (0 for the others).
pub async fn events_of(state: &AppState, admin: &Admin) -> Result<Vec<AdminEvent>, ApiError> {
    let all = all_events(state).await?;
    Ok(all
        .into_iter()
        .filter(|e| admin.sees(e.id))
        .map(|mut e| {
            if !admin.may(Permission::Reports, Some(e.id)) {
                e.revenue_cents = 0;
            }
            e
        })
        .collect())
}

/// Every event, published or not: its date in its own zone, places sold
/// of its capacity (seats and standing alike), revenue, where its sale
/// stands.
pub async fn all_events(state: &AppState) -> Result<Vec<AdminEvent>, ApiError> {
    #[derive(sqlx::FromRow)]
    struct Row {
        id: EventId,
        name: String,
        kind: String,
        published: i64,
        seat_count: i64,
        editable: i64,
        starts_at: At,
        on_sale_at: At,
        time_zone: String,
        currency: String,
        standing: i64,
        sold_seats: i64,
        sold_standing: i64,
        revenue_cents: i64,
    }
    let booked = BookingStatus::Booked.sql();
    let rows: Vec<Row> = sqlx::query_as(&format!(
        "select e.id, e.name, e.kind, e.published, e.starts_at, e.on_sale_at, e.time_zone, e.currency,
                (select count(*) from seat s where s.event_id = e.id) as seat_count,
                case when e.published = 0 and e.first_published_at is null and e.layout is not null
                      and not exists (select 1 from booking b where b.event_id = e.id)
                      and not exists (select 1 from sailing x where x.event_id = e.id)
                     then 1 else 0 end as editable,
                (select cast(coalesce(sum(g.capacity), 0) as bigint) from ga_area g where g.event_id = e.id) as standing,
                (select count(*) from booking_seat bs join booking b on b.id = bs.booking_id
                  where b.event_id = e.id and b.status = {booked} and bs.live = 1) as sold_seats,
                (select cast(coalesce(sum(b.ga_quantity), 0) as bigint) from booking b
                  where b.event_id = e.id and b.status = {booked}) as sold_standing,
                (select cast(coalesce(sum(b.amount_cents), 0) as bigint) from booking b
                  where b.event_id = e.id and b.status = {booked}) as revenue_cents
         from event e order by e.starts_at, e.id"
    ))
    .fetch_all(state.db.reader())
    .await?;
    let now = state.clock.now().ms();
    Ok(rows
        .into_iter()
        .map(|r| {
            let capacity = r.seat_count + r.standing;
            let sold = r.sold_seats + r.sold_standing;
            let published = r.published == 1;
            let starts = local_start(r.starts_at, &r.time_zone);
            AdminEvent {
                id: r.id,
                name: r.name,
                kind: EventKind::parse(&r.kind).unwrap_or(EventKind::Concert),
                published,
                seat_count: r.seat_count,
                editable: r.editable == 1,
                starts_at_local: starts.at,
                starts_at_zone: starts.abbreviation,
                capacity,
                sold,
                revenue_cents: r.revenue_cents,
                currency: r.currency,
                sale: SaleState::of(
                    published,
                    r.on_sale_at.ms(),
                    r.starts_at.ms(),
                    capacity - sold,
                    now,
                ),
            }
        })
        .collect())
}

/// The dashboard, its audit details also in `locale` (the console's page;
/// English for the API).
pub async fn dashboard(
    state: &AppState,
    event_id: EventId,
    locale: holdfast_model::i18n::Locale,
) -> Result<Dashboard, ApiError> {
    let now = state.clock.now();
    let db = state.db.reader();
    let event: Option<EventRow> = sqlx::query_as(
        "select name, kind, published, on_sale_at, currency, time_zone from event where id = $1",
    )
    .bind(event_id)
    .fetch_optional(db)
    .await?;
    let Some(event) = event else {
        return Err(ApiError::NotFound("event"));
    };
    let sql = format!(
        "select cast(coalesce(sum(amount_cents), 0) as bigint) from booking
         where event_id = $1 and status = {}",
        BookingStatus::Booked.sql()
    );
    let (revenue,): (i64,) = sqlx::query_as(&sql).bind(event_id).fetch_one(db).await?;
    let standing: Vec<StandingCount> = sqlx::query_as(
        "select id as area_id, name, capacity, remaining from ga_area where event_id = $1 order by id",
    )
    .bind(event_id)
    .fetch_all(db)
    .await?;
    let canary = match state.canary.get() {
        Some(report) => report,
        None => canary::check(state).await?,
    };
    let heat_map = match state.seat_maps.get(&state.db, event_id).await? {
        Some(map) if event.published == 1 => {
            let drawing = map.drawing();
            Some(HeatMap {
                drawing_url: format!("/api/events/{event_id}/seats/drawing?v={}", drawing.hash),
                view_box: drawing.layout.view_box,
            })
        }
        _ => None,
    };
    let zone = event.time_zone.as_str();
    let local = |at: At| moment(at, zone);
    let lines = sales(state, event_id, now).await?;
    Ok(Dashboard {
        time_zone_abbreviation: local_start(now, zone).abbreviation,
        time_zone: event.time_zone.clone(),
        event_id,
        kind: EventKind::parse(&event.kind).unwrap_or(EventKind::Concert),
        heat_map,
        event_name: event.name,
        published: event.published == 1,
        on_sale_at: rfc3339(event.on_sale_at),
        counts: seat_counts(state, event_id, now).await?,
        places: SeatCounts::of_lines(&lines),
        sales: lines,
        sales_chart: chart::sales_chart(state, event_id, event.on_sale_at, now, zone, locale)
            .await?,
        standing,
        revenue_cents: revenue,
        currency: event.currency,
        holds: live_holds(state, Some(event_id)).await?,
        recent: settled::recent(state, event_id, &local, None).await?,
        webhooks: logs::webhooks(state, event_id, &local).await?,
        mail: logs::mail(state, event_id, &local).await?,
        outbox_backlog: outbox::backlog(state).await?.waiting,
        audit: audit::recent(&state.db, Some(event_id), RECENT, locale).await?,
        canary,
    })
}

/// The event's settled bookings whose id, buyer's email or a seat's name
/// contains `q` (the latest 25).
pub async fn find_bookings(
    state: &AppState,
    event_id: EventId,
    q: &str,
) -> Result<Vec<holdfast_model::console::BookingActivity>, ApiError> {
    let zone = crate::catalog::time_zone(state, event_id).await?;
    let local = |at: At| moment(at, &zone);
    settled::recent(state, event_id, &local, Some(q)).await
}

/// The event's row as the dashboard reads it.
#[derive(sqlx::FromRow)]
struct EventRow {
    name: String,
    kind: String,
    published: i64,
    on_sale_at: At,
    currency: String,
    time_zone: String,
}

async fn seat_counts(state: &AppState, event_id: EventId, now: At) -> Result<SeatCounts, ApiError> {
    let sql = format!(
        "select b.status, count(*) from booking_seat bs join booking b on b.id = bs.booking_id
         where bs.event_id = $1 and bs.live = 1
           and (b.status <> {} or b.held_until > $2)
         group by b.status",
        BookingStatus::Held.sql()
    );
    let rows: Vec<(BookingStatus, i64)> = sqlx::query_as(&sql)
        .bind(event_id)
        .bind(now)
        .fetch_all(state.db.reader())
        .await?;
    let (total,): (i64,) = sqlx::query_as("select count(*) from seat where event_id = $1")
        .bind(event_id)
        .fetch_one(state.db.reader())
        .await?;
    let mut counts = SeatCounts::default();
    for (status, n) in rows {
        match status {
            BookingStatus::Held => counts.held = n,
            BookingStatus::PaymentPending => counts.in_payment = n,
            BookingStatus::Booked => counts.booked = n,
            _ => {}
        }
    }
    counts.available = total - counts.held - counts.in_payment - counts.booked;
    Ok(counts)
}
