//! Event setup: a layout (checked in `layout`) inserted in one
//! transaction, unpublished until an admin publishes it; publishing and
//! withdrawing.

use super::audit::{self, Entry};
use super::audit_detail::Detail;
use super::auth::Admin;
use super::layout::LayoutTimes;
use super::layout::{checked, seats_of};
use crate::booking::query::RefundPolicyRow;
use crate::platform::clock::At;
use crate::platform::db;
use crate::platform::error::FieldError;
use crate::seed::insert_layout;
use crate::{ApiError, AppState};
use holdfast_model::console::{CreatedEvent, EventLayout};
use holdfast_model::{EventId, RefundPolicy};

pub async fn create_event(
    state: &AppState,
    admin: &Admin,
    layout: &EventLayout,
) -> Result<CreatedEvent, ApiError> {
    checked(layout)?;
    let now = state.clock.now();
    let starts_at = layout.start().unwrap_or(now);
    let on_sale_at = layout.on_sale().unwrap_or_default();
    let slug = format!("event-{}", uuid::Uuid::new_v4().simple());
    let mut tx = state.db.begin().await?;
    let (event_id,): (EventId,) = sqlx::query_as(
        "insert into event (slug, name, kind, venue, starts_at, currency, published, on_sale_at, created_at, time_zone,
                            refund_full_days, refund_partial_days, refund_partial_percent)
         values ($1, $2, $3, $4, $5, $6, 0, $7, $8, $9, $10, $11, $12) returning id",
    )
    .bind(&slug)
    .bind(layout.name.trim())
    .bind(&layout.kind)
    .bind(layout.venue.trim())
    .bind(starts_at)
    .bind(&layout.currency)
    .bind(on_sale_at)
    .bind(now)
    .bind(layout.zone())
    .bind(layout.refund_policy.full_refund_until_days)
    .bind(layout.refund_policy.partial_refund_until_days)
    .bind(layout.refund_policy.partial_refund_percent)
    .fetch_one(&mut *tx)
    .await?;
    let seats = write_layout(tx, admin, event_id, layout, Made::Created, now).await?;
    Ok(CreatedEvent {
        event_id,
        seat_count: seats as i64,
        published: false,
    })
}

/// Whether `write_layout` gives a new event its layout or replaces one.
#[derive(Clone, Copy)]
enum Made {
    Created,
    Edited,
}

/// Inserts the layout's categories, seats and standing areas, keeps the
/// layout itself on the event, audits it and commits; the seats made.
async fn write_layout(
    mut tx: db::Tx,
    admin: &Admin,
    event_id: EventId,
    layout: &EventLayout,
    made: Made,
    now: At,
) -> Result<usize, ApiError> {
    let categories: Vec<(&str, &str, i64, &str)> = layout
        .categories
        .iter()
        .map(|c| {
            (
                c.code.as_str(),
                c.name.as_str(),
                c.price_cents,
                c.color.as_str(),
            )
        })
        .collect();
    let ga: Vec<(&str, &str, i64)> = layout
        .general_admission
        .iter()
        .map(|g| (g.name.as_str(), g.category.as_str(), g.capacity))
        .collect();
    let seats = seats_of(layout);
    insert_layout(&mut tx, event_id, &categories, &seats, &ga).await?;
    let kept = serde_json::to_string(layout).map_err(ApiError::internal)?;
    sqlx::query("update event set layout = $2 where id = $1")
        .bind(event_id)
        .bind(kept)
        .execute(&mut *tx)
        .await?;
    let (name, seats) = (layout.name.trim().to_string(), seats.len());
    let (action, detail) = match made {
        Made::Created => ("create_event", Detail::EventCreated { name, seats }),
        Made::Edited => ("edit_layout", Detail::LayoutEdited { name, seats }),
    };
    let entry = Entry::on_event(admin, action, event_id, &detail);
    audit::record(&mut tx, &entry, now).await?;
    db::commit(tx).await?;
    Ok(seats)
}

/// The layout an event was made from (`404` for an event made otherwise,
/// such as the demo's), with what may have changed since on the event
/// itself: its times as wall clocks in its zone (what the form and `PUT`
/// take back unchanged), its on-sale time, its refund policy.
pub async fn layout_of(state: &AppState, event_id: EventId) -> Result<EventLayout, ApiError> {
    #[derive(sqlx::FromRow)]
    struct Row {
        layout: Option<String>,
        starts_at: At,
        on_sale_at: At,
        time_zone: String,
        #[sqlx(flatten)]
        policy: RefundPolicyRow,
    }
    let row: Option<Row> = sqlx::query_as(
        "select layout, starts_at, on_sale_at, time_zone,
                refund_full_days, refund_partial_days, refund_partial_percent
         from event where id = $1",
    )
    .bind(event_id)
    .fetch_optional(state.db.reader())
    .await?;
    let row = row.ok_or(ApiError::NotFound("event"))?;
    let json = row.layout.ok_or(ApiError::NotFound("layout"))?;
    let mut layout: EventLayout = serde_json::from_str(&json).map_err(ApiError::internal)?;
    let wall_clock = |at: At| -> String {
        crate::event_time::local_start(at, &row.time_zone)
            .at
            .chars()
            .take(16)
            .collect()
    };
    layout.starts_at = wall_clock(row.starts_at);
    layout.on_sale_at = match row.on_sale_at.ms() {
        0 => String::new(),
        _ => wall_clock(row.on_sale_at),
    };
    layout.time_zone = row.time_zone;
    layout.refund_policy = row.policy.into();
    Ok(layout)
}

