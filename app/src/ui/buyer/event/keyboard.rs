//! Keyboard navigation on the map: arrow keys move the focus between seats
//! (left/right along the row, up/down to the nearest seat above or below);
//! Enter or Space selects.

use leptos::prelude::*;
use leptos::web_sys;
use wasm_bindgen::JsCast;

use super::seats::{toggle_seat, Picked};

/// Arrow keys move the focus between seats (left/right along the row,
/// up/down to the nearest seat above or below); Enter or Space selects.
/// Returns where the newly focused seat is on the map, for the view to
/// follow it.
pub fn on_map_key(
    ev: &web_sys::KeyboardEvent,
    picked: RwSignal<Vec<Picked>>,
    limit: usize,
) -> Option<(f64, f64)> {
    let doc = web_sys::window().and_then(|w| w.document())?;
    let active = doc
        .active_element()
        .filter(|el| el.class_list().contains("seat"));
    let key = ev.key();
    let next = match (key.as_str(), &active) {
        ("Enter" | " ", Some(seat)) => {
            ev.prevent_default();
            toggle_seat(seat, picked, limit);
            return None;
        }
        ("ArrowLeft" | "ArrowRight" | "ArrowUp" | "ArrowDown" | "Enter" | " ", None) => {
            doc.query_selector("svg .seat.available").ok().flatten()
        }
        ("ArrowRight", Some(seat)) => seat.next_element_sibling(),
        ("ArrowLeft", Some(seat)) => seat.previous_element_sibling(),
        ("ArrowUp" | "ArrowDown", Some(seat)) => nearest_vertically(&doc, seat, key == "ArrowDown"),
        _ => return None,
    };
    ev.prevent_default();
    let el = next.and_then(|n| n.dyn_into::<web_sys::SvgElement>().ok())?;
    let _ = el.focus();
    Some(center(&el))
}

/// A place's centre on the map: a seat's circle centre, a cabin's (its
/// rectangle carries it as `data-x`, `data-y`).
fn center(el: &web_sys::Element) -> (f64, f64) {
    if el.has_attribute("data-x") {
        (coord(el, "data-x"), coord(el, "data-y"))
    } else {
        (coord(el, "cx"), coord(el, "cy"))
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
    let (x, y) = center(from);
    let all = doc.query_selector_all("svg .seat").ok()?;
    let mut best: Option<(f64, web_sys::Element)> = None;
    for i in 0..all.length() {
        let Some(el) = all
            .item(i)
            .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
        else {
            continue;
        };
        let (ex, ey) = center(&el);
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
