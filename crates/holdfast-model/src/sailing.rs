//! Cruises as the outside sees them: sailings of a route (each an event:
//! its seat map, holds and payments are the event's), their itineraries
//! and fares, and the guests a booked cabin carries (the manifest).

use serde::{Deserialize, Serialize};

use super::{EventId, SeatId};

/// Whether a sailing sells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum SailingStatus {
    /// Before departure, selling.
    Scheduled,
    /// Cancelled by the line (weather, the sea): it sells no more.
    Cancelled,
    /// Departed: too late to book.
    Departed,
}

/// `GET /api/sailings`: one voyage of a route.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SailingSummary {
    /// The sailing's event id (its seat map, holds and payments).
    pub id: EventId,
    pub name: String,
    pub route: RouteRef,
    pub ship: String,
    /// RFC 3339, UTC.
    pub departs_at: String,
    pub arrives_at: String,
    /// The same instants in the sailing's zone, with its offset.
    pub local_departs_at: String,
    pub local_arrives_at: String,
    pub time_zone: String,
    pub time_zone_abbreviation: String,
    pub nights: i64,
    pub status: SailingStatus,
    /// Why the line cancelled it (when it did).
    pub cancel_reason: Option<String>,
    pub currency: String,
    /// The lowest price of a free place (a cabin for up to two), or null
    /// when none is free.
    pub from_cents: Option<i64>,
    pub place_count: i64,
    pub available_count: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RouteRef {
    pub code: String,
    pub name: String,
}

/// `GET /api/sailings/{sailingId}`: the sailing with its ports and fares.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SailingDetail {
    #[serde(flatten)]
    pub summary: SailingSummary,
    pub itinerary: Vec<PortCall>,
    pub fares: Vec<Fare>,
}

/// What a sailing's page shows besides its deck plan: the sailing and its
/// ports (the summary nested, not flattened as the API's: a flattened
/// field costs the page's wasm serde's buffering of every field).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SailingPage {
    pub summary: SailingSummary,
    pub itinerary: Vec<PortCall>,
}

/// A port on the way, in order; the first has no arrival, the last no
/// departure. Times are RFC 3339 in the sailing's zone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PortCall {
    pub port: String,
    pub country: String,
    pub arrives_at: Option<String>,
    pub departs_at: Option<String>,
}

/// A price category of a sailing: a cabin's price for up to two guests
/// and what each guest beyond two adds (a seat is for one).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Fare {
    pub code: String,
    pub name: String,
    pub price_cents: i64,
    pub extra_guest_cents: i64,
    /// Cabins or seats of the category, and how many are free now.
    pub place_count: i64,
    pub available_count: i64,
    /// The fewest and the most guests a place of the category takes.
    pub min_guests: i64,
    pub max_guests: i64,
}

/// One guest of a booked place, as the manifest lists them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Guest {
    pub seat_id: SeatId,
    pub full_name: String,
    /// YYYY-MM-DD.
    pub birth_date: String,
}

/// `PUT /api/bookings/{bookingId}/guests`: every guest of every place of
/// the booking (as many per cabin as it was held for).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    pub booking_id: super::BookingId,
    /// Per place: how many guests it is for.
    pub places: Vec<ManifestPlace>,
    pub guests: Vec<Guest>,
    /// Every place has its guests named.
    pub complete: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ManifestPlace {
    pub seat_id: SeatId,
    pub label: String,
    pub guests: i64,
}

impl SailingSummary {
    /// The departure in the sailing's zone, named ("Sat 5 June 2027, 18:00 CEST").
    pub fn when(&self, l: crate::i18n::Locale) -> String {
        crate::i18n::format::when(l, &self.local_departs_at, &self.time_zone_abbreviation)
            .unwrap_or_else(|| self.departs_at.clone())
    }

    /// How long: "7 nights", or a day crossing's hours ("3 h 10 min crossing").
    pub fn length(&self, l: crate::i18n::Locale) -> String {
        use crate::i18n::Msg;
        if self.nights > 0 {
            return l.plural(self.nights, Msg::NightsOne, Msg::NightsMany);
        }
        let minutes = chrono::DateTime::parse_from_rfc3339(&self.arrives_at)
            .ok()
            .zip(chrono::DateTime::parse_from_rfc3339(&self.departs_at).ok())
            .map_or(0, |(a, d)| (a - d).num_minutes());
        l.fill(
            Msg::Crossing,
            &[("hours", &(minutes / 60)), ("minutes", &(minutes % 60))],
        )
    }

