//! What an organizer sets up from the console or the admin API: events
//! from a layout, waiting rooms, promo campaigns, and the event list.

use serde::{Deserialize, Serialize};

use crate::{EventId, EventKind};

/// `POST /api/admin/events`: an event from a layout.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct EventLayout {
    pub name: String,
    /// `concert` or `cruise`.
    pub kind: String,
    pub venue: String,
    /// RFC 3339, or a wall-clock time ("2027-06-01T20:00") in `timeZone`.
    pub starts_at: String,
    /// RFC 3339; empty: on sale at once when published.
    pub on_sale_at: String,
    pub currency: String,
    /// Where it happens, as an IANA time zone ("Europe/Oslo"); empty: UTC.
    pub time_zone: String,
    pub categories: Vec<CategorySpec>,
    pub sections: Vec<SectionSpec>,
    pub general_admission: Vec<StandingSpec>,
    /// What buyers get back when they cancel (none: they cannot). The
    /// console's form leaves it to `PUT …/refund-policy`: kept out of the
    /// browser's wasm.
    #[cfg(feature = "ssr")]
    pub refund_policy: crate::RefundPolicy,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct CategorySpec {
    pub code: String,
    pub name: String,
    pub price_cents: i64,
    /// `#rrggbb`.
    pub color: String,
}

/// A block of `rows` × `seats_per_row` seats whose top-left seat sits at
/// (`x`, `y`); on a ship, `level` names the deck.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct SectionSpec {
    pub name: String,
    pub level: Option<String>,
    pub category: String,
    pub rows: i64,
    pub seats_per_row: i64,
    pub x: f64,
    pub y: f64,
    /// Distance between seats and between rows (default 12).
    pub spacing: Option<f64>,
    /// How far each row bends around the stage, in degrees of arc (0 or
    /// none: straight; at most 180). See `SectionSpec::placed_seats`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub curve: Option<f64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct StandingSpec {
    pub name: String,
    pub category: String,
    pub capacity: i64,
}

/// The answer to creating an event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CreatedEvent {
    pub event_id: EventId,
    pub seat_count: i64,
    pub published: bool,
}

/// An event's waiting room as the admin sees and sets it
/// (`PUT`/`GET /api/admin/events/{id}/queue`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RoomSummary {
    pub event_id: EventId,
    pub enabled: bool,
    pub admit_per_minute: i64,
    /// Buyers who ever joined.
    pub joined: i64,
    pub admitted: i64,
    pub waiting: i64,
    pub free_places: i64,
    /// Admission starts at the on-sale time.
    pub on_sale_at: String,
    /// `onSaleAt` in the event's time zone (RFC 3339 with its offset).
    #[serde(default)]
    pub on_sale_at_local: String,
    /// Whether the on-sale time has come (admission runs).
    #[serde(default)]
    pub admitting: bool,
    /// Whether the organizer set an on-sale time; without one the event is
    /// on sale from its publication and `onSaleAt` is the epoch.
    #[serde(default)]
    pub on_sale_set: bool,
}

impl RoomSummary {
    /// A rate that lets in buyers for what is free in about ten minutes,
    /// at about two places a buyer (at least 10 a minute).
    pub fn suggested_rate(&self) -> i64 {
        ((self.free_places + 19) / 20).clamp(10, 1_000_000)
    }

    /// The on-sale time as a browser's date-and-time field takes it: the
    /// event's own wall clock, to the minute; empty when none was set (the
    /// field then shows nothing rather than 1 January 1970).
    pub fn on_sale_wall_clock(&self) -> String {
        if !self.on_sale_set {
            return String::new();
        }
        self.on_sale_at_local.chars().take(16).collect()
    }
}

/// Whole minutes until `waiting` buyers are all let in at `rate` a minute
/// (`None` for nobody waiting or no rate).
pub fn minutes_to_clear(waiting: i64, rate: i64) -> Option<i64> {
    (waiting > 0 && rate > 0).then(|| (waiting + rate - 1) / rate)
}

