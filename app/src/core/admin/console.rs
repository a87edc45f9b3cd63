//! What the console shows: one event's counts, money, live holds, recent
//! settlements, webhook inbox, mail and audit — read-only queries.

use std::collections::HashMap;

use crate::core::event_time::local_start;
use crate::core::payments::outbox;
use crate::core::platform::clock::rfc3339;
use crate::core::{ApiError, AppState};
use crate::model::console::{
    AdminEvent, BookingActivity, Dashboard, LiveHold, MailRow, SeatCounts, SettlementReason,
    StandingCount, WebhookRow,
};
use crate::model::{BookingStatus, EventId, PaymentStatus};

use super::{audit, canary};

const RECENT: i64 = 25;

/// Every event, published or not, with its seat count.
pub async fn all_events(state: &AppState) -> Result<Vec<AdminEvent>, ApiError> {
    let rows: Vec<(i64, String, String, i64, i64)> = sqlx::query_as(
        "select e.id, e.name, e.kind, e.published, (select count(*) from seat s where s.event_id = e.id)
         from event e order by e.id",
    )
    .fetch_all(state.db.reader())
    .await?;
    Ok(rows
        .into_iter()
        .map(|(id, name, kind, published, seat_count)| AdminEvent {
            id,
            name,
            kind,
            published: published == 1,
            seat_count,
        })
        .collect())
}

/// The dashboard, its audit details also in `locale` (the console's page;
/// English for the API).
pub async fn dashboard(
    state: &AppState,
    event_id: EventId,
    locale: crate::i18n::Locale,
) -> Result<Dashboard, ApiError> {
    let now = state.clock.now_ms();
    let db = state.db.reader();
    let event: Option<(String, i64, i64, String, String)> = sqlx::query_as(
        "select name, published, on_sale_at, currency, time_zone from event where id = $1",
    )
    .bind(event_id)
    .fetch_optional(db)
    .await?;
    let Some((event_name, published, on_sale_at, currency, time_zone)) = event else {
        return Err(ApiError::NotFound("event"));
    };
    let sql = format!(
        "select cast(coalesce(sum(amount_cents), 0) as bigint) from booking
         where event_id = $1 and status = {}",
        BookingStatus::Booked.sql()
    );
    let (revenue,): (i64,) = sqlx::query_as(&sql).bind(event_id).fetch_one(db).await?;
    let standing: Vec<(i64, String, i64, i64)> = sqlx::query_as(
        "select id, name, capacity, remaining from ga_area where event_id = $1 order by id",
    )
    .bind(event_id)
    .fetch_all(db)
    .await?;
    let canary = match state.canary.get() {
        Some(report) => report,
        None => canary::check(state).await?,
    };
    let zone = time_zone.as_str();
    let local = |ms: i64| local_start(ms, zone).at;
    Ok(Dashboard {
        time_zone_abbreviation: local_start(now, zone).abbreviation,
        time_zone: time_zone.clone(),
        event_id,
        event_name,
        published: published == 1,
        on_sale_at: rfc3339(on_sale_at),
        counts: seat_counts(state, event_id, now).await?,
        standing: standing
            .into_iter()
            .map(|(area_id, name, capacity, remaining)| StandingCount {
                area_id,
                name,
                capacity,
                remaining,
            })
            .collect(),
        revenue_cents: revenue,
        currency,
        holds: live_holds(state, Some(event_id)).await?,
        recent: recent_settlements(state, event_id, &local).await?,
        webhooks: webhooks(state, event_id, &local).await?,
        mail: mail(state, event_id, &local).await?,
        outbox_backlog: outbox::backlog(state).await?,
        audit: audit::recent(&state.db, Some(event_id), RECENT, locale).await?,
        canary,
    })
}

async fn seat_counts(
    state: &AppState,
    event_id: EventId,
    now: i64,
) -> Result<SeatCounts, ApiError> {
    let sql = format!(
        "select b.status, count(*) from booking_seat bs join booking b on b.id = bs.booking_id
         where bs.event_id = $1 and bs.live = 1
           and (b.status <> {} or b.held_until > $2)
         group by b.status",
        BookingStatus::Held.sql()
    );
    let rows: Vec<(String, i64)> = sqlx::query_as(&sql)
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
        match BookingStatus::parse(&status) {
            Some(BookingStatus::Held) => counts.held = n,
            Some(BookingStatus::PaymentPending) => counts.in_payment = n,
            Some(BookingStatus::Booked) => counts.booked = n,
            _ => {}
        }
    }
    counts.available = total - counts.held - counts.in_payment - counts.booked;
    Ok(counts)
}

