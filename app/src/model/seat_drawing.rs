//! `GET /api/events/{eventId}/seats/drawing`: where every seat is and what
//! it is called, without statuses — built once per map, cached by browsers
//! for good. Columns in seat order (the order of the status letters), the
//! numbers that grow along a row sent as differences, so 10,000 seats
//! compress to a few kilobytes; `markup` turns it into the map's SVG.

use serde::{Deserialize, Serialize};

use super::SeatStatus;

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
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DrawnCategory {
    pub code: String,
    pub price_cents: i64,
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
            });
        }
        out
    }

    /// The map's SVG content: the row labels, then every seat as
    /// `<circle id="seat-{id}" class="seat cat-{code} available" role="button"
    /// aria-pressed="false" …><title>Section …, row …, seat …, €85.00,
    /// available</title></circle>` in seat order (a ship's places are named
    /// "Deck 6, Inside port, cabin 6001, …": `EventKind::place_name`).
    pub fn markup(&self, kind: super::EventKind, l: crate::i18n::Locale) -> String {
        let seats = self.seats();
        let mut out = String::with_capacity(seats.len() * 230 + self.row_labels.len() * 90);
        let size = (self.radius * 1.3).max(6.0);
        out.push_str("<g class=\"row-labels\" aria-hidden=\"true\">");
        for [x, y, row] in &self.row_labels {
            let Some(name) = self.rows.get(*row as usize) else {
                continue;
            };
            out.push_str(&format!(
                "<text class=\"row-label\" x=\"{}\" y=\"{}\" font-size=\"{size:.1}\">{}</text>",
                tenths(*x),
                tenths(*y),
                escape(name)
            ));
        }
        out.push_str("</g><g class=\"seats\">");
        let status = SeatStatus::Available;
        for s in seats {
            out.push_str(&format!(
                "<circle id=\"seat-{id}\" class=\"seat cat-{cat} {class}\" cx=\"{x}\" cy=\"{y}\" r=\"{r}\" \
                 data-id=\"{id}\" data-price=\"{cents}\" tabindex=\"-1\" role=\"button\" aria-pressed=\"false\">\
                 <title>{place}, {price}, {word}</title></circle>",
                id = s.id,
                cat = escape(&s.category.code),
                class = status.class(),
                x = tenths(s.x),
                y = tenths(s.y),
                r = self.radius,
                cents = s.category.price_cents,
                place = kind.place_name(l, &escape(s.section), &escape(s.row), s.number),
                price = l.price(s.category.price_cents, &self.currency),
                word = status.word(l),
            ));
        }
        out.push_str("</g>");
        out
    }
}

/// Tenths of a map unit as the SVG writes them ("123.4", "-5", "0.5").
fn tenths(v: i64) -> String {
    let sign = if v < 0 { "-" } else { "" };
    let a = v.unsigned_abs();
    match a % 10 {
        0 => format!("{sign}{}", a / 10),
        d => format!("{sign}{}.{d}", a / 10),
    }
}

/// Text made safe inside HTML and its attributes.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drawing() -> SeatDrawing {
        let categories = vec![
            DrawnCategory {
                code: "a".into(),
                price_cents: 8500,
            },
            DrawnCategory {
                code: "b".into(),
                price_cents: 4000,
            },
        ];
        let seats = [
            (101, 1, 1000, -25, 0, 0, 0),
            (102, 2, 1085, -25, 0, 0, 0),
            (150, 1, 1000, 80, 1, 1, 1),
        ];
        let sections = vec!["L1".to_string(), "Floor <B>".to_string()];
        let rows = vec!["1".to_string(), "2 & 3".to_string()];
        let mut columns = DrawnSeats::default();
        let mut previous = [0; 4];
        for (id, number, x, y, sec, row, cat) in seats {
            columns.push([id, number, x, y], previous, [sec, row, cat]);
            previous = [id, number, x, y];
        }
        SeatDrawing {
            currency: "EUR".into(),
            radius: 4.0,
            sections: sections.clone(),
            rows: rows.clone(),
            categories: categories.clone(),
            seats: columns,
            row_labels: vec![[985, -235, 0], [985, 845, 1]],
        }
    }

    #[test]
    fn columns_are_differences_and_read_back_exactly() {
        let d = drawing();
        assert_eq!(d.seats.id, vec![101, 1, 48]);
        assert_eq!(d.seats.number, vec![1, 1, -1]);
        assert_eq!(d.seats.x, vec![1000, 85, -85]);
        let back = d.seats();
        assert_eq!(back.len(), 3);
        assert_eq!(
            (back[2].id, back[2].number, back[2].x, back[2].y),
            (150, 1, 1000, 80)
        );
        assert_eq!(back[2].section, "Floor <B>");
        assert_eq!(back[1].category.price_cents, 8500);
    }

    #[test]
    fn markup_names_every_seat_in_order_escaped() {
        let svg = drawing().markup(crate::model::EventKind::Concert, crate::i18n::Locale::En);
        let first = svg.find("id=\"seat-101\"").unwrap();
        let second = svg.find("id=\"seat-102\"").unwrap();
        let third = svg.find("id=\"seat-150\"").unwrap();
        assert!(first < second && second < third);
        assert!(svg.contains("cx=\"108.5\" cy=\"-2.5\""));
        assert!(svg.contains("<title>Section L1, row 1, seat 2, €85.00, available</title>"));
        assert!(svg.contains("Section Floor &lt;B&gt;, row 2 &amp; 3, seat 1, €40.00, available"));
        assert!(svg.contains(">2 &amp; 3</text>"));
        assert_eq!(svg.matches("<circle").count(), 3);
    }

    #[test]
    fn a_broken_drawing_ends_the_list_instead_of_panicking() {
        let mut d = drawing();
        d.seats.category[1] = 9;
        assert_eq!(d.seats().len(), 1);
        d.seats.x.pop();
        d.seats.x.pop();
        assert_eq!(d.seats().len(), 1);
    }

    #[test]
    fn tenths_are_written_as_short_as_they_go() {
        assert_eq!(tenths(1234), "123.4");
        assert_eq!(tenths(1230), "123");
        assert_eq!(tenths(-5), "-0.5");
        assert_eq!(tenths(0), "0");
    }
}
