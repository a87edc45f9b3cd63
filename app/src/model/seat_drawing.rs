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

    /// The map's SVG content: the row labels, then every seat as
    /// `<circle id="seat-{id}" class="seat cat-{code} available" role="button"
    /// aria-pressed="false" …><title>Section …, row …, seat …, €85.00,
    /// available</title></circle>` in seat order (a ship's places are named
    /// "Deck 6, Inside port, cabin 6001, …": `EventKind::place_name`).
    pub fn markup(&self, kind: super::EventKind, l: crate::i18n::Locale) -> String {
        let seats = self.seats();
        let mut out = String::with_capacity(seats.len() * 230 + self.row_labels.len() * 90);
        let hulls = self.hulls();
        match &hulls {
            Some(hulls) => self.hull_markup(hulls, l, &mut out),
            None => self.row_label_markup(&mut out),
        }
        out.push_str("<g class=\"seats\">");
        let status = SeatStatus::Available;
        for s in &seats {
            let cabin = s.cabin.is_some() || (kind == super::EventKind::Cruise && hulls.is_none());
            let place = kind.name_place(l, cabin, &escape(s.section), &escape(s.row), s.number);
            let price = l.price(s.category.price_cents, &self.currency);
            let (x, y) = (tenths(s.x), tenths(s.y));
            let common = format!(
                "id=\"seat-{id}\" data-id=\"{id}\" data-price=\"{cents}\" tabindex=\"-1\" role=\"button\" aria-pressed=\"false\"",
                id = s.id,
                cents = s.category.price_cents,
            );
            match s.cabin {
                Some(c) => {
                    let sleeps = l.fill(
                        crate::i18n::Msg::Sleeps,
                        &[("min", &c.min_guests), ("max", &c.max_guests)],
                    );
                    let access = if c.accessible {
                        format!(", {}", l.t(crate::i18n::Msg::StepFree))
                    } else {
                        String::new()
                    };
                    out.push_str(&format!(
                        "<rect {common} class=\"seat cabin cat-{cat} {class}\" x=\"{x0}\" y=\"{y0}\" \
                         width=\"{w}\" height=\"{d}\" rx=\"3\" data-x=\"{x}\" data-y=\"{y}\" \
                         data-guests=\"{min}-{max}\" data-extra=\"{extra}\">\
                         <title>{place}, {price}, {sleeps}{access}, {word}</title></rect>",
                        cat = escape(&s.category.code),
                        class = status.class(),
                        x0 = tenths(s.x - c.width / 2),
                        y0 = tenths(s.y - c.depth / 2),
                        w = tenths(c.width),
                        d = tenths(c.depth),
                        min = c.min_guests,
                        max = c.max_guests,
                        extra = s.category.extra_guest_cents,
                        word = status.word(l),
                    ));
                }
                None => out.push_str(&format!(
                    "<circle {common} class=\"seat cat-{cat} {class}\" cx=\"{x}\" cy=\"{y}\" r=\"{r}\">\
                     <title>{place}, {price}, {word}</title></circle>",
                    cat = escape(&s.category.code),
                    class = status.class(),
                    r = self.radius,
                    word = status.word(l),
                )),
            }
        }
        out.push_str("</g>");
        if hulls.is_some() {
            self.cabin_marks(&seats, &mut out);
        }
        out
    }

    fn row_label_markup(&self, out: &mut String) {
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
        out.push_str("</g>");
    }

    /// Each deck's hull, its sides named, and the patterns that tell the
    /// cabins' categories apart besides their colours.
    fn hull_markup(&self, hulls: &[(String, [f64; 4])], l: crate::i18n::Locale, out: &mut String) {
        use crate::i18n::Msg;
        out.push_str("<defs>");
        for i in 0..PATTERNS {
            out.push_str(&format!(
                "<pattern id=\"cabin-pattern-{i}\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\">{}</pattern>",
                match i % 4 {
                    0 => "",
                    1 => "<path d=\"M0 8L8 0\" class=\"hatch\"/>",
                    2 => "<circle cx=\"4\" cy=\"4\" r=\"1.3\" class=\"dot\"/>",
                    _ => "<path d=\"M0 4H8M4 0V8\" class=\"hatch\"/>",
                }
            ));
        }
        out.push_str("</defs><g class=\"hull\" aria-hidden=\"true\">");
        for (_, h) in hulls {
            let mid = (h[1] + h[3]) / 2.0;
            out.push_str(&format!(
                "<path class=\"hull-outline\" d=\"{path}\"/>\
                 <text class=\"ship-side\" x=\"{x:.1}\" y=\"{top:.1}\">{port}</text>\
                 <text class=\"ship-side\" x=\"{x:.1}\" y=\"{bottom:.1}\">{starboard}</text>\
                 <text class=\"ship-end\" x=\"{bow:.1}\" y=\"{mid:.1}\">{bow_word} ▶</text>\
                 <text class=\"ship-end stern\" x=\"{stern:.1}\" y=\"{mid:.1}\" transform=\"rotate(-90 {stern:.1} {mid:.1})\">{stern_word}</text>",
                path = hull_path(*h),
                x = h[0] + STERN + 110.0,
                top = h[1] - 5.0,
                bottom = h[3] + 15.0,
                bow = h[2] + 8.0,
                stern = h[0] + STERN * 0.55,
                port = l.t(Msg::ShipPort),
                starboard = l.t(Msg::ShipStarboard),
                bow_word = l.t(Msg::ShipBow),
                stern_word = l.t(Msg::ShipStern),
            ));
        }
        out.push_str("</g>");
    }

    /// Over each cabin: its category's pattern, its number, and ♿ where it
    /// has step-free access (seen, not read: the cabin's name says it).
    fn cabin_marks(&self, seats: &[DrawnSeat<'_>], out: &mut String) {
        out.push_str("<g class=\"cabin-marks\" aria-hidden=\"true\">");
        for s in seats {
            let Some(c) = s.cabin else {
                continue;
            };
            let pattern = pattern_of(
                self.categories.iter().map(|c| c.code.as_str()),
                &s.category.code,
            );
            let (x0, y0) = (s.x - c.width / 2, s.y - c.depth / 2);
            if pattern % 4 != 0 {
                out.push_str(&format!(
                    "<rect class=\"cabin-pattern\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"3\" fill=\"url(#cabin-pattern-{pattern})\"/>",
                    tenths(x0),
                    tenths(y0),
                    tenths(c.width),
                    tenths(c.depth),
                ));
            }
            let size = c.number_size();
            out.push_str(&format!(
                "<text class=\"cabin-number\" x=\"{}\" y=\"{:.1}\" font-size=\"{size:.1}\">{}</text>",
                tenths(s.x),
                s.y as f64 / 10.0 + size * 0.35,
                s.number
            ));
            if c.accessible {
                out.push_str(&format!(
                    "<text class=\"cabin-access\" x=\"{}\" y=\"{}\" font-size=\"{:.1}\">♿</text>",
                    tenths(x0 + 12),
                    tenths(y0 + c.depth - 12),
                    size * 0.8,
                ));
            }
        }
        out.push_str("</g>");
    }
}

