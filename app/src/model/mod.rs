//! The shapes the outside sees (API.md), shared by the REST API, the server
//! functions and the hydrated pages. Plain data: no I/O, no SQL.

use serde::{Deserialize, Serialize};

mod booking_status;
pub mod console;
pub mod geometry;
mod payment_status;
pub mod seat_drawing;
mod state_names;

pub use booking_status::BookingStatus;
pub use payment_status::PaymentStatus;

pub type SeatId = i64;
pub type EventId = i64;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum EventKind {
    Concert,
    Cruise,
}

impl EventKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Concert => "concert",
            EventKind::Cruise => "cruise",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "concert" => Some(EventKind::Concert),
            "cruise" => Some(EventKind::Cruise),
            _ => None,
        }
    }
}

/// One line of `GET /api/events`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct EventSummary {
    pub id: EventId,
    pub name: String,
    pub kind: EventKind,
    pub venue: String,
    pub starts_at: String,
    pub seat_count: i64,
    pub available_count: i64,
    pub currency: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PriceCategory {
    pub code: String,
    pub name: String,
    pub price_cents: i64,
    pub color: String,
}

/// A standing area sold by count, not by seat (additive to API.md).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct GeneralAdmissionArea {
    pub id: i64,
    pub name: String,
    pub category: String,
    pub price_cents: i64,
    pub capacity: i64,
    pub remaining: i64,
}

/// `GET /api/events/{eventId}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct EventDetail {
    #[serde(flatten)]
    pub summary: EventSummary,
    pub categories: Vec<PriceCategory>,
    pub general_admission: Vec<GeneralAdmissionArea>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum SeatStatus {
    Available,
    Held,
    Booked,
}

impl SeatStatus {
    /// The seat's class on the map (`circle.seat.available`, …).
    pub fn class(self) -> &'static str {
        match self {
            SeatStatus::Available => "available",
            SeatStatus::Held => "held",
            SeatStatus::Booked => "booked",
        }
    }

    /// How the seat's accessible name ends ("Section A, row 1, seat 2,
    /// 85.00 EUR, sold").
    pub fn word(self) -> &'static str {
        match self {
            SeatStatus::Available => "available",
            SeatStatus::Held => "held by someone else",
            SeatStatus::Booked => "sold",
        }
    }

    /// The seat's letter in `SeatStatuses`.
    pub fn code(self) -> char {
        match self {
            SeatStatus::Available => 'a',
            SeatStatus::Held => 'h',
            SeatStatus::Booked => 'b',
        }
    }

    pub fn from_code(code: char) -> Option<SeatStatus> {
        match code {
            'a' => Some(SeatStatus::Available),
            'h' => Some(SeatStatus::Held),
            'b' => Some(SeatStatus::Booked),
            _ => None,
        }
    }
}

/// `GET /api/events/{eventId}/seats/status`: every seat's status as one
/// letter (`a` available, `h` held, `b` booked), in the order of the seats
/// of `GET …/seats` and of the map's drawing — 10,000 seats in 10 KB before
/// compression. `version` is the one the live stream continues from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SeatStatuses {
    pub event_id: EventId,
    pub version: u64,
    #[cfg_attr(feature = "ssr", schema(example = "aahb"))]
    pub statuses: String,
}

/// A batch of seat changes of one event, as the seat stream sends it
/// (`event: seats`), read by the page as it was written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SeatChanges {
    pub event_id: EventId,
    pub version: u64,
    pub changes: Vec<SeatChange>,
}

/// The standing areas' places left, on the seat stream (`event:
/// standing`, no `id:`): sent when a stream opens on an event with standing
/// areas and whenever the counts change (looked at every few seconds).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StandingLeft {
    pub event_id: EventId,
    pub standing: Vec<AreaLeft>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AreaLeft {
    pub id: i64,
    pub remaining: i64,
}

