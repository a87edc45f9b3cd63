//! The console's home: sign-in, the event list with publish/withdraw, and
//! a form that creates an event from a layout (errors shown on their
//! fields).

use leptos::prelude::*;

use crate::i18n::{fill, t, Msg};
use leptos::task::spawn_local;

use crate::model::console::{CategorySpec, EventLayout, SectionSpec, StandingSpec};
use crate::server_fns::console::{
    admin_create_event, admin_events, admin_set_published, admin_sign_in, admin_sign_out,
    admin_signed_in, AdminEvent, Refusal,
};

#[component]
pub fn AdminHome() -> impl IntoView {
    let events = Resource::new(|| (), |_| admin_events());
    // Asked once: the form below must not be rebuilt (and emptied) each
    // time the event list above reloads.
    let signed_in = Resource::new(|| (), |_| admin_signed_in());
    view! {
        <section class="console">
            <h1>{t(Msg::ConsoleTitle)}</h1>
            <Transition fallback=|| view! { <p>{t(Msg::Loading)}</p> }>
                {move || Suspend::new(async move {
                    match events.await {
                        Ok(Some(list)) => view! { <EventAdmin list events/> }.into_any(),
                        Ok(None) => view! { <SignIn/> }.into_any(),
                        Err(_) => view! { <p class="error" role="alert">{t(Msg::ConsoleFailed)}</p> }.into_any(),
                    }
                })}
            </Transition>
            <Transition fallback=|| ()>
                {move || Suspend::new(async move {
                    matches!(signed_in.await, Ok(true)).then(|| view! { <NewEvent events/> })
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
        </form>
    }
}

#[component]
fn EventAdmin(
    list: Vec<AdminEvent>,
    events: Resource<Result<Option<Vec<AdminEvent>>, ServerFnError>>,
) -> impl IntoView {
    let sign_out = move |_| {
        spawn_local(async move {
            let _ = admin_sign_out().await;
            if let Some(w) = web_sys::window() {
                let _ = w.location().reload();
            }
        });
    };
    let rows = list
        .into_iter()
        .map(|e| {
            let id = e.id;
            let published = e.published;
            let toggle = move |_| {
                spawn_local(async move {
                    let _ = admin_set_published(id, !published).await;
                    events.refetch();
                });
            };
            view! {
                <tr>
                    <td><a href=format!("/admin/events/{id}")>{e.name}</a></td>
                    <td>{e.kind.name(crate::i18n::use_locale())}</td>
                    <td>{e.seat_count}</td>
                    <td>{t(if published { Msg::StatePublished } else { Msg::StateNotPublished })}</td>
                    <td><button class="publish" on:click=toggle>{t(if published { Msg::Withdraw } else { Msg::Publish })}</button></td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <p><button class="signout" on:click=sign_out>{t(Msg::SignOut)}</button> " " <a class="door-link" href="/admin/scan" rel="external">{t(Msg::DoorScanner)}</a> " " <a class="jobs-link" href="/admin/jobs" rel="external">{t(Msg::JobsHeading)}</a> " " <a class="sailings-link" href="/admin/sailings" rel="external">{t(Msg::SailingsHeading)}</a></p>
        <h2>{t(Msg::EventsHeading)}</h2>
        <table class="events">
            <thead><tr><th>{t(Msg::ColEvent)}</th><th>{t(Msg::ColKind)}</th><th>{t(Msg::ColSeats)}</th><th>{t(Msg::ColState)}</th><th></th></tr></thead>
            <tbody>{rows}</tbody>
        </table>
    }
    .into_any()
}

/// The layout form: one price category, one block of seats, optionally a
/// standing area — enough for a small event; the API takes any layout.
#[component]
fn NewEvent(events: Resource<Result<Option<Vec<AdminEvent>>, ServerFnError>>) -> impl IntoView {
    let f = |v: &str| RwSignal::new(v.to_string());
    let (name, kind, venue, starts, on_sale, currency) = (
        f(""),
        f("concert"),
        f(""),
        f("2027-06-01T20:00"),
        f(""),
        f("EUR"),
    );
    let (cat_name, price, color) = (f("Stalls"), f("30.00"), f("#c0392b"));
    let (section, level, rows, per_row) = (f("Stalls"), f(""), f("5"), f("10"));
    let (standing, capacity) = (f(""), f("0"));
    let time_zone = f("UTC");
    let refusal = RwSignal::new(Refusal::default());
    let created = RwSignal::new(None::<String>);
    let error_for =
        move |field: &'static str| {
            move || {
                refusal.get().fields.iter().find(|(f, _)| f == field).map(
                    |(_, m)| view! { <span class="field-error" role="alert">{m.clone()}</span> },
                )
            }
        };
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        // In the currency's own digits (no cents in đồng or yen); a price
        // that does not read is sent as -1, which the server refuses on its field.
        let code = currency.get_untracked().trim().to_uppercase();
        let cents = crate::model::money::parse_amount(&price.get_untracked(), &code).unwrap_or(-1);
        let capacity = capacity.get_untracked().parse::<i64>().unwrap_or(-1);
        let layout = EventLayout {
            name: name.get_untracked(),
            kind: kind.get_untracked(),
            venue: venue.get_untracked(),
            // The start as a wall clock in the event's zone (the server reads it there).
            starts_at: starts.get_untracked(),
            // A wall clock in the event's zone too.
            on_sale_at: on_sale.get_untracked(),
            currency: currency.get_untracked().to_uppercase(),
            time_zone: time_zone.get_untracked().trim().to_string(),
            categories: vec![CategorySpec {
                code: "A".into(),
                name: cat_name.get_untracked(),
                price_cents: cents,
                color: color.get_untracked(),
            }],
            sections: vec![SectionSpec {
                name: section.get_untracked(),
                level: Some(level.get_untracked()).filter(|l| !l.is_empty()),
                category: "A".into(),
                rows: rows.get_untracked().parse().unwrap_or(0),
                seats_per_row: per_row.get_untracked().parse().unwrap_or(0),
                ..Default::default()
            }],
            general_admission: if standing.get_untracked().is_empty() && capacity == 0 {
                Vec::new()
            } else {
                vec![StandingSpec {
                    name: standing.get_untracked(),
                    category: "A".into(),
                    capacity,
                }]
            },
            // Set on its own page (Refund policies), not in this form.
            #[cfg(feature = "ssr")]
            refund_policy: Default::default(),
        };
        spawn_local(async move {
            match admin_create_event(layout).await {
                Ok(Ok(c)) => {
                    refusal.set(Refusal::default());
                    created.set(Some(fill(
                        Msg::CreatedEvent,
                        &[("id", &c.event_id), ("seats", &c.seat_count)],
                    )));
                    events.refetch();
                }
                Ok(Err(r)) => {
                    created.set(None);
                    refusal.set(r);
                }
                Err(_) => refusal.set(Refusal {
                    message: t(Msg::SavingFailed).into(),
                    fields: Vec::new(),
                }),
            }
        });
    };
    let input = move |label: &'static str,
                      field: &'static str,
                      value: RwSignal<String>,
                      kind: &'static str| {
        view! {
            <label>{label}
                <input type=kind name=field prop:value=value on:input=move |ev| value.set(event_target_value(&ev))/>
                {error_for(field)}
            </label>
        }
    };
    view! {
        <h2>{t(Msg::NewEvent)}</h2>
        <form class="new-event" on:submit=submit>
            <fieldset><legend>{t(Msg::ColEvent)}</legend>
                {input(t(Msg::FieldName), "name", name, "text")}
                <label>{t(Msg::ColKind)}
                    <select name="kind" on:change=move |ev| kind.set(event_target_value(&ev))>
                        <option value="concert">{t(Msg::KindConcert)}</option>
                        <option value="cruise">{t(Msg::KindCruise)}</option>
                    </select>
                    {error_for("kind")}
                </label>
                {input(t(Msg::FieldVenue), "venue", venue, "text")}
                {input(t(Msg::FieldTimeZone), "timeZone", time_zone, "text")}
                {input(t(Msg::FieldStarts), "startsAt", starts, "datetime-local")}
                {input(t(Msg::FieldOnSale), "onSaleAt", on_sale, "datetime-local")}
                {input(t(Msg::FieldCurrency), "currency", currency, "text")}
            </fieldset>
            <fieldset><legend>{t(Msg::PriceCategoryLegend)}</legend>
                {input(t(Msg::FieldName), "categories[0].name", cat_name, "text")}
                {input(t(Msg::FieldPrice), "categories[0].priceCents", price, "text")}
                {input(t(Msg::FieldColour), "categories[0].color", color, "text")}
            </fieldset>
            <fieldset><legend>{t(Msg::SeatsLegend)}</legend>
                {input(t(Msg::SectionWord), "sections[0].name", section, "text")}
                {input(t(Msg::FieldDeck), "sections[0].level", level, "text")}
                {input(t(Msg::FieldRows), "sections[0].rows", rows, "number")}
                {input(t(Msg::FieldSeatsPerRow), "sections[0].seatsPerRow", per_row, "number")}
            </fieldset>
            <fieldset><legend>{t(Msg::StandingOptional)}</legend>
                {input(t(Msg::FieldName), "generalAdmission[0].name", standing, "text")}
                {input(t(Msg::FieldCapacity), "generalAdmission[0].capacity", capacity, "number")}
            </fieldset>
            <button type="submit">{t(Msg::CreateEvent)}</button>
            {move || { let m = refusal.get().message; (!m.is_empty()).then(|| view! { <p class="error" role="alert">{m}</p> }) }}
            {move || created.get().map(|m| view! { <p class="notice created" role="status">{m}</p> })}
        </form>
    }
    .into_any()
}
