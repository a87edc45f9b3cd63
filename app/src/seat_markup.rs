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

pub fn status_word(status: SeatStatus) -> &'static str {
    match status {
        SeatStatus::Available => "available",
        SeatStatus::Held => "held",
        SeatStatus::Booked => "booked",
    }
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
        let word = status_word(s.status);
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

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
