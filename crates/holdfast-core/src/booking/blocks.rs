//! Choosing seats, with no I/O: the best block of N adjacent seats in one
//! row nearest a point (the stage, or a seat the buyer lost), passing over
//! blocks that would strand a single seat beside them; the blocks ranked
//! best first; or, when apart is allowed, the N nearest seats.

use crate::seat_map::EventSeatMap;
use holdfast_model::SeatId;

/// The best seats among the eligible ones: a block of `n` side by side,
/// else (when allowed) the `n` nearest to the point `toward`.
pub fn best_pick(
    map: &EventSeatMap,
    eligible: &[bool],
    n: usize,
    together: bool,
    toward: Point,
) -> Option<Vec<SeatId>> {
    if let Some(block) = best_block(map, eligible, n, toward) {
        return Some(block);
    }
    if together {
        None
    } else {
        nearest(map, eligible, n, toward)
    }
}

/// A place on the map.
pub type Point = (f64, f64);

/// What "best" is measured from: the seat asked to be near, when it is on
/// this map; else the stage.
pub fn toward(map: &EventSeatMap, near: Option<SeatId>) -> Point {
    near.and_then(|id| map.seats.iter().find(|s| s.id == id))
        .map(|s| (s.x, s.y))
        .unwrap_or_else(|| stage_point(map))
}

/// A block that can be taken: whether it strands a single seat beside it,
/// the squared distance of its centre to the point asked for, its row
/// (index in `map.rows`) and its first place in that row.
#[derive(Clone, Copy)]
struct Candidate {
    strands: bool,
    distance: f64,
    row: usize,
    start: usize,
}

impl Candidate {
    /// Better first: strands nobody, then nearer.
    fn rank(&self, other: &Candidate) -> std::cmp::Ordering {
        self.strands
            .cmp(&other.strands)
            .then(self.distance.total_cmp(&other.distance))
    }

    fn seat_ids(&self, map: &EventSeatMap, n: usize) -> Vec<SeatId> {
        map.rows[self.row][self.start..self.start + n]
            .iter()
            .map(|&i| map.seats[i].id)
            .collect()
    }
}

/// Every block of `n` eligible seats side by side in one row, in the map's
/// order.
fn each_block(
    map: &EventSeatMap,
    eligible: &[bool],
    n: usize,
    toward: Point,
    mut visit: impl FnMut(Candidate),
) {
    for (g, row) in map.rows.iter().enumerate() {
        let mut start = 0;
        while start < row.len() {
            if !eligible[row[start]] {
                start += 1;
                continue;
            }
            let mut end = start;
            while end + 1 < row.len()
                && eligible[row[end + 1]]
                && map.seats[row[end + 1]].number == map.seats[row[end]].number + 1
            {
                end += 1;
            }
            let starts = if end + 1 - start >= n {
                start..end + 2 - n
            } else {
                start..start
            };
            for s in starts {
                let (x, y) = row[s..s + n].iter().fold((0.0, 0.0), |(x, y), &i| {
                    (x + map.seats[i].x, y + map.seats[i].y)
                });
                visit(Candidate {
                    strands: s - start == 1 || end + 1 - (s + n) == 1,
                    distance: (x / n as f64 - toward.0).powi(2) + (y / n as f64 - toward.1).powi(2),
                    row: g,
                    start: s,
                });
            }
            start = end + 1;
        }
    }
}

/// The best block of `n` (the first `ranked_blocks` would give), found in
/// one pass without listing the others: what every request asks first.
pub fn best_block(
    map: &EventSeatMap,
    eligible: &[bool],
    n: usize,
    toward: Point,
) -> Option<Vec<SeatId>> {
    let mut best: Option<Candidate> = None;
    each_block(map, eligible, n, toward, |c| {
        // Strictly better only: equal ones keep the map's order.
        if best.as_ref().is_none_or(|b| c.rank(b).is_lt()) {
            best = Some(c);
        }
    });
    best.map(|b| b.seat_ids(map, n))
}

/// Up to `max` blocks of `n` eligible seats side by side in one row, that
/// share no seat, best first: those that strand no single seat beside
/// them, then by the distance of their centre to the point `toward`.
pub fn ranked_blocks(
    map: &EventSeatMap,
    eligible: &[bool],
    n: usize,
    max: usize,
    toward: Point,
) -> Vec<Vec<SeatId>> {
    let mut candidates: Vec<Candidate> = Vec::new();
    each_block(map, eligible, n, toward, |c| candidates.push(c));
    candidates.sort_by(Candidate::rank);
    let mut used = vec![false; map.seats.len()];
    let mut out = Vec::new();
    for c in candidates {
        if out.len() == max {
            break;
        }
        let block = &map.rows[c.row][c.start..c.start + n];
        if block.iter().any(|&i| used[i]) {
            continue;
        }
        block.iter().for_each(|&i| used[i] = true);
        out.push(c.seat_ids(map, n));
    }
    out
}

/// The `n` eligible seats nearest the point `toward`, wherever they are.
pub fn nearest(
    map: &EventSeatMap,
    eligible: &[bool],
    n: usize,
    toward: Point,
) -> Option<Vec<SeatId>> {
    let distance = |i: usize| {
        let s = &map.seats[i];
        (s.x - toward.0).powi(2) + (s.y - toward.1).powi(2)
    };
    let mut seats: Vec<usize> = (0..map.seats.len()).filter(|&i| eligible[i]).collect();
    if seats.len() < n {
        return None;
    }
    // The n nearest, without sorting all the others.
    let by_distance = |a: &usize, b: &usize| distance(*a).total_cmp(&distance(*b));
    if seats.len() > n {
        seats.select_nth_unstable_by(n - 1, by_distance);
        seats.truncate(n);
    }
    seats.sort_by(by_distance);
    Some(seats.iter().map(|&i| map.seats[i].id).collect())
}

