//! What the admin console and the admin API exchange (JSON, camelCase),
//! shared by the server and the console page in the browser.

use serde::{Deserialize, Serialize};

use crate::i18n::{Locale, Msg};
use crate::{BookingId, BookingStatus, BuyerId, EventId, SeatId};

mod jobs;
pub mod preview;
pub mod seating;
mod setup;
pub mod team;
pub use jobs::*;
pub use setup::*;

/// One event's live picture: counts, money, holds and what happened lately.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Dashboard {
    pub event_id: EventId,
    pub event_name: String,
    pub published: bool,
    pub on_sale_at: String,
    pub counts: SeatCounts,
    /// Seats and standing places alike (the tiles): the sales lines' totals.
    #[serde(default)]
    pub places: SeatCounts,
    /// Sales per category and section, then per standing area.
    #[serde(default)]
    pub sales: Vec<SalesLine>,
    /// Places sold over time, as an SVG drawn on the server.
    #[serde(default)]
    pub sales_chart: String,
    pub standing: Vec<StandingCount>,
    pub revenue_cents: i64,
    pub currency: String,
    pub holds: Vec<LiveHold>,
    pub recent: Vec<BookingActivity>,
    pub webhooks: Vec<WebhookRow>,
    pub mail: Vec<MailRow>,
    pub outbox_backlog: i64,
    pub audit: Vec<AuditRow>,
    pub canary: CanaryReport,
    /// The event's IANA time zone: every `atLocal` below is in it.
    #[serde(default)]
    pub time_zone: String,
    /// The zone's short name now ("CET", "UTC+07").
    #[serde(default)]
    pub time_zone_abbreviation: String,
    /// A concert or a cruise (how places are named).
    #[serde(default = "concert")]
    pub kind: crate::EventKind,
    /// The seat map to colour by sale (`None` until the event is
    /// published: the drawing is served for published events).
    #[serde(default)]
    pub heat_map: Option<HeatMap>,
}

fn concert() -> crate::EventKind {
    crate::EventKind::Concert
}

/// Where the console finds an event's seat map: the same drawing and
/// status letters the buyers' map reads, drawn read-only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct HeatMap {
    pub drawing_url: String,
    /// The whole map, in map units.
    #[cfg_attr(feature = "ssr", schema(value_type = Object))]
    pub view_box: crate::geometry::ViewBox,
}

/// One line of an event's sales: a price category's seats in one section,
/// or a standing area. `sold + held + inPayment + free = places`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SalesLine {
    pub category: String,
    /// The section, or the standing area's name.
    pub section: String,
    pub standing: bool,
    pub places: i64,
    pub sold: i64,
    pub held: i64,
    pub in_payment: i64,
    pub free: i64,
    /// What the sold places cost at their prices (before promo codes),
    /// in minor units of the event's currency.
    pub sold_cents: i64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SeatCounts {
    pub available: i64,
    pub held: i64,
    pub in_payment: i64,
    pub booked: i64,
}

impl SeatCounts {
    /// The totals of sales lines, seats and standing places alike: the
    /// one count the dashboard's tiles and its sales table both show.
    pub fn of_lines(lines: &[SalesLine]) -> SeatCounts {
        lines.iter().fold(SeatCounts::default(), |mut c, l| {
            c.available += l.free;
            c.held += l.held;
            c.in_payment += l.in_payment;
            c.booked += l.sold;
            c
        })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema, sqlx::FromRow))]
#[serde(rename_all = "camelCase")]
pub struct StandingCount {
    pub area_id: i64,
    pub name: String,
    pub capacity: i64,
    pub remaining: i64,
}

/// A hold or a pending payment, with its owner and time left.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct LiveHold {
    pub booking_id: BookingId,
    pub event_id: EventId,
    /// The buyer's (session) id.
    pub buyer_id: BuyerId,
    /// The buyer's email when known: the checkout's, or their account's.
    #[serde(default)]
    pub buyer_email: Option<String>,
    pub seat_ids: Vec<SeatId>,
    pub seat_labels: Vec<String>,
    pub places: i64,
    /// `HELD` or `PAYMENT_PENDING`.
    pub stage: BookingStatus,
    pub expires_in_ms: i64,
    pub amount_cents: i64,
    pub currency: String,
}

/// A booking that was settled lately: booked, re-taken, refunded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BookingActivity {
    pub booking_id: BookingId,
    /// The buyer's email when known: the checkout's, or their account's.
    #[serde(default)]
    pub buyer_email: Option<String>,
    /// The booking's seats by name (empty for standing places).
    #[serde(default)]
    pub seat_labels: Vec<String>,
    /// Standing places.
    #[serde(default)]
    pub places: i64,
    pub status: BookingStatus,
    pub amount_cents: i64,
    pub currency: String,
    pub at: String,
    /// `at` in the event's time zone (RFC 3339 with its offset).
    #[serde(default)]
    pub at_local: String,
    /// Why, in words ("paid", "late payment: seats re-taken", …).
    pub reason: String,
    /// Why, as a kind (what the console translates).
    #[serde(default)]
    pub reason_kind: SettlementReason,
    /// Money sent back outside Holdfast while the ticket stays.
    #[serde(default)]
    pub refunded_cents: i64,
    /// Its places already let in at the door (a refund then warns).
    #[serde(default)]
    pub checked_in: i64,
    /// What may still go back in part now (minor units): the payment less
    /// what went back and the parts on their way, less one while the
    /// tickets stand (all of it back is the booking's refund).
    #[serde(default)]
    pub refundable_cents: i64,
}

