//! Bookings settled lately, with why: paid, re-taken late, refunded.

use crate::event_time::Moment;
use crate::platform::clock::At;
use crate::{ApiError, AppState};
use holdfast_model::console::{BookingActivity, SettlementReason};
use holdfast_model::i18n::Locale;
use holdfast_model::money::Money;
use holdfast_model::{BookingId, BookingStatus, EventId, PaymentStatus};

use super::RECENT;

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
    ga_quantity: i64,
    /// The checkout's address, else the signed-in buyer's account.
    buyer_email: Option<String>,
    /// Places let in at the door.
    checked_in: i64,
    /// Paid, less what went back and the part refunds on their way.
    left_cents: i64,
    /// Part refunds an organizer gave.
    parts: i64,
}

/// The latest settled bookings; with `search`, only those whose id, buyer's
/// email or a seat's name contains it (any case), from all of them.
pub(super) async fn recent(
    state: &AppState,
    event_id: EventId,
    local: &impl Fn(At) -> Moment,
    search: Option<&str>,
) -> Result<Vec<BookingActivity>, ApiError> {
    let sql = format!(
        "select b.id, b.status, b.amount_cents, b.currency, b.updated_at,
                p.status as payment_status, coalesce(p.refunded_cents, 0) as refunded_cents,
                b.ga_quantity, coalesce(p.customer_email, a.email) as buyer_email,
                (select count(*) from ticket_checkin c where c.booking_id = b.id) as checked_in,
                coalesce({left}, 0) as left_cents,
                (select count(*) from refund_part r where r.booking_id = b.id) as parts
         from booking b left join payment p on p.booking_id = b.id
         left join account a on a.buyer_id = b.buyer_id
         where b.event_id = $1
           and (b.status in {} or p.status = {} or p.refunded_cents > 0)
           and ($3 is null
                or lower(b.id) like $3 escape '\\'
                or lower(coalesce(p.customer_email, a.email)) like $3 escape '\\'
                or exists (select 1 from booking_seat bs join seat s on s.id = bs.seat_id
                           where bs.booking_id = b.id and lower(s.label) like $3 escape '\\'))
         order by b.updated_at desc limit $2",
        BookingStatus::sql_list(&[
            BookingStatus::Booked,
            BookingStatus::Refunded,
            BookingStatus::Disputed
        ]),
        PaymentStatus::RefundPending.sql(),
        left = crate::payments::refund_part::left_to_refund_sql("p"),
    );
    let pattern = search.map(|q| format!("%{}%", like_escaped(&q.trim().to_lowercase())));
    let rows: Vec<SettlementRow> = sqlx::query_as(&sql)
        .bind(event_id)
        .bind(RECENT)
        .bind(pattern)
        .fetch_all(state.db.reader())
        .await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let reason = reason(state, &row).await?;
        let code = row.price.currency().code();
        let when = local(row.updated_at);
        let seats: Vec<(String,)> = sqlx::query_as(
            "select s.label from booking_seat bs join seat s on s.id = bs.seat_id
             where bs.booking_id = $1 order by s.id",
        )
        .bind(&row.id)
        .fetch_all(state.db.reader())
        .await?;
        let refundable_cents = refundable(&row);
        out.push(BookingActivity {
            buyer_email: row.buyer_email,
            seat_labels: seats.into_iter().map(|s| s.0).collect(),
            places: row.ga_quantity,
            status: row.status,
            amount_cents: row.price.minor(),
            reason: reason.words(Locale::En, row.refunded_cents, code),
            currency: code.to_string(),
            at: when.at,
            at_local: when.at_local,
            reason_kind: reason,
            refunded_cents: row.refunded_cents,
            checked_in: row.checked_in,
            refundable_cents,
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
        (Some(BookingStatus::Booked), _) if row.parts > 0 => SettlementReason::RefundedInPart,
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

/// What may go back in part now: while the tickets stand, all but one
/// minor unit of what is left; once the booking ended with its own refund
/// done, all that is left; otherwise nothing.
fn refundable(row: &SettlementRow) -> i64 {
    let left = row.left_cents.max(0);
    match (row.status, row.payment_status) {
        (BookingStatus::Booked, Some(PaymentStatus::Paid)) => (left - 1).max(0),
        (BookingStatus::Booked, _) => 0,
        (_, Some(PaymentStatus::Refunded)) => left,
        _ => 0,
    }
}

/// `q` with LIKE's wildcards taken literally (escaped with `\`; the
/// pattern adds its own around it).
fn like_escaped(q: &str) -> String {
    let mut out = String::with_capacity(q.len());
    for c in q.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
