//! Moving a booking's places from one sailing of a ship to another: the
//! job's move off a cancelled sailing (`rebook`) and a buyer's choice of
//! another sailing (`answer`) both write through `claim` and
//! `complete_move`.

use crate::core::platform::clock::At;
use crate::core::platform::db::Tx;
use crate::core::sailing::placement::{self, Party, Placement};
use crate::core::seat_map::Occupancy;
use crate::core::{ApiError, AppState};
use crate::model::{BookingId, EventId, SeatId};

/// How often a booking's parties are placed again after a place chosen
/// for them was taken meanwhile.
const ATTEMPTS: usize = 5;

/// Bookings moved in one transaction (one commit, one fence check).
const GROUP: usize = 25;

mod job;
mod places;
pub(super) use job::rebook;
pub(super) use places::{free_rooms, next_sailing, parties, Rooms};

/// The pairs of a placement as a CTE's rows, from parameter `$first`:
/// `m(from_seat, to_seat)`.
fn pairs_cte(placement: &Placement, first: usize) -> String {
    let rows: Vec<String> = (0..placement.moves.len())
        .map(|i| {
            let p = first + 2 * i;
            format!("(cast(${p} as bigint), cast(${} as bigint))", p + 1)
        })
        .collect();
    format!("with m(from_seat, to_seat) as (values {})", rows.join(", "))
}

/// Claims the booking's new places on `to` (at the price paid and for the
/// party of the places they replace) through the partial unique index
/// that decides every hold: a place live in another booking is passed
/// over (`on conflict … do nothing`). Answers the places it could not
/// claim; if any, the caller gives back the others (`unclaim`).
pub(super) async fn claim(
    tx: &mut Tx,
    booking: &BookingId,
    to: EventId,
    placement: &Placement,
) -> Result<Vec<SeatId>, sqlx::Error> {
    let sql = format!(
        "{} insert into booking_seat (booking_id, seat_id, event_id, price_cents, guests, live)
         select $1, m.to_seat, $2, bs.price_cents, bs.guests, 1
         from m join booking_seat bs on bs.booking_id = $1 and bs.seat_id = m.from_seat and bs.live = 1
         where true
         on conflict (seat_id) where live = 1 do nothing
         returning seat_id",
        pairs_cte(placement, 3)
    );
    let mut q = sqlx::query_as(&sql).bind(booking).bind(to);
    for (from, to_seat) in &placement.moves {
        q = q.bind(from).bind(to_seat);
    }
    let claimed: Vec<(SeatId,)> = q.fetch_all(&mut **tx).await?;
    Ok(placement
        .moves
        .iter()
        .map(|m| m.1)
        .filter(|s| !claimed.iter().any(|c| c.0 == *s))
        .collect())
}

/// Gives back what `claim` took of a move that could not be completed.
pub(super) async fn unclaim(
    tx: &mut Tx,
    booking: &BookingId,
    to: EventId,
) -> Result<(), sqlx::Error> {
    sqlx::query("delete from booking_seat where booking_id = $1 and event_id = $2")
        .bind(booking)
        .bind(to)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Completes a claimed move: the old places are kept in `moved_place`
/// and leave `booking_seat`, the guests follow their cabins, the booking
/// is the new sailing's. The price paid per place stays (an upgrade
/// costs nothing).
pub(super) async fn complete_move(
    tx: &mut Tx,
    booking: &BookingId,
    from: EventId,
    to: EventId,
    placement: &Placement,
    named: bool,
    now: At,
) -> Result<(), sqlx::Error> {
    let sql = format!(
        "{} insert into moved_place (booking_id, from_seat_id, to_seat_id, guests, price_cents, moved_at)
         select $1, m.from_seat, m.to_seat, bs.guests, bs.price_cents, $2
         from m join booking_seat bs on bs.booking_id = $1 and bs.seat_id = m.from_seat and bs.live = 1",
        pairs_cte(placement, 3)
    );
    let mut q = sqlx::query(&sql).bind(booking).bind(now);
    for (from_seat, to_seat) in &placement.moves {
        q = q.bind(from_seat).bind(to_seat);
    }
    q.execute(&mut **tx).await?;
    sqlx::query("delete from booking_seat where booking_id = $1 and event_id = $2")
        .bind(booking)
        .bind(from)
        .execute(&mut **tx)
        .await?;
    if named {
        sqlx::query(
            "update booking_guest set seat_id = (select m.to_seat_id from moved_place m
                 where m.booking_id = booking_guest.booking_id and m.from_seat_id = booking_guest.seat_id)
             where booking_id = $1 and seat_id in (select s.id from seat s where s.event_id = $2)",
        )
        .bind(booking)
        .bind(from)
        .execute(&mut **tx)
        .await?;
    }
    sqlx::query("update booking set event_id = $2, updated_at = $3 where id = $1")
        .bind(booking)
        .bind(to)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

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
        let missed = claim(tx, booking, to, &placed).await?;
        let seats: Vec<SeatId> = placed.moves.iter().map(|m| m.1).collect();
        let taken = rooms.take(to, &seats);
        if missed.is_empty() {
            return Ok(Some(placed));
        }
        unclaim(tx, booking, to).await?;
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
