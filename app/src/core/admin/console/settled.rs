//! Bookings settled lately, with why: paid, re-taken late, refunded.

use crate::core::event_time::Moment;
use crate::core::platform::clock::At;
use crate::core::{ApiError, AppState};
use crate::i18n::Locale;
use crate::model::console::{BookingActivity, SettlementReason};
use crate::model::money::Money;
use crate::model::{BookingId, BookingStatus, EventId, PaymentStatus};

use super::recent_rows;

/// A settled booking and its payment as read.
#[derive(sqlx::FromRow)]
struct SettlementRow {
    id: BookingId,
    status: BookingStatus,
    #[sqlx(flatten)]
    price: Money,
    updated_at: At,
    payment_status: Option<PaymentStatus>,
    /// Refunded in part outside Holdfast.
    refunded_cents: i64,
}

pub(super) async fn recent(
    state: &AppState,
    event_id: EventId,
    local: &impl Fn(At) -> Moment,
) -> Result<Vec<BookingActivity>, ApiError> {
    let sql = format!(
        "select b.id, b.status, b.amount_cents, b.currency, b.updated_at,
                p.status as payment_status, coalesce(p.refunded_cents, 0) as refunded_cents
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
    let rows: Vec<SettlementRow> = recent_rows(state, &sql, event_id).await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let reason = reason(state, &row).await?;
        let code = row.price.currency().code();
        let when = local(row.updated_at);
        out.push(BookingActivity {
            status: row.status,
            amount_cents: row.price.minor(),
            reason: reason.words(Locale::En, row.refunded_cents, code),
            currency: code.to_string(),
            at: when.at,
            at_local: when.at_local,
            reason_kind: reason,
            refunded_cents: row.refunded_cents,
            booking_id: row.id,
        });
    }
    Ok(out)
}

/// Why it settled so, from its webhooks' outcomes and the audit log.
async fn reason(state: &AppState, row: &SettlementRow) -> Result<SettlementReason, ApiError> {
    let outcomes: Vec<(String,)> =
        sqlx::query_as("select outcome from webhook_inbox where booking_id = $1")
            .bind(&row.id)
            .fetch_all(state.db.reader())
            .await?;
    let (by_admin,): (i64,) = sqlx::query_as(
        "select count(*) from audit_log where booking_id = $1 and action = 'refund'",
    )
    .bind(&row.id)
    .fetch_one(state.db.reader())
    .await?;
    let late = |o: &str| outcomes.iter().any(|r| r.0 == o);
    Ok(match (Some(row.status), row.payment_status) {
        (Some(BookingStatus::Disputed), _) => SettlementReason::Disputed,
        _ if by_admin > 0 => SettlementReason::RefundedByAdmin,
        (Some(BookingStatus::Booked), _) if row.refunded_cents > 0 => {
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
    })
}
