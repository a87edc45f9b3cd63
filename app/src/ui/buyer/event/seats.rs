//! The map's seats in the page: the buyer's selection, and how each seat
//! looks. A seat's element is `seat-{id}` (`seat_element` finds it); its
//! look is one `Look`, applied by `show` to its classes *and* to what
//! assistive technology reads (the `<title>` that names it, `aria-pressed`,
//! `aria-disabled`), so a screen-reader user hears a seat taken as soon as
//! a sighted buyer sees it.

use leptos::prelude::*;
use leptos::web_sys;

use crate::i18n::{Locale, Msg};
use crate::model::SeatId;
use crate::model::SeatStatus;

#[derive(Clone, PartialEq)]
pub struct Picked {
    pub id: SeatId,
    pub name: String,
    /// The place's price (a cabin's for up to two guests).
    pub cents: i64,
    /// A cabin's party: how many it sleeps, what each guest beyond two
    /// adds, and how many the buyer chose (`None` for a seat).
    pub party: Option<Party>,
}

#[derive(Clone, Copy, PartialEq)]
pub struct Party {
    pub min: i64,
    pub max: i64,
    pub extra_cents: i64,
    pub guests: i64,
}

impl Picked {
    /// What the place costs for its party.
    pub fn total_cents(&self) -> i64 {
        self.cents
            + self
                .party
                .map_or(0, |p| p.extra_cents * (p.guests - 2).max(0))
    }
}

/// How a seat shows on the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    Available,
    /// In this buyer's selection (not yet held).
    Selected,
    /// Held by this buyer.
    Yours,
    /// Held by someone else.
    Held,
    Sold,
}

impl Look {
    /// What the seat stream or the status letters say, from this buyer's
    /// side: a held seat of their own hold is theirs.
    pub fn of(status: SeatStatus, yours: bool) -> Look {
        match status {
            SeatStatus::Available => Look::Available,
            SeatStatus::Held if yours => Look::Yours,
            SeatStatus::Held => Look::Held,
            SeatStatus::Booked => Look::Sold,
        }
    }

    fn classes(self) -> &'static [&'static str] {
        match self {
            Look::Available => &["available"],
            Look::Selected => &["available", "selected"],
            Look::Yours => &["held", "mine"],
            Look::Held => &["held"],
            Look::Sold => &["booked"],
        }
    }

    /// The last words of the seat's accessible name, in the page's
    /// language.
    pub fn word(self, l: Locale) -> &'static str {
        l.t(match self {
            Look::Available => Msg::LookAvailable,
            Look::Selected => Msg::LookSelected,
            Look::Yours => Msg::LookYours,
            Look::Held => Msg::LookHeld,
            Look::Sold => Msg::LookSold,
        })
    }
}

/// Every class a look sets, removed before the new look's are added.
const LOOK_CLASSES: [&str; 5] = ["available", "selected", "held", "mine", "booked"];

/// Gives the seat this look: classes, accessible name and ARIA state.
pub fn show(seat: &web_sys::Element, look: Look) {
    paint(seat, look);
    let _ = seat.set_attribute(
        "aria-pressed",
        if look == Look::Selected {
            "true"
        } else {
            "false"
        },
    );
    match look {
        Look::Available | Look::Selected => {
            let _ = seat.remove_attribute("aria-disabled");
        }
        _ => {
            let _ = seat.set_attribute("aria-disabled", "true");
        }
    }
}

/// Makes a drawn seat a picture, not a control (the console's map by
/// sale): it keeps its name, loses its button role and focus.
pub fn read_only(seat: &web_sys::Element) {
    for a in ["tabindex", "aria-pressed", "aria-disabled"] {
        let _ = seat.remove_attribute(a);
    }
    let _ = seat.set_attribute("role", "img");
}

/// The look's classes and the last words of the seat's name.
pub fn paint(seat: &web_sys::Element, look: Look) {
    let classes = seat.class_list();
    for c in LOOK_CLASSES {
        let _ = classes.remove_1(c);
    }
    for c in look.classes() {
        let _ = classes.add_1(c);
    }
    if let Some(title) = seat.first_element_child() {
        let name = name_of(&title.text_content().unwrap_or_default());
        let word = look.word(crate::i18n::page_locale());
        title.set_text_content(Some(&format!("{name}, {word}")));
    }
}

/// "Section A, row 1, seat 2, €85.00" from the whole accessible name
/// (which ends with the seat's state).
fn name_of(full: &str) -> String {
    full.rsplit_once(", ")
        .map(|(name, _)| name.to_string())
        .unwrap_or_else(|| full.to_string())
}

