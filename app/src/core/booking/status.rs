//! The booking state machine: which transitions are legal. Pure, no I/O;
//! `store` asks it before writing and names the source state in SQL.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BookingStatus {
    Held,
    PaymentPending,
    Booked,
    Expired,
    Cancelled,
    Refunded,
}

use BookingStatus::*;

impl BookingStatus {
    pub const ALL: [BookingStatus; 6] =
        [Held, PaymentPending, Booked, Expired, Cancelled, Refunded];

    pub fn as_str(self) -> &'static str {
        match self {
            Held => "HELD",
            PaymentPending => "PAYMENT_PENDING",
            Booked => "BOOKED",
            Expired => "EXPIRED",
            Cancelled => "CANCELLED",
            Refunded => "REFUNDED",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|st| st.as_str() == s)
    }

    /// Live bookings own their seats (invariant 1 counts these).
    pub fn is_live(self) -> bool {
        matches!(self, Held | PaymentPending | Booked)
    }

    /// Whether `self → to` is a legal step.
    pub fn can_become(self, to: BookingStatus) -> bool {
        matches!(
            (self, to),
            (Held, PaymentPending)
                | (Held, Expired)
                | (Held, Cancelled)
                | (PaymentPending, Booked)
                // An admin refunds a booked booking (its seats go back).
                | (Booked, Cancelled)
                | (PaymentPending, Expired)
                // A payment that succeeds after the hold ended: re-take the
                // same seats, or refund.
                | (Expired, Booked)
                | (Cancelled, Booked)
                | (Expired, Refunded)
                | (Cancelled, Refunded)
        )
    }
}

impl fmt::Display for BookingStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for s in BookingStatus::ALL {
            assert_eq!(BookingStatus::parse(s.as_str()), Some(s));
        }
        assert_eq!(BookingStatus::parse("held"), None);
    }

    #[test]
    fn a_refunded_booking_never_moves_again() {
        for to in BookingStatus::ALL {
            assert!(!Refunded.can_become(to));
        }
    }

    #[test]
    fn a_booked_booking_only_ends_by_an_admin_refund() {
        let next: Vec<_> = BookingStatus::ALL
            .into_iter()
            .filter(|t| Booked.can_become(*t))
            .collect();
        assert_eq!(next, vec![Cancelled]);
    }

    #[test]
    fn a_hold_can_only_be_paid_ended_or_expired() {
        let next: Vec<_> = BookingStatus::ALL
            .into_iter()
            .filter(|t| Held.can_become(*t))
            .collect();
        assert_eq!(next, vec![PaymentPending, Expired, Cancelled]);
    }

    #[test]
    fn only_ended_bookings_can_be_refunded() {
        let from: Vec<_> = BookingStatus::ALL
            .into_iter()
            .filter(|f| f.can_become(Refunded))
            .collect();
        assert_eq!(from, vec![Expired, Cancelled]);
        assert!(from.iter().all(|s| !s.is_live()));
    }

    #[test]
    fn no_status_moves_to_itself() {
        for s in BookingStatus::ALL {
            assert!(!s.can_become(s));
        }
    }
}
