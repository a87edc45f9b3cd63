//! The map's seats in the page: the buyer's selection, and the status
//! classes the server's markup starts with and live changes flip. A seat's
//! element is `seat-{id}` (`seat_element` finds it).

use leptos::prelude::*;
use leptos::web_sys;

#[derive(Clone, PartialEq)]
pub struct Picked {
    pub id: i64,
    pub name: String,
    pub cents: i64,
}

/// The map's element of a seat.
pub fn seat_element(id: i64) -> Option<web_sys::Element> {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(&format!("seat-{id}")))
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
pub fn mark_seats(ids: &[i64], status: &str) {
    for id in ids {
        if let Some(el) = seat_element(*id) {
            let classes = el.class_list();
            let _ = classes.remove_4("available", "selected", "booked", "held");
            let _ = classes.add_1(status);
        }
    }
}

/// "Section L1, row 3, seat 7" from the seat's accessible name.
pub fn seat_name(id: i64) -> String {
    seat_element(id)
        .and_then(|el| el.text_content())
        .map(|t| t.splitn(4, ", ").take(3).collect::<Vec<_>>().join(", "))
        .unwrap_or_else(|| format!("seat {id}"))
}

/// Replaces the selection with exactly these seats.
pub fn select_only(ids: &[i64], picked: RwSignal<Vec<Picked>>) {
    for p in picked.get_untracked() {
        if let Some(el) = seat_element(p.id) {
            let _ = el.class_list().remove_1("selected");
        }
    }
    picked.set(Vec::new());
    for id in ids {
        if let Some(el) = seat_element(*id) {
            toggle_seat(&el, picked);
        }
    }
}

/// Briefly highlights seats that were just lost to someone else.
pub fn flash(ids: &[i64]) {
    for id in ids {
        if let Some(el) = seat_element(*id) {
            let _ = el.class_list().add_1("flash");
        }
    }
}
