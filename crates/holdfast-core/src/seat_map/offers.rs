//! Seats just offered to a buyer whose hold lost (the suggestions of a 409
//! `SEAT_TAKEN`). For a few seconds the next loser is offered other seats
//! where there are any, so a crowd that lost the same seats spreads over
//! different blocks instead of racing again, all of it, for the nearest
//! one — the on-sale's herd. A hint, like `claiming`: an offer reserves
//! nothing, and the database still decides who gets a seat.

use std::sync::MutexGuard;

use super::EventSeatMap;
use crate::platform::clock::At;
use holdfast_model::SeatId;

/// How long a suggested seat is kept for the loser it was offered to:
/// about the time a buyer takes to accept it.
pub const OFFERED_FOR_MS: i64 = 3_000;

impl EventSeatMap {
    fn offered_until(&self) -> MutexGuard<'_, Vec<At>> {
        self.offered_until.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Up to `max` blocks that `choose` picks from a mask of seats, first
    /// among the `free` seats nobody was offered in the last few seconds,
    /// then, if that found too few, among the others; what it returns is
    /// marked as offered. One loser at a time, so two concurrent losers are
    /// never offered the same seat while another choice exists.
    pub fn offer(
        &self,
        now: At,
        free: &[bool],
        max: usize,
        choose: impl Fn(&[bool], usize) -> Vec<Vec<SeatId>>,
    ) -> Vec<Vec<SeatId>> {
        let mut until = self.offered_until();
        let fresh: Vec<bool> = free
            .iter()
            .zip(until.iter())
            .map(|(free, until)| *free && *until <= now)
            .collect();
        let mut offered = choose(&fresh, max);
        if offered.len() < max {
            let mut rest = free.to_vec();
            for i in offered.iter().flatten().filter_map(|id| self.index_of(*id)) {
                rest[i] = false;
            }
            offered.extend(choose(&rest, max - offered.len()));
        }
        for i in offered.iter().flatten().filter_map(|id| self.index_of(*id)) {
            until[i] = now + OFFERED_FOR_MS;
        }
        offered
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seat_map::test_rows::row_of;

    /// Blocks of two free seats in row order, as many as asked.
    fn pairs(mask: &[bool], max: usize) -> Vec<Vec<SeatId>> {
        let mut out = Vec::new();
        let mut i = 0;
        while i + 1 < mask.len() && out.len() < max {
            if mask[i] && mask[i + 1] {
                out.push(vec![SeatId(i as i64 + 1), SeatId(i as i64 + 2)]);
                i += 2;
            } else {
                i += 1;
            }
        }
        out
    }

    #[test]
    fn the_next_loser_is_offered_other_seats_until_the_offer_ends() {
        let map = row_of(8);
        let now = At::from_ms(1_000_000);
        let free = vec![true; 8];
        let first = map.offer(now, &free, 1, pairs);
        let second = map.offer(now, &free, 1, pairs);
        assert_eq!(first, vec![vec![SeatId(1), SeatId(2)]]);
        assert_eq!(second, vec![vec![SeatId(3), SeatId(4)]]);
        // Offered seats come after the others, not never.
        let all = map.offer(now, &free, 4, pairs);
        assert_eq!(all.len(), 4);
        assert_eq!(all[0], vec![SeatId(5), SeatId(6)]);
        assert_eq!(all[1], vec![SeatId(7), SeatId(8)]);
        // Once the offers have run out, the nearest seats come first again.
        let later = map.offer(now + OFFERED_FOR_MS, &free, 1, pairs);
        assert_eq!(later, vec![vec![SeatId(1), SeatId(2)]]);
    }

    #[test]
    fn a_seat_that_is_not_free_is_never_offered() {
        let map = row_of(4);
        let now = At::from_ms(5_000);
        let free = [false, false, true, true];
        assert_eq!(
            map.offer(now, &free, 2, pairs),
            vec![vec![SeatId(3), SeatId(4)]]
        );
    }
}
