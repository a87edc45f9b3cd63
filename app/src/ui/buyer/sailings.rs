//! A route's sailings by date (`/sailings?route=…`): when each leaves
//! (in the sailing's own zone, named), how long it sails, the lowest fare
//! with room, what is left, and whether it still sells. Other routes are a
//! tab away. Choosing one opens its deck plan (the sailing's event page).

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::i18n::{use_locale, Msg};
use crate::model::sailing::{RouteSailings, SailingSummary};
use crate::server_fns::sailings::sailings_by_route;

#[component]
pub fn SailingList() -> impl IntoView {
    let l = use_locale();
    let query = use_query_map();
    let chosen = move || query.read().get("route");
    let routes = Resource::new(|| (), |_| sailings_by_route());
    view! {
        <h1>{l.t(Msg::SailingsHeading)}</h1>
        <Suspense fallback=move || view! { <p>{l.t(Msg::LoadingSailings)}</p> }>
            {move || Suspend::new(async move {
                match routes.await {
                    Ok(routes) => {
                        let wanted = chosen();
                        let shown = routes
                            .iter()
                            .position(|r| Some(&r.route.code) == wanted.as_ref())
                            .unwrap_or(0);
                        view! {
                            <nav class="route-tabs" aria-label=l.t(Msg::SailingsHeading)>
                                {routes.iter().enumerate().map(|(i, r)| view! {
                                    <a href=format!("/sailings?route={}", r.route.code)
                                        aria-current=(i == shown).then_some("page")>{r.route.name.clone()}</a>
                                }).collect_view()}
                            </nav>
                            {routes.into_iter().nth(shown).map(|r| view! { <RouteSailingList r/> })}
                        }.into_any()
                    }
                    Err(_) => view! { <p class="error" role="alert">{l.t(Msg::SailingsFailed)}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn RouteSailingList(r: RouteSailings) -> impl IntoView {
    let l = use_locale();
    view! {
        <h2>{format!("{} — {}", r.ship, r.route.name)}</h2>
        <Show when={let none = r.sailings.is_empty(); move || none}>
            <p class="notice">{l.t(Msg::NoSailings)}</p>
        </Show>
        <ul class="sailings" data-testid="sailings">
            {r.sailings.into_iter().map(|s| view! { <Sailing s/> }).collect_view()}
        </ul>
    }
}

/// One sailing: its date, length, fare from and room, or why it is closed.
#[component]
fn Sailing(s: SailingSummary) -> impl IntoView {
    let l = use_locale();
    let refusal = s.refusal(l);
    let open = refusal.is_none();
    let from = s
        .from_cents
        .map(|c| l.fill(Msg::FromPrice, &[("price", &l.price(c, &s.currency))]));
    let available = l.fill(
        Msg::AvailableOf,
        &[
            ("available", &l.count(s.available_count)),
            ("total", &l.count(s.place_count)),
        ],
    );
    let places = if s.nights > 0 {
        l.t(Msg::CabinsWord)
    } else {
        l.t(Msg::SeatsWord)
    };
    view! {
        <li class="sailing" class:closed=!open data-testid="sailing" data-sailing=s.id.to_string()>
            <time class="departs" datetime=s.departs_at.clone()>{s.when(l)}</time>
            <span class="length">{s.length(l)}</span>
            <span class="fare">{from}</span>
            <span class="availability">{available}</span>
            {match refusal {
                Some(why) => view! { <span class="closed-why">{why}</span> }.into_any(),
                // A full page load: the deck plan is rendered on the server.
                None => view! {
                    <a class="choose" href=format!("/events/{}", s.id) rel="external">
                        {l.fill(Msg::ChoosePlaces, &[("places", &places)])}
                    </a>
                }.into_any(),
            }}
        </li>
    }
}
