//! A refund in part, as the admin API asks for it and answers it
//! (`POST /api/admin/bookings/{bookingId}/refunds`).

use serde::{Deserialize, Serialize};

use super::BookingId;

/// A reason says why in words a buyer can read: at most this many
/// characters.
pub const REASON_MAX_CHARS: usize = 500;

/// What an organizer asks to give back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PartRefundRequest {
    /// Minor units of the booking's currency, at least 1.
    pub amount_cents: i64,
    /// Why, in the organizer's words (1–500 characters); told to the buyer
    /// when `notifyBuyer`.
    pub reason: String,
    /// Mail the buyer the amount and the reason.
    pub notify_buyer: bool,
}

/// Where a part refund stands: asked (the outbox sends it) or sent (the
/// provider took it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub enum PartRefundState {
    Asked,
    Sent,
}

/// One part refund of a booking.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PartRefund {
    pub refund_id: String,
    pub booking_id: BookingId,
    pub amount_cents: i64,
    pub currency: String,
    pub reason: String,
    pub notify_buyer: bool,
    pub state: PartRefundState,
    /// Who asked (the console's or the token's actor).
    pub by: String,
    /// RFC 3339, UTC.
    pub at: String,
    /// What may still be given back after this one (minor units).
    pub left_cents: i64,
}
