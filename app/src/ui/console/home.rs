//! The console's home: sign-in, the event list (each event's date in its
//! own zone, places sold of its capacity, revenue, where its sale stands;
//! publish/withdraw and edit), and the event setup form (`event_setup`).

use leptos::prelude::*;

use crate::i18n::{fill, format, t, Msg};
use leptos::task::spawn_local;

use crate::model::console::team::ConsolePowers;
use crate::model::console::SaleState;
use crate::model::EventId;
use crate::server_fns::console::{
    admin_events, admin_powers, admin_set_published, admin_sign_in, admin_sign_out, AdminEvent,
};
use crate::ui::console::confirm::{self, Asked, ConfirmBox, Then};
use crate::ui::console::event_setup::{EventSetup, Events};

#[component]
pub fn AdminHome() -> impl IntoView {
    let events = Resource::new(|| (), |_| admin_events());
    // Asked once: the form below must not be rebuilt (and emptied) each
    // time the event list above reloads.
    let powers = Resource::new(|| (), |_| admin_powers());
    // The unpublished event the setup form edits (none: a new one).
    let editing = RwSignal::new(None::<EventId>);
    view! {
        <section class="console">
            <h1>{t(Msg::ConsoleTitle)}</h1>
            <Transition fallback=|| view! { <p>{t(Msg::Loading)}</p> }>
                {move || Suspend::new(async move {
                    match (events.await, powers.await) {
                        (Ok(Some(list)), Ok(Some(powers))) => view! { <EventAdmin list powers events editing/> }.into_any(),
                        (Ok(_), Ok(None)) | (Ok(None), _) => view! { <SignIn/> }.into_any(),
                        _ => view! { <p class="error" role="alert">{t(Msg::ConsoleFailed)}</p> }.into_any(),
                    }
                })}
            </Transition>
            <Transition fallback=|| ()>
                {move || Suspend::new(async move {
                    // A new event belongs to no event yet: only a grant for
                    // every event may make one.
                    let may = matches!(powers.await, Ok(Some(p)) if p.everywhere.event_setup);
                    may.then(|| view! { <EventSetup events editing/> })
                })}
            </Transition>
        </section>
    }
}

#[component]
fn SignIn() -> impl IntoView {
    let password = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let pw = password.get_untracked();
        spawn_local(async move {
            match admin_sign_in(pw).await {
                Ok(Ok(())) => {
                    if let Some(w) = web_sys::window() {
                        let _ = w.location().reload();
                    }
                }
                Ok(Err(message)) => error.set(Some(message)),
                Err(_) => error.set(Some(t(Msg::SignInFailed).into())),
            }
        });
    };
    view! {
        // `post`: submitted before the page hydrates, the password must
        // never end up in a URL.
        <form class="signin" method="post" action="/api/admin/login" on:submit=submit>
            <label>{t(Msg::Password)}
                <input type="password" name="password" autocomplete="current-password" required
                    prop:value=password on:input=move |ev| password.set(event_target_value(&ev))/>
            </label>
            <button type="submit">{t(Msg::SignIn)}</button>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <p><a href="/admin/sign-in">{t(Msg::TeamSignInByEmail)}</a></p>
        </form>
    }
}

#[component]
fn EventAdmin(
    list: Vec<AdminEvent>,
    powers: ConsolePowers,
    events: Events,
    editing: RwSignal<Option<EventId>>,
) -> impl IntoView {
    let sign_out = move |_| {
        spawn_local(async move {
            let _ = admin_sign_out().await;
            if let Some(w) = web_sys::window() {
                let _ = w.location().reload();
            }
        });
    };
    let set_published = move |id, published| {
        spawn_local(async move {
            let _ = admin_set_published(id, published).await;
            events.refetch();
        });
    };
    // Publishing is undone as easily; withdrawing asks first.
    let asked = RwSignal::new(None::<Asked>);
    let on_yes = Callback::new(move |then: Then| {
        if let Then::Withdraw(id) = then {
            set_published(id, false);
        }
    });
    let l = crate::i18n::use_locale();
    let rows = list
        .into_iter()
        .map(|e| {
            let id = e.id;
            let published = e.published;
            let question = confirm::withdraw(id, &e.name);
            let toggle = move |_| {
                if published {
                    asked.set(Some(question.clone()));
                } else {
                    set_published(id, true);
                }
            };
            view! {
                <tr data-event=id.to_string()>
                    <td data-label=t(Msg::ColEvent)>
                        <a href=format!("/admin/events/{id}")>{e.name}</a>
                        <span class="event-date">{format::when(l, &e.starts_at_local, &e.starts_at_zone)}</span>
                    </td>
                    <td data-label=t(Msg::ColKind)>{e.kind.name(l)}</td>
                    <td data-label=t(Msg::ColSold) class="sold">{fill(Msg::SoldOf, &[("sold", &e.sold), ("capacity", &e.capacity)])}</td>
                    {powers.own_events.reports.then(|| view! { <td data-label=t(Msg::ColRevenue) class="revenue">{l.price(e.revenue_cents, &e.currency)}</td> })}
                    <td data-label=t(Msg::ColState)>
                        {t(if published { Msg::StatePublished } else { Msg::StateNotPublished })}
                        <span class=format!("sale {}", sale_class(e.sale))>{t(sale_words(e.sale))}</span>
                    </td>
                    <td>{powers.own_events.event_setup.then(|| view! {
                        <button class=if published { "publish danger-outline" } else { "publish" } on:click=toggle>{t(if published { Msg::Withdraw } else { Msg::Publish })}</button>
                        {e.editable.then(|| view! { " " <button class="edit-layout" on:click=move |_| editing.set(Some(id))>{t(Msg::EditLayout)}</button> })}
                    })}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <p class="console-links"><button class="signout" on:click=sign_out>{t(Msg::SignOut)}</button>
            {console_links(powers)}</p>
        <h2>{t(Msg::EventsHeading)}</h2>
        <table class="events cards">
            <thead><tr><th>{t(Msg::ColEvent)}</th><th>{t(Msg::ColKind)}</th><th>{t(Msg::ColSold)}</th>{powers.own_events.reports.then(|| view! { <th>{t(Msg::ColRevenue)}</th> })}<th>{t(Msg::ColState)}</th><th></th></tr></thead>
            <tbody>{rows}</tbody>
        </table>
        <ConfirmBox asked on_yes/>
    }
    .into_any()
}

/// The console's other pages this person's role reaches.
fn console_links(powers: ConsolePowers) -> impl IntoView {
    powers
        .pages()
        .map(|p| view! { " " <a class=p.class href=p.href rel="external">{t(p.words)}</a> })
        .collect_view()
}

/// Where a sale stands, in words.
fn sale_words(sale: SaleState) -> Msg {
    match sale {
        SaleState::Draft => Msg::SaleDraft,
        SaleState::Scheduled => Msg::SaleScheduled,
        SaleState::OnSale => Msg::SaleOn,
        SaleState::SoldOut => Msg::SaleSoldOut,
        SaleState::Over => Msg::SaleOver,
    }
}

/// …and as a class the stylesheet colours.
fn sale_class(sale: SaleState) -> &'static str {
    match sale {
        SaleState::Draft => "draft",
        SaleState::Scheduled => "scheduled",
        SaleState::OnSale => "on-sale",
        SaleState::SoldOut => "sold-out",
        SaleState::Over => "over",
    }
}
