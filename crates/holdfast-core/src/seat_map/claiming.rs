//! Seats a request picked for itself and is claiming right now (best
//! available): the next picker chooses around them, so a crowd asking at
//! the same moment spreads over different blocks instead of all racing for
//! the best one and retrying. A hint only, like the rest of the map: the
//! database still decides who gets a seat, and a reservation ends when its
//! request has its answer (the guard's drop), won or lost.

use crate::platform::clock::At;
use std::sync::Arc;

use super::{EventSeatMap, SeatStatus};
use holdfast_model::SeatId;

/// Seats marked as being claimed until this is dropped.
pub struct BeingClaimed {
    map: Arc<EventSeatMap>,
    seats: Vec<usize>,
}

impl BeingClaimed {
    pub fn seat_ids(&self) -> Vec<SeatId> {
        self.seats.iter().map(|&i| self.map.seats[i].id).collect()
    }
}

impl Drop for BeingClaimed {
    fn drop(&mut self) {
        let mut claiming = self.map.claiming();
        for &i in &self.seats {
            claiming[i] = false;
        }
    }
}

impl EventSeatMap {
    fn claiming(&self) -> std::sync::MutexGuard<'_, Vec<bool>> {
        self.claiming.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Lets `pick` choose among the seats free now and not being claimed
    /// (one flag per seat index), and marks what it chose as being claimed
    /// — one picker at a time, so two never choose the same free seat.
    pub fn pick_to_claim(
        self: &Arc<Self>,
        now_ms: At,
        pick: impl FnOnce(&[bool]) -> Option<Vec<SeatId>>,
    ) -> Option<BeingClaimed> {
        let mut claiming = self.claiming();
        let statuses = self.statuses(now_ms);
        let open: Vec<bool> = statuses
            .iter()
            .zip(claiming.iter())
            .map(|(s, c)| *s == SeatStatus::Available && !c)
            .collect();
        let seats: Vec<usize> = pick(&open)?
            .iter()
            .filter_map(|id| self.index_of(*id))
            .collect();
        for &i in &seats {
            claiming[i] = true;
        }
        Some(BeingClaimed {
            map: self.clone(),
            seats,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seat_map::test_rows::row_of;
    use crate::seat_map::Occupancy;

    fn first_open(open: &[bool]) -> Option<Vec<SeatId>> {
        open.iter()
            .position(|o| *o)
            .map(|i| vec![SeatId(i as i64 + 1)])
    }

    #[test]
    fn a_second_picker_does_not_see_what_the_first_is_claiming() {
        let map = row_of(3);
        let first = map.pick_to_claim(At::from_ms(0), first_open).unwrap();
        let second = map.pick_to_claim(At::from_ms(0), first_open).unwrap();
        assert_eq!(first.seat_ids(), vec![SeatId(1)]);
        assert_eq!(second.seat_ids(), vec![SeatId(2)]);
        drop(first);
        // Answered (won or lost): the seat is the map's to tell again.
        assert_eq!(
            map.pick_to_claim(At::from_ms(0), first_open)
                .unwrap()
                .seat_ids(),
            vec![SeatId(1)]
        );
    }

    #[test]
    fn seats_held_or_being_claimed_are_not_offered() {
        let map = row_of(2);
        map.apply(
            &[(SeatId(1), Occupancy::Held(At::from_ms(1_000)))],
            At::from_ms(0),
        );
        let _second = map.pick_to_claim(At::from_ms(0), first_open).unwrap();
        assert!(map.pick_to_claim(At::from_ms(0), first_open).is_none());
        // The hold ran out: its seat is open again.
        assert_eq!(
            map.pick_to_claim(At::from_ms(1_000), first_open)
                .unwrap()
                .seat_ids(),
            vec![SeatId(1)]
        );
    }
}
