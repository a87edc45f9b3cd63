//! The drawing of an event's seat map (`model::SeatDrawing`): every seat's
//! place, category and name, without status. Seats never move, so it is
//! built once per map, named by a hash of its content and kept by browsers
//! for good; the statuses come apart, one letter per seat (`snapshot`).

use std::collections::HashMap;
use std::sync::Arc;

use sha2::{Digest, Sha256};

use super::EventSeatMap;
use crate::platform::compressed::{Compressed, Effort};
use holdfast_model::geometry::{layout, ship_layout, MapLayout, Spot};
use holdfast_model::seat_drawing::{DrawnCabins, DrawnCategory, DrawnSeats, SeatDrawing, BOW};

/// The built drawing with its name and the page's layout of the same seats.
pub struct Drawing {
    /// The first 16 hex digits of the JSON's SHA-256: the `v` of its URL.
    pub hash: String,
    pub json: Compressed,
    /// The view box, stage, section labels and decks the page draws around it.
    pub layout: MapLayout,
}

impl EventSeatMap {
    /// The map's drawing, built on first use.
    pub fn drawing(&self) -> Arc<Drawing> {
        self.drawing.get_or_init(|| Arc::new(draw(self))).clone()
    }
}

fn draw(map: &EventSeatMap) -> Drawing {
    let layout = layout(map.seats.iter().map(|s| Spot {
        x: s.x,
        y: s.y,
        section: &s.section,
        level: s.level.as_deref(),
    }));
    let radius = seat_radius(map);
    let mut sections = Names::default();
    let mut rows = Names::default();
    let mut categories: Vec<DrawnCategory> = Vec::new();
    let mut columns = DrawnSeats::default();
    let mut previous = [0; 4];
    let mut category_of = |code: &str, cents: i64, extra: i64| -> u32 {
        match categories
            .iter()
            .position(|c| c.code == code && c.price_cents == cents)
        {
            Some(i) => i as u32,
            None => {
                categories.push(DrawnCategory {
                    code: code.to_string(),
                    price_cents: cents,
                    extra_guest_cents: extra,
                });
                (categories.len() - 1) as u32
            }
        }
    };
    let mut cabins = DrawnCabins::default();
    for (i, s) in map.seats.iter().enumerate() {
        let cabin = map.cabins.get(&s.id);
        let extra = cabin.map_or(0, |c| c.extra_guest_cents);
        let indices = [
            sections.index(&s.section),
            rows.index(&s.row),
            category_of(&s.category, s.price_cents, extra),
        ];
        if let Some(c) = cabin {
            cabins.seat.push(i as u32);
            cabins.width.push(tenths(c.width));
            cabins.depth.push(tenths(c.depth));
            cabins.min_guests.push(c.min_guests);
            cabins.max_guests.push(c.max_guests);
            cabins.accessible.push(c.accessible);
        }
        let seat = [s.id.0, s.number, tenths(s.x), tenths(s.y)];
        columns.push(seat, previous, indices);
        previous = seat;
    }
    let row_labels = map
        .rows
        .iter()
        .filter_map(|r| {
            let first = &map.seats[*r.first()?];
            let second = r.get(1).map(|&i| (map.seats[i].x, map.seats[i].y));
            let (x, y) = row_label_at((first.x, first.y), second, radius);
            Some([tenths(x), tenths(y), rows.index(&first.row) as i64])
        })
        .collect();
    let ship = !cabins.seat.is_empty();
    let drawing = SeatDrawing {
        currency: map.currency.code().to_string(),
        radius,
        sections: sections.names,
        rows: rows.names,
        categories,
        seats: columns,
        // A ship names its sides along the hull instead (its rows are corridors).
        row_labels: if ship { Vec::new() } else { row_labels },
        cabins: ship.then_some(cabins),
    };
    let layout = match drawing.hulls() {
        Some(hulls) => ship_layout(&hulls, BOW),
        None => layout,
    };
    let json = serde_json::to_vec(&drawing).unwrap_or_default();
    Drawing {
        hash: hex::encode(&Sha256::digest(&json)[..8]),
        json: Compressed::new(json, Effort::Best),
        layout,
    }
}

