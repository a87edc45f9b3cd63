//! The drawing as the map's SVG: row labels, a ship's hulls and cabin
//! marks, every seat with its accessible name — and the shapes and
//! escaping the pages share with it.

use super::{DrawnSeat, SeatDrawing};
use crate::SeatStatus;

impl SeatDrawing {
    /// The map's SVG content: the row labels, then every seat as
    /// `<circle id="seat-{id}" class="seat cat-{code} available" role="button"
    /// aria-pressed="false" …><title>Section …, row …, seat …, €85.00,
    /// available</title></circle>` in seat order (a ship's places are named
    /// "Deck 6, Inside port, cabin 6001, …": `EventKind::place_name`).
    pub fn markup(&self, kind: crate::EventKind, l: crate::i18n::Locale) -> String {
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
            let cabin = s.cabin.is_some() || (kind == crate::EventKind::Cruise && hulls.is_none());
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
pub(super) fn tenths(v: i64) -> String {
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
