//! A booking as the buyer and the integrator see it: the hold's answer, the
//! booking with its seats, tickets and payment, the pay and promo answers.

use serde::{Deserialize, Serialize};

use super::{BookingId, BookingStatus, EventBrief, EventId, PaymentStatus, SeatId};

/// The answer to a successful hold (single seat, several seats, or general admission).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct HoldResponse {
    pub booking_id: BookingId,
    pub status: BookingStatus,
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
    /// How many people the place is for: 1 for a seat, the party for a
    /// cabin (additive).
    #[serde(default = "one")]
    pub guests: i64,
}

fn one() -> i64 {
    1
}

/// `GET /api/bookings/{bookingId}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BookingView {
    pub id: BookingId,
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
    /// For a BOOKED booking its buyer may still cancel (the event's refund
    /// policy): what cancelling now gives back, in minor units (additive).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub cancel_refund_cents: Option<i64>,
    /// On a cruise: the guests named so far for its cabins and seats (the
    /// manifest, `PUT /api/bookings/{bookingId}/guests`; additive).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub guests: Vec<super::sailing::Guest>,
    /// On a booking whose sailing the line cancelled: where it went and
    /// the buyer's choices (`POST /api/bookings/{bookingId}/rebooking`;
    /// additive).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub rebooking: Option<Box<super::sailing::RebookingView>>,
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
    pub booking_id: BookingId,
    pub status: BookingStatus,
    pub checkout_url: String,
    pub checkout_session_id: String,
    pub expires_in_ms: i64,
}

/// The answer to `POST /api/bookings/{id}/cancel`: the booking ended, its
/// places are free again, and `refundCents` goes back to the buyer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CancelResponse {
    pub booking_id: BookingId,
    pub status: BookingStatus,
    pub refund_cents: i64,
    pub currency: String,
}

/// The `payment` object of a booking.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema, sqlx::FromRow))]
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

/// The answer to `POST /api/bookings/{id}/promo`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PromoApplied {
    pub amount_cents: i64,
    pub discount_cents: i64,
}
