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

/// Server side: the seats' markup from the in-memory map. In the browser the
/// server's markup is kept as it is (hydration does not touch `inner_html`).
pub fn seats_markup(event_id: i64) -> Markup {
    #[cfg(feature = "ssr")]
    {
        let Some(state) = leptos::prelude::use_context::<crate::core::AppState>() else {
            return Markup::default();
        };
        let Some(map) = state.seat_maps.cached(event_id) else {
            return Markup::default();
        };
        let now = state.clock.now_ms();
        let statuses = map.statuses(now);
        let dots = map.seats.iter().enumerate().map(|(i, s)| SeatDot {
            id: s.id,
            section: &s.section,
            row: &s.row,
            number: s.number,
            x: s.x,
            y: s.y,
            category: &s.category,
            price_cents: s.price_cents,
            status: statuses[i],
        });
        // Seats take ~80% of the distance to their neighbour in a row.
        let pitch = map
            .rows
            .iter()
            .find(|r| r.len() > 1)
            .map(|r| {
                let (a, b) = (&map.seats[r[0]], &map.seats[r[1]]);
                ((a.x - b.x).powi(2) + (a.y - b.y).powi(2)).sqrt()
            })
            .unwrap_or(10.0);
        let radius = (pitch * 0.4).clamp(3.0, 16.0).round();
        let rows = map.rows.iter().filter_map(|r| {
            let first = &map.seats[*r.first()?];
            let second = r.get(1).map(|i| (map.seats[*i].x, map.seats[*i].y));
            Some(RowLabel {
                label: &first.row,
                first: (first.x, first.y),
                second,
            })
        });
        Markup {
            seats: seats_svg(dots, &map.currency, radius),
            rows: row_labels_svg(rows, radius),
        }
    }
    #[cfg(not(feature = "ssr"))]
    {
        let _ = event_id;
        Markup::default()
    }
}

/// The map's server-rendered parts: the seats, and the row labels.
#[derive(Default)]
pub struct Markup {
    pub seats: String,
    pub rows: String,
}
