//! Moving a booking's places from one sailing of a ship to another: the
//! job's move off a cancelled sailing (`rebook`) and a buyer's choice of
//! another sailing (`answer`) both write through `claim` and
//! `complete_move`.

use crate::platform::db::Tx;
use crate::sailing::placement::{self, Party, Placement};
use crate::seat_map::Occupancy;
use crate::{ApiError, AppState};
use holdfast_model::{BookingId, EventId, SeatId};

/// How often a booking's parties are placed again after a place chosen
/// for them was taken meanwhile.
const ATTEMPTS: usize = 5;

/// Bookings moved in one transaction (one commit, one fence check).
const GROUP: usize = 25;

mod job;
mod places;
pub(super) use job::rebook;
pub(super) use places::{free_rooms, next_sailing, parties, Rooms};

use crate::booking::store;

/// Places and claims the booking's parties on `to`: a place taken under
/// the job is passed over and the parties placed again, a few times;
/// `None` when they no longer fit (a refund is offered).
async fn place_and_claim(
    tx: &mut Tx,
    state: &AppState,
    rooms: &mut Rooms,
    booking: &BookingId,
    parties: &[Party],
    to: EventId,
) -> Result<Option<Placement>, ApiError> {
    for _ in 0..ATTEMPTS {
        let Some(placed) = placement::place(parties, rooms.free_on(state, to).await?) else {
            return Ok(None);
        };
        let missed = store::claim_moved(tx, booking, to, &placed.moves).await?;
        let seats: Vec<SeatId> = placed.moves.iter().map(|m| m.1).collect();
        let taken = rooms.take(to, &seats);
        if missed.is_empty() {
            return Ok(Some(placed));
        }
        store::unclaim_moved(tx, booking, to).await?;
        // The missed places are someone else's; the others stay free.
        let back = taken
            .into_iter()
            .filter(|r| !missed.contains(&r.seat))
            .collect();
        rooms.put_back(to, back);
    }
    Ok(None)
}

/// The maps after a committed move: the old places free (on a sailing
/// that no longer sells), the new ones booked.
pub(super) fn publish_move(state: &AppState, from: EventId, to: EventId, placement: &Placement) {
    let now = state.clock.now();
    let freed: Vec<(SeatId, Occupancy)> = placement
        .moves
        .iter()
        .map(|m| (m.0, Occupancy::Free))
        .collect();
    let booked: Vec<(SeatId, Occupancy)> = placement
        .moves
        .iter()
        .map(|m| (m.1, Occupancy::Booked))
        .collect();
    state.seat_maps.publish(from, &freed, now);
    state.seat_maps.publish(to, &booked, now);
}