    /// What stops a buyer, if anything: cancelled (and why), departed, sold out.
    pub fn refusal(&self, l: crate::i18n::Locale) -> Option<String> {
        use crate::i18n::Msg;
        match self.status {
            SailingStatus::Cancelled => Some(l.fill(
                Msg::SailingStatusCancelled,
                &[("reason", &self.cancel_reason.clone().unwrap_or_default())],
            )),
            SailingStatus::Departed => Some(l.t(Msg::SailingStatusDeparted).to_string()),
            SailingStatus::Scheduled if self.available_count == 0 => {
                Some(l.t(Msg::SoldOutWord).to_string())
            }
            SailingStatus::Scheduled => None,
        }
    }
}

/// A route as the home page shows it: its sailings in departure order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RouteSailings {
    pub route: RouteRef,
    pub ship: String,
    pub sailings: Vec<SailingSummary>,
}

impl RouteSailings {
    /// Sailings grouped by route, each route where its first sailing is.
    pub fn group(sailings: Vec<SailingSummary>) -> Vec<RouteSailings> {
        let mut out: Vec<RouteSailings> = Vec::new();
        for s in sailings {
            match out.iter_mut().find(|r| r.route.code == s.route.code) {
                Some(r) => r.sailings.push(s),
                None => out.push(RouteSailings {
                    route: s.route.clone(),
                    ship: s.ship.clone(),
                    sailings: vec![s],
                }),
            }
        }
        out
    }

    /// The next sailing a buyer can still book, if any.
    pub fn next(&self) -> Option<&SailingSummary> {
        self.sailings
            .iter()
            .find(|s| s.status == SailingStatus::Scheduled)
    }

    /// The lowest fare among the sailings with room.
    pub fn from_cents(&self) -> Option<i64> {
        self.sailings
            .iter()
            .filter(|s| s.status == SailingStatus::Scheduled)
            .filter_map(|s| s.from_cents)
            .min()
    }
}

/// What became of a booking whose sailing the line cancelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum RebookingOutcome {
    /// Moved to the route's next sailing (`movedTo`).
    Moved,
    /// No sailing had room for the party: a full refund is offered.
    RefundOffered,
}

/// The buyer's answer to a rebooking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum RebookingAnswer {
    /// Kept the new sailing.
    Kept,
    /// Chose another sailing.
    Changed,
    /// Took a full refund.
    Refunded,
}

impl RebookingAnswer {
    /// As `rebooking.answer` keeps it.
    pub const fn stored(self) -> &'static str {
        match self {
            RebookingAnswer::Kept => "kept",
            RebookingAnswer::Changed => "changed",
            RebookingAnswer::Refunded => "refunded",
        }
    }

    pub fn parse(stored: &str) -> Option<RebookingAnswer> {
        [
            RebookingAnswer::Kept,
            RebookingAnswer::Changed,
            RebookingAnswer::Refunded,
        ]
        .into_iter()
        .find(|a| a.stored() == stored)
    }
}

/// What a buyer may answer now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum RebookingChoice {
    /// Keep the new sailing and places.
    Keep,
    /// Move to another sailing of the route (one of `otherSailings`).
    Sailing,
    /// Cancel, with everything paid back.
    Refund,
}

/// On a booking moved off a cancelled sailing (additive to the booking):
/// what happened, and what its buyer may still choose.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RebookingView {
    /// The sailing the line cancelled (its `cancelReason` says why).
    pub cancelled: SailingSummary,
    pub outcome: RebookingOutcome,
    /// Where the booking was moved (its places are the booking's seats).
    pub moved_to: Option<SailingSummary>,
    pub answer: Option<RebookingAnswer>,
    /// Until when the choices are open (RFC 3339): the new sailing's
    /// departure less the cut-off. Unanswered by then, the move stands.
    pub answer_by: Option<String>,
    /// What the buyer may answer now (empty once answered).
    pub choices: Vec<RebookingChoice>,
    /// Later sailings of the route with room for the booking's parties.
    pub other_sailings: Vec<SailingSummary>,
}

/// `POST /api/admin/sailings/{sailingId}/cancel` and
/// `GET /api/admin/sailings/{sailingId}/rebooking`: how far the rebooking
/// of a cancelled sailing has gone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RebookingProgress {
    pub sailing_id: EventId,
    pub cancelled_at: Option<String>,
    pub reason: Option<String>,
    /// The route's next sailing, where bookings go.
    pub to_sailing_id: Option<EventId>,
    /// Bookings moved to another sailing.
    pub moved: i64,
    /// Bookings nothing had room for: a full refund is offered.
    pub refund_offered: i64,
    /// Bookings whose buyer answered (kept, changed or refunded).
    pub answered: i64,
    /// Bookings and holds the job has still to handle.
    pub left: i64,
}
