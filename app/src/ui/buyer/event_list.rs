//! The home page: every published event with what is left.

use leptos::prelude::*;

use crate::model::EventKind;
use crate::server_fns::buyer::list_events;

#[component]
pub fn EventList() -> impl IntoView {
    let events = Resource::new(|| (), |_| list_events());
    view! {
        <h1>"On sale"</h1>
        <Suspense fallback=|| view! { <p>"Loading events…"</p> }>
            {move || Suspend::new(async move {
                match events.await {
                    Ok(list) => view! {
                        <ul class="event-list">
                            {list.into_iter().map(|e| {
                                let kind = match e.kind { EventKind::Concert => "Concert", EventKind::Cruise => "Cruise" };
                                view! {
                                    <li class="event-card">
                                        <span class="kind">{kind}</span>
                                        // A full page load: the seat map is rendered on the server.
                                        <a href=format!("/events/{}", e.id) rel="external">{e.name.clone()}</a>
                                        <span class="venue">{e.venue.clone()}</span>
                                        <time datetime=e.starts_at.clone()>{e.when()}</time>
                                        <span class="availability">{format!("{} of {} available", e.available_count, e.seat_count)}</span>
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                    }.into_any(),
                    Err(_) => view! { <p class="error" role="alert">"Events could not be loaded. Please try again in a moment."</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}