/// Distinct names, each given the index of its first appearance.
#[derive(Default)]
struct Names {
    names: Vec<String>,
    index: HashMap<String, u32>,
}

impl Names {
    fn index(&mut self, name: &str) -> u32 {
        if let Some(i) = self.index.get(name) {
            return *i;
        }
        let i = self.names.len() as u32;
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), i);
        i
    }
}

fn tenths(v: f64) -> i64 {
    (v * 10.0).round() as i64
}

/// Seats take ~80% of the distance to their neighbour in a row (arena
/// seats are dense, cabins not).
fn seat_radius(map: &EventSeatMap) -> f64 {
    let pitch = map
        .rows
        .iter()
        .find(|r| r.len() > 1)
        .map(|r| {
            let (a, b) = (&map.seats[r[0]], &map.seats[r[1]]);
            ((a.x - b.x).powi(2) + (a.y - b.y).powi(2)).sqrt()
        })
        .unwrap_or(10.0);
    (pitch * 0.4).clamp(3.0, 16.0).round()
}

/// A row's label goes a little before its first seat (away from the
/// second), so buyers can find "row 12" on the map itself.
fn row_label_at((x, y): (f64, f64), second: Option<(f64, f64)>, radius: f64) -> (f64, f64) {
    let (dx, dy) = match second {
        Some((x2, y2)) => {
            let len = ((x - x2).powi(2) + (y - y2).powi(2)).sqrt().max(1e-9);
            ((x - x2) / len, (y - y2) / len)
        }
        None => (-1.0, 0.0),
    };
    let gap = radius * 2.6;
    (x + dx * gap, y + dy * gap + radius * 0.45)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seat_map::{Occupancy, Seat};
    use holdfast_model::{EventId, SeatId};

    fn seat(id: i64, section: &str, row: &str, number: i64, x: f64, y: f64) -> Seat {
        Seat {
            id: SeatId(id),
            label: format!("{section}-{row}-{number}"),
            level: None,
            section: section.into(),
            row: row.into(),
            number,
            x,
            y,
            category: if section == "A" {
                "p".into()
            } else {
                "s".into()
            },
            price_cents: if section == "A" { 8500 } else { 4000 },
        }
    }

    #[test]
    fn the_drawing_reads_back_as_the_map_in_seat_order_and_is_named_by_content() {
        let seats = vec![
            seat(7, "A", "1", 1, 100.0, 50.0),
            seat(8, "A", "1", 2, 110.25, 50.0),
            seat(9, "B", "1", 1, 100.0, 90.0),
            seat(12, "B", "2", 5, 100.0, 100.0),
        ];
        let map = EventSeatMap::new(
            EventId(1),
            holdfast_model::money::Currency::of("EUR").unwrap(),
            seats.clone(),
            vec![Occupancy::Free; 4],
        );
        let drawing = map.drawing();
        let back: SeatDrawing = serde_json::from_slice(drawing.json.raw()).unwrap();
        let read = back.seats();
        assert_eq!(read.len(), 4);
        for (s, r) in seats.iter().zip(&read) {
            assert_eq!(
                (r.id, r.number, r.section, r.row),
                (s.id.0, s.number, &*s.section, &*s.row)
            );
            assert_eq!((r.x, r.y), (tenths(s.x), tenths(s.y)));
            assert_eq!(r.category.price_cents, s.price_cents);
        }
        assert_eq!(back.row_labels.len(), 3, "one label per row");
        assert_eq!(back.sections, vec!["A", "B"]);
        assert_eq!(drawing.hash.len(), 16);
        let again = EventSeatMap::new(
            EventId(2),
            holdfast_model::money::Currency::of("EUR").unwrap(),
            seats,
            vec![Occupancy::Booked; 4],
        );
        assert_eq!(
            again.drawing().hash,
            drawing.hash,
            "statuses are not part of it"
        );
        assert!(Arc::ptr_eq(&map.drawing(), &drawing), "built once");
    }
}
