//! What an event is to the outside: its kind (and the words that follow
//! from it), its summary on the list, its detail page's prices and standing
//! areas, and the brief a booking carries.

use serde::{Deserialize, Serialize};

use super::EventId;
use crate::i18n::{Locale, Msg};

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
        self.name_place(l, self == EventKind::Cruise, section, row, number)
    }

    /// A place named as a seat or as a cabin: a ferry sells both ("Deck 1,
    /// row A, seat 12"; "Deck 2, Port, cabin 201").
    pub fn name_place(
        self,
        l: Locale,
        cabin: bool,
        section: &str,
        row: &str,
        number: i64,
    ) -> String {
        let section = self.section_name(l, section);
        let m = if cabin {
            Msg::CabinPlace
        } else {
            Msg::SeatPlace
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
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema, sqlx::FromRow))]
#[serde(rename_all = "camelCase")]
pub struct PriceCategory {
    pub code: String,
    pub name: String,
    pub price_cents: i64,
    pub color: String,
}

/// A standing area sold by count, not by seat (additive to docs/API.md).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema, sqlx::FromRow))]
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
    /// What a buyer who cancels a paid booking gets back, window by window
    /// (the event's refund policy as moments): empty when buyers cannot
    /// cancel. Shown before anyone pays.
    #[serde(default)]
    pub refund_windows: Vec<RefundWindow>,
}

/// Until `until` (in the event's zone), a cancelled booking gets back
/// `percent` % of what was paid.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RefundWindow {
    pub percent: i64,
    /// RFC 3339 in UTC.
    pub until: String,
    /// The same moment in the event's zone, with its offset.
    pub local_until: String,
    /// "CET", "CEST", "UTC+07".
    pub time_zone_abbreviation: String,
}

impl RefundWindow {
    /// Its end, for people, in the event's own zone, named.
    pub fn when(&self, l: Locale) -> String {
        when(
            l,
            &self.until,
            &self.local_until,
            &self.time_zone_abbreviation,
        )
    }
}

impl EventDetail {
    /// The refund policy in a sentence, its dates in the event's zone.
    pub fn refund_terms(&self, l: Locale) -> String {
        use crate::i18n::Msg;
        let windows: Vec<String> = self
            .refund_windows
            .iter()
            .map(|w| {
                let msg = match w.percent {
                    100 => Msg::RefundInFullUntil,
                    _ => Msg::RefundPartUntil,
                };
                l.fill(msg, &[("percent", &w.percent), ("until", &w.when(l))])
            })
            .collect();
        match windows.is_empty() {
            true => l.t(Msg::RefundNone).to_string(),
            false => l.fill(Msg::RefundTerms, &[("windows", &windows.join("; "))]),
        }
    }
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
