//! An event's seat map: the SVG frame (stage, section labels, decks) from
//! the server, a legend of price categories, and a side panel with the
//! selection and the Hold button. The seats themselves are fetched once the
//! page is hydrated (`drawing`): the page stays a few kilobytes, the seats'
//! drawing is cached by the browser for good, and their statuses come as
//! one letter each. One click handler on the map selects them.
//!
//! Longer than the house's ~350 lines, on purpose: `SeatMap` is the one
//! place where the map, the side panel and the live stream meet, and its
//! signals are wired here; what each piece does lives in its own module
//! (gestures, seats, holding, the stream, the panels).

use leptos::prelude::*;
use leptos::web_sys;
use leptos_router::hooks::use_params_map;
use wasm_bindgen::JsCast;

use crate::i18n::{use_locale, Msg};
use crate::model::geometry::{
    reading_view, ViewBox, BUTTON_ZOOM_IN, BUTTON_ZOOM_OUT, WHEEL_ZOOM_IN, WHEEL_ZOOM_OUT,
};
use crate::model::AreaLeft;
use crate::model::EventId;
use crate::model::SeatId;
use crate::server_fns::bookings::my_hold;
use crate::server_fns::buyer::{event_page, EventPageData};
use crate::ui::buyer::event::best::{ask_best, best_hint, seated, Ask, BestSeats};
use crate::ui::buyer::event::drawing::draw_seats;
use crate::ui::buyer::event::held_panel::HeldPanel;
use crate::ui::buyer::event::holding::hold_these;
use crate::ui::buyer::event::keyboard::on_map_key;
use crate::ui::buyer::event::map_view::{
    fraction_at, pointer_fraction, svg_scale, zoom_to_tap, Touches,
};
use crate::ui::buyer::event::seat_list::SeatList;
use crate::ui::buyer::event::seat_stream::{connect_live, Watched};
use crate::ui::buyer::event::seats::{
    mark_seats, seat_name, seat_price, select_only, toggle_seat, unselect, Look, Picked, Toggled,
};
use crate::ui::buyer::event::standing::{FloorOnMap, Standing, StandingSale};
use crate::ui::buyer::event::tooltip::{tip_for, SeatTip, Tip};
use crate::ui::buyer::event::voyage::{PartyChoice, Voyage};
use crate::ui::buyer::event::waiting_room::WaitingRoom;
use crate::ui::buyer::event::{Lost, SeatPanel};