/// The map's element of a seat.
pub fn seat_element(id: SeatId) -> Option<web_sys::Element> {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(&format!("seat-{id}")))
}

/// What a click on a seat did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Toggled {
    Selected,
    Unselected,
    /// The selection already has the most seats one booking may have.
    AtLimit,
    /// Held, sold or yours: nothing to select.
    Unavailable,
}

/// Selects or unselects an available seat of the map; the selection stops
/// at `limit` seats (the per-booking limit).
pub fn toggle_seat(
    seat: &web_sys::Element,
    picked: RwSignal<Vec<Picked>>,
    limit: usize,
) -> Toggled {
    let classes = seat.class_list();
    if !classes.contains("available") {
        return Toggled::Unavailable;
    }
    let Some(id) = seat
        .get_attribute("data-id")
        .and_then(|v| v.parse::<SeatId>().ok())
    else {
        return Toggled::Unavailable;
    };
    if classes.contains("selected") {
        show(seat, Look::Available);
        picked.update(|p| p.retain(|s| s.id != id));
        return Toggled::Unselected;
    }
    if picked.with_untracked(|p| p.len()) >= limit {
        return Toggled::AtLimit;
    }
    let cents = seat
        .get_attribute("data-price")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let name = name_of(&seat.text_content().unwrap_or_default());
    let party = party_of(seat);
    show(seat, Look::Selected);
    picked.update(|p| {
        p.push(Picked {
            id,
            name,
            cents,
            party,
        })
    });
    Toggled::Selected
}

/// A cabin's occupancy from its drawing (`data-guests="1-4"`), with the
/// usual party of two chosen (within it).
fn party_of(seat: &web_sys::Element) -> Option<Party> {
    let (min, max) = seat
        .get_attribute("data-guests")?
        .split_once('-')
        .and_then(|(a, b)| Some((a.parse::<i64>().ok()?, b.parse::<i64>().ok()?)))?;
    let extra_cents = seat
        .get_attribute("data-extra")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    Some(Party {
        min,
        max,
        extra_cents,
        guests: 2.clamp(min, max),
    })
}

/// Gives seats of the map one look (after a hold, a refusal, a change).
pub fn mark_seats(ids: &[SeatId], look: Look) {
    for id in ids {
        if let Some(el) = seat_element(*id) {
            show(&el, look);
        }
    }
}

/// Applies the status letters (`SeatStatuses`) to the drawn seats, which
/// are in the same order; the drawing starts every seat available.
pub fn apply_statuses(seats: &web_sys::Element, letters: &str, yours: &[SeatId]) {
    let all = seats.children();
    for (i, letter) in letters.chars().enumerate() {
        let status = SeatStatus::from_code(letter).unwrap_or(SeatStatus::Held);
        if status == SeatStatus::Available {
            continue;
        }
        let Some(el) = all.item(i as u32) else { break };
        let mine = el
            .get_attribute("data-id")
            .and_then(|v| v.parse::<SeatId>().ok())
            .is_some_and(|id| yours.contains(&id));
        show(&el, Look::of(status, mine));
    }
}

/// A drawn seat's price in minor units (0 when it is not drawn).
pub fn seat_price(id: SeatId) -> i64 {
    seat_element(id)
        .and_then(|el| el.get_attribute("data-price"))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// "Section L1, row 3, seat 7" from the seat's accessible name.
pub fn seat_name(id: SeatId) -> String {
    seat_element(id)
        .and_then(|el| el.text_content())
        .map(|t| t.splitn(4, ", ").take(3).collect::<Vec<_>>().join(", "))
        .unwrap_or_else(|| format!("seat {id}"))
}

/// Takes one seat out of the selection (its ×).
pub fn unselect(id: SeatId, picked: RwSignal<Vec<Picked>>) {
    if let Some(el) = seat_element(id) {
        if el.class_list().contains("selected") {
            show(&el, Look::Available);
        }
    }
    picked.update(|p| p.retain(|s| s.id != id));
}

/// Replaces the selection with exactly these seats.
pub fn select_only(ids: &[SeatId], picked: RwSignal<Vec<Picked>>, limit: usize) {
    for p in picked.get_untracked() {
        unselect(p.id, picked);
    }
    for id in ids {
        if let Some(el) = seat_element(*id) {
            toggle_seat(&el, picked, limit);
        }
    }
}

/// Briefly highlights seats that were just lost to someone else.
pub fn flash(ids: &[SeatId]) {
    for id in ids {
        if let Some(el) = seat_element(*id) {
            let _ = el.class_list().add_1("flash");
        }
    }
}
