//! A booking page's plain forms (markup the server answers with a redirect,
//! no script needed): cancel, or pay for or release a running hold, answer
//! a move off a cancelled sailing, name the guests.

use crate::i18n::{Locale, Msg};
use crate::model::{BookingStatus, BookingView, EventKind};

/// What the buyer may do to the booking from its page, as plain forms the
/// server answers with a redirect back (no script needed): cancel a booked
/// booking, confirming the refund the event's policy gives now; pay for a
/// running hold (from any device the buyer comes back on) or release it.
/// Written as markup, not views: a view costs the browser's wasm far more
/// than these few lines of text.
pub(super) fn actions(l: Locale, b: &BookingView) -> String {
    use crate::model::seat_drawing::escape;
    // A moved booking's own choices include the full refund.
    if b.rebooking.as_ref().is_some_and(|r| !r.choices.is_empty()) {
        return String::new();
    }
    if let Some(cents) = b.cancel_refund_cents {
        let amount = l.price(cents, &b.currency);
        return format!(
            r#"<details class="cancel-booking"><summary>{}</summary><p>{}</p><form method="post" action="/bookings/{}/cancel"><button type="submit" class="danger">{}</button></form></details>"#,
            escape(l.t(Msg::CancelBooking)),
            escape(&l.fill(Msg::CancelRefundNote, &[("amount", &amount)])),
            b.id,
            escape(&l.fill(Msg::CancelAndRefund, &[("amount", &amount)])),
        );
    }
    if b.status == BookingStatus::Held && b.expires_in_ms.is_some_and(|ms| ms > 0) {
        // A ship's guests are named before paying, on their own page.
        let pay = if b.event.as_ref().map(|e| e.kind) == Some(EventKind::Cruise) {
            format!(
                r#"<a class="hold pay" data-testid="pay-held" href="/bookings/{}/guests">{}</a>"#,
                b.id,
                escape(l.t(Msg::NameGuestsAndPay)),
            )
        } else {
            format!(
                r#"<form method="post" action="/bookings/{}/pay"><button type="submit" class="hold pay" data-testid="pay-held">{}</button></form>"#,
                b.id,
                escape(l.t(Msg::PayNow)),
            )
        };
        return format!(
            r#"{pay}<form method="post" action="/bookings/{}/release"><button type="submit">{}</button></form>"#,
            b.id,
            escape(l.t(Msg::ReleaseHold)),
        );
    }
    if b.status == BookingStatus::PaymentPending && b.expires_in_ms.is_some_and(|ms| ms > 0) {
        // Left the provider's page (Back, a closed tab): the same checkout.
        return format!(
            r#"<form method="post" action="/bookings/{}/pay"><button type="submit" class="hold pay" data-testid="pay-held">{}</button></form>"#,
            b.id,
            escape(l.t(Msg::ContinuePaying)),
        );
    }
    String::new()
}