/// Why a booking settled as it did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum SettlementReason {
    #[default]
    Paid,
    /// Paid; part of the money went back outside Holdfast, ticket kept.
    PartlyRefundedOutside,
    /// Paid; an organizer gave part of the money back, ticket kept.
    RefundedInPart,
    /// A late payment took back the very same seats.
    LatePaymentRetaken,
    /// A late payment whose seats were gone: its refund is under way.
    LatePaymentRefundUnderWay,
    /// A late payment whose seats were gone: refunded.
    LatePaymentRefunded,
    RefundedByAdmin,
    /// Refunded outside Holdfast: ticket void, seats released.
    RefundedOutside,
    /// Disputed by the buyer's bank: ticket void, seats released.
    Disputed,
    Refunded,
}

impl SettlementReason {
    /// Why, in words: the console's in the organizer's language, the
    /// API's `reason` in English.
    pub fn words(self, locale: Locale, refunded_cents: i64, currency: &str) -> String {
        let m = match self {
            SettlementReason::Paid => Msg::ReasonPaid,
            SettlementReason::PartlyRefundedOutside => {
                let amount = locale.price(refunded_cents, currency);
                return locale.fill(Msg::ReasonPartlyRefundedOutside, &[("amount", &amount)]);
            }
            SettlementReason::RefundedInPart => {
                let amount = locale.price(refunded_cents, currency);
                return locale.fill(Msg::ReasonRefundedInPart, &[("amount", &amount)]);
            }
            SettlementReason::LatePaymentRetaken => Msg::ReasonLateRetaken,
            SettlementReason::LatePaymentRefundUnderWay => Msg::ReasonLateRefundUnderWay,
            SettlementReason::LatePaymentRefunded => Msg::ReasonLateRefunded,
            SettlementReason::RefundedByAdmin => Msg::ReasonRefundedByAdmin,
            SettlementReason::RefundedOutside => Msg::ReasonRefundedOutside,
            SettlementReason::Disputed => Msg::ReasonDisputed,
            SettlementReason::Refunded => Msg::ReasonRefunded,
        };
        locale.t(m).to_string()
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct WebhookRow {
    pub event_id: String,
    pub kind: String,
    pub booking_id: Option<BookingId>,
    pub outcome: String,
    pub received_at: String,
    /// In the event's time zone (RFC 3339 with its offset).
    #[serde(default)]
    pub at_local: String,
}

/// A mail as the mailbox keeps it (`GET /api/admin/mailbox`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct MailMessage {
    /// None for mail about no booking (sign-in links).
    pub booking_id: Option<BookingId>,
    pub recipient: String,
    pub subject: String,
    pub body: String,
    /// `mailbox`, `smtp` or `smtp-unconfirmed`.
    pub channel: String,
    pub at: String,
}

/// One mail of an event's log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct MailRow {
    pub booking_id: BookingId,
    pub recipient: String,
    pub subject: String,
    /// `mailbox`, `smtp`, or `pending` while still in the outbox.
    pub channel: String,
    pub at: String,
    /// In the event's time zone (RFC 3339 with its offset).
    #[serde(default)]
    pub at_local: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AuditRow {
    /// Who: a person's address, `key:<name>` for an API key, `console` or
    /// `api-token` for the bootstrap credentials.
    pub actor: String,
    /// From where: the client's address, when it was known.
    #[serde(default)]
    pub client: Option<String>,
    pub action: String,
    pub booking_id: Option<BookingId>,
    pub detail: String,
    /// `detail` in the reader's language (the console's; English for the API).
    #[serde(default)]
    pub detail_words: String,
    pub at: String,
    /// In the event's time zone (RFC 3339 with its offset).
    #[serde(default)]
    pub at_local: String,
}

/// `GET /api/admin/invariants`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CanaryReport {
    pub ok: bool,
    pub checked_at: String,
    pub violations: Vec<String>,
}

/// What an admin can do to one booking
/// (`POST /api/admin/bookings/{bookingId}/{action}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum BookingAction {
    /// A running hold ends now; its seats go back on sale.
    Release,
    /// A running hold gets more time.
    Extend,
    /// A booked booking is cancelled and its money sent back.
    Refund,
    /// The confirmation mail goes out again.
    Resend,
}

impl BookingAction {
    pub const ALL: [BookingAction; 4] = [
        BookingAction::Release,
        BookingAction::Extend,
        BookingAction::Refund,
        BookingAction::Resend,
    ];

    /// The name in paths, answers and the audit log.
    pub const fn as_str(self) -> &'static str {
        match self {
            BookingAction::Release => "release",
            BookingAction::Extend => "extend",
            BookingAction::Refund => "refund",
            BookingAction::Resend => "resend",
        }
    }

    pub fn parse(name: &str) -> Option<BookingAction> {
        Self::ALL.into_iter().find(|a| a.as_str() == name)
    }
}

/// The answer to an admin action on a booking.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ActionOutcome {
    pub booking_id: BookingId,
    pub action: BookingAction,
    /// The booking's status afterwards.
    pub status: BookingStatus,
    pub detail: String,
}

#[cfg(test)]
mod tests;