/// The patterns that tell a ship's categories apart besides their colours:
/// none, stripes, dots, a grid.
pub const PATTERNS: usize = 4;

/// A category's pattern: by its code's place among the codes in
/// alphabetical order, so the map and the legend agree whatever order
/// each lists them in.
pub fn pattern_of<'a>(codes: impl Iterator<Item = &'a str>, code: &str) -> usize {
    let mut all: Vec<&str> = codes.collect();
    all.sort_unstable();
    all.dedup();
    all.iter().position(|c| *c == code).unwrap_or(0) % PATTERNS
}

/// Room between a deck's places and its hull, in map units.
pub const HULL_MARGIN: f64 = 14.0;
/// The stern's extra room behind the last cabins.
pub const STERN: f64 = 36.0;
/// How far the bow reaches beyond the hull's straight sides.
pub const BOW: f64 = 120.0;

/// A hull's outline: a rounded stern on the left, the bow a point on the
/// right, as deck plans draw them.
pub fn hull_path([x0, y0, x1, y1]: [f64; 4]) -> String {
    let mid = (y0 + y1) / 2.0;
    let r = ((y1 - y0) / 4.0).min(40.0);
    format!(
        "M{a:.1} {y0:.1}L{x1:.1} {y0:.1}Q{q:.1} {y0:.1} {tip:.1} {mid:.1}Q{q:.1} {y1:.1} {x1:.1} {y1:.1}\
         L{a:.1} {y1:.1}Q{x0:.1} {y1:.1} {x0:.1} {b1:.1}L{x0:.1} {b0:.1}Q{x0:.1} {y0:.1} {a:.1} {y0:.1}Z",
        a = x0 + r,
        q = x1 + BOW * 0.55,
        tip = x1 + BOW,
        b0 = y0 + r,
        b1 = y1 - r,
    )
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
                extra_guest_cents: 0,
            },
            DrawnCategory {
                code: "b".into(),
                price_cents: 4000,
                extra_guest_cents: 0,
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
            cabins: None,
        }
    }

    /// The same places on a ship: the first two cabins (the second with
    /// step-free access), the third a seat.
    fn ship() -> SeatDrawing {
        let mut d = drawing();
        d.cabins = Some(DrawnCabins {
            seat: vec![0, 1],
            width: vec![400, 400],
            depth: vec![300, 300],
            min_guests: vec![1, 2],
            max_guests: vec![4, 3],
            accessible: vec![false, true],
        });
        d
    }

    #[test]
    fn a_ship_draws_cabins_as_rectangles_in_a_hull_and_names_seats_as_seats() {
        let d = ship();
        let read = d.seats();
        assert_eq!(
            read[1]
                .cabin
                .map(|c| (c.min_guests, c.max_guests, c.accessible)),
            Some((2, 3, true))
        );
        assert_eq!(read[2].cabin, None);
        let svg = d.markup(crate::model::EventKind::Cruise, crate::i18n::Locale::En);
        assert_eq!(svg.matches("<rect id=\"seat-").count(), 2, "two cabins");
        assert_eq!(svg.matches("<circle id=\"seat-").count(), 1, "one seat");
        assert!(svg.contains("data-guests=\"2-3\""));
        assert!(
            svg.contains("L1, 1, cabin 1, €85.00, sleeps 1–4, available"),
            "{svg}"
        );
        assert!(svg.contains("L1, 1, cabin 2, €85.00, sleeps 2–3, step-free access, available"));
        assert!(svg.contains("Floor &lt;B&gt;, row 2 &amp; 3, seat 1, €40.00, available"));
        assert_eq!(
            svg.matches("class=\"hull-outline\"").count(),
            2,
            "a hull per deck"
        );
        assert_eq!(svg.matches("class=\"cabin-number\"").count(), 2);
        // 40 × 30 units: the number as tall as the cabin allows.
        assert_eq!(d.smallest_number(), Some(12.0));
        assert!(svg.contains("font-size=\"12.0\""));
        assert_eq!(drawing().smallest_number(), None, "a hall has no cabins");
        assert_eq!(svg.matches("♿").count(), 1);
        assert!(
            !svg.contains("row-label"),
            "a ship names its sides, not its rows"
        );
        // Each hull holds its places and leaves room for the stern.
        let hulls = d.hulls().unwrap();
        let (_, h) = &hulls[0];
        assert!(h[0] < 100.0 - 20.0 - STERN && h[2] > 108.5 + 20.0);
        assert!(drawing().hulls().is_none(), "a hall has no hull");
    }

    #[test]
    fn a_category_s_pattern_is_the_same_whatever_order_the_codes_come_in() {
        let one = ["SUITE", "BALCONY", "OCEAN", "INSIDE"];
        let two = ["INSIDE", "OCEAN", "SUITE", "BALCONY"];
        for code in one {
            assert_eq!(
                pattern_of(one.into_iter(), code),
                pattern_of(two.into_iter(), code)
            );
        }
        let all: std::collections::HashSet<usize> =
            one.iter().map(|c| pattern_of(one.into_iter(), c)).collect();
        assert_eq!(all.len(), 4, "four categories, four patterns");
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