/// What `POST /api/admin/promos` takes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewPromo {
    pub name: String,
    /// `single` (one code, one use), `capped` (one code, `maxUses` uses) or
    /// `pooled` (`count` unique codes, one per buyer).
    pub kind: String,
    #[serde(default)]
    pub event_id: Option<EventId>,
    #[serde(default)]
    pub percent_off: i64,
    #[serde(default)]
    pub amount_off_cents: i64,
    /// The code for `single` and `capped` (made up when absent).
    #[serde(default)]
    pub code: Option<String>,
    #[serde(default)]
    pub max_uses: Option<i64>,
    /// How many codes a `pooled` campaign has.
    #[serde(default)]
    pub count: Option<i64>,
    /// Usable from then on (RFC 3339, or a wall-clock time in the event's
    /// zone — UTC for a campaign of every event); none: from now.
    #[serde(default)]
    pub starts_at: Option<String>,
    /// Usable until then; none: no end.
    #[serde(default)]
    pub ends_at: Option<String>,
}

/// A promo campaign and how it is being used.
/// How a campaign's codes are used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum CampaignKind {
    /// One code, used once.
    Single,
    /// One code, used up to `maxUses` times.
    Capped,
    /// Many unique codes, one handed to each buyer, each used once.
    Pooled,
}

impl CampaignKind {
    pub const ALL: [CampaignKind; 3] = [
        CampaignKind::Single,
        CampaignKind::Capped,
        CampaignKind::Pooled,
    ];

    /// The name in forms, answers and the table.
    pub const fn as_str(self) -> &'static str {
        match self {
            CampaignKind::Single => "single",
            CampaignKind::Capped => "capped",
            CampaignKind::Pooled => "pooled",
        }
    }

    pub fn parse(name: &str) -> Option<CampaignKind> {
        Self::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

/// Stored as its name; a row with another is refused as corrupt.
#[cfg(feature = "ssr")]
impl sqlx::Type<sqlx::Any> for CampaignKind {
    fn type_info() -> sqlx::any::AnyTypeInfo {
        <str as sqlx::Type<sqlx::Any>>::type_info()
    }
}

#[cfg(feature = "ssr")]
impl<'r> sqlx::Decode<'r, sqlx::Any> for CampaignKind {
    fn decode(
        value: <sqlx::Any as sqlx::Database>::ValueRef<'r>,
    ) -> Result<Self, sqlx::error::BoxDynError> {
        let name = <String as sqlx::Decode<'r, sqlx::Any>>::decode(value)?;
        CampaignKind::parse(&name).ok_or_else(|| format!("not a campaign kind: {name:?}").into())
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema, sqlx::FromRow))]
#[serde(rename_all = "camelCase")]
pub struct PromoCampaign {
    pub id: i64,
    pub name: String,
    pub kind: CampaignKind,
    pub event_id: Option<EventId>,
    pub percent_off: i64,
    pub amount_off_cents: i64,
    pub max_uses: Option<i64>,
    /// Bookings that got the discount.
    pub redeemed: i64,
    /// Pooled codes handed to buyers.
    pub handed_out: i64,
    pub code_count: i64,
    /// The codes (at most the first 100).
    #[cfg_attr(feature = "ssr", sqlx(skip))]
    pub codes: Vec<String>,
    /// When the codes start and stop working (RFC 3339, UTC; none: no
    /// limit on that side).
    #[serde(default)]
    #[cfg_attr(feature = "ssr", sqlx(skip))]
    pub starts_at: Option<String>,
    #[serde(default)]
    #[cfg_attr(feature = "ssr", sqlx(skip))]
    pub ends_at: Option<String>,
}

