//! Seats as the map and the live stream carry them: statuses, the compact
//! status string, the stream's change batches and standing places left.

use serde::{Deserialize, Serialize};

use super::{EventId, SeatId};
use crate::i18n::{Locale, Msg};

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

/// A seat as the venue has it: where it is, what it is called, its price.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema, sqlx::FromRow))]
#[serde(rename_all = "camelCase")]
pub struct Seat {
    pub id: SeatId,
    pub label: String,
    /// The deck of a ship's cabin; absent in a hall.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    pub section: String,
    pub row: String,
    pub number: i64,
    pub x: f64,
    pub y: f64,
    pub category: String,
    pub price_cents: i64,
}

/// One seat of `GET /api/events/{eventId}/seats`: the seat and its status.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SeatView {
    #[serde(flatten)]
    pub seat: Seat,
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
