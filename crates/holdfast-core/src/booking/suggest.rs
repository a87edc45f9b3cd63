//! Alternatives offered when a hold loses: free blocks of the same size,
//! side by side in one row, nearest first — the same row, then the same
//! section, then anywhere — and, when another choice exists, never a block
//! that would leave a single orphan seat beside it. Pure: it reads a free
//! mask, it writes nothing.

use crate::seat_map::EventSeatMap;
use holdfast_model::SeatId;

/// Up to `max` non-overlapping blocks of `n` adjacent free seats near the
/// requested ones.
pub fn alternatives(
    map: &EventSeatMap,
    free: &[bool],
    requested: &[usize],
    n: usize,
    max: usize,
) -> Vec<Vec<SeatId>> {
    blocks(map, free, requested, n, max, Ranking::Nearest)
}

/// How much of a tier's candidates is put in order.
#[derive(Clone, Copy)]
enum Ranking {
    /// Only as many as the choice can reach (see `nearest_first`).
    Nearest,
    /// All of them, as the tests' reference.
    #[cfg(test)]
    All,
}

fn blocks(
    map: &EventSeatMap,
    free: &[bool],
    requested: &[usize],
    n: usize,
    max: usize,
    ranking: Ranking,
) -> Vec<Vec<SeatId>> {
    if n == 0 || requested.is_empty() {
        return Vec::new();
    }
    let first = &map.seats[requested[0]];
    let (cx, cy) = requested.iter().fold((0.0, 0.0), |(x, y), &i| {
        (x + map.seats[i].x, y + map.seats[i].y)
    });
    let (cx, cy) = (cx / requested.len() as f64, cy / requested.len() as f64);

    // Nearer tiers first; a farther tier is only searched when the nearer
    // ones did not yield enough blocks.
    let mut used = vec![false; map.seats.len()];
    let mut out: Vec<Vec<SeatId>> = Vec::new();
    for tier in 0..3u8 {
        let mut candidates: Vec<Candidate> = Vec::new();
        for (g, row) in map.rows.iter().enumerate() {
            let head = &map.seats[row[0]];
            let row_tier = match (head.section == first.section, head.row == first.row) {
                (true, true) => 0,
                (true, false) => 1,
                _ => 2,
            };
            if row_tier != tier {
                continue;
            }
            let mut start = 0;
            while start < row.len() {
                if !free[row[start]] || used[row[start]] {
                    start += 1;
                    continue;
                }
                let mut end = start;
                while end + 1 < row.len()
                    && free[row[end + 1]]
                    && !used[row[end + 1]]
                    && adjacent(map, row[end], row[end + 1])
                {
                    end += 1;
                }
                if end - start + 1 >= n {
                    for s in start..=end + 1 - n {
                        let orphan = s - start == 1 || end - (s + n - 1) == 1;
                        let (bx, by) = row[s..s + n].iter().fold((0.0, 0.0), |(x, y), &i| {
                            (x + map.seats[i].x, y + map.seats[i].y)
                        });
                        let d = (bx / n as f64 - cx).powi(2) + (by / n as f64 - cy).powi(2);
                        candidates.push((orphan, d, g, s));
                    }
                }
                start = end + 1;
            }
        }
        let reach = match ranking {
            Ranking::Nearest => (max - out.len()) * (2 * n - 1),
            #[cfg(test)]
            Ranking::All => candidates.len(),
        };
        nearest_first(&mut candidates, reach);
        for (_, _, g, s) in candidates {
            if out.len() == max {
                return out;
            }
            let block = &map.rows[g][s..s + n];
            if block.iter().any(|&i| used[i]) {
                continue;
            }
            block.iter().for_each(|&i| used[i] = true);
            out.push(block.iter().map(|&i| map.seats[i].id).collect());
        }
        if out.len() == max {
            break;
        }
    }
    out
}

/// A block's candidacy: (leaves an orphan, distance, row group, first
/// place in the row).
type Candidate = (bool, f64, usize, usize);

/// The first `reach` candidates in order (no orphan before an orphan, then
/// nearer first, then row and place), and only those. The choice that
/// follows takes blocks in this order and skips one that overlaps a block
/// it took; a block of `n` overlaps at most `2n - 2` others, so `max` blocks
/// are found within the first `max * (2n - 1)` whenever the whole list
/// holds them. A loser early in an on-sale has thousands of candidates;
/// putting all of them in order was the largest part of a refused hold
/// (`perf`, the full-size on-sale).
fn nearest_first(candidates: &mut Vec<Candidate>, reach: usize) {
    let order = |a: &Candidate, b: &Candidate| {
        (a.0.cmp(&b.0))
            .then(a.1.total_cmp(&b.1))
            .then(a.2.cmp(&b.2))
            .then(a.3.cmp(&b.3))
    };
    if reach == 0 {
        candidates.clear();
        return;
    }
    if candidates.len() > reach {
        candidates.select_nth_unstable_by(reach - 1, order);
        candidates.truncate(reach);
    }
    candidates.sort_unstable_by(order);
}

/// Seats next to each other in a row: consecutive numbers.
fn adjacent(map: &EventSeatMap, a: usize, b: usize) -> bool {
    map.seats[b].number == map.seats[a].number + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seat_map::{Occupancy, Seat};
    use holdfast_model::EventId;

    /// Three sections of five rows of fourteen seats, with a gap in every
    /// row's numbers (an aisle) so that not every neighbour is adjacent.
    fn arena() -> EventSeatMap {
        let mut seats = Vec::new();
        for (k, section) in ["A", "B", "C"].iter().enumerate() {
            for row in 0..5 {
                for place in 0..14i64 {
                    let number = if place < 7 { place + 1 } else { place + 3 };
                    let id = seats.len() as i64 + 1;
                    seats.push(Seat {
                        id: SeatId(id),
                        label: format!("{section}-{row}-{number}"),
                        level: None,
                        section: (*section).into(),
                        row: row.to_string(),
                        number,
                        x: (k * 20) as f64 + number as f64,
                        y: row as f64 * 1.5,
                        category: "A".into(),
                        price_cents: 100,
                    });
                }
            }
        }
        let n = seats.len();
        EventSeatMap::new(
            EventId(1),
            holdfast_model::money::Currency::of("EUR").unwrap(),
            seats,
            vec![Occupancy::Free; n],
        )
    }

    #[test]
    fn ordering_only_the_reachable_candidates_chooses_as_ordering_all_of_them() {
        let map = arena();
        let seats = map.seats.len();
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move |below: u64| {
            // xorshift64*: enough to spread masks and requests.
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            (state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) % below
        };
        let mut nonempty = 0;
        for _ in 0..4_000 {
            // From nearly full to nearly empty.
            let taken_per_mille = next(1_000);
            let free: Vec<bool> = (0..seats).map(|_| next(1_000) >= taken_per_mille).collect();
            let n = 1 + next(4) as usize;
            let first = next(seats as u64 - 4) as usize;
            let requested: Vec<usize> = (first..first + n).collect();
            let max = 1 + next(4) as usize;
            let chosen = blocks(&map, &free, &requested, n, max, Ranking::Nearest);
            let reference = blocks(&map, &free, &requested, n, max, Ranking::All);
            assert_eq!(
                chosen, reference,
                "n {n}, max {max}, requested {requested:?}"
            );
            nonempty += usize::from(!chosen.is_empty());
        }
        // The masks gave blocks to choose among, not only empty answers.
        assert!(nonempty > 2_000, "{nonempty}");
    }
}
