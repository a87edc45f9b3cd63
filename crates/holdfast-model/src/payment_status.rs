//! The payment state machine: what became of a booking's checkout and its
//! money. Pure, no I/O; the payments store asks it before writing and names
//! the source states in SQL. The only place a payment status is spelled out.
//!
//! ```text
//! creating ──session──▶ open ──unpaid──▶ expired
//!    │                   │                  │
//!    └───────────────────┴──── paid ◀───────┘        (a verdict wins once)
//!                               │
//!                               ├──▶ refund_pending ──▶ refunded
//!                               └──▶ refunded  (refunded outside Holdfast)
//! any but refunded-by-us-and-done ──▶ disputed      (the bank took it back)
//! ```

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum PaymentStatus {
    /// The pay step started; the provider's session is not confirmed yet.
    Creating,
    /// The provider's checkout session exists and can be paid.
    Open,
    /// The session ended without money.
    Expired,
    /// Money arrived. Only the transaction that moved the payment here may
    /// book (or re-take) its seats.
    Paid,
    /// The money is being sent back (outbox).
    RefundPending,
    /// The money went back, in full.
    Refunded,
    /// The buyer's bank disputes the charge.
    Disputed,
}

use PaymentStatus::*;

super::state_names::state_names!(PaymentStatus {
    Creating => "creating",
    Open => "open",
    Expired => "expired",
    Paid => "paid",
    RefundPending => "refund_pending",
    Refunded => "refunded",
    Disputed => "disputed",
});

impl PaymentStatus {
    /// No money was taken (yet): a paid verdict may still arrive.
    pub fn awaits_money(self) -> bool {
        matches!(self, Creating | Open | Expired)
    }

    /// Money arrived at some point (it may have gone back since).
    pub fn money_arrived(self) -> bool {
        matches!(self, Paid | RefundPending | Refunded | Disputed)
    }

    /// Whether `self → to` is a legal step.
    pub fn can_become(self, to: PaymentStatus) -> bool {
        matches!(
            (self, to),
            (Creating, Open)
                | (Creating | Open, Expired)
                // A paid verdict, even for a session we had given up on.
                | (Creating | Open | Expired, Paid)
                | (Paid, RefundPending)
                | (RefundPending, Refunded)
                // Refunded in full outside Holdfast (or our own refund's
                // echo arriving before the paid verdict did).
                | (Creating | Open | Expired | Paid, Refunded)
                | (Creating | Open | Expired | Paid | RefundPending | Refunded, Disputed)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_serialise_like_the_api() {
        for &s in PaymentStatus::ALL {
            assert_eq!(PaymentStatus::parse(s.as_str()), Some(s));
            let json = serde_json::to_string(&s).unwrap();
            assert_eq!(json, format!("\"{}\"", s.as_str()));
        }
        assert_eq!(PaymentStatus::parse("PAID"), None);
    }

    #[test]
    fn once_money_arrived_no_verdict_makes_it_paid_again() {
        for s in PaymentStatus::ALL.iter().filter(|s| s.money_arrived()) {
            assert!(!s.can_become(Paid), "{s} → paid");
        }
        assert_eq!(
            PaymentStatus::sources_of(Paid),
            vec![Creating, Open, Expired]
        );
    }

    #[test]
    fn a_refund_is_queued_only_for_paid_money() {
        assert_eq!(PaymentStatus::sources_of(RefundPending), vec![Paid]);
    }

    #[test]
    fn disputed_is_final() {
        assert!(PaymentStatus::ALL.iter().all(|t| !Disputed.can_become(*t)));
    }

    #[test]
    fn no_status_moves_to_itself() {
        for &s in PaymentStatus::ALL {
            assert!(!s.can_become(s));
        }
    }
}