/// A booking moved off a cancelled sailing: why, where it went, and the
/// buyer's three choices as plain forms (see `actions`).
pub(super) fn rebooking(l: Locale, b: &BookingView) -> String {
    use crate::model::sailing::{RebookingAnswer, RebookingChoice, RebookingOutcome};
    use crate::model::seat_drawing::escape;
    let Some(r) = b.rebooking.as_deref() else {
        return String::new();
    };
    let c = &r.cancelled;
    let mut out = format!(
        r#"<section class="rebooking" data-testid="rebooking" data-outcome="{:?}"><h2>{}</h2><p>{}</p>"#,
        r.outcome,
        escape(l.t(Msg::RebookTitle)),
        escape(&l.fill(
            Msg::RebookWhy,
            &[
                ("sailing", &c.name),
                ("when", &c.when(l)),
                ("reason", &c.cancel_reason.clone().unwrap_or_default()),
            ]
        )),
    );
    match (&r.moved_to, r.outcome) {
        (Some(to), RebookingOutcome::Moved) => out.push_str(&format!(
            r#"<p data-testid="rebooking-moved">{}</p>"#,
            escape(&l.fill(
                Msg::RebookMoved,
                &[("sailing", &to.name), ("when", &to.when(l))]
            ))
        )),
        _ => out.push_str(&format!("<p>{}</p>", escape(l.t(Msg::RebookNoRoom)))),
    }
    if let Some(answer) = r.answer {
        let said = match answer {
            RebookingAnswer::Kept => Msg::RebookKept,
            RebookingAnswer::Changed => Msg::RebookChanged,
            RebookingAnswer::Refunded => Msg::RebookRefunded,
        };
        out.push_str(&format!(
            r#"<p class="notice" data-testid="rebooking-answer">{}</p>"#,
            escape(l.t(said))
        ));
    }
    if !r.choices.is_empty() {
        if let Some(by) = &r.answer_by {
            let when = crate::i18n::format::when(l, by, "UTC").unwrap_or_else(|| by.clone());
            out.push_str(&format!(
                "<p>{}</p>",
                escape(&l.fill(Msg::RebookAnswerBy, &[("when", &when)]))
            ));
        }
        out.push_str(r#"<div class="rebooking-choices">"#);
    }
    let action = format!("/bookings/{}/rebooking", b.id);
    for choice in &r.choices {
        let (fields, button, class) = match choice {
            RebookingChoice::Keep => (String::new(), l.t(Msg::RebookKeep).to_string(), ""),
            RebookingChoice::Sailing => {
                let options: String = r
                    .other_sailings
                    .iter()
                    .map(|s| {
                        format!(
                            r#"<option value="{}">{}</option>"#,
                            s.id.0,
                            escape(&s.when(l))
                        )
                    })
                    .collect();
                (
                    format!(
                        r#"<select name="sailing_id" aria-label="{}">{options}</select>"#,
                        escape(l.t(Msg::RebookOther))
                    ),
                    l.t(Msg::RebookOther).to_string(),
                    "",
                )
            }
            RebookingChoice::Refund => {
                let left = b.amount_cents - b.payment.as_ref().map_or(0, |p| p.refunded_cents);
                let amount = l.price(left, &b.currency);
                (
                    String::new(),
                    l.fill(Msg::RebookRefund, &[("amount", &amount)]),
                    "danger",
                )
            }
        };
        out.push_str(&format!(
            r#"<form method="post" action="{action}"><input type="hidden" name="choice" value="{}">{fields}<button type="submit" class="{class}">{}</button></form>"#,
            match choice {
                RebookingChoice::Keep => "KEEP",
                RebookingChoice::Sailing => "SAILING",
                RebookingChoice::Refund => "REFUND",
            },
            escape(&button),
        ));
    }
    if !r.choices.is_empty() {
        out.push_str("</div>");
    }
    out.push_str("</section>");
    out
}

/// A cruise booking's guests (the manifest) and the way to name or change
/// them, as markup (see `actions`).
pub(super) fn guests(l: Locale, b: &BookingView) -> String {
    use crate::model::seat_drawing::escape;
    let cruise = b
        .event
        .as_ref()
        .is_some_and(|e| e.kind == crate::model::EventKind::Cruise);
    let live = matches!(
        b.status,
        BookingStatus::Held | BookingStatus::PaymentPending | BookingStatus::Booked
    );
    if !cruise || !live {
        return String::new();
    }
    let listed = if b.guests.is_empty() {
        format!(
            r#"<p class="warning">{}</p>"#,
            escape(l.t(Msg::GuestsMissing))
        )
    } else {
        let names: String = b
            .guests
            .iter()
            .map(|g| {
                format!(
                    "<li>{} ({})</li>",
                    escape(&g.full_name),
                    escape(&g.birth_date)
                )
            })
            .collect();
        format!(r#"<ul class="guest-list" data-testid="guest-list">{names}</ul>"#)
    };
    format!(
        r#"<h2>{}</h2>{listed}<p><a href="/bookings/{}/guests" rel="external">{}</a></p>"#,
        escape(l.t(Msg::GuestsTitle)),
        b.id,
        escape(l.t(Msg::EditGuests)),
    )
}
