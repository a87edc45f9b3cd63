//! The home page: every published concert with what is left, and the
//! cruise line's routes (each sailing is an event, chosen by date on the
//! route's page, `sailings`).

use leptos::prelude::*;

use crate::i18n::{use_locale, Msg};
use crate::model::sailing::RouteSailings;
use crate::server_fns::sailings::home_page;

#[component]
pub fn EventList() -> impl IntoView {
    let l = use_locale();
    let home = Resource::new(|| (), |_| home_page());
    view! {
        <h1>{l.t(Msg::OnSale)}</h1>
        <Suspense fallback=move || view! { <p>{l.t(Msg::LoadingEvents)}</p> }>
            {move || Suspend::new(async move {
                match home.await {
                    Ok(home) => view! {
                        <ul class="event-list">
                            {home.events.into_iter().map(|e| {
                                let available = l.fill(Msg::AvailableOf, &[
                                    ("available", &l.count(e.available_count)),
                                    ("total", &l.count(e.seat_count)),
                                ]);
                                view! {
                                    <li class="event-card">
                                        <span class="kind">{e.kind.name(l)}</span>
                                        // A full page load: the seat map is rendered on the server.
                                        <a href=format!("/events/{}", e.id) rel="external">{e.name.clone()}</a>
                                        <span class="venue">{e.venue.clone()}</span>
                                        <time datetime=e.starts_at.clone()>{e.when(l)}</time>
                                        <span class="availability">{available}</span>
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                        <Show when={let any = !home.routes.is_empty(); move || any}>
                            <h2>{l.t(Msg::SailingsHeading)}</h2>
                        </Show>
                        <ul class="event-list routes" data-testid="routes">
                            {home.routes.into_iter().map(|r| view! { <RouteCard r/> }).collect_view()}
                        </ul>
                    }.into_any(),
                    Err(_) => view! { <p class="error" role="alert">{l.t(Msg::EventsFailed)}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

/// A route: its ship, how many sailings and the next, the lowest fare.
#[component]
fn RouteCard(r: RouteSailings) -> impl IntoView {
    let l = use_locale();
    let next = r.next().map(|s| {
        l.fill(
            Msg::SailingCount,
            &[("n", &r.sailings.len()), ("when", &s.when(l))],
        )
    });
    let currency = r
        .sailings
        .first()
        .map(|s| s.currency.clone())
        .unwrap_or_default();
    let from = r
        .from_cents()
        .map(|c| l.fill(Msg::FromPrice, &[("price", &l.price(c, &currency))]));
    view! {
        <li class="event-card route-card">
            <span class="kind">{crate::model::EventKind::Cruise.name(l)}</span>
            <a href=format!("/sailings?route={}", r.route.code)>{format!("{} — {}", r.ship, r.route.name)}</a>
            <span class="venue">{next}</span>
            <span class="availability">{from}</span>
            <a class="choose" href=format!("/sailings?route={}", r.route.code)>{l.t(Msg::ChooseDate)}</a>
        </li>
    }
}
