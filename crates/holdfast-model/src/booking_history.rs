//! Why a booking's status changed, and its history as the admin API gives
//! it (`GET /api/admin/bookings/{bookingId}/history`).

use serde::{Deserialize, Serialize};

use super::BookingStatus;

/// What moved a booking from one status to the next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cause {
    /// The buyer: a claim, a release, the pay step.
    Buyer,
    /// An admin, by the actor the console or the token signed in as.
    Admin(String),
    /// A payment provider's webhook event, by its id.
    Webhook(String),
    /// Reconciliation asked the provider about a payment it had not heard of.
    Reconciliation,
    /// The hold's time ran out.
    Expiry,
    /// The provider confirmed a refund Holdfast asked for (the outbox).
    Refund,
    /// A booking older than the history: where it stood then.
    BeforeHistory,
    /// A transition that named no cause (a defect: every statement names one).
    Unrecorded,
}

/// The kind of a cause, as the API names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub enum CauseKind {
    Buyer,
    Admin,
    Webhook,
    Reconciliation,
    Expiry,
    Refund,
    BeforeHistory,
    Unrecorded,
}

impl CauseKind {
    /// The kind as the API and the console write it.
    pub const fn as_str(self) -> &'static str {
        match self {
            CauseKind::Buyer => "buyer",
            CauseKind::Admin => "admin",
            CauseKind::Webhook => "webhook",
            CauseKind::Reconciliation => "reconciliation",
            CauseKind::Expiry => "expiry",
            CauseKind::Refund => "refund",
            CauseKind::BeforeHistory => "before history",
            CauseKind::Unrecorded => "unrecorded",
        }
    }
}

impl Cause {
    /// As `booking.cause` and `booking_history.cause` keep it.
    pub fn stored(&self) -> String {
        match self {
            Cause::Admin(actor) => format!("admin:{actor}"),
            Cause::Webhook(event) => format!("webhook:{event}"),
            other => other.kind().as_str().to_string(),
        }
    }

    /// Reads a stored cause; an unknown one reads as `Unrecorded`.
    pub fn from_stored(s: &str) -> Cause {
        match s.split_once(':') {
            Some(("admin", actor)) => Cause::Admin(actor.to_string()),
            Some(("webhook", event)) => Cause::Webhook(event.to_string()),
            _ => match s {
                "buyer" => Cause::Buyer,
                "reconciliation" => Cause::Reconciliation,
                "expiry" => Cause::Expiry,
                "refund" => Cause::Refund,
                "before history" => Cause::BeforeHistory,
                _ => Cause::Unrecorded,
            },
        }
    }

    pub fn kind(&self) -> CauseKind {
        match self {
            Cause::Buyer => CauseKind::Buyer,
            Cause::Admin(_) => CauseKind::Admin,
            Cause::Webhook(_) => CauseKind::Webhook,
            Cause::Reconciliation => CauseKind::Reconciliation,
            Cause::Expiry => CauseKind::Expiry,
            Cause::Refund => CauseKind::Refund,
            Cause::BeforeHistory => CauseKind::BeforeHistory,
            Cause::Unrecorded => CauseKind::Unrecorded,
        }
    }

    /// Who or what, when the kind has one: the admin's actor, the event id.
    pub fn by(&self) -> Option<&str> {
        match self {
            Cause::Admin(who) | Cause::Webhook(who) => Some(who),
            _ => None,
        }
    }
}

/// One status a booking took.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct HistoryEntry {
    /// `null` for the booking's first status.
    pub from: Option<BookingStatus>,
    pub to: BookingStatus,
    pub cause: CauseKind,
    /// The admin's actor or the provider's event id, for those causes.
    pub by: Option<String>,
    /// RFC 3339, UTC.
    pub at: String,
    /// A part refund: what went back (minor units; the status stays).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refund_cents: Option<i64>,
    /// A part refund's currency (ISO 4217).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    /// A part refund's reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn causes_read_back_as_stored() {
        for cause in [
            Cause::Buyer,
            Cause::Admin("console:ops@example.com".into()),
            Cause::Webhook("evt_1:odd".into()),
            Cause::Reconciliation,
            Cause::Expiry,
            Cause::Refund,
            Cause::BeforeHistory,
            Cause::Unrecorded,
        ] {
            assert_eq!(Cause::from_stored(&cause.stored()), cause);
        }
        assert_eq!(Cause::from_stored("gremlins"), Cause::Unrecorded);
    }
}
