//! Reading bookings, always through their owner (`Owner`: the session's
//! buyer, and a signed-in account's paid bookings): another buyer's booking
//! answers exactly like an unknown id.

use super::BookingStatus;
use crate::buyer::Owner;
use crate::catalog;
use crate::platform::clock::{rfc3339, At};
use crate::{ApiError, AppState};
use holdfast_model::i18n::{Locale, Msg};
use holdfast_model::money::Money;
use holdfast_model::RefundPolicy;
use holdfast_model::{
    BookingId, BookingSeat, BookingView, EventId, EventKind, GeneralAdmissionLine, PaymentStatus,
    PaymentView, SeatId, TicketView,
};

/// A booked seat as read.
#[derive(sqlx::FromRow)]
struct SeatRow {
    id: SeatId,
    label: String,
    price_cents: i64,
    section: String,
    row_label: String,
    number: i64,
    guests: i64,
    /// 1 for a cabin (it has a cabin's occupancy), 0 for a seat.
    is_cabin: i64,
}

const SEATS: &str =
    "select s.id, s.label, bs.price_cents, s.section, s.row_label, s.number, bs.guests,
            case when exists (select 1 from cabin c where c.seat_id = s.id) then 1 else 0 end as is_cabin
     from booking_seat bs join seat s on s.id = bs.seat_id
     where bs.booking_id = $1 order by s.id";

/// A booking as read in one statement: its promo discount if any, its
/// event, its payment, and whether it has guests or was moved (read only
/// then: most bookings have neither).
#[derive(sqlx::FromRow)]
struct BookingRow {
    id: BookingId,
    event_id: EventId,
    status: BookingStatus,
    held_until: At,
    #[sqlx(flatten)]
    price: Money,
    ga_area_id: Option<i64>,
    ga_quantity: i64,
    created_at: At,
    updated_at: At,
    discount_cents: Option<i64>,
    #[sqlx(flatten)]
    refund_policy: RefundPolicyRow,
    #[sqlx(flatten)]
    event: EventColumns,
    #[sqlx(flatten)]
    payment: PaymentColumns,
    /// 1 when guests are named for its places (a sailing's manifest).
    has_guests: i64,
    /// 1 when a cancelled sailing moved it (`sailing::rebooking`).
    has_rebooking: i64,
    /// 1 when a ticket of it was scanned at the door: no more cancelling.
    checked_in: i64,
}

/// The booking's event, as its brief needs it.
#[derive(sqlx::FromRow)]
struct EventColumns {
    event_name: String,
    event_kind: String,
    event_venue: String,
    starts_at: At,
    event_time_zone: String,
}

/// The booking's payment, when it has one.
#[derive(sqlx::FromRow)]
struct PaymentColumns {
    payment_provider: Option<String>,
    checkout_session_id: Option<String>,
    payment_intent_id: Option<String>,
    refund_id: Option<String>,
    payment_status: Option<PaymentStatus>,
    refunded_cents: Option<i64>,
}

impl PaymentColumns {
    fn view(self) -> Option<PaymentView> {
        Some(PaymentView {
            provider: self.payment_provider?,
            status: self.payment_status?,
            checkout_session_id: self.checkout_session_id,
            payment_intent_id: self.payment_intent_id,
            refund_id: self.refund_id,
            refunded_cents: self.refunded_cents.unwrap_or(0),
        })
    }
}

/// The event's cancellation policy, as stored.
#[derive(sqlx::FromRow)]
pub(crate) struct RefundPolicyRow {
    pub refund_full_days: Option<i64>,
    pub refund_partial_days: Option<i64>,
    pub refund_partial_percent: Option<i64>,
}

impl From<RefundPolicyRow> for RefundPolicy {
    fn from(r: RefundPolicyRow) -> RefundPolicy {
        RefundPolicy {
            full_refund_until_days: r.refund_full_days,
            partial_refund_until_days: r.refund_partial_days,
            partial_refund_percent: r.refund_partial_percent,
        }
    }
}

/// `BookingRow`'s columns and tables (`booking` is the booking).
const BOOKING_ROW: &str = "select booking.id, booking.event_id, booking.status, booking.held_until,
            booking.amount_cents, booking.currency, booking.ga_area_id, booking.ga_quantity,
            booking.created_at, booking.updated_at,
            (select bp.discount_cents from booking_promo bp where bp.booking_id = booking.id)
                as discount_cents,
            e.refund_full_days, e.refund_partial_days, e.refund_partial_percent, e.starts_at,
            e.name as event_name, e.kind as event_kind, e.venue as event_venue,
            e.time_zone as event_time_zone,
            p.provider as payment_provider, p.checkout_session_id, p.payment_intent_id,
            p.refund_id, p.status as payment_status, p.refunded_cents,
            case when exists (select 1 from booking_guest g where g.booking_id = booking.id)
                 then 1 else 0 end as has_guests,
            case when exists (select 1 from rebooking r where r.booking_id = booking.id)
                 then 1 else 0 end as has_rebooking,
            case when exists (select 1 from ticket_checkin c where c.booking_id = booking.id)
                 then 1 else 0 end as checked_in
     from booking join event e on e.id = booking.event_id
     left join payment p on p.booking_id = booking.id";

