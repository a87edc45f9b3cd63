//! The seat map's geometry, in map units: pure, so it is tested here and
//! used alike by the server (the layout it sends) and the browser (zoom
//! and pan).
//!
//! The layout of an event is worked out once from its seats: the view box
//! around them (with `PADDING`, and `STAGE_ROOM` above for the stage), the
//! stage centred over the seats, each section's centre for its label, and
//! each deck's own box for the deck tabs.

use serde::{Deserialize, Serialize};

/// Room around the seats.
pub const PADDING: f64 = 30.0;
/// Room above the seats for the stage.
pub const STAGE_ROOM: f64 = 60.0;
/// The stage's size, drawn centred over the seats inside `STAGE_ROOM`.
pub const STAGE_WIDTH: f64 = 240.0;
pub const STAGE_HEIGHT: f64 = 34.0;
/// Zoom factors: the buttons, and one wheel notch (in, out).
pub const BUTTON_ZOOM_IN: f64 = 0.7;
pub const BUTTON_ZOOM_OUT: f64 = 1.43;
pub const WHEEL_ZOOM_IN: f64 = 0.8;
pub const WHEEL_ZOOM_OUT: f64 = 1.25;
/// The closest zoom: this many times the whole map (on a 390 px phone the
/// arena's seats are then about 30 px across: a finger's target).
pub const MAX_ZOOM: f64 = 16.0;

/// The visible part of the map, in map units.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ViewBox {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
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
    /// never further out than the whole map nor closer than 1/`MAX_ZOOM` of it.
    pub fn zoom(self, factor: f64, fx: f64, fy: f64, full: ViewBox) -> ViewBox {
        let w = (self.w * factor).clamp(full.w / MAX_ZOOM, full.w);
        // The view keeps its shape (a phone's reading view of a deck is
        // taller than the deck's own) while it fits the map's height, then
        // widens to the map's shape, which it reaches zoomed all the way out.
        let h = (w * self.h / self.w).min(full.h).max(w * full.h / full.w);
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

    /// The view moved as little as needed to show the point (x, y) with a
    /// tenth of the view around it: where keyboard focus goes, the map goes.
    pub fn showing(self, x: f64, y: f64, full: ViewBox) -> ViewBox {
        let (mx, my) = (self.w / 10.0, self.h / 10.0);
        let dx = if x < self.x + mx {
            x - mx - self.x
        } else if x > self.x + self.w - mx {
            x + mx - self.x - self.w
        } else {
            0.0
        };
        let dy = if y < self.y + my {
            y - my - self.y
        } else if y > self.y + self.h - my {
            y + my - self.y - self.h
        } else {
            0.0
        };
        self.pan(dx, dy, full)
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

/// A seat as the layout needs it.
pub struct Spot<'a> {
    pub x: f64,
    pub y: f64,
    pub section: &'a str,
    pub level: Option<&'a str>,
}

/// What the page draws around the seats.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct MapLayout {
    /// The whole map: seats, padding and the stage's room.
    pub view_box: ViewBox,
    /// The stage's rectangle.
    pub stage: ViewBox,
    /// Each section's name at the centre of its seats.
    pub sections: Vec<(String, f64, f64)>,
    /// Each deck (level) with the box around its seats; empty for a venue
    /// on one level.
    pub levels: Vec<(String, ViewBox)>,
    /// Where a standing floor is drawn: the free room in front of the
    /// stage, when the seats leave some (an arena's bowl does).
    #[serde(default)]
    pub floor: Option<ViewBox>,
}

/// Room kept between the standing floor and the stage or the seats.
const FLOOR_GAP: f64 = 14.0;
/// The smallest floor worth drawing, in map units.
const FLOOR_MIN: f64 = 40.0;

/// The largest box in front of the stage with no seat in it: for each
/// width tried, as deep as the nearest seat within it allows.
fn floor_in_front(stage: ViewBox, spots: &[(f64, f64)], last_row: f64) -> Option<ViewBox> {
    let cx = stage.x + stage.w / 2.0;
    let top = stage.y + stage.h + FLOOR_GAP;
    (1..=12)
        .map(|step| stage.w * 0.125 * f64::from(step))
        .filter_map(|w| {
            let nearest = spots
                .iter()
                .filter(|(x, _)| (x - cx).abs() <= w / 2.0 + FLOOR_GAP)
                .map(|&(_, y)| y)
                .fold(f64::INFINITY, f64::min);
            let bottom = nearest.min(top + w).min(last_row) - FLOOR_GAP;
            let depth = bottom - top;
            (depth >= FLOOR_MIN && w >= FLOOR_MIN)
                .then(|| ViewBox::new(cx - w / 2.0, top, w, depth))
        })
        .max_by(|a, b| (a.w * a.h).total_cmp(&(b.w * b.h)))
}

impl Default for ViewBox {
    fn default() -> ViewBox {
        ViewBox::new(0.0, 0.0, 1000.0, 1000.0)
    }
}

impl ViewBox {
    pub fn new(x: f64, y: f64, w: f64, h: f64) -> ViewBox {
        ViewBox { x, y, w, h }
    }

