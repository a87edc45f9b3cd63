//! The gestures that move the seat map: wheel and buttons zoom, a drag
//! pans, two fingers pinch; a deck tab shows one deck, which zoom and pan
//! then stay within. Reading where a pointer is; the geometry itself is in
//! `geometry`.

use leptos::web_sys;
use wasm_bindgen::JsCast;

use crate::model::geometry::{ViewBox, BUTTON_ZOOM_IN};

/// Where the pointer is over the map, as fractions of its width and height.
pub fn pointer_fraction(ev: &web_sys::MouseEvent) -> (f64, f64) {
    let Some(el) = ev
        .current_target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return (0.5, 0.5);
    };
    let r = el.get_bounding_client_rect();
    if r.width() <= 0.0 || r.height() <= 0.0 {
        return (0.5, 0.5);
    }
    (
        ((ev.client_x() as f64 - r.left()) / r.width()).clamp(0.0, 1.0),
        ((ev.client_y() as f64 - r.top()) / r.height()).clamp(0.0, 1.0),
    )
}

/// Map units per screen pixel.
pub fn svg_scale(ev: &web_sys::MouseEvent) -> f64 {
    let Some(el) = ev
        .current_target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return 1.0;
    };
    let r = el.get_bounding_client_rect();
    let vb = ViewBox::parse(&el.get_attribute("viewBox").unwrap_or_default());
    if r.width() > 0.0 {
        vb.w / r.width()
    } else {
        1.0
    }
}

/// Where a screen point is over the element, as fractions of its size.
pub fn fraction_at(el: &web_sys::Element, x: f64, y: f64) -> (f64, f64) {
    let r = el.get_bounding_client_rect();
    if r.width() <= 0.0 || r.height() <= 0.0 {
        return (0.5, 0.5);
    }
    (
        ((x - r.left()) / r.width()).clamp(0.0, 1.0),
        ((y - r.top()) / r.height()).clamp(0.0, 1.0),
    )
}

/// The fingers on the map: (pointer id, x, y) in screen pixels.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Touches(pub Vec<(i32, f64, f64)>);

impl Touches {
    pub fn down(&mut self, id: i32, x: f64, y: f64) {
        self.0.retain(|p| p.0 != id);
        self.0.push((id, x, y));
    }

    pub fn up(&mut self, id: i32) {
        self.0.retain(|p| p.0 != id);
    }

    /// Moves one finger; with two on the map, returns the pinch: the zoom
    /// factor (below 1 when they spread) and the screen point between them.
    pub fn moved(&mut self, id: i32, x: f64, y: f64) -> Option<(f64, f64, f64)> {
        if self.0.len() < 2 || !self.0.iter().take(2).any(|p| p.0 == id) {
            return None;
        }
        let before = self.spread();
        if let Some(p) = self.0.iter_mut().find(|p| p.0 == id) {
            (p.1, p.2) = (x, y);
        }
        let after = self.spread();
        if before < 1.0 || after < 1.0 {
            return None;
        }
        let (a, b) = (self.0[0], self.0[1]);
        Some((before / after, (a.1 + b.1) / 2.0, (a.2 + b.2) / 2.0))
    }

    fn spread(&self) -> f64 {
        let (a, b) = (self.0[0], self.0[1]);
        ((a.1 - b.1).powi(2) + (a.2 - b.2).powi(2)).sqrt()
    }
}

/// A finger needs seats this wide on screen (WCAG's minimum target).
const TAP_TARGET_PX: f64 = 24.0;

/// How far to zoom before a tap can pick a seat: `Some(factor)` while the
/// seats on screen are narrower than a finger's target (wherever the tap
/// fell), `None` when a tap can pick one.
pub fn zoom_to_tap(seat: Option<&web_sys::Element>) -> Option<f64> {
    let any = || {
        web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector("svg .seat").ok().flatten())
    };
    let width = seat
        .cloned()
        .or_else(any)?
        .get_bounding_client_rect()
        .width();
    if width <= 0.0 || width >= TAP_TARGET_PX {
        return None;
    }
    // Aim a little past the minimum; never zoom out.
    Some((width / (TAP_TARGET_PX * 1.2)).min(BUTTON_ZOOM_IN))
}

#[cfg(test)]
mod tests {
    use super::Touches;
    use crate::model::geometry::{ViewBox, MAX_ZOOM};

    #[test]
    fn zooming_stays_inside_the_map_and_returns_to_it() {
        let full = ViewBox::parse("0 0 2000 1000");
        let z = full.zoom(0.5, 0.0, 0.0, full);
        assert_eq!((z.x, z.y, z.w, z.h), (0.0, 0.0, 1000.0, 500.0));
        let z = full.zoom(0.5, 1.0, 1.0, full);
        assert_eq!((z.x, z.y), (1000.0, 500.0));
        assert_eq!(z.zoom(10.0, 0.5, 0.5, full), full);
        let tiny = (0..20).fold(full, |v, _| v.zoom(0.5, 0.5, 0.5, full));
        assert!((tiny.w - 2000.0 / MAX_ZOOM).abs() < 1e-9);
        let panned = z.pan(5000.0, 5000.0, full);
        assert_eq!((panned.x, panned.y), (1000.0, 500.0));
    }

    #[test]
    fn spreading_two_fingers_zooms_in_around_their_middle() {
        let mut t = Touches::default();
        t.down(1, 100.0, 100.0);
        assert_eq!(t.moved(1, 110.0, 100.0), None, "one finger pans");
        t.down(2, 200.0, 100.0);
        let (factor, mx, my) = t.moved(2, 300.0, 100.0).unwrap();
        assert!((factor - 0.5).abs() < 1e-9, "{factor}");
        assert_eq!((mx, my), (200.0, 100.0));
        t.up(1);
        assert_eq!(t.moved(2, 400.0, 100.0), None);
    }
}
