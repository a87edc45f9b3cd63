//! The SVG markup of a seat map's seats, built on the server as one string.
//! The page inserts it with `inner_html`, so hydration does not walk 10,000
//! nodes; the browser side then only flips classes on the seats that change.

use crate::model::{format_price, SeatStatus};

/// One seat as the markup needs it.
pub struct SeatDot<'a> {
    pub id: i64,
    pub section: &'a str,
    pub row: &'a str,
    pub number: i64,
    pub x: f64,
    pub y: f64,
    pub category: &'a str,
    pub price_cents: i64,
    pub status: SeatStatus,
}

/// `<circle>` elements with data attributes and an accessible name each.
/// `radius` follows the map's seat pitch (arena seats are dense, cabins not).
pub fn seats_svg<'a>(
    seats: impl Iterator<Item = SeatDot<'a>>,
    currency: &str,
    radius: f64,
) -> String {
    let mut out = String::with_capacity(1 << 20);
    for s in seats {
        let word = s.status.class();
        let price = format_price(s.price_cents, currency);
        out.push_str(&format!(
            "<circle id=\"seat-{id}\" class=\"seat cat-{cat} {word}\" cx=\"{x}\" cy=\"{y}\" r=\"{radius}\" \
             data-id=\"{id}\" data-price=\"{cents}\" tabindex=\"-1\" role=\"button\"><title>Section {sec}, row {row}, seat {num}, {price}, {word}</title></circle>",
            id = s.id,
            cat = s.category,
            x = s.x,
            y = s.y,
            cents = s.price_cents,
            sec = escape(s.section),
            row = escape(s.row),
            num = s.number,
        ));
    }
    out
}

/// A row's label, drawn a little before its first seat (away from the
/// second), so buyers can find "row 12" on the map itself.
pub struct RowLabel<'a> {
    pub label: &'a str,
    pub first: (f64, f64),
    pub second: Option<(f64, f64)>,
}

/// `<text>` elements for the row labels; `radius` is the seats' radius.
pub fn row_labels_svg<'a>(rows: impl Iterator<Item = RowLabel<'a>>, radius: f64) -> String {
    let mut out = String::new();
    for r in rows {
        let (x, y) = r.first;
        let (dx, dy) = match r.second {
            Some((x2, y2)) => {
                let len = ((x - x2).powi(2) + (y - y2).powi(2)).sqrt().max(1e-9);
                ((x - x2) / len, (y - y2) / len)
            }
            None => (-1.0, 0.0),
        };
        let gap = radius * 2.6;
        out.push_str(&format!(
            "<text class=\"row-label\" x=\"{:.1}\" y=\"{:.1}\" font-size=\"{:.1}\">{}</text>",
            x + dx * gap,
            y + dy * gap + radius * 0.45,
            (radius * 1.3).max(6.0),
            escape(r.label)
        ));
    }
    out
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