/// A row of the console's event list (`GET /api/admin/events`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AdminEvent {
    pub id: EventId,
    pub name: String,
    pub kind: EventKind,
    pub published: bool,
    pub seat_count: i64,
    /// Made from a layout, not on sale and without bookings: its layout
    /// may still change (`PUT …/layout`).
    #[serde(default)]
    pub editable: bool,
    /// When it starts, in its own time zone (RFC 3339 with the offset):
    /// the dates of a series told apart.
    #[serde(default)]
    pub starts_at_local: String,
    /// The zone's short name then ("CET", "UTC+07").
    #[serde(default)]
    pub starts_at_zone: String,
    /// Seats and standing places.
    #[serde(default)]
    pub capacity: i64,
    /// Seats and standing places sold (booked).
    #[serde(default)]
    pub sold: i64,
    /// What the booked bookings paid, in minor units of `currency`.
    #[serde(default)]
    pub revenue_cents: i64,
    #[serde(default)]
    pub currency: String,
    #[serde(default)]
    pub sale: SaleState,
}

/// Where an event's sale stands, as its row in the console says it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SaleState {
    /// Not published: buyers cannot see it.
    #[default]
    Draft,
    /// Published, its on-sale time still ahead.
    Scheduled,
    OnSale,
    SoldOut,
    /// It has started: no more sales.
    Over,
}

impl SaleState {
    /// From what the event is: published, its times (ms), places left.
    pub fn of(published: bool, on_sale_at: i64, starts_at: i64, left: i64, now: i64) -> SaleState {
        match () {
            _ if !published => SaleState::Draft,
            _ if starts_at <= now => SaleState::Over,
            _ if on_sale_at > now => SaleState::Scheduled,
            _ if left <= 0 => SaleState::SoldOut,
            _ => SaleState::OnSale,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn room(free: i64, waiting: i64) -> RoomSummary {
        RoomSummary {
            event_id: EventId(1),
            enabled: true,
            admit_per_minute: 0,
            joined: waiting,
            admitted: 0,
            waiting,
            free_places: free,
            on_sale_at: "2027-06-01T08:00:00.000Z".into(),
            on_sale_at_local: "2027-06-01T10:00:00.000+02:00".into(),
            admitting: false,
            on_sale_set: true,
        }
    }

    #[test]
    fn the_suggested_rate_sells_what_is_free_in_about_ten_minutes() {
        assert_eq!(room(11_990, 0).suggested_rate(), 600);
        assert_eq!(room(24, 0).suggested_rate(), 10, "never below ten");
        assert_eq!(room(0, 0).suggested_rate(), 10);
    }

    #[test]
    fn the_queue_clears_in_whole_minutes() {
        assert_eq!(minutes_to_clear(1_201, 600), Some(3));
        assert_eq!(minutes_to_clear(1_200, 600), Some(2));
        assert_eq!(minutes_to_clear(0, 600), None);
        assert_eq!(minutes_to_clear(5, 0), None);
        assert_eq!(room(1, 1).on_sale_wall_clock(), "2027-06-01T10:00");
    }

    #[test]
    fn a_sale_state_reads_from_the_event() {
        use SaleState::*;
        assert_eq!(SaleState::of(false, 0, 100, 5, 50), Draft);
        assert_eq!(SaleState::of(true, 0, 100, 5, 100), Over);
        assert_eq!(SaleState::of(true, 60, 100, 5, 50), Scheduled);
        assert_eq!(SaleState::of(true, 0, 100, 0, 50), SoldOut);
        assert_eq!(SaleState::of(true, 50, 100, 1, 50), OnSale);
    }

    #[test]
    fn an_on_sale_never_set_shows_no_date_rather_than_1970() {
        let never = RoomSummary {
            on_sale_at: "1970-01-01T00:00:00.000Z".into(),
            on_sale_at_local: "1970-01-01T01:00:00.000+01:00".into(),
            on_sale_set: false,
            ..room(1, 1)
        };
        assert_eq!(never.on_sale_wall_clock(), "");
    }
}