/// id, event, buyer, status, held until, amount, currency, standing places.
type HoldRow = (String, i64, String, String, i64, i64, String, i64);

/// Live holds and pending payments (all events when `event_id` is `None`),
/// soonest to end first.
pub async fn live_holds(
    state: &AppState,
    event_id: Option<EventId>,
) -> Result<Vec<LiveHold>, ApiError> {
    let now = state.clock.now_ms();
    let running = format!(
        "(b.status = {} or (b.status = {} and b.held_until > $1))",
        BookingStatus::PaymentPending.sql(),
        BookingStatus::Held.sql()
    );
    let sql = format!(
        "select id, event_id, buyer_id, status, held_until, amount_cents, currency, ga_quantity
         from booking b
         where {running} and ($2 is null or event_id = $2)
         order by held_until, id limit 500"
    );
    let rows: Vec<HoldRow> = sqlx::query_as(&sql)
        .bind(now)
        .bind(event_id)
        .fetch_all(state.db.reader())
        .await?;
    // The seats of all of them in one query (the dashboard asks every
    // second), grouped by booking.
    let sql = format!(
        "select bs.booking_id, s.id, s.label
         from booking_seat bs join seat s on s.id = bs.seat_id join booking b on b.id = bs.booking_id
         where {running} and ($2 is null or b.event_id = $2)
         order by s.id"
    );
    let seat_rows: Vec<(String, i64, String)> = sqlx::query_as(&sql)
        .bind(now)
        .bind(event_id)
        .fetch_all(state.db.reader())
        .await?;
    let mut seats_of: HashMap<String, Vec<(i64, String)>> = HashMap::new();
    for (booking, id, label) in seat_rows {
        seats_of.entry(booking).or_default().push((id, label));
    }
    let mut holds = Vec::with_capacity(rows.len());
    for (booking_id, event, buyer_id, stage, held_until, amount, currency, places) in rows {
        let seats = seats_of.remove(&booking_id).unwrap_or_default();
        holds.push(LiveHold {
            booking_id,
            event_id: event,
            buyer_id,
            seat_ids: seats.iter().map(|s| s.0).collect(),
            seat_labels: seats.into_iter().map(|s| s.1).collect(),
            places,
            stage,
            expires_in_ms: (held_until - now).max(0),
            amount_cents: amount,
            currency,
        });
    }
    Ok(holds)
}

/// id, booking status, amount, currency, updated at, payment status,
/// refunded in part.
type SettlementRow = (String, String, i64, String, i64, Option<String>, i64);

/// Bookings settled lately, with why: paid, re-taken late, refunded.
async fn recent_settlements(
    state: &AppState,
    event_id: EventId,
    local: &impl Fn(i64) -> String,
) -> Result<Vec<BookingActivity>, ApiError> {
    let sql = format!(
        "select b.id, b.status, b.amount_cents, b.currency, b.updated_at, p.status,
                coalesce(p.refunded_cents, 0)
         from booking b left join payment p on p.booking_id = b.id
         where b.event_id = $1
           and (b.status in {} or p.status = {} or p.refunded_cents > 0)
         order by b.updated_at desc limit $2",
        BookingStatus::sql_list(&[
            BookingStatus::Booked,
            BookingStatus::Refunded,
            BookingStatus::Disputed
        ]),
        PaymentStatus::RefundPending.sql()
    );
    let rows: Vec<SettlementRow> = sqlx::query_as(&sql)
        .bind(event_id)
        .bind(RECENT)
        .fetch_all(state.db.reader())
        .await?;
    let mut out = Vec::with_capacity(rows.len());
    for (booking_id, status, amount, currency, at, payment, refunded_cents) in rows {
        let outcomes: Vec<(String,)> =
            sqlx::query_as("select outcome from webhook_inbox where booking_id = $1")
                .bind(&booking_id)
                .fetch_all(state.db.reader())
                .await?;
        let by_admin: (i64,) = sqlx::query_as(
            "select count(*) from audit_log where booking_id = $1 and action = 'refund'",
        )
        .bind(&booking_id)
        .fetch_one(state.db.reader())
        .await?;
        let late = |o: &str| outcomes.iter().any(|r| r.0 == o);
        let booking = BookingStatus::parse(&status);
        let paid = payment.as_deref().and_then(PaymentStatus::parse);
        let reason = match (booking, paid) {
            (Some(BookingStatus::Disputed), _) => SettlementReason::Disputed,
            _ if by_admin.0 > 0 => SettlementReason::RefundedByAdmin,
            (Some(BookingStatus::Booked), _) if refunded_cents > 0 => {
                SettlementReason::PartlyRefundedOutside
            }
            (Some(BookingStatus::Booked), _) if late("late_payment_retaken") => {
                SettlementReason::LatePaymentRetaken
            }
            (Some(BookingStatus::Booked), _) => SettlementReason::Paid,
            (_, Some(PaymentStatus::RefundPending)) => SettlementReason::LatePaymentRefundUnderWay,
            _ if late("late_payment_refund_queued") => SettlementReason::LatePaymentRefunded,
            _ if late("ticket_voided") => SettlementReason::RefundedOutside,
            _ => SettlementReason::Refunded,
        };
        out.push(BookingActivity {
            booking_id,
            status,
            amount_cents: amount,
            reason: reason_words(reason, refunded_cents, &currency),
            currency,
            at: rfc3339(at),
            at_local: local(at),
            reason_kind: reason,
            refunded_cents,
        });
    }
    Ok(out)
}

