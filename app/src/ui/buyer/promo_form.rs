//! The promo-code box of a held booking: the code goes to the server, which
//! claims it atomically; the total shown is the one the checkout charges.

use leptos::prelude::*;

use crate::i18n::{use_locale, Msg};
use crate::model::BookingId;
use crate::server_fns::buyer::{apply_promo, PromoOutcome};

#[component]
pub fn PromoForm(booking_id: BookingId, amount: RwSignal<i64>, currency: String) -> impl IntoView {
    let l = use_locale();
    let code = RwSignal::new(String::new());
    let message: RwSignal<Option<(bool, String)>> = RwSignal::new(None);
    let busy = RwSignal::new(false);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let typed = code.get_untracked();
        if typed.trim().is_empty() {
            message.set(Some((false, l.t(Msg::TypePromoFirst).into())));
            return;
        }
        let booking_id = booking_id.clone();
        let currency = currency.clone();
        busy.set(true);
        leptos::task::spawn_local(async move {
            let words = match apply_promo(booking_id, typed).await {
                Ok(PromoOutcome::Applied(a)) => {
                    amount.set(a.amount_cents);
                    let discount = l.price(a.discount_cents, &currency);
                    let pay = l.price(a.amount_cents, &currency);
                    (
                        true,
                        l.fill(
                            Msg::PromoApplied,
                            &[("discount", &discount), ("amount", &pay)],
                        ),
                    )
                }
                Ok(PromoOutcome::Refused(m)) => (false, m),
                Err(_) => (false, l.t(Msg::PromoNotChecked).into()),
            };
            busy.set(false);
            message.set(Some(words));
        });
    };
    view! {
        <form class="promo" on:submit=submit>
            <label for="promo-code">{l.t(Msg::PromoCode)}</label>
            <input id="promo-code" name="code" autocomplete="off" spellcheck="false"
                prop:value=move || code.get() on:input=move |ev| code.set(event_target_value(&ev))/>
            <button type="submit" disabled=move || busy.get()>{l.t(Msg::Apply)}</button>
            {move || message.get().map(|(ok, m)| view! {
                <p class=if ok { "promo-ok" } else { "error" } role=if ok { "status" } else { "alert" } data-testid="promo-message">{m}</p>
            })}
        </form>
    }
}
