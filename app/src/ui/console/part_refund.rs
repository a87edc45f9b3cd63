//! Refunding part of a booking: an amount (typed, or a share of what was
//! paid), a reason, whether the buyer is told. The box says how much may
//! go back and whether the tickets stay; its button names the amount. The
//! server decides again under the booking's lock (another organizer may
//! have refunded meanwhile) and its refusal is shown as it came.

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::i18n::{fill, t, use_locale, Msg};
use crate::model::console::BookingActivity;
use crate::model::money::{amount_text, parse_amount};
use crate::model::{BookingStatus, PartRefundRequest, REASON_MAX_CHARS};
use crate::server_fns::console::admin_refund_part;

/// `percent` of `paid`, in minor units, rounded to the nearest.
fn share(paid: i64, percent: f64) -> i64 {
    (paid as f64 * percent / 100.0).round() as i64
}

/// The box, while a booking is being refunded in part; what happened is
/// said in `notice`.
#[component]
pub fn PartRefundBox(
    refunding: RwSignal<Option<BookingActivity>>,
    notice: RwSignal<Option<String>>,
) -> impl IntoView {
    move || {
        refunding
            .get()
            .map(|b| part_refund_form(b, refunding, notice))
    }
}

fn part_refund_form(
    b: BookingActivity,
    refunding: RwSignal<Option<BookingActivity>>,
    notice: RwSignal<Option<String>>,
) -> impl IntoView {
    let l = use_locale();
    let currency = b.currency.clone();
    let most = b.refundable_cents;
    let amount = RwSignal::new(String::new());
    let percent = RwSignal::new(String::new());
    let reason = RwSignal::new(String::new());
    let notify = RwSignal::new(true);
    let error = RwSignal::new(None::<String>);
    let sending = RwSignal::new(false);
    let code = currency.clone();
    let cents = Memo::new(move |_| parse_amount(&amount.get(), &code));
    let code = currency.clone();
    let on_percent = move |text: String| {
        percent.set(text.clone());
        if let Ok(p) = text.trim().replace(',', ".").parse::<f64>() {
            if (0.0..=100.0).contains(&p) {
                amount.set(amount_text(share(b.amount_cents, p), &code));
            }
        }
    };
    let title = fill(
        Msg::PartRefundTitle,
        &[
            ("amount", &l.price(b.amount_cents, &currency)),
            ("buyer", &b.buyer_email.clone().unwrap_or_default()),
        ],
    );
    let limit = fill(
        if b.status == BookingStatus::Booked {
            Msg::PartRefundMostKept
        } else {
            Msg::PartRefundMostEnded
        },
        &[("amount", &l.price(most, &currency))],
    );
    let code = currency.clone();
    let button = move || match cents.get() {
        Some(c) if c > 0 => fill(Msg::PartRefundSubmit, &[("amount", &l.price(c, &code))]),
        _ => t(Msg::RefundPart).to_string(),
    };
    let booking = b.booking_id.clone();
    let buyer = b.buyer_email.clone().unwrap_or_default();
    let code = currency.clone();
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let why = reason.get_untracked();
        let Some(c) = cents
            .get_untracked()
            .filter(|c| (1..=most).contains(c) && !why.trim().is_empty())
        else {
            error.set(Some(fill(
                Msg::PartRefundInvalid,
                &[("min", &l.price(1, &code)), ("max", &l.price(most, &code))],
            )));
            return;
        };
        sending.set(true);
        let ask = PartRefundRequest {
            amount_cents: c,
            reason: why,
            notify_buyer: notify.get_untracked(),
        };
        let (booking, buyer, code) = (booking.clone(), buyer.clone(), code.clone());
        spawn_local(async move {
            match admin_refund_part(booking, ask).await {
                Ok(Ok(done)) => {
                    refunding.set(None);
                    notice.set(Some(fill(
                        Msg::PartRefundDone,
                        &[
                            ("amount", &l.price(done.amount_cents, &code)),
                            ("buyer", &buyer),
                        ],
                    )));
                }
                Ok(Err(refusal)) => error.set(Some(refusal.message)),
                Err(_) => error.set(Some(t(Msg::ActionFailed).to_string())),
            }
            sending.set(false);
        });
    };
    view! {
        <form class="confirm part-refund" role="dialog" aria-labelledby="part-refund-title" on:submit=submit
            on:input=move |_| error.set(None)
            on:keydown=move |ev: leptos::ev::KeyboardEvent| if ev.key() == "Escape" { refunding.set(None) }>
            <p id="part-refund-title">{title}</p>
            <div class="part-refund-amounts">
                <label>{fill(Msg::PartRefundAmount, &[("currency", &currency)])}
                    <input name="amount" inputmode="decimal" autocomplete="off" required
                        prop:value=move || amount.get()
                        on:input=move |ev| { amount.set(event_target_value(&ev)); percent.set(String::new()); }/>
                </label>
                <label>{t(Msg::PartRefundPercent)}
                    <input name="percent" type="number" min="0" max="100" step="any" inputmode="decimal"
                        prop:value=move || percent.get()
                        on:input=move |ev| on_percent(event_target_value(&ev))/>
                </label>
            </div>
            <p class="hint">{limit}</p>
            <label>{t(Msg::PartRefundReason)}
                <textarea name="reason" rows="2" required maxlength=REASON_MAX_CHARS.to_string()
                    aria-describedby="part-refund-reason-hint"
                    on:input=move |ev| reason.set(event_target_value(&ev))></textarea>
            </label>
            <p class="hint" id="part-refund-reason-hint">{t(Msg::PartRefundReasonHint)}</p>
            <label class="check">
                <input type="checkbox" name="notify" prop:checked=move || notify.get()
                    on:change=move |ev| notify.set(event_target_checked(&ev))/>
                {t(Msg::PartRefundNotify)}
            </label>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <div class="confirm-actions">
                <button class="danger" type="submit" disabled=move || sending.get()>{button}</button>
                <button class="keep" type="button" on:click=move |_| refunding.set(None)>{t(Msg::KeepAsIs)}</button>
            </div>
        </form>
    }
}

#[cfg(test)]
mod tests {
    use super::share;

    #[test]
    fn a_share_rounds_to_the_nearest_minor_unit() {
        assert_eq!(share(24000, 30.0), 7200);
        assert_eq!(share(999, 33.3), 333);
        assert_eq!(share(850000, 12.5), 106250);
        assert_eq!(share(100, 0.0), 0);
    }
}
