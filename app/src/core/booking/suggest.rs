//! Alternatives offered when a hold loses: free blocks of the same size,
//! side by side in one row, nearest first — the same row, then the same
//! section, then anywhere — and, when another choice exists, never a block
//! that would leave a single orphan seat beside it. Pure: it reads a free
//! mask, it writes nothing.

use crate::core::seat_map::EventSeatMap;
use crate::model::SeatId;

/// Up to `max` non-overlapping blocks of `n` adjacent free seats near the
/// requested ones.
pub fn alternatives(
    map: &EventSeatMap,
    free: &[bool],
    requested: &[usize],
    n: usize,
    max: usize,
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
        // (leaves an orphan, distance, row group, first place in the row)
        let mut candidates: Vec<(bool, f64, usize, usize)> = Vec::new();
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
        candidates.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
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

/// Seats next to each other in a row: consecutive numbers.
fn adjacent(map: &EventSeatMap, a: usize, b: usize) -> bool {
    map.seats[b].number == map.seats[a].number + 1
}
