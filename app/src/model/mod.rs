//! The shapes the outside sees (API.md), shared by the REST API, the server
//! functions and the hydrated pages. Plain data: no I/O, no SQL.

use serde::{Deserialize, Serialize};

use crate::i18n::{Locale, Msg};

mod booking_status;
pub mod console;
pub mod geometry;
pub mod money;
mod payment_status;
pub mod seat_drawing;
mod state_names;

pub use booking_status::BookingStatus;
pub use money::format_price;
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

    /// A place as people name it, the same on the map, the booking and in
    /// mail: "Section L4, row 28, seat 1" at a concert, "Deck 6, Inside
    /// starboard, cabin 6051" on a ship (a cruise's sections are its decks
    /// and its rows the corridors); "Khu L4, hàng 28, ghế 1" in Vietnamese.
    pub fn place_name(self, l: Locale, section: &str, row: &str, number: i64) -> String {
        let section = self.section_name(l, section);
        let m = match self {
            EventKind::Concert => Msg::SeatPlace,
            EventKind::Cruise => Msg::CabinPlace,
        };
        l.fill(
            m,
            &[("section", &section), ("row", &row), ("number", &number)],
        )
    }

    /// "Section L4"; on a ship the deck's own name ("Deck 6").
    pub fn section_name(self, l: Locale, section: &str) -> String {
        match self {
            EventKind::Concert => l.fill(Msg::SectionName, &[("section", &section)]),
            EventKind::Cruise => section.to_string(),
        }
    }

    /// What a section is called: "Section", or "Deck" on a ship.
    pub fn section_word(self, l: Locale) -> &'static str {
        l.t(match self {
            EventKind::Concert => Msg::SectionWord,
            EventKind::Cruise => Msg::DeckWord,
        })
    }

    /// "1 seat", "3 seats"; on a ship "1 cabin", "3 cabins".
    pub fn places(self, l: Locale, n: usize) -> String {
        match self {
            EventKind::Concert => l.plural(n as i64, Msg::SeatOne, Msg::SeatMany),
            EventKind::Cruise => l.plural(n as i64, Msg::CabinOne, Msg::CabinMany),
        }
    }

    /// "seat", or "cabin" on a ship.
    pub fn place_word(self, l: Locale) -> &'static str {
        l.t(match self {
            EventKind::Concert => Msg::SeatWord,
            EventKind::Cruise => Msg::CabinWord,
        })
    }

    /// "seats", or "cabins" on a ship.
    pub fn places_word(self, l: Locale) -> &'static str {
        l.t(match self {
            EventKind::Concert => Msg::SeatsWord,
            EventKind::Cruise => Msg::CabinsWord,
        })
    }

    /// What the event is ("Concert", "Cruise").
    pub fn name(self, l: Locale) -> &'static str {
        l.t(match self {
            EventKind::Concert => Msg::KindConcert,
            EventKind::Cruise => Msg::KindCruise,
        })
    }

    /// The last words of a confirmation.
    pub fn farewell(self, l: Locale) -> &'static str {
        l.t(match self {
            EventKind::Concert => Msg::FarewellConcert,
            EventKind::Cruise => Msg::FarewellCruise,
        })
    }
}

/// What a booking is for: the event's name, place and time (on
/// `GET /api/bookings/{id}`, additive).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct EventBrief {
    pub name: String,
    pub kind: EventKind,
    pub venue: String,
    pub starts_at: String,
    pub time_zone: String,
    pub local_starts_at: String,
    pub time_zone_abbreviation: String,
}

impl EventBrief {
    /// When it starts, for people, in the event's own zone, named.
    pub fn when(&self, l: Locale) -> String {
        when(
            l,
            &self.starts_at,
            &self.local_starts_at,
            &self.time_zone_abbreviation,
        )
    }
}

/// In the event's zone when it is known, else in UTC.
fn when(l: Locale, utc: &str, local: &str, zone: &str) -> String {
    crate::i18n::format::when(l, local, zone)
        .or_else(|| crate::i18n::format::when(l, utc, "UTC"))
        .unwrap_or_else(|| utc.to_string())
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
    /// Where the event happens, as a time zone (IANA name, additive).
    #[serde(default = "utc")]
    pub time_zone: String,
    /// The start in that zone: RFC 3339 with the zone's offset then.
    #[serde(default)]
    pub local_starts_at: String,
    /// The zone's short name at the start ("CET", "CEST", "UTC+07").
    #[serde(default)]
    pub time_zone_abbreviation: String,
}

fn utc() -> String {
    "UTC".into()
}

impl EventSummary {
    /// When it starts, for people, in the event's own zone, named.
    pub fn when(&self, l: Locale) -> String {
        when(
            l,
            &self.starts_at,
            &self.local_starts_at,
            &self.time_zone_abbreviation,
        )
    }
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
    /// €85.00, sold").
    pub fn word(self, l: Locale) -> &'static str {
        l.t(match self {
            SeatStatus::Available => Msg::LookAvailable,
            SeatStatus::Held => Msg::LookHeld,
            SeatStatus::Booked => Msg::LookSold,
        })
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
    /// As people name it: "Section L4, row 28, seat 1" (additive).
    #[serde(default)]
    pub name: String,
}

/// `GET /api/bookings/{bookingId}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BookingView {
    pub id: String,
    pub event_id: EventId,
    /// The event's name, place and time (additive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<EventBrief>,
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
    /// The seat's short label (`A-12`), or `Standing place N`.
    pub label: String,
    /// The place as a buyer reads it: `Section A, row 1, seat 12`, or a
    /// cabin's deck and number on a ship.
    #[serde(default)]
    pub name: String,
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
    fn places_are_named_by_the_kind_of_event() {
        let (en, vi) = (Locale::En, Locale::Vi);
        assert_eq!(
            EventKind::Concert.place_name(en, "L4", "28", 1),
            "Section L4, row 28, seat 1"
        );
        assert_eq!(
            EventKind::Concert.place_name(vi, "L4", "28", 1),
            "Khu L4, hàng 28, ghế 1"
        );
        assert_eq!(
            EventKind::Cruise.place_name(en, "Deck 6", "Inside starboard", 6051),
            "Deck 6, Inside starboard, cabin 6051"
        );
        assert_eq!(EventKind::Cruise.places(en, 2), "2 cabins");
        assert_eq!(EventKind::Concert.places(en, 1), "1 seat");
        assert_eq!(EventKind::Concert.places(vi, 4), "4 ghế");
    }
}
