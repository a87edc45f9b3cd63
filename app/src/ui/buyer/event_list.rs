//! The home page: every published event with what is left.

use leptos::prelude::*;

use crate::i18n::{use_locale, Msg};
use crate::server_fns::buyer::list_events;

#[component]
pub fn EventList() -> impl IntoView {
    let l = use_locale();
    let events = Resource::new(|| (), |_| list_events());
    view! {
        <h1>{l.t(Msg::OnSale)}</h1>
        <Suspense fallback=move || view! { <p>{l.t(Msg::LoadingEvents)}</p> }>
            {move || Suspend::new(async move {
                match events.await {
                    Ok(list) => view! {
                        <ul class="event-list">
                            {list.into_iter().map(|e| {
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
                    }.into_any(),
                    Err(_) => view! { <p class="error" role="alert">{l.t(Msg::EventsFailed)}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}
