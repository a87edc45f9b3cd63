//! The details of one seat, shown beside it on hover (mouse) and on tap
//! (touch): section, row, seat, category, price and status. Read from the
//! seat's own accessible name, so what a sighted buyer reads and what a
//! screen reader says never differ; hidden from assistive technology for
//! that reason.

use leptos::prelude::*;
use leptos::web_sys;

use crate::model::PriceCategory;

/// What the tooltip shows, and where (pixels from the map's top left).
#[derive(Debug, Clone, PartialEq)]
pub struct Tip {
    /// The seat it is about (its element's id), so a change of the seat
    /// while the tip is shown changes the tip too.
    pub seat: String,
    pub place: String,
    pub category: String,
    pub status: String,
    pub x: f64,
    pub y: f64,
    /// Near the map's top edge the tip goes below the seat.
    pub below: bool,
    /// Which of its edges is at the seat: near the map's sides the tip
    /// opens inwards instead of being cut off.
    pub side: Side,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Left,
    Centre,
    Right,
}

impl Side {
    /// Where a point at `x` of a frame `width` wide puts the tip's anchor.
    pub fn at(x: f64, width: f64) -> Side {
        if x < width / 3.0 {
            Side::Left
        } else if x > width * 2.0 / 3.0 {
            Side::Right
        } else {
            Side::Centre
        }
    }

    fn class(self) -> &'static str {
        match self {
            Side::Left => "seat-tip from-left",
            Side::Centre => "seat-tip",
            Side::Right => "seat-tip from-right",
        }
    }
}

/// The tip for a seat element of the map inside `frame` (the figure the
/// tooltip is positioned in).
pub fn tip_for(
    seat: &web_sys::Element,
    frame: &web_sys::Element,
    categories: &[PriceCategory],
) -> Option<Tip> {
    let name = seat.first_element_child()?.text_content()?;
    let (place, price, status) = parts(&name)?;
    let code = seat
        .class_list()
        .value()
        .split_whitespace()
        .find_map(|c| c.strip_prefix("cat-"))
        .map(str::to_string)
        .unwrap_or_default();
    let category = categories
        .iter()
        .find(|c| c.code == code)
        .map_or(price.clone(), |c| format!("{} · {price}", c.name));
    let (s, f) = (
        seat.get_bounding_client_rect(),
        frame.get_bounding_client_rect(),
    );
    let top = s.top() - f.top();
    let below = top < 90.0;
    let x = s.left() - f.left() + s.width() / 2.0;
    Some(Tip {
        seat: seat.id(),
        place,
        category,
        status,
        x,
        y: if below { top + s.height() } else { top },
        below,
        side: Side::at(x, f.width()),
    })
}

/// The tip shown for `seat` after the seat's status changed (someone else
/// took it, or let it go): the status its name now says.
pub fn refresh(tip: RwSignal<Option<Tip>>, seat: &web_sys::Element) {
    let id = seat.id();
    if !tip.with_untracked(|t| t.as_ref().is_some_and(|t| t.seat == id)) {
        return;
    }
    let status = seat
        .first_element_child()
        .and_then(|name| name.text_content())
        .and_then(|name| parts(&name))
        .map(|(_, _, status)| status);
    if let Some(status) = status {
        tip.update(|t| {
            if let Some(t) = t {
                t.status = status;
            }
        });
    }
}

/// "Section L4, row 28, seat 1, €85.00, held by someone else" →
/// ("Section L4 · row 28 · seat 1", "€85.00", "held by someone else").
pub fn parts(name: &str) -> Option<(String, String, String)> {
    let (rest, status) = name.rsplit_once(", ")?;
    let (place, price) = rest.rsplit_once(", ")?;
    Some((
        place.replace(", ", " · "),
        price.to_string(),
        status.to_string(),
    ))
}

#[component]
pub fn SeatTip(tip: RwSignal<Option<Tip>>) -> impl IntoView {
    move || {
        tip.get().map(|t| {
            let style = format!("left: {:.0}px; top: {:.0}px", t.x, t.y);
            view! {
                <div class=t.side.class() class:below=t.below aria-hidden="true" data-testid="seat-tip" style=style>
                    <strong>{t.place}</strong>
                    <span>{t.category}</span>
                    <span class="tip-status">{t.status}</span>
                </div>
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{parts, Side};

    #[test]
    fn near_a_side_the_tip_opens_inwards() {
        assert_eq!(Side::at(10.0, 390.0), Side::Left);
        assert_eq!(Side::at(195.0, 390.0), Side::Centre);
        assert_eq!(Side::at(380.0, 390.0), Side::Right);
    }

    #[test]
    fn a_seat_name_splits_into_place_price_and_status() {
        let (place, price, status) =
            parts("Section L4, row 28, seat 1, €85.00, held by someone else").unwrap();
        assert_eq!(place, "Section L4 · row 28 · seat 1");
        assert_eq!(price, "€85.00");
        assert_eq!(status, "held by someone else");
        assert_eq!(parts("no commas"), None);
    }
}