async fn webhooks(
    state: &AppState,
    event_id: EventId,
    local: &impl Fn(i64) -> String,
) -> Result<Vec<WebhookRow>, ApiError> {
    let rows: Vec<(String, String, Option<String>, String, i64)> = sqlx::query_as(
        "select w.event_id, w.type, w.booking_id, w.outcome, w.received_at from webhook_inbox w
         where w.booking_id is null
            or w.booking_id in (select id from booking where event_id = $1)
         order by w.received_at desc limit $2",
    )
    .bind(event_id)
    .bind(RECENT)
    .fetch_all(state.db.reader())
    .await?;
    Ok(rows
        .into_iter()
        .map(|(event_id, kind, booking_id, outcome, at)| WebhookRow {
            event_id,
            kind,
            booking_id,
            outcome,
            received_at: rfc3339(at),
            at_local: local(at),
        })
        .collect())
}

/// Sent mail and mail still waiting in the outbox.
async fn mail(
    state: &AppState,
    event_id: EventId,
    local: &impl Fn(i64) -> String,
) -> Result<Vec<MailRow>, ApiError> {
    let rows: Vec<(String, String, String, String, i64)> = sqlx::query_as(
        "select m.booking_id, m.recipient, m.subject, m.channel, m.created_at from mailbox m
         join booking b on b.id = m.booking_id where b.event_id = $1
         union all
         select o.booking_id, '', o.dedupe_key, 'pending', o.created_at from outbox o
         join booking b on b.id = o.booking_id
         where b.event_id = $1 and o.kind = 'email' and o.delivered_at is null
         order by 5 desc limit $2",
    )
    .bind(event_id)
    .bind(RECENT)
    .fetch_all(state.db.reader())
    .await?;
    Ok(rows
        .into_iter()
        .map(|(booking_id, recipient, subject, channel, at)| MailRow {
            booking_id,
            recipient,
            subject,
            channel,
            at: rfc3339(at),
            at_local: local(at),
        })
        .collect())
}

/// A settlement's reason in English words (the API's `reason`).
fn reason_words(reason: SettlementReason, refunded_cents: i64, currency: &str) -> String {
    match reason {
        SettlementReason::Disputed => {
            "disputed by the buyer's bank: ticket void, seats released".into()
        }
        SettlementReason::RefundedByAdmin => "refunded by an admin".into(),
        SettlementReason::PartlyRefundedOutside => format!(
            "paid; {} refunded outside Holdfast, ticket kept",
            crate::model::format_price(refunded_cents, currency)
        ),
        SettlementReason::LatePaymentRetaken => "late payment: the same seats were re-taken".into(),
        SettlementReason::Paid => "paid".into(),
        SettlementReason::LatePaymentRefundUnderWay => {
            "late payment: seats gone, refund under way".into()
        }
        SettlementReason::LatePaymentRefunded => "late payment: seats gone, refunded".into(),
        SettlementReason::RefundedOutside => {
            "refunded outside Holdfast: ticket void, seats released".into()
        }
        SettlementReason::Refunded => "refunded".into(),
    }
}