    /// The box around `[x0, y0, x1, y1]` with `pad` on every side.
    fn around([x0, y0, x1, y1]: [f64; 4], pad: f64) -> ViewBox {
        ViewBox::new(x0 - pad, y0 - pad, x1 - x0 + 2.0 * pad, y1 - y0 + 2.0 * pad)
    }
}

/// The layout of an event's seats (an empty event gets the default box).
pub fn layout<'a>(seats: impl IntoIterator<Item = Spot<'a>>) -> MapLayout {
    let mut bounds: Option<[f64; 4]> = None;
    let mut sections: Vec<(String, f64, f64, f64)> = Vec::new();
    let mut levels: Vec<(String, [f64; 4])> = Vec::new();
    let mut spots: Vec<(f64, f64)> = Vec::new();
    for s in seats {
        grow(&mut bounds, s.x, s.y);
        spots.push((s.x, s.y));
        match sections.iter_mut().find(|e| e.0 == s.section) {
            Some(e) => {
                e.1 += s.x;
                e.2 += s.y;
                e.3 += 1.0;
            }
            None => sections.push((s.section.to_string(), s.x, s.y, 1.0)),
        }
        if let Some(level) = s.level {
            match levels.iter_mut().find(|l| l.0 == level) {
                Some((_, b)) => *b = [b[0].min(s.x), b[1].min(s.y), b[2].max(s.x), b[3].max(s.y)],
                None => levels.push((level.to_string(), [s.x, s.y, s.x, s.y])),
            }
        }
    }
    let Some(b) = bounds else {
        return MapLayout::default();
    };
    let seats_box = ViewBox::around(b, PADDING);
    let view_box = ViewBox::new(
        seats_box.x,
        seats_box.y - STAGE_ROOM,
        seats_box.w,
        seats_box.h + STAGE_ROOM,
    );
    let stage = ViewBox::new(
        (b[0] + b[2]) / 2.0 - STAGE_WIDTH / 2.0,
        view_box.y + (STAGE_ROOM - STAGE_HEIGHT) / 2.0,
        STAGE_WIDTH,
        STAGE_HEIGHT,
    );
    MapLayout {
        view_box,
        stage,
        floor: floor_in_front(stage, &spots, b[3]),
        sections: sections
            .into_iter()
            .map(|(n, x, y, c)| (n, x / c, y / c))
            .collect(),
        levels: levels
            .into_iter()
            .map(|(n, b)| (n, ViewBox::around(b, PADDING)))
            .collect(),
    }
}

/// A ship's layout from its decks' hulls (`SeatDrawing::hulls`): the view
/// around every hull and its bow, each deck's tab showing its own hull, and
/// the deck's name above its stern (never over the cabins). No stage.
pub fn ship_layout(hulls: &[(String, [f64; 4])], bow: f64) -> MapLayout {
    let Some(first) = hulls.first() else {
        return MapLayout::default();
    };
    // Room above a hull for its name and its port side's, below for the
    // starboard side's.
    let (above, below) = (36.0, 24.0);
    let reach = |h: &[f64; 4]| [h[0], h[1] - above, h[2] + bow, h[3] + below];
    let all = hulls.iter().fold(reach(&first.1), |b, (_, h)| {
        let r = reach(h);
        [
            b[0].min(r[0]),
            b[1].min(r[1]),
            b[2].max(r[2]),
            b[3].max(r[3]),
        ]
    });
    let view_box = ViewBox::around(all, PADDING / 2.0);
    MapLayout {
        view_box,
        stage: ViewBox::new(view_box.x, view_box.y, 0.0, 0.0),
        floor: None,
        sections: hulls
            .iter()
            .map(|(n, h)| (n.clone(), h[0] + 40.0, h[1] - 22.0))
            .collect(),
        levels: hulls
            .iter()
            .map(|(n, h)| (n.clone(), ViewBox::around(reach(h), PADDING / 2.0)))
            .collect(),
    }
}

/// How tall text must be drawn, in CSS pixels, to be read without zooming.
pub const READABLE_PX: f64 = 11.0;

/// The view of `part` (a deck) in which text `text_units` tall reads at
/// `READABLE_PX` on a map `frame_px` wide: its start (the stern's end) at
/// its full height, no taller than it is wide (the buyer pans along it).
/// `None` when the whole part already reads so (a desktop's width).
pub fn reading_view(part: ViewBox, frame_px: f64, text_units: f64) -> Option<ViewBox> {
    if frame_px <= 0.0 || text_units <= 0.0 {
        return None;
    }
    let w = frame_px * text_units / READABLE_PX;
    (w < part.w).then(|| ViewBox::new(part.x, part.y, w, part.h.min(w)))
}

fn grow(bounds: &mut Option<[f64; 4]>, x: f64, y: f64) {
    *bounds = Some(match *bounds {
        None => [x, y, x, y],
        Some([x0, y0, x1, y1]) => [x0.min(x), y0.min(y), x1.max(x), y1.max(y)],
    });
}

#[cfg(test)]
mod tests;
