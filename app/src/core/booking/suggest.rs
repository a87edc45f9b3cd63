//! Alternatives offered when a hold loses: free blocks of the same size,
//! side by side in one row, nearest first — the same row, then the same
//! section, then anywhere — and, when another choice exists, never a block
//! that would leave a single orphan seat beside it. Pure: it reads a free
//! mask, it writes nothing.

use crate::core::seat_map::EventSeatMap;
use crate::model::SeatId;

/// Up to `max` non-overlapping blocks of `n` adjacent free seats near the
/// requested ones.
pub fn alternatives(map: &EventSeatMap, free: &[bool], requested: &[usize], n: usize, max: usize) -> Vec<Vec<SeatId>> {
    if n == 0 || requested.is_empty() {
        return Vec::new();
    }
    let first = &map.seats[requested[0]];
    let (cx, cy) = requested.iter().fold((0.0, 0.0), |(x, y), &i| {
        (x + map.seats[i].x, y + map.seats[i].y)
    });
    let (cx, cy) = (cx / requested.len() as f64, cy / requested.len() as f64);

    // (tier, leaves an orphan, distance, seat indices)
    let mut candidates: Vec<(u8, bool, f64, Vec<usize>)> = Vec::new();
    for row in &map.rows {
        let head = &map.seats[row[0]];
        let tier = match (head.section == first.section, head.row == first.row) {
            (true, true) => 0,
            (true, false) => 1,
            _ => 2,
        };
        let mut start = 0;
        while start < row.len() {
            if !free[row[start]] {
                start += 1;
                continue;
            }
            let mut end = start;
            while end + 1 < row.len() && free[row[end + 1]] && adjacent(map, row[end], row[end + 1]) {
                end += 1;
            }
            let run = end - start + 1;
            if run >= n {
                for s in start..=end + 1 - n {
                    let left = s - start;
                    let right = end - (s + n - 1);
                    let block: Vec<usize> = row[s..s + n].to_vec();
                    let (bx, by) = block.iter().fold((0.0, 0.0), |(x, y), &i| (x + map.seats[i].x, y + map.seats[i].y));
                    let d = ((bx / n as f64 - cx).powi(2) + (by / n as f64 - cy).powi(2)).sqrt();
                    candidates.push((tier, left == 1 || right == 1, d, block));
                }
            }
            start = end + 1;
        }
    }
    candidates.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)).then(a.2.total_cmp(&b.2)));
    let mut used = vec![false; map.seats.len()];
    let mut out = Vec::new();
    for (_, _, _, block) in candidates {
        if out.len() == max {
            break;
        }
        if block.iter().any(|&i| used[i]) {
            continue;
        }
        block.iter().for_each(|&i| used[i] = true);
        out.push(block.iter().map(|&i| map.seats[i].id).collect());
    }
    out
}

/// Seats next to each other in a row: consecutive numbers.
fn adjacent(map: &EventSeatMap, a: usize, b: usize) -> bool {
    map.seats[b].number == map.seats[a].number + 1
}