/// Replaces the layout of an event made from one and never published (so
/// no buyer, and no instance's seat map, has seen its seats): no sailing,
/// no booking. The refund policy is left as it is (`PUT …/refund-policy`
/// sets it).
pub async fn edit_layout(
    state: &AppState,
    admin: &Admin,
    event_id: EventId,
    layout: &EventLayout,
) -> Result<CreatedEvent, ApiError> {
    checked(layout)?;
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    // Amount-off promo codes are in the event's currency: it stays while
    // one exists.
    let (fixed_amounts,): (i64,) = sqlx::query_as(
        "select count(*) from promo_campaign p join event e on e.id = p.event_id
         where p.event_id = $1 and p.amount_off_cents > 0 and e.currency <> $2",
    )
    .bind(event_id)
    .bind(&layout.currency)
    .fetch_one(&mut *tx)
    .await?;
    if fixed_amounts > 0 {
        return Err(ApiError::FieldErrors(vec![FieldError {
            field: "currency".into(),
            message: "the event's amount-off promo codes are in its currency: remove them first"
                .into(),
        }]));
    }
    // The row's write lock orders this edit with a publish and with any
    // other edit; a hold is refused while the event is unpublished.
    let changed = sqlx::query(
        "update event set name = $2, kind = $3, venue = $4, starts_at = $5, currency = $6,
                          on_sale_at = $7, time_zone = $8
         where id = $1 and published = 0 and first_published_at is null and layout is not null
           and not exists (select 1 from booking b where b.event_id = $1)
           and not exists (select 1 from sailing s where s.event_id = $1)",
    )
    .bind(event_id)
    .bind(layout.name.trim())
    .bind(&layout.kind)
    .bind(layout.venue.trim())
    .bind(layout.start().unwrap_or(now))
    .bind(&layout.currency)
    .bind(layout.on_sale().unwrap_or_default())
    .bind(layout.zone())
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if changed != 1 {
        let (exists,): (i64,) = sqlx::query_as("select count(*) from event where id = $1")
            .bind(event_id)
            .fetch_one(&mut *tx)
            .await?;
        return Err(if exists == 0 {
            ApiError::NotFound("event")
        } else {
            ApiError::InvalidState(
                "the event has been published (or was not made from a layout): its layout can no longer change".into(),
            )
        });
    }
    for table in ["ga_area", "seat", "price_category"] {
        sqlx::query(&format!("delete from {table} where event_id = $1"))
            .bind(event_id)
            .execute(&mut *tx)
            .await?;
    }
    let seats = write_layout(tx, admin, event_id, layout, Made::Edited, now).await?;
    state.seat_maps.forget(event_id);
    Ok(CreatedEvent {
        event_id,
        seat_count: seats as i64,
        published: false,
    })
}

/// Every event and its refund policy, soonest first.
pub async fn refund_policies(
    state: &AppState,
) -> Result<Vec<(EventId, String, RefundPolicy)>, ApiError> {
    #[derive(sqlx::FromRow)]
    struct Row {
        id: EventId,
        name: String,
        #[sqlx(flatten)]
        policy: RefundPolicyRow,
    }
    let rows: Vec<Row> = sqlx::query_as(
        "select id, name, refund_full_days, refund_partial_days, refund_partial_percent
         from event order by starts_at, id",
    )
    .fetch_all(state.db.reader())
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| (r.id, r.name, r.policy.into()))
        .collect())
}

/// Sets what buyers get back when they cancel a booking of the event
/// (bookings already made follow the new policy too: it is read when the
/// buyer cancels).
pub async fn set_refund_policy(
    state: &AppState,
    admin: &Admin,
    event_id: EventId,
    policy: RefundPolicy,
) -> Result<RefundPolicy, ApiError> {
    if let Err((field, why)) = policy.check() {
        return Err(ApiError::unprocessable(format!("{field} {why}"), field));
    }
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    let changed = sqlx::query(
        "update event set refund_full_days = $2, refund_partial_days = $3, refund_partial_percent = $4
         where id = $1",
    )
    .bind(event_id)
    .bind(policy.full_refund_until_days)
    .bind(policy.partial_refund_until_days)
    .bind(policy.partial_refund_percent)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if changed != 1 {
        return Err(ApiError::NotFound("event"));
    }
    let detail = Detail::RefundPolicy {
        full_days: policy.full_refund_until_days,
        partial_days: policy.partial_refund_until_days,
        percent: policy.partial_refund_percent,
    };
    let entry = Entry::on_event(admin, "refund_policy", event_id, &detail);
    audit::record(&mut tx, &entry, now).await?;
    db::commit(tx).await?;
    Ok(policy)
}

/// Publishes or withdraws an event. A withdrawn event takes no new holds
/// anywhere at once (the claim checks it); this instance also drops its map.
pub async fn set_published(
    state: &AppState,
    admin: &Admin,
    event_id: EventId,
    published: bool,
) -> Result<CreatedEvent, ApiError> {
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    let changed = sqlx::query(
        "update event set published = $2,
                          first_published_at = case when $2 = 1 then coalesce(first_published_at, $3)
                                                    else first_published_at end
         where id = $1",
    )
    .bind(event_id)
    .bind(i64::from(published))
    .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    if changed != 1 {
        return Err(ApiError::NotFound("event"));
    }
    let (action, detail) = if published {
        ("publish", Detail::Published)
    } else {
        ("unpublish", Detail::Unpublished)
    };
    audit::record(
        &mut tx,
        &Entry::on_event(admin, action, event_id, &detail),
        now,
    )
    .await?;
    let (seat_count,): (i64,) = sqlx::query_as("select count(*) from seat where event_id = $1")
        .bind(event_id)
        .fetch_one(&mut *tx)
        .await?;
    db::commit(tx).await?;
    state.seat_maps.forget(event_id);
    Ok(CreatedEvent {
        event_id,
        seat_count,
        published,
    })
}
