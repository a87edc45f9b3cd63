//! An event's seat map: the SVG drawn from the seats' coordinates, a legend
//! of price categories, and a side panel with the selection and the Hold
//! button. The seats arrive as server-rendered markup; in the browser one
//! click handler on the map selects them.

use leptos::prelude::*;
use leptos::web_sys;
use leptos_router::hooks::use_params_map;
use wasm_bindgen::JsCast;

use crate::model::format_price;
use crate::model::{HoldResponse, SeatChanges, SeatStatus};
use crate::server_fns::buyer::{
    event_page, hold_seats, pay_booking, EventPageData, HoldOutcome, PayOutcome,
};
use crate::ui::buyer::event::map_view::{
    fraction_at, pointer_fraction, svg_scale, Touches, ViewBox,
};
use crate::ui::buyer::event::seat_list::SeatList;
use crate::ui::buyer::event::waiting_room::WaitingRoom;
use crate::ui::buyer::promo_form::PromoForm;
use crate::ui::live::use_event_stream;

#[component]
pub fn EventPage() -> impl IntoView {
    let params = use_params_map();
    let event_id = move || params.read().get("id").and_then(|s| s.parse::<i64>().ok());
    let page = Resource::new(event_id, |id| async move {
        match id {
            Some(id) => event_page(id).await,
            None => Ok(None),
        }
    });
    view! {
        <Suspense fallback=|| view! { <p>"Loading the seat map…"</p> }>
            {move || Suspend::new(async move {
                match page.await {
                    Ok(Some(data)) => match data.waiting.clone() {
                        Some(first) => view! { <WaitingRoom detail=data.detail.clone() first/> }.into_any(),
                        None => view! { <SeatMap data/> }.into_any(),
                    },
                    Ok(None) => view! { <p class="notice">"There is no such event."</p> }.into_any(),
                    Err(_) => view! { <p class="error" role="alert">"The seat map could not be loaded. Please try again in a moment."</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[derive(Clone, PartialEq)]
pub struct Picked {
    pub id: i64,
    pub name: String,
    pub cents: i64,
}

#[component]
fn SeatMap(data: EventPageData) -> impl IntoView {
    let detail = data.detail.clone();
    let event_id = detail.summary.id;
    let is_concert = detail.summary.kind == crate::model::EventKind::Concert;
    let currency = detail.summary.currency.clone();
    let markup = seats_markup(event_id);
    let picked: RwSignal<Vec<Picked>> = RwSignal::new(Vec::new());
    let message: RwSignal<Option<String>> = RwSignal::new(None);
    let hold: RwSignal<Option<crate::model::HoldResponse>> = RwSignal::new(None);
    let live = RwSignal::new(false);
    let since = data.version;
    Effect::new(move |_| connect_live(event_id, since, picked, live));

    let full = ViewBox::parse(&data.view_box);
    let view_box = RwSignal::new(full);
    // What zoom and pan stay within: the whole map, or one deck.
    let bounds = RwSignal::new(full);
    // A drag that moved the map is not a click on a seat.
    let drag: RwSignal<Option<(f64, f64, bool)>> = RwSignal::new(None);
    let touches: RwSignal<Touches> = RwSignal::new(Touches::default());
    let deck: RwSignal<Option<usize>> = RwSignal::new(None);
    let has_decks = !data.levels.is_empty();
    let section_names: Vec<String> = data.sections.iter().map(|s| s.0.clone()).collect();
    let on_map_click = move |ev: web_sys::MouseEvent| {
        if drag.get_untracked().is_some_and(|d| d.2) {
            drag.set(None);
            return;
        }
        let Some(seat) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("circle.seat").ok().flatten())
        else {
            return;
        };
        toggle_seat(&seat, picked);
    };

    let currency_total = currency.clone();
    let total = move || format_price(picked.read().iter().map(|p| p.cents).sum(), &currency_total);
    let suggestions: RwSignal<Vec<Vec<i64>>> = RwSignal::new(Vec::new());
    let hold_ids = move |ids: Vec<i64>| {
        if ids.is_empty() {
            return;
        }
        message.set(None);
        suggestions.set(Vec::new());
        let key = new_idempotency_key();
        leptos::task::spawn_local(async move {
            match hold_seats(event_id, ids, key).await {
                Ok(HoldOutcome::Held(r)) => {
                    mark_seats(&r.seat_ids, "held");
                    picked.set(Vec::new());
                    hold.set(Some(r));
                }
                Ok(HoldOutcome::Refused {
                    message: m,
                    seat_ids,
                    suggestions: offered,
                    ..
                }) => {
                    mark_seats(&seat_ids, "held");
                    flash(&seat_ids);
                    picked.update(|p| p.retain(|s| !seat_ids.contains(&s.id)));
                    message.set(Some(m));
                    suggestions.set(offered);
                }
                Err(e) => message.set(Some(failure(&e, "your seats were not held"))),
            }
        });
    };
    let do_hold = move |_| hold_ids(picked.get_untracked().iter().map(|p| p.id).collect());
    // One click on an alternative: select exactly those seats and hold them.
    let take = move |ids: Vec<i64>| {
        select_only(&ids, picked);
        hold_ids(ids);
    };
    let on_key = move |ev: web_sys::KeyboardEvent| on_map_key(&ev, picked);

    // Three parts, each type-erased: one nested view type this deep
    // overflows the compiler's query depth.
    let head = view! {
        <section class="event-head">
            <h1>{detail.summary.name.clone()}</h1>
            <p class="venue">{detail.summary.venue.clone()}</p>
            <p class="live-indicator" data-testid="live" data-live=move || live.get().to_string()>
                {move || if live.get() { "● live" } else { "○ reconnecting…" }}
            </p>
        </section>
    }
    .into_any();
    let map = view! {
        <figure class="seat-map">
                <Show when=move || has_decks>
                    <div class="decks" role="tablist" aria-label="Decks">
                        <button role="tab" aria-selected=move || deck.get().is_none().to_string()
                            on:click=move |_| { deck.set(None); bounds.set(full); view_box.set(full); }>"All decks"</button>
                        {data.levels.iter().enumerate().map(|(i, (name, b))| {
                            let part = ViewBox::parse(b);
                            view! {
                                <button role="tab" aria-selected=move || (deck.get() == Some(i)).to_string()
                                    on:click=move |_| { deck.set(Some(i)); bounds.set(part); view_box.set(part); }>
                                    {name.clone()}
                                </button>
                            }
                        }).collect_view()}
                    </div>
                </Show>
                <div class="zoom" role="group" aria-label="Zoom">
                    <button aria-label="Zoom in" on:click=move |_| view_box.update(|v| *v = v.zoom(0.7, 0.5, 0.5, bounds.get_untracked()))>"+"</button>
                    <button aria-label="Zoom out" on:click=move |_| view_box.update(|v| *v = v.zoom(1.43, 0.5, 0.5, bounds.get_untracked()))>"−"</button>
                    <button aria-label="Show the whole map" on:click=move |_| view_box.set(bounds.get_untracked())>"⟲"</button>
                </div>
                <svg
                    viewBox=move || view_box.get().to_string()
                    role="group"
                    tabindex="0"
                    aria-label="Seat map. Arrow keys move between seats, Enter or Space selects one."
                    on:click=on_map_click
                    on:keydown=on_key
                    on:wheel=move |ev: web_sys::WheelEvent| {
                        ev.prevent_default();
                        let factor = if ev.delta_y() < 0.0 { 0.8 } else { 1.25 };
                        let (fx, fy) = pointer_fraction(&ev);
                        view_box.update(|v| *v = v.zoom(factor, fx, fy, bounds.get_untracked()));
                    }
                    on:pointerdown=move |ev: web_sys::PointerEvent| {
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
                            return;
                        }
                        if touches.read_untracked().0.len() > 1 {
                            return;
                        }
                        let Some((x0, y0, _)) = drag.get_untracked() else { return };
                        if (x - x0).abs() + (y - y0).abs() < 4.0 {
                            return;
                        }
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
                        <rect class="stage" x="880" y="62" width="240" height="34" rx="6"></rect>
                        <text class="stage-label" x="1000" y="85">"STAGE"</text>
                    </Show>
                    <g class="section-labels">
                        {data.sections.iter().map(|(name, x, y)| view! {
                            <text x=x.to_string() y=y.to_string() class="section-label">{name.clone()}</text>
                        }).collect_view()}
                    </g>
                    <g class="row-labels" aria-hidden="true" inner_html=markup.rows></g>
                    <g class="seats" inner_html=markup.seats></g>
                </svg>
            </figure>
    }
    .into_any();
    let panel = view! {
        <aside class="panel">
                <h2>"Your selection"</h2>
                <ul class="legend">
                    {detail.categories.iter().map(|c| view! {
                        <li><span class=format!("swatch cat-{}", c.code)></span>{format!("{} · {}", c.name, format_price(c.price_cents, &currency))}</li>
                    }).collect_view()}
                    <li><span class="swatch held"></span>"Held by someone"</li>
                    <li><span class="swatch booked"></span>"Sold"</li>
                </ul>
                <ul class="selection" data-testid="selection">
                    <For each=move || picked.get() key=|p| p.id let:p>
                        <li>{p.name.clone()}</li>
                    </For>
                </ul>
                <p class="total">"Total: " <strong>{total}</strong></p>
                <button class="hold" on:click=do_hold disabled=move || picked.read().is_empty()>"Hold seats"</button>
                <Show when=move || message.get().is_some()>
                    <p class="error" role="alert">{move || message.get()}</p>
                </Show>
                <Show when=move || !suggestions.read().is_empty()>
                    <div class="suggestions" data-testid="suggestions">
                        <p>"Free nearby:"</p>
                        {move || suggestions.get().into_iter().map(|ids| {
                            let label = ids.iter().map(|id| seat_name(*id)).collect::<Vec<_>>().join(" + ");
                            let ids2 = ids.clone();
                            view! { <button class="suggestion" on:click=move |_| take(ids2.clone())>{format!("Take {label}")}</button> }
                        }).collect_view()}
                    </div>
                </Show>
                {move || hold.get().map(|h| view! { <HeldPanel h/> })}
                <SeatList sections=section_names.clone() picked/>
            </aside>
    }
    .into_any();
    view! {
        {head}
        <div class="map-layout">{map}{panel}</div>
    }
}

/// Server side: the seats' markup from the in-memory map. In the browser the
/// server's markup is kept as it is (hydration does not touch `inner_html`).
fn seats_markup(event_id: i64) -> Markup {
    #[cfg(feature = "ssr")]
    {
        use crate::ui::buyer::event::markup::{row_labels_svg, seats_svg, RowLabel, SeatDot};
        let Some(state) = use_context::<crate::core::AppState>() else {
            return Markup::default();
        };
        let Some(map) = state.seat_maps.cached(event_id) else {
            return Markup::default();
        };
        let now = state.clock.now_ms();
        let statuses = map.statuses(now);
        let dots = map.seats.iter().enumerate().map(|(i, s)| SeatDot {
            id: s.id,
            section: &s.section,
            row: &s.row,
            number: s.number,
            x: s.x,
            y: s.y,
            category: &s.category,
            price_cents: s.price_cents,
            status: statuses[i],
        });
        // Seats take ~80% of the distance to their neighbour in a row.
        let pitch = map
            .rows
            .iter()
            .find(|r| r.len() > 1)
            .map(|r| {
                let (a, b) = (&map.seats[r[0]], &map.seats[r[1]]);
                ((a.x - b.x).powi(2) + (a.y - b.y).powi(2)).sqrt()
            })
            .unwrap_or(10.0);
        let radius = (pitch * 0.4).clamp(3.0, 16.0).round();
        let rows = map.rows.iter().filter_map(|r| {
            let first = &map.seats[*r.first()?];
            let second = r.get(1).map(|i| (map.seats[*i].x, map.seats[*i].y));
            Some(RowLabel {
                label: &first.row,
                first: (first.x, first.y),
                second,
            })
        });
        Markup {
            seats: seats_svg(dots, &map.currency, radius),
            rows: row_labels_svg(rows, radius),
        }
    }
    #[cfg(not(feature = "ssr"))]
    {
        let _ = event_id;
        Markup::default()
    }
}

/// The map's server-rendered parts: the seats, and the row labels.
#[derive(Default)]
struct Markup {
    seats: String,
    rows: String,
}

/// Selects or unselects an available seat of the map.
pub fn toggle_seat(seat: &web_sys::Element, picked: RwSignal<Vec<Picked>>) {
    let classes = seat.class_list();
    if !classes.contains("available") {
        return;
    }
    let Some(id) = seat
        .get_attribute("data-id")
        .and_then(|v| v.parse::<i64>().ok())
    else {
        return;
    };
    let cents = seat
        .get_attribute("data-price")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let name = seat.text_content().unwrap_or_default();
    let name = name
        .rsplit_once(',')
        .map(|(n, _)| n.to_string())
        .unwrap_or(name);
    if classes.contains("selected") {
        let _ = classes.remove_1("selected");
        picked.update(|p| p.retain(|s| s.id != id));
    } else {
        let _ = classes.add_1("selected");
        picked.update(|p| p.push(Picked { id, name, cents }));
    }
}

/// Flips the status class of seats on the map (after a hold or a refusal).
fn mark_seats(ids: &[i64], status: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    for id in ids {
        if let Some(el) = doc.get_element_by_id(&format!("seat-{id}")) {
            let classes = el.class_list();
            let _ = classes.remove_4("available", "selected", "booked", "held");
            let _ = classes.add_1(status);
        }
    }
}

fn new_idempotency_key() -> String {
    format!(
        "ui-{}-{}",
        js_sys::Date::now() as u64,
        (js_sys::Math::random() * 1e12) as u64
    )
}

/// The running hold: a countdown from the server's `expiresInMs` (counted
/// from when the answer arrived, so the buyer's clock never matters) and Pay.
#[component]
fn HeldPanel(h: HoldResponse) -> impl IntoView {
    let deadline = js_sys::Date::now() + h.expires_in_ms as f64;
    let left_ms = RwSignal::new(h.expires_in_ms);
    let seat_ids = h.seat_ids.clone();
    Effect::new(move |_| {
        let seat_ids = seat_ids.clone();
        if let Ok(handle) = set_interval_with_handle(
            move || {
                let left = (deadline - js_sys::Date::now()).max(0.0) as i64;
                if left == 0 && left_ms.get_untracked() > 0 {
                    mark_seats(&seat_ids, "available");
                }
                left_ms.set(left);
            },
            std::time::Duration::from_millis(250),
        ) {
            on_cleanup(move || handle.clear());
        }
    });
    let error: RwSignal<Option<String>> = RwSignal::new(None);
    let booking_id = h.booking_id.clone();
    let pay = move |_| {
        let booking_id = booking_id.clone();
        let key = new_idempotency_key();
        leptos::task::spawn_local(async move {
            match pay_booking(booking_id, key).await {
                Ok(PayOutcome::Checkout(url)) => {
                    if let Some(w) = web_sys::window() {
                        let _ = w.location().set_href(&url);
                    }
                }
                Ok(PayOutcome::Refused(m)) => error.set(Some(m)),
                Err(e) => error.set(Some(failure(
                    &e,
                    "the payment was not started; your seats are still held",
                ))),
            }
        });
    };
    let running = move || left_ms.get() > 0;
    let amount = RwSignal::new(h.amount_cents);
    let seats = h.seat_ids.len();
    let currency = h.currency.clone();
    let summary = move || {
        format!(
            "Held {seats} seat(s) for {}.",
            format_price(amount.get(), &currency)
        )
    };
    let promo_booking = h.booking_id.clone();
    let promo_currency = h.currency.clone();
    view! {
        <div class="held-note" role="status">
            <p>{summary}</p>
            <Show
                when=running
                fallback=|| view! { <p class="expired" data-testid="hold-expired">"Your hold has expired; the seats are back on sale."</p> }
            >
                <p class="countdown" data-testid="countdown">
                    "Time left: "
                    <strong>{move || { let s = left_ms.get() / 1000; format!("{}:{:02}", s / 60, s % 60) }}</strong>
                </p>
                <PromoForm booking_id=promo_booking.clone() amount currency=promo_currency.clone()/>
                <button class="hold pay" on:click=pay.clone()>"Pay now"</button>
            </Show>
            <Show when=move || error.get().is_some()>
                <p class="error" role="alert">{move || error.get()}</p>
            </Show>
        </div>
    }
}

/// Follows the seat stream: every change from any buyer flips the seat's
/// class; a seat in the selection that someone else took leaves the
/// selection; a `reset` (too much missed) reloads the page.
fn connect_live(event_id: i64, since: u64, picked: RwSignal<Vec<Picked>>, live: RwSignal<bool>) {
    let url = format!("/api/events/{event_id}/seats/stream?since={since}");
    let on_changes = move |batch: SeatChanges| {
        for change in batch.changes {
            let status = change.status.class();
            if change.status != SeatStatus::Available {
                picked.update(|p| p.retain(|s| s.id != change.id));
            }
            mark_seats(&[change.id], status);
        }
    };
    let reload = Box::new(|| {
        if let Some(w) = web_sys::window() {
            let _ = w.location().reload();
        }
    });
    use_event_stream(&url, "seats", live, on_changes, Some(reload));
}

/// Arrow keys move the focus between seats (left/right along the row,
/// up/down to the nearest seat above or below); Enter or Space selects.
fn on_map_key(ev: &web_sys::KeyboardEvent, picked: RwSignal<Vec<Picked>>) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let active = doc
        .active_element()
        .filter(|el| el.class_list().contains("seat"));
    let key = ev.key();
    let next = match (key.as_str(), &active) {
        ("Enter" | " ", Some(seat)) => {
            ev.prevent_default();
            toggle_seat(seat, picked);
            return;
        }
        ("ArrowLeft" | "ArrowRight" | "ArrowUp" | "ArrowDown" | "Enter" | " ", None) => {
            doc.query_selector("circle.seat.available").ok().flatten()
        }
        ("ArrowRight", Some(seat)) => seat.next_element_sibling(),
        ("ArrowLeft", Some(seat)) => seat.previous_element_sibling(),
        ("ArrowUp" | "ArrowDown", Some(seat)) => nearest_vertically(&doc, seat, key == "ArrowDown"),
        _ => return,
    };
    ev.prevent_default();
    if let Some(el) = next.and_then(|n| n.dyn_into::<web_sys::SvgElement>().ok()) {
        let _ = el.focus();
    }
}

fn coord(el: &web_sys::Element, name: &str) -> f64 {
    el.get_attribute(name)
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0)
}

fn nearest_vertically(
    doc: &web_sys::Document,
    from: &web_sys::Element,
    down: bool,
) -> Option<web_sys::Element> {
    let (x, y) = (coord(from, "cx"), coord(from, "cy"));
    let all = doc.query_selector_all("circle.seat").ok()?;
    let mut best: Option<(f64, web_sys::Element)> = None;
    for i in 0..all.length() {
        let Some(el) = all
            .item(i)
            .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
        else {
            continue;
        };
        let (ex, ey) = (coord(&el, "cx"), coord(&el, "cy"));
        let dy = if down { ey - y } else { y - ey };
        if dy < 3.0 {
            continue;
        }
        let d = dy * dy + 4.0 * (ex - x) * (ex - x);
        if best.as_ref().is_none_or(|(b, _)| d < *b) {
            best = Some((d, el));
        }
    }
    best.map(|(_, el)| el)
}

/// "Section L1, row 3, seat 7" from the seat's accessible name.
fn seat_name(id: i64) -> String {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(&format!("seat-{id}")))
        .and_then(|el| el.text_content())
        .map(|t| t.splitn(4, ", ").take(3).collect::<Vec<_>>().join(", "))
        .unwrap_or_else(|| format!("seat {id}"))
}

/// Replaces the selection with exactly these seats.
fn select_only(ids: &[i64], picked: RwSignal<Vec<Picked>>) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    for p in picked.get_untracked() {
        if let Some(el) = doc.get_element_by_id(&format!("seat-{}", p.id)) {
            let _ = el.class_list().remove_1("selected");
        }
    }
    picked.set(Vec::new());
    for id in ids {
        if let Some(el) = doc.get_element_by_id(&format!("seat-{id}")) {
            toggle_seat(&el, picked);
        }
    }
}

/// Briefly highlights seats that were just lost to someone else.
fn flash(ids: &[i64]) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    for id in ids {
        if let Some(el) = doc.get_element_by_id(&format!("seat-{id}")) {
            let _ = el.class_list().add_1("flash");
        }
    }
}

/// What the buyer reads when a step could not even be answered: whether
/// the network or the server failed, and what did not happen.
fn failure(e: &ServerFnError, what_not: &str) -> String {
    let text = e.to_string();
    if text.contains("429") || text.contains("RATE_LIMITED") || text.contains("Too many") {
        format!("Too many attempts in a short time; {what_not}. Please wait a few seconds and try again.")
    } else if matches!(e, ServerFnError::Request(_)) {
        format!("We could not reach Holdfast (is the network down?); {what_not}. Please try again.")
    } else {
        format!("Something went wrong on our side; {what_not}. Please try again.")
    }
}
