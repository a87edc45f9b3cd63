//! The door scanner in the console (`/admin/scan`): staff choose the event
//! at their door (kept in the address, `?event=N`, so a phone's bookmark
//! opens ready), then type or paste a ticket — or a hardware scanner types it as a keyboard, ending with Enter
//! — and see a big green "let in" or a red refusal saying why (already used
//! when and where, refunded, not a ticket). The field empties and keeps the
//! focus for the next scan.

use leptos::prelude::*;

use crate::i18n::{t, Msg};
use leptos::task::spawn_local;

use crate::model::console::AdminEvent;
use crate::model::EventId;
use crate::server_fns::console::{admin_check_in, admin_events, ScanResult};

#[component]
pub fn DoorScanner() -> impl IntoView {
    let events = Resource::new(|| (), |_| admin_events());
    view! {
        <section class="door">
            <p><a href="/admin">"← Console"</a></p>
            <h1>{t(Msg::DoorHeading)}</h1>
            <Transition fallback=|| view! { <p>{t(Msg::Loading)}</p> }>
                {move || Suspend::new(async move {
                    match events.await {
                        Ok(Some(events)) => view! { <Scanner events/> }.into_any(),
                        _ => view! { <p class="notice">{t(Msg::SignInConsoleFirst)} <a href="/admin">{t(Msg::SignInLink)}</a></p> }.into_any(),
                    }
                })}
            </Transition>
        </section>
    }
}

/// The event in the page's address (`?event=N`), if any.
fn event_in_address() -> Option<EventId> {
    leptos_router::hooks::use_query_map()
        .get_untracked()
        .get("event")
        .and_then(|v| v.parse().ok())
}

#[component]
fn Scanner(events: Vec<AdminEvent>) -> impl IntoView {
    let event = RwSignal::new(event_in_address().filter(|e| events.iter().any(|x| x.id == *e)));
    let token = RwSignal::new(String::new());
    let gate = RwSignal::new("main".to_string());
    let result = RwSignal::new(None::<ScanResult>);
    let busy = RwSignal::new(false);
    let ticket = NodeRef::<leptos::html::Input>::new();
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let scanned = token.get_untracked();
        let Some(at_event) = event.get_untracked() else {
            result.set(Some(ScanResult {
                admitted: false,
                message: t(Msg::DoorChooseEvent).into(),
                detail: None,
            }));
            return;
        };
        if scanned.trim().is_empty() || busy.get_untracked() {
            return;
        }
        busy.set(true);
        let at = gate.get_untracked();
        spawn_local(async move {
            let answer = admin_check_in(scanned, at, at_event)
                .await
                .unwrap_or(ScanResult {
                    admitted: false,
                    message: t(Msg::ScanNotReached).into(),
                    detail: None,
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
            <label>{t(Msg::DoorEvent)}
                <select name="event" on:change=move |ev| event.set(event_target_value(&ev).parse().ok())>
                    <option value="" selected=move || event.get().is_none()>{t(Msg::DoorChooseEvent)}</option>
                    {events.into_iter().map(|e| {
                        let id = e.id;
                        view! { <option value=id.to_string() selected=move || event.get() == Some(id)>{e.name}</option> }
                    }).collect_view()}
                </select>
            </label>
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
                    {r.detail.map(|d| view! { <br/><span class="scan-detail">{d}</span> })}
                </p>
            }
        })}
    }
}
