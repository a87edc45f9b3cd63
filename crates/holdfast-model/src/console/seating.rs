//! Where a layout's sections put their seats: rows × seats per row from a
//! corner, straight or bent into an arc around the stage. Pure: the server
//! creates seats from it and the console's preview draws the same points.

use super::SectionSpec;

/// Distance between seats and between rows when a section names none.
pub const DEFAULT_SPACING: f64 = 12.0;
/// The most a row may bend, in degrees of arc.
pub const MAX_CURVE: f64 = 180.0;

/// One seat of a section: its row (0 = front), number (from 1, left to
/// right on the map) and place.
#[derive(Debug, Clone, PartialEq)]
pub struct PlacedSeat {
    pub row: usize,
    pub number: i64,
    pub x: f64,
    pub y: f64,
}

impl SectionSpec {
    pub fn spacing_or_default(&self) -> f64 {
        self.spacing.unwrap_or(DEFAULT_SPACING)
    }

    /// Every seat of the block, row by row. The stage is above (smaller
    /// `y`). Straight, the front row's first seat is at (`x`, `y`) and
    /// seats and rows are `spacing` apart. Curved by `curve` degrees, each
    /// row is an arc around one centre on the stage side: the front row's
    /// middle stays at (`x` + width / 2, `y`), its seats `spacing` apart
    /// along the arc, and each row behind is `spacing` further out on the
    /// same rays, so the block fans out like an arena's.
    pub fn placed_seats(&self) -> Vec<PlacedSeat> {
        let rows = self.rows.clamp(0, 200) as usize;
        let per_row = self.seats_per_row.clamp(0, 200);
        let d = self.spacing_or_default();
        let bend = self.curve.unwrap_or(0.0).clamp(0.0, MAX_CURVE).to_radians();
        let width = (per_row - 1).max(0) as f64 * d;
        let mut seats = Vec::with_capacity(rows * per_row as usize);
        for row in 0..rows {
            for n in 0..per_row {
                let (x, y) = if bend < 1e-6 || per_row < 2 {
                    (self.x + n as f64 * d, self.y + row as f64 * d)
                } else {
                    // The front row's arc is as long as the straight row.
                    let radius = width / bend;
                    let centre = (self.x + width / 2.0, self.y - radius);
                    let angle = -bend / 2.0 + bend * n as f64 / (per_row - 1) as f64;
                    let r = radius + row as f64 * d;
                    (centre.0 + r * angle.sin(), centre.1 + r * angle.cos())
                };
                seats.push(PlacedSeat {
                    row,
                    number: n + 1,
                    x: round(x),
                    y: round(y),
                });
            }
        }
        seats
    }
}

/// A seat's drawn radius, as a share of its section's spacing.
pub const SEAT_RADIUS: f64 = 0.38;

/// The pairs of sections (by index, `i < j`, on the same deck) where a seat
/// of one is drawn over a seat of the other: centres closer than a seat's
/// width at the smaller spacing.
pub fn overlapping(sections: &[SectionSpec]) -> Vec<(usize, usize)> {
    let deck = |s: &SectionSpec| {
        s.level
            .as_deref()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_string)
    };
    let placed: Vec<Vec<PlacedSeat>> = sections.iter().map(|s| s.placed_seats()).collect();
    let mut pairs = Vec::new();
    for j in 1..sections.len() {
        for i in 0..j {
            if deck(&sections[i]) != deck(&sections[j]) {
                continue;
            }
            let reach = 2.0
                * SEAT_RADIUS
                * sections[i]
                    .spacing_or_default()
                    .min(sections[j].spacing_or_default());
            if too_close(&placed[i], &placed[j], reach) {
                pairs.push((i, j));
            }
        }
    }
    pairs
}

/// Whether a point of `a` lies within `reach` of a point of `b` (a grid of
/// `b` by cells of `reach`, so each point of `a` looks at nine cells).
fn too_close(a: &[PlacedSeat], b: &[PlacedSeat], reach: f64) -> bool {
    use std::collections::HashMap;
    if a.is_empty() || b.is_empty() || reach <= 0.0 {
        return false;
    }
    let cell = |x: f64, y: f64| ((x / reach).floor() as i64, (y / reach).floor() as i64);
    let mut grid: HashMap<(i64, i64), Vec<(f64, f64)>> = HashMap::new();
    for p in b {
        grid.entry(cell(p.x, p.y)).or_default().push((p.x, p.y));
    }
    a.iter().any(|p| {
        let (cx, cy) = cell(p.x, p.y);
        (-1..=1).any(|dx| {
            (-1..=1).any(|dy| {
                grid.get(&(cx + dx, cy + dy)).is_some_and(|near| {
                    near.iter()
                        .any(|(x, y)| (x - p.x).powi(2) + (y - p.y).powi(2) < reach * reach)
                })
            })
        })
    })
}