/// What the page reads from the seat stream (`event: seats` or
/// `event: standing`).
#[derive(Debug, Clone, PartialEq)]
pub enum SeatStreamMessage {
    Seats(SeatChanges),
    Standing(StandingLeft),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatChange {
    pub id: SeatId,
    pub status: SeatStatus,
}

/// One seat of `GET /api/events/{eventId}/seats`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SeatView {
    pub id: SeatId,
    pub label: String,
    pub section: String,
    pub row: String,
    pub number: i64,
    pub x: f64,
    pub y: f64,
    pub category: String,
    pub price_cents: i64,
    pub status: SeatStatus,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SeatMapSnapshot {
    pub event_id: EventId,
    pub version: u64,
    pub seats: Vec<SeatView>,
}

/// The answer to a successful hold (single seat, several seats, or general admission).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct HoldResponse {
    pub booking_id: String,
    pub status: String,
    pub seat_ids: Vec<SeatId>,
    pub held_until: String,
    pub expires_in_ms: i64,
    pub amount_cents: i64,
    pub currency: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub general_admission: Option<GeneralAdmissionLine>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct GeneralAdmissionLine {
    pub area_id: i64,
    pub quantity: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BookingSeat {
    pub id: SeatId,
    pub label: String,
    pub price_cents: i64,
}

/// `GET /api/bookings/{bookingId}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BookingView {
    pub id: String,
    pub event_id: EventId,
    pub status: BookingStatus,
    pub seats: Vec<BookingSeat>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub general_admission: Option<GeneralAdmissionLine>,
    /// What the buyer pays (after any promo code).
    pub amount_cents: i64,
    /// Taken off by a promo code (0 without one).
    #[serde(default)]
    pub discount_cents: i64,
    pub currency: String,
    pub held_until: Option<String>,
    pub expires_in_ms: Option<i64>,
    pub payment: Option<PaymentView>,
    /// For a BOOKED booking: the signed ticket token its QR code carries
    /// (it admits the whole party).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub ticket: Option<String>,
    /// For a BOOKED booking: one ticket per seat or standing place, so a
    /// party can enter one by one.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub tickets: Vec<TicketView>,
    pub created_at: String,
    pub updated_at: String,
}

/// One seat's (or standing place's) ticket.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct TicketView {
    /// The seat id, or `p1`, `p2`, … for standing places.
    pub unit: String,
    pub label: String,
    pub token: String,
}

/// The answer to `POST /api/bookings/{id}/pay`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PayResponse {
    pub booking_id: String,
    pub status: String,
    pub checkout_url: String,
    pub checkout_session_id: String,
    pub expires_in_ms: i64,
}

/// The `payment` object of a booking.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PaymentView {
    pub provider: String,
    pub checkout_session_id: Option<String>,
    pub payment_intent_id: Option<String>,
    pub refund_id: Option<String>,
    pub status: PaymentStatus,
    /// Refunded outside Holdfast in part (a full refund ends the booking).
    #[serde(default)]
    pub refunded_cents: i64,
}

/// Formats a price for people: 4500 EUR → "45.00 EUR".
pub fn format_price(cents: i64, currency: &str) -> String {
    format!("{}.{:02} {}", cents / 100, (cents % 100).abs(), currency)
}

/// When an event starts, for people: `2027-06-01T20:00:00Z` →
/// "Tue 1 June 2027, 20:00 UTC" (times are kept in UTC; the zone is named).
pub fn format_when(starts_at: &str) -> String {
    match chrono::DateTime::parse_from_rfc3339(starts_at) {
        Ok(t) => t
            .with_timezone(&chrono::Utc)
            .format("%a %-d %B %Y, %H:%M UTC")
            .to_string(),
        Err(_) => starts_at.to_string(),
    }
}

/// A buyer's place in an event's waiting room (`/api/events/{id}/queue`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct QueueStatus {
    /// Places until admission (1: next); 0 once admitted or not queued.
    pub position: i64,
    pub estimated_wait_ms: i64,
    pub admitted: bool,
    /// Signed, bound to this session, with an expiry; also set as a cookie.
    pub admission_token: Option<String>,
    /// No place is free now (seats held by others may still come back).
    pub sold_out: bool,
    /// Whether the waiting room is on for this event at all.
    pub room_open: bool,
    /// The admission was let lapse: joining again queues at the back.
    pub admission_expired: bool,
    /// The signed place in the queue (also set as a cookie): lets any
    /// instance answer without a database read.
    pub queue_token: Option<String>,
}

/// The answer to `POST /api/bookings/{id}/promo`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PromoApplied {
    pub amount_cents: i64,
    pub discount_cents: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_time_reads_as_a_date_and_a_named_zone() {
        assert_eq!(
            format_when("2027-06-01T20:00:00.000Z"),
            "Tue 1 June 2027, 20:00 UTC"
        );
        assert_eq!(
            format_when("2027-06-01T22:30:00+02:00"),
            "Tue 1 June 2027, 20:30 UTC"
        );
        assert_eq!(format_when("soon"), "soon");
    }
}
