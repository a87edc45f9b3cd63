//! Event setup: a layout (checked in `layout`) inserted in one
//! transaction, unpublished until an admin publishes it; publishing and
//! withdrawing.

use super::audit::{self, Entry};
use super::audit_detail::Detail;
use super::auth::Admin;
use super::layout::{check, seats_of};
use crate::core::booking::query::RefundPolicyRow;
use crate::core::platform::db;
use crate::core::seed::insert_layout;
use crate::core::{ApiError, AppState};
use crate::model::console::{CreatedEvent, EventLayout};
use crate::model::{EventId, RefundPolicy};

pub async fn create_event(
    state: &AppState,
    admin: &Admin,
    layout: &EventLayout,
) -> Result<CreatedEvent, ApiError> {
    let errors = check(layout);
    if !errors.is_empty() {
        return Err(ApiError::FieldErrors(errors));
    }
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
    let detail = Detail::EventCreated {
        name: layout.name.trim().to_string(),
        seats: seats.len(),
    };
    let entry = Entry::on_event(&admin.actor, "create_event", event_id, &detail);
    audit::record(&mut tx, &entry, now).await?;
    db::commit(tx).await?;
    Ok(CreatedEvent {
        event_id,
        seat_count: seats.len() as i64,
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
    let entry = Entry::on_event(&admin.actor, "refund_policy", event_id, &detail);
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
    let changed = sqlx::query("update event set published = $2 where id = $1")
        .bind(event_id)
        .bind(i64::from(published))
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
        &Entry::on_event(&admin.actor, action, event_id, &detail),
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