/// One booking of this buyer, its places named in `l` (the REST API
/// names them in English). Two statements (the booking, its places); a
/// third and fourth only for guests and a rebooking.
pub async fn booking_of_buyer(
    state: &AppState,
    owner: &Owner,
    booking_id: &BookingId,
    l: Locale,
) -> Result<BookingView, ApiError> {
    let row: Option<BookingRow> = sqlx::query_as(&format!(
        "{BOOKING_ROW} where booking.id = $1 and {}",
        Owner::condition("booking", 2, 3)
    ))
    .bind(booking_id)
    .bind(&owner.buyer)
    .bind(owner.email.as_deref())
    .fetch_optional(state.db.reader())
    .await?;
    let row = row.ok_or(ApiError::NotFound("booking"))?;
    let seats: Vec<SeatRow> = sqlx::query_as(SEATS)
        .bind(booking_id)
        .fetch_all(state.db.reader())
        .await?;
    let (has_guests, has_rebooking) = (row.has_guests == 1, row.has_rebooking == 1);
    let mut view = view(state, l, row, seats);
    if has_guests {
        view.guests = crate::sailing::manifest::guests_of(state, booking_id).await?;
    }
    if has_rebooking {
        view.rebooking = crate::sailing::rebooking::view_of(state, booking_id)
            .await?
            .map(Box::new);
    }
    Ok(view)
}

/// The buyer's bookings, newest first (without seat details beyond labels).
pub async fn bookings_of_buyer(
    state: &AppState,
    owner: &Owner,
    l: Locale,
) -> Result<Vec<BookingView>, ApiError> {
    let rows: Vec<BookingRow> = sqlx::query_as(&format!(
        "{BOOKING_ROW} where {} order by booking.created_at desc limit 100",
        Owner::condition("booking", 1, 2)
    ))
    .bind(&owner.buyer)
    .bind(owner.email.as_deref())
    .fetch_all(state.db.reader())
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let seats: Vec<SeatRow> = sqlx::query_as(SEATS)
            .bind(&row.id)
            .fetch_all(state.db.reader())
            .await?;
        out.push(view(state, l, row, seats));
    }
    Ok(out)
}

/// What a booking is at `now`: a hold past its deadline is expired from
/// that moment (its seats are free at once, nothing can pay or extend it,
/// and the sweeper only writes down what already happened).
fn as_of(status: BookingStatus, held_until: At, now: At) -> BookingStatus {
    match status {
        BookingStatus::Held if held_until <= now => BookingStatus::Expired,
        status => status,
    }
}

fn view(state: &AppState, l: Locale, row: BookingRow, seats: Vec<SeatRow>) -> BookingView {
    let now = state.clock.now();
    let payment = row.payment.view();
    let e = row.event;
    let event = Some(catalog::brief(
        e.event_name,
        &e.event_kind,
        e.event_venue,
        e.starts_at,
        e.event_time_zone,
    ));
    let status = as_of(row.status, row.held_until, now);
    let running = matches!(status, BookingStatus::Held | BookingStatus::PaymentPending);
    let ticket = (status == BookingStatus::Booked).then(|| state.tickets.token(&row.id));
    let kind = event.as_ref().map_or(EventKind::Concert, |e| e.kind);
    let tickets = if status == BookingStatus::Booked {
        let seat_ids: Vec<SeatId> = seats.iter().map(|s| s.id).collect();
        // The label stays the seat's short label (part of the contract);
        // the name is the place as a buyer reads it.
        let places = seats
            .iter()
            .map(|s| (s.label.clone(), name_of(kind, l, s)))
            .chain((1..=row.ga_quantity).map(|i| {
                let name = l.fill(Msg::StandingPlaceNumber, &[("n", &i)]);
                (name.clone(), name)
            }));
        crate::ticket::door::units(&seat_ids, row.ga_quantity)
            .into_iter()
            .zip(places)
            .map(|(unit, (label, name))| TicketView {
                token: state.tickets.unit_token(&row.id, &unit),
                unit,
                label,
                name,
            })
            .collect()
    } else {
        Vec::new()
    };
    let cancel_refund_cents = (status == BookingStatus::Booked && row.checked_in == 0)
        .then(|| {
            let left = row.price.minor() - payment.as_ref().map_or(0, |p| p.refunded_cents);
            RefundPolicy::from(row.refund_policy).refund_cents(
                left,
                row.price.currency().charge_step(),
                e.starts_at.ms(),
                now.ms(),
            )
        })
        .flatten();
    BookingView {
        cancel_refund_cents,
        id: row.id,
        event_id: row.event_id,
        event,
        status,
        seats: seats
            .into_iter()
            .map(|s| BookingSeat {
                name: name_of(kind, l, &s),
                id: s.id,
                label: s.label,
                price_cents: s.price_cents,
                guests: s.guests,
            })
            .collect(),
        general_admission: row
            .ga_area_id
            .filter(|_| row.ga_quantity > 0)
            .map(|area_id| GeneralAdmissionLine {
                area_id,
                quantity: row.ga_quantity,
            }),
        amount_cents: row.price.minor(),
        discount_cents: row.discount_cents.unwrap_or(0),
        currency: row.price.currency().code().to_string(),
        held_until: Some(rfc3339(row.held_until)),
        expires_in_ms: running.then(|| (row.held_until - now).max(0)),
        ticket,
        tickets,
        payment,
        guests: Vec::new(),
        rebooking: None,
        created_at: rfc3339(row.created_at),
        updated_at: rfc3339(row.updated_at),
    }
}

/// A seat, or a cabin (a place with a cabin's occupancy): a ferry sells both.
fn name_of(kind: EventKind, l: Locale, s: &SeatRow) -> String {
    kind.name_place(l, s.is_cabin == 1, &s.section, &s.row_label, s.number)
}