/// To a tenth of a map unit: the drawing's own precision.
fn round(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

/// A row's label: A, B, …, Z, AA, AB, …
pub fn row_label(i: usize) -> String {
    let letters = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    if i < 26 {
        (letters[i] as char).to_string()
    } else {
        format!("{}{}", row_label(i / 26 - 1), letters[i % 26] as char)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(rows: i64, per_row: i64, curve: Option<f64>) -> SectionSpec {
        SectionSpec {
            name: "Block".into(),
            category: "A".into(),
            rows,
            seats_per_row: per_row,
            x: 100.0,
            y: 50.0,
            curve,
            ..Default::default()
        }
    }

    #[test]
    fn a_straight_block_is_a_grid_from_its_corner() {
        let seats = block(2, 3, None).placed_seats();
        let at: Vec<(usize, i64, f64, f64)> =
            seats.iter().map(|s| (s.row, s.number, s.x, s.y)).collect();
        assert_eq!(
            at,
            [
                (0, 1, 100.0, 50.0),
                (0, 2, 112.0, 50.0),
                (0, 3, 124.0, 50.0),
                (1, 1, 100.0, 62.0),
                (1, 2, 112.0, 62.0),
                (1, 3, 124.0, 62.0)
            ]
        );
        assert_eq!(block(2, 3, Some(0.0)).placed_seats(), seats);
    }

    #[test]
    fn a_curved_row_is_an_arc_around_the_stage_side() {
        let section = block(3, 11, Some(60.0));
        let seats = section.placed_seats();
        assert_eq!(seats.len(), 33);
        let width = 10.0 * 12.0;
        let radius = width / 60f64.to_radians();
        let centre = (100.0 + width / 2.0, 50.0 - radius);
        // The front row's middle seat stays where the straight one was.
        assert_eq!((seats[5].x, seats[5].y), (160.0, 50.0));
        for s in &seats {
            let r = ((s.x - centre.0).powi(2) + (s.y - centre.1).powi(2)).sqrt();
            let want = radius + s.row as f64 * 12.0;
            assert!(
                (r - want).abs() < 0.2,
                "{s:?}: {r} from the centre, not {want}"
            );
        }
        // Ends bend towards the stage (up), symmetric about the middle.
        assert!(seats[0].y < seats[5].y && seats[10].y < seats[5].y);
        assert!((seats[0].y - seats[10].y).abs() < 0.01);
        assert!(((seats[0].x + seats[10].x) / 2.0 - 160.0).abs() < 0.01);
        // The front row's neighbours stay about `spacing` apart.
        let gap = ((seats[1].x - seats[0].x).powi(2) + (seats[1].y - seats[0].y).powi(2)).sqrt();
        assert!((gap - 12.0).abs() < 0.2, "{gap}");
    }

    #[test]
    fn a_bend_beyond_half_a_circle_is_half_a_circle() {
        assert_eq!(
            block(1, 5, Some(400.0)).placed_seats(),
            block(1, 5, Some(MAX_CURVE)).placed_seats()
        );
    }

    #[test]
    fn sections_drawn_over_each_other_are_found() {
        let left = block(3, 10, Some(40.0));
        let mut apart = block(3, 10, Some(40.0));
        apart.x += 10.0 * 12.0 + 40.0;
        let mut over = block(2, 4, None);
        over.x += 30.0;
        over.y += 5.0;
        let mut other_deck = over.clone();
        other_deck.level = Some("7".into());
        assert!(overlapping(&[left.clone(), apart.clone()]).is_empty());
        assert_eq!(overlapping(&[left.clone(), apart, over]), [(0, 2)]);
        assert!(overlapping(&[left, other_deck]).is_empty());
        // Exactly side by side, a spacing apart: fine.
        let mut next = block(1, 3, None);
        next.x += 36.0;
        assert!(overlapping(&[block(1, 3, None), next]).is_empty());
    }

    #[test]
    fn rows_are_lettered_like_a_spreadsheet() {
        assert_eq!(row_label(0), "A");
        assert_eq!(row_label(25), "Z");
        assert_eq!(row_label(26), "AA");
        assert_eq!(row_label(27), "AB");
    }
}
