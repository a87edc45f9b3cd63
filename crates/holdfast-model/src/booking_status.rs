//! The booking state machine: which transitions are legal. Pure, no I/O;
//! the bookings store asks it before writing and names the source state in
//! SQL. Its name table (`state_names!` below) is the only place a booking
//! status is spelled.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum BookingStatus {
    Held,
    PaymentPending,
    Booked,
    Expired,
    Cancelled,
    Refunded,
    /// The buyer's bank opened a dispute on the payment: the ticket is void
    /// and its seats went back; the money is with the bank until it decides.
    Disputed,
}

use BookingStatus::*;

super::state_names::state_names!(BookingStatus {
    Held => "HELD",
    PaymentPending => "PAYMENT_PENDING",
    Booked => "BOOKED",
    Expired => "EXPIRED",
    Cancelled => "CANCELLED",
    Refunded => "REFUNDED",
    Disputed => "DISPUTED",
});

impl BookingStatus {
    /// The status as words on a page ("PAYMENT PENDING", "ĐÃ ĐẶT").
    pub fn words(self, l: crate::i18n::Locale) -> &'static str {
        use crate::i18n::Msg;
        l.t(match self {
            BookingStatus::Held => Msg::StatusHeld,
            BookingStatus::PaymentPending => Msg::StatusPaymentPending,
            BookingStatus::Booked => Msg::StatusBooked,
            BookingStatus::Expired => Msg::StatusExpired,
            BookingStatus::Cancelled => Msg::StatusCancelled,
            BookingStatus::Refunded => Msg::StatusRefunded,
            BookingStatus::Disputed => Msg::StatusDisputed,
        })
    }

    /// Live bookings own their seats (invariant 1 counts these).
    pub fn is_live(self) -> bool {
        matches!(self, Held | PaymentPending | Booked)
    }

    /// The SQL condition that booking `b` owns its places at `now` (a
    /// parameter's name): in checkout, booked, or held before its deadline
    /// (a hold past it is expired already, swept or not).
    pub fn owns_places_sql(b: &str, now: &str) -> String {
        format!(
            "({b}.status in {} or ({b}.status = {} and {b}.held_until > {now}))",
            Self::sql_list(&[PaymentPending, Booked]),
            Held.sql()
        )
    }

    /// The live states, for SQL (`status in …`).
    pub const LIVE: [BookingStatus; 3] = [Held, PaymentPending, Booked];

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
                // Money sent back outside Holdfast (Stripe's dashboard), in
                // full: the ticket ends. Before the paid verdict arrived too.
                | (Booked, Refunded)
                | (PaymentPending, Refunded)
                // A dispute voids the ticket, whatever state it reached.
                | (PaymentPending, Disputed)
                | (Booked, Disputed)
                | (Expired, Disputed)
                | (Cancelled, Disputed)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn next(from: BookingStatus) -> Vec<BookingStatus> {
        BookingStatus::ALL
            .iter()
            .copied()
            .filter(|t| from.can_become(*t))
            .collect()
    }

    #[test]
    fn names_round_trip() {
        for &s in BookingStatus::ALL {
            assert_eq!(BookingStatus::parse(s.as_str()), Some(s));
            let json = serde_json::to_string(&s).unwrap();
            assert_eq!(json, format!("\"{}\"", s.as_str()));
        }
        assert_eq!(BookingStatus::parse("held"), None);
    }

    #[test]
    fn refunded_and_disputed_bookings_never_move_again() {
        assert!(next(Refunded).is_empty());
        assert!(next(Disputed).is_empty());
    }

    #[test]
    fn a_booked_booking_ends_only_by_a_refund_or_a_dispute() {
        assert_eq!(next(Booked), vec![Cancelled, Refunded, Disputed]);
    }

    #[test]
    fn a_hold_can_only_be_paid_ended_or_expired() {
        assert_eq!(next(Held), vec![PaymentPending, Expired, Cancelled]);
    }

    #[test]
    fn only_a_payment_under_way_or_a_booked_or_ended_booking_is_refunded() {
        assert_eq!(
            BookingStatus::sources_of(Refunded),
            vec![PaymentPending, Booked, Expired, Cancelled]
        );
    }

    #[test]
    fn no_status_moves_to_itself() {
        for &s in BookingStatus::ALL {
            assert!(!s.can_become(s));
        }
    }

    #[test]
    fn sql_forms_quote_the_names() {
        assert_eq!(Held.sql(), "'HELD'");
        assert_eq!(
            BookingStatus::sql_list(&BookingStatus::LIVE),
            "('HELD', 'PAYMENT_PENDING', 'BOOKED')"
        );
    }
}
