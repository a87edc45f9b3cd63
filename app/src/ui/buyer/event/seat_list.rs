//! The seat map as a list: the available seats of one section at a time,
//! each a button with the seat's full accessible name — an alternative to
//! the map for screen readers, keyboards and small screens. It reads the
//! map's own seats (their names, prices and live status classes), so both
//! views always agree and a selection made in one shows in the other.

use leptos::prelude::*;
use leptos::web_sys;
use wasm_bindgen::JsCast;

use crate::i18n::{use_locale, Locale, Msg};
use crate::model::EventKind;
use crate::model::SeatId;
use crate::ui::buyer::event::seats::{toggle_seat, Picked};

#[derive(Clone, PartialEq)]
struct Listed {
    id: SeatId,
    name: String,
}

#[component]
pub fn SeatList(
    sections: Vec<String>,
    picked: RwSignal<Vec<Picked>>,
    /// The most seats one booking may have.
    limit: usize,
    /// Seats and sections, or cabins and decks.
    kind: EventKind,
) -> impl IntoView {
    let l = use_locale();
    let first = sections.first().cloned().unwrap_or_default();
    let section = RwSignal::new(first);
    let listed: RwSignal<Vec<Listed>> = RwSignal::new(Vec::new());
    let refresh = move || listed.set(available_in(l, kind, &section.get_untracked()));
    let on_toggle = move |ev: web_sys::Event| {
        let open = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok())
            .is_some_and(|d| d.open());
        if open {
            refresh();
        }
    };
    let choose = move |ev: web_sys::Event| {
        section.set(event_target_value(&ev));
        refresh();
    };
    let toggle = move |id: SeatId| {
        let seat = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(&format!("seat-{id}")));
        if let Some(seat) = seat {
            toggle_seat(&seat, picked, limit);
        }
        // Someone may have taken it meanwhile: the list follows the map.
        refresh();
    };
    view! {
        <details class="seat-list" on:toggle=on_toggle>
            <summary>{l.fill(Msg::AsAList, &[("places", &kind.places_word(l))])}</summary>
            <label>
                {kind.section_word(l)} " "
                <select on:change=choose>
                    {sections.into_iter().map(|s| view! { <option value=s.clone()>{s.clone()}</option> }).collect_view()}
                </select>
            </label>
            <p class="hint">{move || l.fill(Msg::AvailableHere, &[("what", &kind.places(l, listed.read().len()))])}</p>
            <ul>
                <For each=move || listed.get() key=|s| s.id let:seat>
                    <li>
                        <button
                            type="button"
                            aria-pressed=move || picked.read().iter().any(|p| p.id == seat.id).to_string()
                            on:click=move |_| toggle(seat.id)
                        >
                            {seat.name.clone()}
                        </button>
                    </li>
                </For>
            </ul>
        </details>
    }
}

/// The available seats of a section, as the map shows them now.
fn available_in(l: Locale, kind: EventKind, section: &str) -> Vec<Listed> {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return Vec::new();
    };
    let Ok(all) = doc.query_selector_all("svg .seat.available") else {
        return Vec::new();
    };
    let prefix = format!("{}, ", kind.section_name(l, section));
    (0..all.length())
        .filter_map(|i| all.item(i)?.dyn_into::<web_sys::Element>().ok())
        .filter_map(|el| {
            let name = el.text_content()?;
            let id = el.get_attribute("data-id")?.parse().ok()?;
            name.starts_with(&prefix).then_some(Listed { id, name })
        })
        .collect()
}
