//! What an organizer sets up from the console or the admin API: events
//! from a layout, waiting rooms, promo campaigns, and the event list.

use serde::{Deserialize, Serialize};

use crate::model::{EventId, EventKind};

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
    pub refund_policy: crate::model::RefundPolicy,
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
}