#[component]
pub fn EventPage() -> impl IntoView {
    let l = use_locale();
    let params = use_params_map();
    let event_id = move || {
        params
            .read()
            .get("id")
            .and_then(|s| s.parse::<EventId>().ok())
    };
    let page = Resource::new(event_id, |id| async move {
        match id {
            Some(id) => event_page(id).await,
            None => Ok(None),
        }
    });
    view! {
        <Suspense fallback=move || view! { <p>{l.t(Msg::LoadingMap)}</p> }>
            {move || Suspend::new(async move {
                match page.await {
                    Ok(Some(data)) => match data.waiting.clone() {
                        Some(first) => view! { <WaitingRoom detail=data.detail.clone() first/> }.into_any(),
                        None => view! { <SeatMap data/> }.into_any(),
                    },
                    Ok(None) => view! { <p class="notice">{l.t(Msg::NoSuchEvent)}</p> }.into_any(),
                    Err(_) => view! { <p class="error" role="alert">{l.t(Msg::MapFailed)}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn SeatMap(data: EventPageData) -> impl IntoView {
    let l = use_locale();
    let detail = data.detail.clone();
    let event_id = detail.summary.id;
    let kind = detail.summary.kind;
    let is_concert = kind == crate::model::EventKind::Concert;
    let currency = detail.summary.currency.clone();
    let picked: RwSignal<Vec<Picked>> = RwSignal::new(Vec::new());
    let message: RwSignal<Option<String>> = RwSignal::new(None);
    let hold: RwSignal<Option<crate::model::HoldResponse>> = RwSignal::new(None);
    let live = RwSignal::new(false);
    let holding: RwSignal<Vec<SeatId>> = RwSignal::new(Vec::new());
    let max_per_booking = data.max_per_booking.max(1);
    let lost: RwSignal<Option<Lost>> = RwSignal::new(None);
    let suggestions: RwSignal<Vec<Vec<SeatId>>> = RwSignal::new(Vec::new());
    let standing_left: RwSignal<Vec<AreaLeft>> = RwSignal::new(
        detail
            .general_admission
            .iter()
            .map(|a| AreaLeft {
                id: a.id,
                remaining: a.remaining,
            })
            .collect(),
    );
    let panel = SeatPanel {
        picked,
        hold,
        message,
        lost,
        offers: suggestions,
        holding,
        limit: max_per_booking,
    };
    // The details of the seat pointed at or tapped (`tooltip`).
    let tip: RwSignal<Option<Tip>> = RwSignal::new(None);
    // The seats, drawn once hydrated; then the live stream from their version.
    let seats_ref = NodeRef::<leptos::svg::G>::new();
    let drawn: RwSignal<Option<Result<(), String>>> = RwSignal::new(None);
    // A ship's smallest cabin number (map units), once drawn.
    let number_units: RwSignal<Option<f64>> = RwSignal::new(None);
    let drawing_url = data.drawing_url.clone();
    Effect::new(move |_| {
        let Some(target) = seats_ref.get() else {
            return;
        };
        let url = drawing_url.clone();
        leptos::task::spawn_local(async move {
            match draw_seats(&target, event_id, &url, &[], kind, l).await {
                Ok(d) => {
                    number_units.set(d.number_units);
                    drawn.set(Some(Ok(())));
                    connect_live(
                        event_id,
                        d.version,
                        Watched {
                            panel,
                            live,
                            standing: standing_left,
                            tip,
                            locale: l,
                        },
                    );
                }
                Err(e) => drawn.set(Some(Err(e))),
            }
        });
    });

    // The buyer's running hold, if any (a reload, Back from the checkout,
    // another device of the account): asked once hydrated, as the rendered
    // page is the same for everyone.
    Effect::new(move |_| {
        leptos::task::spawn_local(async move {
            if let Ok(Some(running)) = my_hold(event_id).await {
                if hold.read_untracked().is_none() {
                    hold.set(Some(running));
                }
            }
        });
    });
    // The hold's seats are the buyer's on the map, once it is drawn.
    Effect::new(move |_| {
        if drawn.get().is_some_and(|d| d.is_ok()) {
            if let Some(h) = hold.read().as_ref() {
                mark_seats(&h.seat_ids, Look::Yours);
            }
        }
    });

    let full = data.layout.view_box;
    let view_box = RwSignal::new(full);
    // What zoom and pan stay within: the whole map, or one deck.
    let bounds = RwSignal::new(full);
    // A drag that moved the map is not a click on a seat.
    let drag: RwSignal<Option<(f64, f64, bool)>> = RwSignal::new(None);
    let touches: RwSignal<Touches> = RwSignal::new(Touches::default());
    let deck: RwSignal<Option<usize>> = RwSignal::new(None);
    let has_decks = !data.layout.levels.is_empty();
    let frame_ref = NodeRef::<leptos::html::Figure>::new();
    // A deck as it first shows: close enough to read its cabins' numbers
    // where the whole deck would not (a phone), else whole.
    let deck_view = move |part: ViewBox| {
        let width = frame_ref
            .get_untracked()
            .map_or(0.0, |f| f64::from(f.client_width()));
        number_units
            .get_untracked()
            .and_then(|units| reading_view(part, width, units))
            .unwrap_or(part)
    };
    let show_deck = move |i: Option<usize>, part: ViewBox| {
        deck.set(i);
        bounds.set(part);
        view_box.set(deck_view(part));
    };
    // A ship whose decks do not read at once starts on its first deck.
    let first_deck = data.layout.levels.first().map(|l| l.1);
    Effect::new(move |_| {
        if let (Some(_), Some(part)) = (number_units.get(), first_deck) {
            if deck_view(full) != full {
                show_deck(Some(0), part);
            }
        }
    });
    let section_names: Vec<String> = data.layout.sections.iter().map(|s| s.0.clone()).collect();
    let stage = data.layout.stage;
    let standing_areas = detail.general_admission.clone();
    // On a phone the key to the statuses' colours starts folded (the
    // prices stay in sight; CSS shows it all on wider screens).
    let legend_open = RwSignal::new(false);
    let tip_categories = StoredValue::new(detail.categories.clone());
    let show_tip = move |seat: &web_sys::Element| {
        if let Some(frame) = frame_ref.get_untracked() {
            tip.set(tip_categories.with_value(|c| tip_for(seat, &frame, c)));
        }
    };
    // Was the last press a finger? Then seats too small to aim at are
    // zoomed to first (a section at a time on a phone).
    let touch = RwSignal::new(false);
    let on_map_click = move |ev: web_sys::MouseEvent| {
        if drag.get_untracked().is_some_and(|d| d.2) {
            drag.set(None);
            return;
        }
        let seat = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest(".seat").ok().flatten());
        if touch.get_untracked() {
            if let Some(factor) = zoom_to_tap(seat.as_ref()) {
                let (fx, fy) = pointer_fraction(&ev);
                let now = view_box.get_untracked();
                let closer = now.zoom(factor, fx, fy, bounds.get_untracked());
                // At the closest zoom a tap picks, however small the seats.
                if closer.w < now.w * 0.99 {
                    tip.set(None);
                    view_box.set(closer);
                    return;
                }
            }
        }
        let Some(seat) = seat else {
            return;
        };
        let toggled = toggle_seat(&seat, picked, max_per_booking);
        // A tap shows the seat's details as a hover does.
        show_tip(&seat);
        if toggled == Toggled::AtLimit {
            message.set(Some(l.fill(
                Msg::AtLimit,
                &[
                    ("limit", &max_per_booking),
                    ("places", &kind.places_word(l)),
                ],
            )));
        } else {
            message.set(None);
            lost.set(None);
        }
    };

    let currency_total = currency.clone();
    let offer_currency = StoredValue::new(currency.clone());
    let party_currency = StoredValue::new(currency.clone());
    let total = move || {
        l.price(
            picked.read().iter().map(|p| p.total_cents()).sum(),
            &currency_total,
        )
    };
    let hold_ids = move |ids: Vec<SeatId>| hold_these(event_id, panel, l, ids, Vec::new());
    let do_hold = move |_| {
        tip.set(None);
        let chosen = picked.get_untracked();
        let guests = chosen
            .iter()
            .filter_map(|p| Some((p.id, p.party?.guests)))
            .collect();
        hold_these(
            event_id,
            panel,
            l,
            chosen.iter().map(|p| p.id).collect(),
            guests,
        )
    };
    // After a seat was lost: as many seats again, side by side, around it.
    let find_nearby = move |_| {
        if let Some(l) = lost.get_untracked() {
            suggestions.set(Vec::new());
            let ask = Ask {
                quantity: l.quantity,
                near: Some(l.seat),
                ..Ask::default()
            };
            ask_best(event_id, ask, panel);
        }
    };
    let standing_codes: Vec<String> = standing_areas.iter().map(|a| a.category.clone()).collect();
    let best_categories = seated(&detail.categories, &standing_codes);
    // One click on an alternative: select exactly those seats and hold them.
    let take = move |ids: Vec<SeatId>| {
        select_only(&ids, picked, max_per_booking);
        hold_ids(ids);
    };
    // The view follows the keyboard's focus, and zooms in first while the
    // seats are too small for the focus ring to be seen (the whole arena).
    let on_key = move |ev: web_sys::KeyboardEvent| {
        if let Some((x, y)) = on_map_key(&ev, picked, max_per_booking) {
            let focused = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.active_element());
            let closer = zoom_to_tap(focused.as_ref());
            view_box.update(|v| {
                let full = bounds.get_untracked();
                let near = match closer {
                    Some(factor) => {
                        let fx = ((x - v.x) / v.w).clamp(0.0, 1.0);
                        let fy = ((y - v.y) / v.h).clamp(0.0, 1.0);
                        v.zoom(factor, fx, fy, full)
                    }
                    None => *v,
                };
                *v = near.showing(x, y, full);
            });
        }
    };
    // After a hold ran out: the same seats again, or back to choosing.
    let hold_again = Callback::new(move |ids: Vec<SeatId>| {
        hold.set(None);
        take(ids);
    });
    let choose_again = Callback::new(move |_: ()| {
        hold.set(None);
        lost.set(None);
    });
    // While a hold runs, the panel is about it: no second selection.
    let choosing = move || hold.read().is_none();

    // Three parts, each type-erased: one nested view type this deep
    // overflows the compiler's query depth.
    let colours = crate::ui::buyer::event::colours::category_css(&detail.categories, !is_concert);
    let voyage = data.sailing.clone().map(|s| view! { <Voyage s/> });
    // Before anyone pays: what cancelling gives back, and until when.
    let terms = detail.refund_terms(l);
    let held_terms = terms.clone();
    let head = view! {
        <style>{colours}</style>
        <section class="event-head">
            <h1>{detail.summary.name.clone()}</h1>
            <p class="venue">{detail.summary.venue.clone()}</p>
            <p class="when" data-testid="event-when">
                <time datetime=detail.summary.starts_at.clone()>{detail.summary.when(l)}</time>
            </p>
            {voyage}
            <p class="refund-terms" data-testid="refund-terms">{terms.clone()}</p>
            <p class="live-indicator" data-testid="live" data-live=move || live.get().to_string()>
                {move || l.t(if live.get() { Msg::Live } else { Msg::Reconnecting })}
            </p>
        </section>
    }
    .into_any();
    let map = view! {
        <figure class="seat-map" data-testid="seat-map" node_ref=frame_ref
            data-drawn=move || drawn.get().map(|d| d.is_ok().to_string()).unwrap_or_default()>
                <noscript>
                    <p class="notice">{l.t(Msg::NeedsJavaScript)}</p>
                </noscript>
                {move || drawn.get().and_then(|d| d.err()).map(|_| view! {
                    <p class="error" role="alert">{l.t(Msg::DrawFailed)}</p>
                })}
                <Show when=move || has_decks>
                    <div class="decks" role="tablist" aria-label=l.t(Msg::Decks)>
                        <button role="tab" aria-selected=move || deck.get().is_none().to_string()
                            on:click=move |_| { deck.set(None); bounds.set(full); view_box.set(full); }>{l.t(Msg::AllDecks)}</button>
                        {data.layout.levels.iter().enumerate().map(|(i, (name, part))| {
                            let part = *part;
                            view! {
                                <button role="tab" aria-selected=move || (deck.get() == Some(i)).to_string()
                                    on:click=move |_| show_deck(Some(i), part)>
                                    {name.clone()}
                                </button>
                            }
                        }).collect_view()}
                    </div>
                </Show>
                <div class="zoom" role="group" aria-label=l.t(Msg::Zoom)>
                    <button aria-label=l.t(Msg::ZoomIn) on:click=move |_| { tip.set(None); view_box.update(|v| *v = v.zoom(BUTTON_ZOOM_IN, 0.5, 0.5, bounds.get_untracked())) }>"+"</button>
                    <button aria-label=l.t(Msg::ZoomOut) on:click=move |_| { tip.set(None); view_box.update(|v| *v = v.zoom(BUTTON_ZOOM_OUT, 0.5, 0.5, bounds.get_untracked())) }>"−"</button>
                    <button aria-label=l.t(Msg::WholeMap) on:click=move |_| view_box.set(bounds.get_untracked())>"⟲"</button>
                </div>
                <svg
                    viewBox=move || view_box.get().to_string()
                    role="group"
                    tabindex="0"
                    aria-label=l.t(Msg::MapLabel)
                    on:click=on_map_click
                    on:keydown=on_key
                    on:pointerover=move |ev: web_sys::PointerEvent| {
                        if ev.pointer_type() != "mouse" || drag.get_untracked().is_some() {
                            return;
                        }
                        match ev.target()
                            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                            .and_then(|el| el.closest(".seat").ok().flatten())
                        {
                            Some(seat) => show_tip(&seat),
                            None => tip.set(None),
                        }
                    }
                    on:pointerleave=move |_| tip.set(None)
                    on:wheel=move |ev: web_sys::WheelEvent| {
                        ev.prevent_default();
                        tip.set(None);
                        let factor = if ev.delta_y() < 0.0 { WHEEL_ZOOM_IN } else { WHEEL_ZOOM_OUT };
                        let (fx, fy) = pointer_fraction(&ev);
                        view_box.update(|v| *v = v.zoom(factor, fx, fy, bounds.get_untracked()));
                    }
                    on:pointerdown=move |ev: web_sys::PointerEvent| {
                        touch.set(ev.pointer_type() == "touch");
                        let (x, y) = (ev.client_x() as f64, ev.client_y() as f64);
                        touches.update(|t| t.down(ev.pointer_id(), x, y));
                        // A second finger starts a pinch: never a click.
                        let pinching = touches.read_untracked().0.len() > 1;
                        drag.set(Some((x, y, pinching)));
                    }
                    on:pointermove=move |ev: web_sys::PointerEvent| {
                        let (x, y) = (ev.client_x() as f64, ev.client_y() as f64);
                        if let Some((factor, mx, my)) = touches.try_update(|t| t.moved(ev.pointer_id(), x, y)).flatten() {
                            let Some(el) = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
                            let (fx, fy) = fraction_at(&el, mx, my);
                            view_box.update(|v| *v = v.zoom(factor, fx, fy, bounds.get_untracked()));
                            tip.set(None);
                            return;
                        }
                        if touches.read_untracked().0.len() > 1 {
                            return;
                        }
                        let Some((x0, y0, _)) = drag.get_untracked() else { return };
                        if (x - x0).abs() + (y - y0).abs() < 4.0 {
                            return;
                        }
                        tip.set(None);
                        let scale = svg_scale(&ev);
                        view_box.update(|v| *v = v.pan((x0 - x) * scale, (y0 - y) * scale, bounds.get_untracked()));
                        drag.set(Some((x, y, true)));
                    }
                    on:pointerup=move |ev: web_sys::PointerEvent| {
                        touches.update(|t| t.up(ev.pointer_id()));
                        if let Some(&(_, x, y)) = touches.read_untracked().0.first() {
                            // One finger stays after a pinch: it pans from here.
                            drag.set(Some((x, y, true)));
                        } else if !drag.get_untracked().is_some_and(|d| d.2) {
                            drag.set(None);
                        }
                    }
                    on:pointercancel=move |ev: web_sys::PointerEvent| {
                        touches.update(|t| t.up(ev.pointer_id()));
                        drag.set(None);
                    }
                >
                    <Show when=move || is_concert>
                        <rect class="stage" x=stage.x y=stage.y width=stage.w height=stage.h rx="6"></rect>
                        <text class="stage-label" x=stage.x + stage.w / 2.0 y=stage.y + stage.h * 0.68>{l.t(Msg::Stage)}</text>
                    </Show>
                    {is_concert.then(|| view! { <FloorOnMap floor=data.layout.floor areas=standing_areas.clone()/> })}
                    <g class="section-labels">
                        {data.layout.sections.iter().map(|(name, x, y)| view! {
                            <text x=x.to_string() y=y.to_string() class="section-label">{name.clone()}</text>
                        }).collect_view()}
                    </g>
                    <g class="drawing" node_ref=seats_ref></g>
                </svg>
                <SeatTip tip/>
            </figure>
    }
    .into_any();
    let panel = view! {
        <aside class="panel">
                <h2>{l.t(Msg::YourSelection)}</h2>
                <ul class="legend" id="legend" class:open=move || legend_open.get()>
                    {detail.categories.iter().map(|c| view! {
                        <li><span class=format!("swatch cat-{}", c.code)></span>{format!("{} · {}", c.name, l.price(c.price_cents, &currency))}</li>
                    }).collect_view()}
                    <li class="key"><span class="swatch selected"></span>{l.t(Msg::YourSelection)}</li>
                    <li class="key"><span class="swatch mine"></span>{l.t(Msg::HeldByYou)}</li>
                    <li class="key"><span class="swatch held"></span>{l.t(Msg::HeldBySomeoneElse)}</li>
                    <li class="key"><span class="swatch booked"></span>{l.t(Msg::SoldLegend)}</li>
                </ul>
                <button type="button" class="legend-toggle" aria-controls="legend"
                    aria-expanded=move || legend_open.get().to_string()
                    on:click=move |_| legend_open.update(|o| *o = !*o)>{l.t(Msg::ColourKey)}</button>
                <Show when=choosing>
                <p class="hint limit">{l.fill(Msg::UpToPerBooking, &[("limit", &max_per_booking), ("places", &kind.places_word(l))])}</p>
                // On a phone: a bar at the bottom of the screen while seats are picked.
                <div class="action-bar" class:active=move || !picked.read().is_empty() data-testid="selection-bar">
                    <p class="total">
                        <span class="bar-summary">{move || format!("{} · ", kind.places(l, picked.read().len()))}</span>
                        {l.t(Msg::TotalLabel)} <strong>{total.clone()}</strong>
                    </p>
                    <button class="hold" on:click=do_hold disabled=move || picked.read().is_empty()>{l.t(if is_concert { Msg::HoldSeats } else { Msg::HoldCabins })}</button>
                </div>
                // The seats picked, each with its ×; after the action, so the
                // keyboard reaches Hold seats first.
                <ul class="selection" data-testid="selection">
                    <For each=move || picked.get() key=|p| p.id let:p>
                        <li>
                            <span>{p.name.clone()}</span>
                            {p.party.map(|party| view! { <PartyChoice id=p.id name=p.name.clone() party currency=party_currency.get_value() picked/> })}
                            <button type="button" class="unselect" aria-label=l.fill(Msg::RemovePlace, &[("name", &p.name)])
                                on:click=move |_| { unselect(p.id, picked); message.set(None); lost.set(None); }>"×"</button>
                        </li>
                    </For>
                </ul>
                <Show when=move || picked.read().iter().any(|p| p.party.is_some_and(|x| x.max > 2))>
                    <p class="hint">{l.t(Msg::CabinPricing)}</p>
                </Show>
                <Show when=move || !picked.read().is_empty()>
                    <button type="button" class="link clear" data-testid="clear-selection"
                        on:click=move |_| { select_only(&[], picked, max_per_booking); message.set(None); lost.set(None); }>{l.t(Msg::ClearSelection)}</button>
                </Show>
                </Show>
                <Show when=move || message.get().is_some()>
                    <p class="error" role="alert">{move || message.get()}</p>
                </Show>
                <Show when=move || lost.get().is_some() && choosing()>
                    <button type="button" class="suggestion" data-testid="find-nearby" on:click=find_nearby>
                        {move || lost.get().map(|gone| match gone.quantity {
                            1 => l.fill(Msg::FindAnotherNearby, &[("place", &kind.place_word(l))]),
                            n => l.fill(Msg::FindTogetherNearby, &[("n", &n), ("places", &kind.places_word(l))]),
                        })}
                    </button>
                </Show>
                <Show when=move || !suggestions.read().is_empty()>
                    <div class="suggestions" data-testid="suggestions">
                        <p>{l.t(Msg::InsteadYouCouldTake)}</p>
                        {move || suggestions.get().into_iter().map(|ids| {
                            let names = ids.iter().map(|id| seat_name(*id)).collect::<Vec<_>>().join(" + ");
                            let cents: i64 = ids.iter().map(|id| seat_price(*id)).sum();
                            let label = format!("{names} ({})", offer_currency.with_value(|c| l.price(cents, c)));
                            let ids2 = ids.clone();
                            view! { <button class="suggestion" on:click=move |_| take(ids2.clone())>{l.fill(Msg::TakeOffer, &[("offer", &label)])}</button> }
                        }).collect_view()}
                    </div>
                </Show>
                <Show when=choosing>
                // Standing first: its stepper is what the floor on the map
                // leads to, and it is a choice of its own, not a fallback.
                <Standing areas=standing_areas.clone() sale=StandingSale { event_id, left: standing_left, currency: currency.clone(), limit: max_per_booking, hold, message }/>
                <BestSeats event_id categories=best_categories.clone() currency=currency.clone()
                    hint=best_hint(l, kind, max_per_booking) panel/>
                </Show>
                {move || hold.get().map(|h| view! { <HeldPanel h kind terms=held_terms.clone() again=hold_again done=choose_again/> })}
                <Show when=choosing>
                    <SeatList sections=section_names.clone() picked limit=max_per_booking kind/>
                </Show>
            </aside>
    }
    .into_any();
    view! {
        {head}
        <div class="map-layout">{map}{panel}</div>
    }
}
