//! The console's preview of a layout before it is saved: per deck (one for
//! a concert), the seats as one path per category colour and each
//! section's name. Pure, so it redraws on every keystroke cheaply — a few
//! DOM nodes however many seats — and is tested here.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::EventLayout;

/// One deck's drawing (a concert has one, without a name).
#[derive(Debug, Clone, PartialEq)]
pub struct DeckPreview {
    pub level: Option<String>,
    /// `min-x min-y width height`.
    pub view_box: String,
    /// (colour, path data): every seat of that colour as a small circle.
    pub seats: Vec<(String, String)>,
    /// (section name, x, y, font size): above each section.
    pub labels: Vec<(String, f64, f64, f64)>,
    pub seat_count: usize,
}

/// The layout drawn deck by deck, in the order the decks first appear.
pub fn preview(layout: &EventLayout) -> Vec<DeckPreview> {
    let colour = |code: &str| {
        layout
            .categories
            .iter()
            .find(|c| c.code == code)
            .map_or_else(|| "#888888".to_string(), |c| c.color.clone())
    };
    let mut order: Vec<Option<String>> = Vec::new();
    for s in &layout.sections {
        let level = s.level.clone().filter(|l| !l.trim().is_empty());
        if !order.contains(&level) {
            order.push(level);
        }
    }
    order
        .into_iter()
        .filter_map(|level| {
            let mut paths: BTreeMap<String, String> = BTreeMap::new();
            let mut labels = Vec::new();
            let (mut lo, mut hi) = ((f64::MAX, f64::MAX), (f64::MIN, f64::MIN));
            let mut seat_count = 0;
            let on_deck = layout
                .sections
                .iter()
                .filter(|s| s.level.clone().filter(|l| !l.trim().is_empty()) == level);
            for s in on_deck {
                let seats = s.placed_seats();
                if seats.is_empty() {
                    continue;
                }
                let d = s.spacing_or_default();
                let r = d * super::seating::SEAT_RADIUS;
                let path = paths.entry(colour(&s.category)).or_default();
                let (mut top, mut left, mut right) = (f64::MAX, f64::MAX, f64::MIN);
                for p in &seats {
                    let _ = write!(
                        path,
                        "M{:.1} {:.1}a{r:.1} {r:.1} 0 1 0 {:.1} 0a{r:.1} {r:.1} 0 1 0 {:.1} 0",
                        p.x - r,
                        p.y,
                        2.0 * r,
                        -2.0 * r
                    );
                    top = top.min(p.y);
                    left = left.min(p.x);
                    right = right.max(p.x);
                    lo = (lo.0.min(p.x - d), lo.1.min(p.y - d));
                    hi = (hi.0.max(p.x + d), hi.1.max(p.y + d));
                }
                seat_count += seats.len();
                let size = d * 1.2;
                labels.push((s.name.clone(), (left + right) / 2.0, top - d * 0.9, size));
                lo.1 = lo.1.min(top - d * 0.9 - size);
            }
            if seat_count == 0 {
                return None;
            }
            let view_box = format!(
                "{:.1} {:.1} {:.1} {:.1}",
                lo.0,
                lo.1,
                hi.0 - lo.0,
                hi.1 - lo.1
            );
            Some(DeckPreview {
                level,
                view_box,
                seats: paths.into_iter().collect(),
                labels,
                seat_count,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::console::{CategorySpec, SectionSpec};

    fn category(code: &str, color: &str) -> CategorySpec {
        CategorySpec {
            code: code.into(),
            name: code.into(),
            price_cents: 100,
            color: color.into(),
        }
    }

    fn section(name: &str, level: Option<&str>, category: &str, y: f64) -> SectionSpec {
        SectionSpec {
            name: name.into(),
            level: level.map(String::from),
            category: category.into(),
            rows: 2,
            seats_per_row: 3,
            y,
            curve: Some(40.0),
            ..Default::default()
        }
    }

    #[test]
    fn one_path_per_colour_and_a_label_per_section() {
        let layout = EventLayout {
            categories: vec![category("A", "#aa0000"), category("B", "#0000bb")],
            sections: vec![
                section("Left", None, "A", 0.0),
                section("Right", None, "B", 60.0),
                section("Back", None, "A", 120.0),
            ],
            ..Default::default()
        };
        let decks = preview(&layout);
        assert_eq!(decks.len(), 1);
        let deck = &decks[0];
        assert_eq!(deck.level, None);
        assert_eq!(deck.seat_count, 18);
        let colours: Vec<&str> = deck.seats.iter().map(|(c, _)| c.as_str()).collect();
        assert_eq!(colours, ["#0000bb", "#aa0000"]);
        // Every seat is one circle: two arcs each.
        assert_eq!(deck.seats[1].1.matches('M').count(), 12);
        let names: Vec<&str> = deck.labels.iter().map(|l| l.0.as_str()).collect();
        assert_eq!(names, ["Left", "Right", "Back"]);
        // The box holds every seat and label.
        let v: Vec<f64> = deck
            .view_box
            .split(' ')
            .map(|n| n.parse().unwrap())
            .collect();
        for s in layout.sections.iter().flat_map(|s| s.placed_seats()) {
            assert!(s.x > v[0] && s.x < v[0] + v[2] && s.y > v[1] && s.y < v[1] + v[3]);
        }
        for l in &deck.labels {
            assert!(l.2 - l.3 >= v[1], "{l:?} above {v:?}");
        }
    }

    #[test]
    fn a_ship_is_drawn_deck_by_deck_and_empty_sections_draw_nothing() {
        let mut empty = section("Nothing", Some("9"), "A", 0.0);
        empty.rows = 0;
        let layout = EventLayout {
            categories: vec![category("A", "#aa0000")],
            sections: vec![
                section("Fore", Some("5"), "A", 0.0),
                section("Aft", Some("6"), "A", 0.0),
                section("Mid", Some("5"), "Z", 40.0),
                empty,
            ],
            ..Default::default()
        };
        let decks = preview(&layout);
        let levels: Vec<Option<&str>> = decks.iter().map(|d| d.level.as_deref()).collect();
        assert_eq!(levels, [Some("5"), Some("6")]);
        assert_eq!(decks[0].seat_count, 12);
        // A category not (yet) defined is drawn grey, not dropped.
        assert!(decks[0].seats.iter().any(|(c, _)| c == "#888888"));
    }
}
