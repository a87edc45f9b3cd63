//! The standing areas of an event, bought by count: for each, its price,
//! the places left (live: the seat stream's `standing` events), a stepper
//! (1 … the per-booking limit, never more than are left) and its own Hold
//! button; and the floor they stand on, drawn on the map in front of the
//! stage, which brings the stepper to hand when pressed.

use leptos::prelude::*;

use crate::i18n::{use_locale, Msg};
use crate::model::geometry::ViewBox;
use crate::model::EventId;
use crate::model::{AreaLeft, GeneralAdmissionArea, HoldResponse};
use crate::server_fns::buyer::{hold_standing, HoldOutcome};
use crate::ui::buyer::event::held_panel::{failure, new_idempotency_key};

/// What the page's standing areas share: the event, the places left in
/// each (live), the currency, the per-booking limit, and where a hold or a
/// refusal is shown.
#[derive(Clone)]
pub struct StandingSale {
    pub event_id: EventId,
    pub left: RwSignal<Vec<AreaLeft>>,
    pub currency: String,
    pub limit: usize,
    pub hold: RwSignal<Option<HoldResponse>>,
    pub message: RwSignal<Option<String>>,
}

#[component]
pub fn Standing(areas: Vec<GeneralAdmissionArea>, sale: StandingSale) -> impl IntoView {
    let l = use_locale();
    (!areas.is_empty()).then(|| {
        view! {
            <div class="standing" data-testid="standing">
                <h3>{l.t(Msg::Standing)}</h3>
                {areas.into_iter().map(|area| {
                    view! { <StandingArea area sale=sale.clone()/> }
                }).collect_view()}
            </div>
        }
    })
}

#[component]
fn StandingArea(area: GeneralAdmissionArea, sale: StandingSale) -> impl IntoView {
    let StandingSale {
        event_id,
        left,
        currency,
        limit,
        hold,
        message,
    } = sale;
    let l = use_locale();
    let area_id = area.id;
    let remaining = Memo::new(move |_| {
        left.read()
            .iter()
            .find(|a| a.id == area_id)
            .map_or(0, |a| a.remaining)
    });
    let most = Memo::new(move |_| (limit as i64).min(remaining.get()).max(0));
    let count = RwSignal::new(most.get_untracked().min(1));
    // Fewer left than the stepper says: it comes down with them.
    Effect::new(move |_| {
        let most = most.get();
        count.update(|c| *c = (*c).min(most).max(most.min(1)));
    });
    let take = move |_| {
        let quantity = count.get_untracked();
        if quantity < 1 {
            return;
        }
        message.set(None);
        let key = new_idempotency_key();
        leptos::task::spawn_local(async move {
            match hold_standing(event_id, area_id, quantity, key).await {
                Ok(HoldOutcome::Held(r)) => hold.set(Some(r)),
                Ok(HoldOutcome::Refused { message: m, .. }) => message.set(Some(m)),
                Err(e) => message.set(Some(failure(l, &e, Msg::NoPlacesHeld))),
            }
        });
    };
    let label = l.fill(Msg::AreaPlaces, &[("area", &area.name)]);
    let left = move || match remaining.get() {
        0 => l.t(Msg::SoldOut).to_string(),
        n => l.plural(n, Msg::PlacesLeftOne, Msg::PlacesLeftMany),
    };
    view! {
        <div class="standing-area" id=format!("standing-{area_id}")>
            <p class="standing-name">
                <strong>{area.name.clone()}</strong>
                {l.fill(Msg::PriceEach, &[("price", &l.price(area.price_cents, &currency))])}
                <span class="hint" data-testid="standing-left" aria-live="polite">" · " {left}</span>
            </p>
            <div class="stepper" role="group" aria-label=label.clone()>
                <button type="button" aria-label=l.t(Msg::OnePlaceFewer)
                    disabled=move || { count.get() <= 1 }
                    on:click=move |_| count.update(|c| *c = (*c - 1).max(1))>"−"</button>
                <output aria-live="polite" data-testid="standing-count">{move || count.get()}</output>
                <button type="button" aria-label=l.t(Msg::OnePlaceMore)
                    disabled=move || { count.get() >= most.get() }
                    on:click=move |_| count.update(|c| *c = (*c + 1).min(most.get_untracked()))>"+"</button>
            </div>
            <button class="hold standing-hold" disabled=move || { most.get() < 1 } on:click=take>
                {move || l.plural(count.get(), Msg::HoldPlacesOne, Msg::HoldPlacesMany)}
            </button>
        </div>
    }
}

/// The standing areas on the map's floor (`MapLayout::floor`), side by
/// side in their categories' colours; pressing one moves to its Hold
/// button. Nothing when the seats leave no floor.
#[component]
pub fn FloorOnMap(floor: Option<ViewBox>, areas: Vec<GeneralAdmissionArea>) -> impl IntoView {
    let floor = floor.filter(|_| !areas.is_empty())?;
    let width = floor.w / areas.len() as f64;
    let drawn = areas
        .into_iter()
        .enumerate()
        .map(|(i, area)| {
            let x = floor.x + width * i as f64;
            let id = area.id;
            let (name, class) = (area.name, format!("floor cat-{}", area.category));
            let label = name.clone();
            let go = move |ev: leptos::ev::MouseEvent| {
                // Not a press on the map (which would zoom or pick a seat).
                ev.stop_propagation();
                to_stepper(id);
            };
            let on_key = move |ev: leptos::ev::KeyboardEvent| {
                if ev.key() == "Enter" || ev.key() == " " {
                    ev.prevent_default();
                    to_stepper(id);
                }
            };
            view! {
                <g class="floor-area" role="button" tabindex="0" aria-label=label
                    data-area=id.to_string() on:click=go on:keydown=on_key>
                    <rect class=class x=x + 2.0 y=floor.y
                        width=(width - 4.0).max(1.0) height=floor.h rx="10"></rect>
                    <text class="floor-label" x=x + width / 2.0 y=floor.y + floor.h / 2.0>{name}</text>
                </g>
            }
        })
        .collect_view();
    Some(view! { <g class="standing-floor">{drawn}</g> })
}

/// Brings an area's Hold button into view and gives it the focus.
fn to_stepper(area_id: i64) {
    use leptos::wasm_bindgen::JsCast;
    let button = leptos::web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector(&format!("#standing-{area_id} button.standing-hold"))
                .ok()
                .flatten()
        })
        .and_then(|b| b.dyn_into::<leptos::web_sys::HtmlElement>().ok());
    if let Some(button) = button {
        button.scroll_into_view_with_bool(false);
        let _ = button.focus();
    }
}
