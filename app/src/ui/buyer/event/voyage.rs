//! A sailing's page beyond its deck plan: the route and its ports (in the
//! sailing's zone), a way to other dates of the route, and each picked
//! cabin's party — how many guests, within what the cabin sleeps, with the
//! price for two and the supplement for each guest beyond.

use leptos::prelude::*;

use crate::i18n::{use_locale, Msg};
use crate::model::sailing::SailingPage;
use crate::model::SeatId;
use crate::ui::buyer::event::seats::{Party, Picked};

/// The route, its ports in order and the other dates.
#[component]
pub fn Voyage(s: SailingPage) -> impl IntoView {
    let l = use_locale();
    let zone = s.summary.time_zone_abbreviation.clone();
    let at = move |t: &Option<String>| {
        t.as_deref()
            .and_then(|t| crate::i18n::format::when(l, t, &zone))
    };
    let calls = s
        .itinerary
        .iter()
        .map(|c| {
            let times = [
                at(&c.arrives_at).map(|w| l.fill(Msg::PortArrives, &[("when", &w)])),
                at(&c.departs_at).map(|w| l.fill(Msg::PortDeparts, &[("when", &w)])),
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" · ");
            view! {
                <li><strong>{c.port.clone()}</strong>{format!(" ({}) ", c.country)}<span class="port-times">{times}</span></li>
            }
        })
        .collect_view();
    view! {
        <p class="route">{format!("{} · {}", s.summary.ship, s.summary.length(l))}</p>
        <details class="itinerary" data-testid="itinerary">
            <summary>{l.t(Msg::Itinerary)}</summary>
            <ol>{calls}</ol>
        </details>
        <p><a href=format!("/sailings?route={}", s.summary.route.code)>{l.t(Msg::OtherDates)}</a></p>
    }
}

/// How many guests a picked cabin is for.
#[component]
pub fn PartyChoice(
    id: SeatId,
    name: String,
    party: Party,
    currency: String,
    picked: RwSignal<Vec<Picked>>,
) -> impl IntoView {
    let l = use_locale();
    let choose = move |ev: leptos::ev::Event| {
        let Ok(n) = event_target_value(&ev).parse::<i64>() else {
            return;
        };
        picked.update(|all| {
            if let Some(p) = all.iter_mut().find(|p| p.id == id) {
                if let Some(party) = p.party.as_mut() {
                    party.guests = n.clamp(party.min, party.max);
                }
            }
        });
    };
    let short = name.split(", ").take(3).collect::<Vec<_>>().join(", ");
    view! {
        <select class="party" on:change=choose data-testid="guests"
            aria-label=l.fill(Msg::GuestsIn, &[("name", &short)])>
            {(party.min..=party.max).map(|n| {
                let guests = l.plural(n, Msg::GuestOne, Msg::GuestMany);
                let extra = party.extra_cents * (n - 2).max(0);
                let label = if extra > 0 {
                    format!("{guests} (+{})", l.price(extra, &currency))
                } else {
                    guests
                };
                view! { <option value=n.to_string() selected=n == party.guests>{label}</option> }
            }).collect_view()}
        </select>
    }
}
