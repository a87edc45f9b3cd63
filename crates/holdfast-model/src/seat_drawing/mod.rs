//! `GET /api/events/{eventId}/seats/drawing`: where every seat is and what
//! it is called, without statuses — built once per map, cached by browsers
//! for good. Columns in seat order (the order of the status letters), the
//! numbers that grow along a row sent as differences, so 10,000 seats
//! compress to a few kilobytes; `markup` turns it into the map's SVG.

use serde::{Deserialize, Serialize};

mod markup;
pub use markup::{escape, hull_path, pattern_of, BOW, HULL_MARGIN, PATTERNS, STERN};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SeatDrawing {
    pub currency: String,
    /// The seats' radius, in map units.
    pub radius: f64,
    /// Names the columns `section`, `row` and `category` point into.
    pub sections: Vec<String>,
    pub rows: Vec<String>,
    pub categories: Vec<DrawnCategory>,
    pub seats: DrawnSeats,
    /// Where each row's label goes: x and y in tenths of a map unit, and
    /// the index of its name in `rows`.
    pub row_labels: Vec<[i64; 3]>,
    /// On a ship: its cabins, drawn as rectangles inside the hull (absent
    /// elsewhere; additive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cabins: Option<DrawnCabins>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DrawnCategory {
    pub code: String,
    pub price_cents: i64,
    /// What each guest of a cabin beyond two adds (additive).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub extra_guest_cents: i64,
}

fn is_zero(v: &i64) -> bool {
    *v == 0
}

/// A ship's cabins, one entry per cabin in each column: which seat (its
/// index in seat order), its size (tenths of a map unit: along the ship,
/// across it), the fewest and most guests it sleeps, and whether it has
/// step-free access.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DrawnCabins {
    pub seat: Vec<u32>,
    pub width: Vec<i64>,
    pub depth: Vec<i64>,
    pub min_guests: Vec<i64>,
    pub max_guests: Vec<i64>,
    pub accessible: Vec<bool>,
}

/// One cabin, read back from the columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawnCabin {
    /// In tenths of a map unit.
    pub width: i64,
    pub depth: i64,
    pub min_guests: i64,
    pub max_guests: i64,
    pub accessible: bool,
}

impl DrawnCabin {
    /// The height of the cabin's number, in map units: as large as the
    /// cabin leaves room for.
    pub fn number_size(&self) -> f64 {
        ((self.width as f64 / 10.0) * 0.3)
            .min(self.depth as f64 / 10.0 * 0.42)
            .max(6.0)
    }
}

/// One entry per seat in each column. `id`, `number`, `x` and `y` are each
/// the difference from the previous seat's (the first from 0); `x` and `y`
/// in tenths of a map unit.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DrawnSeats {
    pub id: Vec<i64>,
    pub number: Vec<i64>,
    pub x: Vec<i64>,
    pub y: Vec<i64>,
    pub section: Vec<u32>,
    pub row: Vec<u32>,
    pub category: Vec<u32>,
}

/// One seat, read back from the columns.
#[derive(Debug, Clone, PartialEq)]
pub struct DrawnSeat<'a> {
    pub id: i64,
    pub number: i64,
    /// In tenths of a map unit.
    pub x: i64,
    pub y: i64,
    pub section: &'a str,
    pub row: &'a str,
    pub category: &'a DrawnCategory,
    /// Set when the place is a cabin.
    pub cabin: Option<DrawnCabin>,
}

impl DrawnSeats {
    /// Appends a seat's `[id, number, x, y]` after the previous seat's
    /// (zeros for the first), with its `[section, row, category]` indices.
    pub fn push(&mut self, seat: [i64; 4], previous: [i64; 4], indices: [u32; 3]) {
        self.id.push(seat[0] - previous[0]);
        self.number.push(seat[1] - previous[1]);
        self.x.push(seat[2] - previous[2]);
        self.y.push(seat[3] - previous[3]);
        self.section.push(indices[0]);
        self.row.push(indices[1]);
        self.category.push(indices[2]);
    }
}

impl SeatDrawing {
    /// The seats in order; a column too short or an index out of range ends
    /// the list there.
    pub fn seats(&self) -> Vec<DrawnSeat<'_>> {
        let s = &self.seats;
        let n = [
            s.number.len(),
            s.x.len(),
            s.y.len(),
            s.section.len(),
            s.row.len(),
            s.category.len(),
        ]
        .into_iter()
        .fold(s.id.len(), usize::min);
        let mut out = Vec::with_capacity(n);
        let (mut id, mut number, mut x, mut y) = (0i64, 0i64, 0i64, 0i64);
        for i in 0..n {
            id += s.id[i];
            number += s.number[i];
            x += s.x[i];
            y += s.y[i];
            let (Some(section), Some(row), Some(category)) = (
                self.sections.get(s.section[i] as usize),
                self.rows.get(s.row[i] as usize),
                self.categories.get(s.category[i] as usize),
            ) else {
                break;
            };
            out.push(DrawnSeat {
                id,
                number,
                x,
                y,
                section,
                row,
                category,
                cabin: None,
            });
        }
        if let Some(c) = &self.cabins {
            for (k, &seat) in c.seat.iter().enumerate() {
                let cabin = (|| {
                    Some(DrawnCabin {
                        width: *c.width.get(k)?,
                        depth: *c.depth.get(k)?,
                        min_guests: *c.min_guests.get(k)?,
                        max_guests: *c.max_guests.get(k)?,
                        accessible: *c.accessible.get(k)?,
                    })
                })();
                if let Some(place) = out.get_mut(seat as usize) {
                    place.cabin = cabin;
                }
            }
        }
        out
    }

    /// The smallest cabin number's height, in map units (`None` when no
    /// place is a cabin): how close a phone must start to read them.
    pub fn smallest_number(&self) -> Option<f64> {
        self.seats()
            .iter()
            .filter_map(|s| s.cabin.map(|c| c.number_size()))
            .min_by(f64::total_cmp)
    }

    /// A ship's hull around each deck's places (the decks in order of their
    /// first place): min x, min y, max x, max y in map units, the bow
    /// (pointing right) not included. `None` for a map without cabins.
    pub fn hulls(&self) -> Option<Vec<(String, [f64; 4])>> {
        self.cabins.as_ref()?;
        let mut hulls: Vec<(String, [f64; 4])> = Vec::new();
        for s in self.seats() {
            let (half_w, half_d) = match s.cabin {
                Some(c) => (c.width as f64 / 20.0, c.depth as f64 / 20.0),
                None => (self.radius, self.radius),
            };
            let (x, y) = (s.x as f64 / 10.0, s.y as f64 / 10.0);
            let b = [x - half_w, y - half_d, x + half_w, y + half_d];
            match hulls.iter_mut().find(|h| h.0 == s.section) {
                Some((_, h)) => {
                    *h = [
                        h[0].min(b[0]),
                        h[1].min(b[1]),
                        h[2].max(b[2]),
                        h[3].max(b[3]),
                    ]
                }
                None => hulls.push((s.section.to_string(), b)),
            }
        }
        Some(
            hulls
                .into_iter()
                .map(|(n, h)| {
                    let m = HULL_MARGIN;
                    (n, [h[0] - m - STERN, h[1] - m, h[2] + m, h[3] + m])
                })
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests;
