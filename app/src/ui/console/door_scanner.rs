//! The door scanner in the console (`/admin/scan`): staff type or paste a
//! ticket — or a hardware scanner types it as a keyboard, ending with Enter
//! — and see a big green "let in" or a red refusal saying why (already used
//! when and where, refunded, not a ticket). The field empties and keeps the
//! focus for the next scan.

use leptos::prelude::*;

use crate::i18n::{t, Msg};
use leptos::task::spawn_local;

use crate::server_fns::console::{admin_check_in, admin_signed_in, ScanResult};

#[component]
pub fn DoorScanner() -> impl IntoView {
    let signed_in = Resource::new(|| (), |_| admin_signed_in());
    view! {
        <section class="door">
            <p><a href="/admin">"← Console"</a></p>
            <h1>{t(Msg::DoorHeading)}</h1>
            <Transition fallback=|| view! { <p>{t(Msg::Loading)}</p> }>
                {move || Suspend::new(async move {
                    match signed_in.await {
                        Ok(true) => view! { <Scanner/> }.into_any(),
                        _ => view! { <p class="notice">{t(Msg::SignInConsoleFirst)} <a href="/admin">{t(Msg::SignInLink)}</a></p> }.into_any(),
                    }
                })}
            </Transition>
        </section>
    }
}

#[component]
fn Scanner() -> impl IntoView {
    let token = RwSignal::new(String::new());
    let gate = RwSignal::new("main".to_string());
    let result = RwSignal::new(None::<ScanResult>);
    let busy = RwSignal::new(false);
    let ticket = NodeRef::<leptos::html::Input>::new();
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let scanned = token.get_untracked();
        if scanned.trim().is_empty() || busy.get_untracked() {
            return;
        }
        busy.set(true);
        let at = gate.get_untracked();
        spawn_local(async move {
            let answer = admin_check_in(scanned, at).await.unwrap_or(ScanResult {
                admitted: false,
                message: t(Msg::ScanNotReached).into(),
            });
            result.set(Some(answer));
            token.set(String::new());
            busy.set(false);
            // Ready for the next ticket: a hand-held scanner types into it.
            if let Some(input) = ticket.try_get_untracked().flatten() {
                let _ = input.focus();
            }
        });
    };
    view! {
        <form class="scanner" on:submit=submit>
            <label>{t(Msg::Gate)}
                <input name="gate" maxlength="40" prop:value=gate on:input=move |ev| gate.set(event_target_value(&ev))/>
            </label>
            <label>{t(Msg::TicketLabel)}
                <input name="ticket" autofocus=true autocomplete="off" enterkeyhint="go" node_ref=ticket placeholder=t(Msg::ScanPlaceholder)
                    prop:value=token on:input=move |ev| token.set(event_target_value(&ev))/>
            </label>
            <button type="submit" disabled=move || busy.get()>{t(Msg::CheckIn)}</button>
        </form>
        {move || result.get().map(|r| {
            let class = if r.admitted { "scan-result admitted" } else { "scan-result refused" };
            view! {
                <p class=class role="status" data-testid="scan-result">
                    <strong>{if r.admitted { "✓ " } else { "✗ " }}</strong>{r.message}
                </p>
            }
        })}
    }
}