/// Where the stage is: the top centre of the seats.
pub fn stage_point(map: &EventSeatMap) -> Point {
    let (mut x0, mut x1, mut y0) = (f64::MAX, f64::MIN, f64::MAX);
    for s in map.seats.iter() {
        x0 = x0.min(s.x);
        x1 = x1.max(s.x);
        y0 = y0.min(s.y);
    }
    ((x0 + x1) / 2.0, y0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seat_map::{Occupancy, Seat};
    use holdfast_model::EventId;

    /// Two rows of six seats; row A nearer the stage.
    fn small_map() -> EventSeatMap {
        let mut seats = Vec::new();
        for (r, row) in ["A", "B"].iter().enumerate() {
            for n in 1..=6 {
                seats.push(Seat {
                    id: SeatId((r * 10 + n) as i64),
                    label: format!("S-{row}-{n}"),
                    level: None,
                    section: "S".into(),
                    row: row.to_string(),
                    number: n as i64,
                    x: n as f64 * 10.0,
                    y: 100.0 + r as f64 * 10.0,
                    category: if r == 0 { "A" } else { "B" }.into(),
                    price_cents: if r == 0 { 9000 } else { 5000 },
                });
            }
        }
        let free = vec![Occupancy::Free; seats.len()];
        EventSeatMap::new(
            EventId(1),
            holdfast_model::money::Currency::of("EUR").unwrap(),
            seats,
            free,
        )
    }

    fn free_but(map: &EventSeatMap, taken: &[i64]) -> Vec<bool> {
        map.seats.iter().map(|s| !taken.contains(&s.id.0)).collect()
    }

    fn ids(numbers: &[i64]) -> Vec<SeatId> {
        numbers.iter().copied().map(SeatId).collect()
    }

    #[test]
    fn the_best_block_is_central_in_the_front_row() {
        let map = small_map();
        let pick = best_pick(&map, &free_but(&map, &[]), 2, true, stage_point(&map)).unwrap();
        assert_eq!(pick, ids(&[3, 4]));
    }

    #[test]
    fn a_block_that_would_strand_one_seat_is_passed_over() {
        let map = small_map();
        // Row A with seat 2 taken: 3-4 and 5-6 strand nobody, 4-5 would
        // strand 3 and 6; 3-4 is nearer the stage's centre (x = 35).
        let pick = best_pick(&map, &free_but(&map, &[2]), 2, true, stage_point(&map)).unwrap();
        assert_eq!(pick, ids(&[3, 4]));
        // With seat 4 taken too, the front row has only 5-6 at its edge:
        // the centre of the row behind is nearer.
        let pick = best_pick(&map, &free_but(&map, &[2, 4]), 2, true, stage_point(&map)).unwrap();
        assert_eq!(pick, ids(&[13, 14]));
        // Three seats where only 3-6 are free together: 3-5 strands 6 and
        // 4-6 strands 3 — both do; the nearer one is still taken.
        let back_row = [11, 12, 13, 14, 15, 16];
        let mut taken = vec![2];
        taken.extend(back_row);
        let pick = best_pick(&map, &free_but(&map, &taken), 3, true, stage_point(&map)).unwrap();
        assert_eq!(pick, ids(&[3, 4, 5]));
    }

    #[test]
    fn the_one_pass_best_is_the_first_of_the_ranking() {
        use rand::{Rng, SeedableRng};
        let map = small_map();
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for _ in 0..2_000 {
            let free: Vec<bool> = (0..map.seats.len()).map(|_| rng.gen_bool(0.6)).collect();
            let n = rng.gen_range(1..=4);
            let toward = (rng.gen_range(0.0..70.0), rng.gen_range(90.0..120.0));
            assert_eq!(
                best_block(&map, &free, n, toward),
                ranked_blocks(&map, &free, n, 1, toward).pop(),
                "{free:?} n={n} toward={toward:?}"
            );
        }
    }

    #[test]
    fn apart_only_when_allowed() {
        let map = small_map();
        let taken = [2, 4, 6, 12, 14, 16];
        assert_eq!(
            best_pick(&map, &free_but(&map, &taken), 2, true, stage_point(&map)),
            None
        );
        let apart = best_pick(&map, &free_but(&map, &taken), 2, false, stage_point(&map)).unwrap();
        assert_eq!(apart.len(), 2);
        assert!(apart.iter().all(|id| !taken.contains(&id.0)));
    }

    #[test]
    fn near_a_seat_means_around_that_seat_not_the_stage() {
        let map = small_map();
        let at = toward(&map, Some(SeatId(16)));
        assert_eq!(at, (60.0, 110.0));
        // Seat 16 lost; the front row's near end taken too.
        let pick = best_pick(&map, &free_but(&map, &[16, 5, 6]), 2, true, at).unwrap();
        assert_eq!(pick, ids(&[14, 15]), "beside the lost seat, in its row");
        let from_stage = best_pick(
            &map,
            &free_but(&map, &[16, 5, 6]),
            2,
            true,
            stage_point(&map),
        );
        assert_eq!(from_stage.unwrap(), ids(&[3, 4]));
        // A seat of another map: the stage, as if none was named.
        assert_eq!(toward(&map, Some(SeatId(999))), stage_point(&map));
    }
}
