//! The dashboard's codes in the organizer's language: why a booking
//! settled, what a webhook did, where a mail went, what an admin did, and
//! when (in the event's zone). A code the catalogue does not know is shown
//! as it came.

use crate::i18n::{format, Locale, Msg};

/// A booking's or buyer's id as the console's tables show it: its first
/// eight characters (the full id is in the row's title).
pub fn short(id: &str) -> String {
    id.chars().take(8).collect()
}

/// What a payment webhook did.
pub fn outcome(locale: Locale, code: &str) -> String {
    let m = match code {
        "received" => Msg::OutcomeReceived,
        "booked" => Msg::OutcomeBooked,
        "late_payment_retaken" => Msg::OutcomeLateRetaken,
        "late_payment_refund_queued" => Msg::OutcomeLateRefundQueued,
        "already_settled" => Msg::OutcomeAlreadySettled,
        "unknown_booking" => Msg::OutcomeUnknownBooking,
        "no_booking" => Msg::OutcomeNoBooking,
        "ticket_voided" => Msg::OutcomeTicketVoided,
        "refund_confirmed" => Msg::OutcomeRefundConfirmed,
        "partial_refund_recorded" => Msg::OutcomePartialRefund,
        "duplicate" => Msg::OutcomeDuplicate,
        "awaiting_payment" => Msg::OutcomeAwaitingPayment,
        "checkout_ended" => Msg::OutcomeCheckoutEnded,
        "ignored" => Msg::OutcomeIgnored,
        other => return other.to_string(),
    };
    locale.t(m).to_string()
}

/// Where a mail went.
pub fn channel(locale: Locale, code: &str) -> String {
    let m = match code {
        "mailbox" => Msg::ChannelMailbox,
        "smtp" => Msg::ChannelSmtp,
        "pending" => Msg::ChannelPending,
        other => return other.to_string(),
    };
    locale.t(m).to_string()
}

/// Who acted: the console's sign-in by its name in the language, an API
/// token as it is named.
pub fn actor(locale: Locale, code: &str) -> String {
    match code {
        "console" => locale.t(Msg::ConsoleWord).to_string(),
        other => other.to_string(),
    }
}

/// What an admin did.
pub fn action(locale: Locale, code: &str) -> String {
    let m = match code {
        "release" => Msg::ActionRelease,
        "extend" => Msg::ActionExtend,
        "refund" => Msg::ActionRefund,
        "refund_part" => Msg::ActionRefundPart,
        "resend" => Msg::ActionResend,
        "publish" => Msg::ActionPublish,
        "unpublish" => Msg::ActionUnpublish,
        "move_on_sale" => Msg::ActionMoveOnSale,
        "create_event" => Msg::ActionCreateEvent,
        "check_in" => Msg::ActionCheckIn,
        "promo_create" => Msg::ActionPromoCreate,
        "waiting_room" => Msg::ActionWaitingRoom,
        other => return other.to_string(),
    };
    locale.t(m).to_string()
}

/// What an admin action did, said back: the server's own words in English
/// (they count what moved), the catalogue's otherwise.
pub fn action_done(locale: Locale, code: &str, booking: &str, detail: &str) -> String {
    let m = match (locale, code) {
        (Locale::Vi, "release") => Msg::ActionDoneRelease,
        (Locale::Vi, "extend") => Msg::ActionDoneExtend,
        (Locale::Vi, "refund") => Msg::ActionDoneRefund,
        (Locale::Vi, "resend") => Msg::ActionDoneResend,
        _ => return format!("{} {booking}: {detail}", action(locale, code)),
    };
    locale.fill(m, &[("booking", &booking)])
}

/// When, in the event's zone; the UTC form when that is all there is.
pub fn when(locale: Locale, local: &str, utc: &str) -> String {
    format::moment(locale, local)
        .or_else(|| format::moment(locale, utc))
        .unwrap_or_else(|| utc.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_read_in_the_language_and_unknown_ones_as_they_came() {
        assert_eq!(outcome(Locale::Vi, "duplicate"), "trùng lặp, bỏ qua");
        assert_eq!(outcome(Locale::En, "something_new"), "something_new");
        assert_eq!(channel(Locale::Vi, "pending"), "đang chờ gửi");
        assert_eq!(actor(Locale::Vi, "console"), "bảng điều khiển");
        assert_eq!(actor(Locale::Vi, "api-token"), "api-token");
        assert_eq!(action(Locale::En, "unpublish"), "withdraw");
        assert_eq!(
            when(Locale::En, "", "2026-12-02T05:12:08.000Z"),
            "2 Dec, 05:12:08"
        );
    }
}
