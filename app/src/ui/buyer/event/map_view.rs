//! The visible part of the seat map and the gestures that move it: wheel
//! and buttons zoom, a drag pans, two fingers pinch; a deck tab shows one
//! deck, which zoom and pan then stay within. Pure geometry in map units,
//! plus reading where a pointer is.

use leptos::web_sys;
use wasm_bindgen::JsCast;

/// The visible part of the map, in map units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ViewBox {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

impl ViewBox {
    pub fn parse(s: &str) -> ViewBox {
        let v: Vec<f64> = s
            .split_whitespace()
            .filter_map(|p| p.parse().ok())
            .collect();
        match v.as_slice() {
            [x, y, w, h] => ViewBox {
                x: *x,
                y: *y,
                w: *w,
                h: *h,
            },
            _ => ViewBox {
                x: 0.0,
                y: 0.0,
                w: 1000.0,
                h: 1000.0,
            },
        }
    }

    /// Zooms by `factor` around the point at (fx, fy) of the view (0..1),
    /// never further out than the whole map nor closer than 1/12 of it.
    pub fn zoom(self, factor: f64, fx: f64, fy: f64, full: ViewBox) -> ViewBox {
        let w = (self.w * factor).clamp(full.w / 12.0, full.w);
        let h = w * full.h / full.w;
        let x = self.x + fx * (self.w - w);
        let y = self.y + fy * (self.h - h);
        ViewBox { x, y, w, h }.kept_inside(full)
    }

    pub fn pan(self, dx: f64, dy: f64, full: ViewBox) -> ViewBox {
        ViewBox {
            x: self.x + dx,
            y: self.y + dy,
            ..self
        }
        .kept_inside(full)
    }

    fn kept_inside(self, full: ViewBox) -> ViewBox {
        // min then max (not clamp): rounding may leave no room at all.
        ViewBox {
            x: self.x.min(full.x + full.w - self.w).max(full.x),
            y: self.y.min(full.y + full.h - self.h).max(full.y),
            ..self
        }
    }
}

impl std::fmt::Display for ViewBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:.1} {:.1} {:.1} {:.1}", self.x, self.y, self.w, self.h)
    }
}

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

#[cfg(test)]
mod tests {
    use super::{Touches, ViewBox};

    #[test]
    fn zooming_stays_inside_the_map_and_returns_to_it() {
        let full = ViewBox::parse("0 0 2000 1000");
        let z = full.zoom(0.5, 0.0, 0.0, full);
        assert_eq!((z.x, z.y, z.w, z.h), (0.0, 0.0, 1000.0, 500.0));
        let z = full.zoom(0.5, 1.0, 1.0, full);
        assert_eq!((z.x, z.y), (1000.0, 500.0));
        assert_eq!(z.zoom(10.0, 0.5, 0.5, full), full);
        let tiny = (0..20).fold(full, |v, _| v.zoom(0.5, 0.5, 0.5, full));
        assert!((tiny.w - 2000.0 / 12.0).abs() < 1e-9);
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
