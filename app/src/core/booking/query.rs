//! Reading bookings, always through their owner: another buyer's booking
//! answers exactly like an unknown id.

use super::BookingStatus;
use crate::core::platform::clock::rfc3339;
use crate::core::{ApiError, AppState};
use crate::i18n::{Locale, Msg};
use crate::model::{
    BookingSeat, BookingView, EventBrief, EventKind, GeneralAdmissionLine, PaymentStatus,
    PaymentView, TicketView,
};

/// A booked seat as read: id, label, price, section, row, number.
type SeatRow = (i64, String, i64, String, String, i64);

const SEATS: &str =
    "select s.id, s.label, bs.price_cents, s.section, s.row_label, s.number from booking_seat bs join seat s on s.id = bs.seat_id
     where bs.booking_id = $1 order by s.id";

type BookingRow = (
    String,
    i64,
    String,
    i64,
    i64,
    String,
    Option<i64>,
    i64,
    i64,
    i64,
    Option<i64>,
);

const COLUMNS: &str = "id, event_id, status, held_until, amount_cents, currency, ga_area_id, ga_quantity, created_at, updated_at,
     (select p.discount_cents from booking_promo p where p.booking_id = booking.id)";

/// One booking of this buyer, its places named in `l` (the REST API
/// names them in English).
pub async fn booking_of_buyer(
    state: &AppState,
    buyer: &str,
    booking_id: &str,
    l: Locale,
) -> Result<BookingView, ApiError> {
    let row: Option<BookingRow> = sqlx::query_as(&format!(
        "select {COLUMNS} from booking where id = $1 and buyer_id = $2"
    ))
    .bind(booking_id)
    .bind(buyer)
    .fetch_optional(state.db.reader())
    .await?;
    let row = row.ok_or(ApiError::NotFound("booking"))?;
    let seats: Vec<SeatRow> = sqlx::query_as(SEATS)
        .bind(booking_id)
        .fetch_all(state.db.reader())
        .await?;
    let payment = payment_of(state, booking_id).await?;
    let event = crate::core::catalog::event_brief(state, row.1).await?;
    Ok(view(state, l, row, seats, payment, event))
}

/// The buyer's bookings, newest first (without seat details beyond labels).
pub async fn bookings_of_buyer(
    state: &AppState,
    buyer: &str,
    l: Locale,
) -> Result<Vec<BookingView>, ApiError> {
    let rows: Vec<BookingRow> = sqlx::query_as(&format!(
        "select {COLUMNS} from booking where buyer_id = $1 order by created_at desc limit 100"
    ))
    .bind(buyer)
    .fetch_all(state.db.reader())
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let seats: Vec<SeatRow> = sqlx::query_as(SEATS)
            .bind(&row.0)
            .fetch_all(state.db.reader())
            .await?;
        let payment = payment_of(state, &row.0).await?;
        let event = crate::core::catalog::event_brief(state, row.1).await?;
        out.push(view(state, l, row, seats, payment, event));
    }
    Ok(out)
}

fn view(
    state: &AppState,
    l: Locale,
    row: BookingRow,
    seats: Vec<SeatRow>,
    payment: Option<PaymentView>,
    event: Option<EventBrief>,
) -> BookingView {
    let (
        id,
        event_id,
        status,
        held_until,
        amount,
        currency,
        ga_area,
        ga_qty,
        created,
        updated,
        discount,
    ) = row;
    let now = state.clock.now_ms();
    // The CHECK constraint keeps the column to the machine's states.
    let status = BookingStatus::parse(&status).unwrap_or(BookingStatus::Expired);
    let running = matches!(status, BookingStatus::Held | BookingStatus::PaymentPending);
    let ticket = (status == BookingStatus::Booked).then(|| state.tickets.token(&id));
    let kind = event.as_ref().map_or(EventKind::Concert, |e| e.kind);
    let tickets = if status == BookingStatus::Booked {
        let seat_ids: Vec<i64> = seats.iter().map(|s| s.0).collect();
        // The label stays the seat's short label (part of the contract);
        // the name is the place as a buyer reads it.
        let places = seats
            .iter()
            .map(|s| (s.1.clone(), kind.place_name(l, &s.3, &s.4, s.5)))
            .chain((1..=ga_qty).map(|i| {
                let name = l.fill(Msg::StandingPlaceNumber, &[("n", &i)]);
                (name.clone(), name)
            }));
        crate::core::door::units(&seat_ids, ga_qty)
            .into_iter()
            .zip(places)
            .map(|(unit, (label, name))| TicketView {
                token: state.tickets.unit_token(&id, &unit),
                unit,
                label,
                name,
            })
            .collect()
    } else {
        Vec::new()
    };
    BookingView {
        id,
        event_id,
        event,
        status,
        seats: seats
            .into_iter()
            .map(
                |(id, label, price_cents, section, row, number)| BookingSeat {
                    id,
                    label,
                    price_cents,
                    name: kind.place_name(l, &section, &row, number),
                },
            )
            .collect(),
        general_admission: ga_area
            .filter(|_| ga_qty > 0)
            .map(|area_id| GeneralAdmissionLine {
                area_id,
                quantity: ga_qty,
            }),
        amount_cents: amount,
        discount_cents: discount.unwrap_or(0),
        currency,
        held_until: Some(rfc3339(held_until)),
        expires_in_ms: running.then(|| (held_until - now).max(0)),
        ticket,
        tickets,
        payment,
        created_at: rfc3339(created),
        updated_at: rfc3339(updated),
    }
}

async fn payment_of(state: &AppState, booking_id: &str) -> Result<Option<PaymentView>, ApiError> {
    type PaymentRow = (
        String,
        Option<String>,
        Option<String>,
        Option<String>,
        String,
        i64,
    );
    let row: Option<PaymentRow> = sqlx::query_as(
        "select provider, checkout_session_id, payment_intent_id, refund_id, status, refunded_cents
         from payment where booking_id = $1",
    )
    .bind(booking_id)
    .fetch_optional(state.db.reader())
    .await?;
    Ok(row.map(
        |(provider, checkout_session_id, payment_intent_id, refund_id, status, refunded_cents)| {
            PaymentView {
                provider,
                checkout_session_id,
                payment_intent_id,
                refund_id,
                status: PaymentStatus::parse(&status).unwrap_or(PaymentStatus::Creating),
                refunded_cents,
            }
        },
    ))
}
