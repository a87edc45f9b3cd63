//! A booking's places moved from one sailing of a ship to another (the
//! rebooking job's and the buyer's answer's moves), and a guest's bookings
//! following the buyer who signs in: the booking writes that are not a
//! status transition.

use crate::platform::clock::At;
use crate::platform::db::Tx;
use holdfast_model::{BookingId, BuyerId, EventId, SeatId};

/// Places added to what a buyer ever claimed for an event (`placed`, the
/// bound on their count that Postgres' claims read first; see
/// `claim_sql`): a booking that comes to a buyer or an event other than
/// by a claim adds its places, as a claim does, and bumps the claim
/// counter as a claim does, so that a claim whose snapshot missed the
/// booking counts again after its lock. The caller selects the rows
/// (buyer, event, touched at, 1, places) between the two, in buyer and
/// event order (claims lock their buyers in that order too).
const ADD_PLACED: &str = "insert into buyer_event (buyer_id, event_id, touched_at, claims, placed)";
const ADDED: &str = "on conflict (buyer_id, event_id)
         do update set placed = buyer_event.placed + excluded.placed,
                       claims = buyer_event.claims + 1";

/// The places of `bookings`, about to move to sailing `to`, added to their
/// buyers' bounds there: before any of their places is claimed on `to`, as
/// a claim locks its buyer before its seats (a move of several bookings
/// claiming one's places while waiting for another's buyer could
/// otherwise wait in a circle with that buyer's claim).
pub async fn bound_moving(
    tx: &mut Tx,
    bookings: &[&BookingId],
    to: EventId,
) -> Result<(), sqlx::Error> {
    if bookings.is_empty() {
        return Ok(());
    }
    let sql = format!(
        "{ADD_PLACED} select buyer_id, $1, max(updated_at), 1, sum(places) from booking
         where id in ({ids}) group by buyer_id order by buyer_id {ADDED}",
        ids = crate::platform::db::placeholders(2, bookings.len())
    );
    let mut q = sqlx::query(&sql).bind(to);
    for id in bookings {
        q = q.bind(*id);
    }
    q.execute(&mut **tx).await?;
    Ok(())
}

/// The pairs of a move as a CTE's rows, from parameter `$first`:
/// `m(from_seat, to_seat)`.
fn pairs_cte(moves: &[(SeatId, SeatId)], first: usize) -> String {
    let rows: Vec<String> = (0..moves.len())
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
/// claim; if any, the caller gives back the others (`unclaim_moved`).
pub async fn claim_moved(
    tx: &mut Tx,
    booking: &BookingId,
    to: EventId,
    moves: &[(SeatId, SeatId)],
) -> Result<Vec<SeatId>, sqlx::Error> {
    let sql = format!(
        "{} insert into booking_seat (booking_id, seat_id, event_id, price_cents, guests, live)
         select $1, m.to_seat, $2, bs.price_cents, bs.guests, 1
         from m join booking_seat bs on bs.booking_id = $1 and bs.seat_id = m.from_seat and bs.live = 1
         where true
         on conflict (seat_id) where live = 1 do nothing
         returning seat_id",
        pairs_cte(moves, 3)
    );
    let mut q = sqlx::query_as(&sql).bind(booking).bind(to);
    for (from, to_seat) in moves {
        q = q.bind(from).bind(to_seat);
    }
    let claimed: Vec<(SeatId,)> = q.fetch_all(&mut **tx).await?;
    Ok(moves
        .iter()
        .map(|m| m.1)
        .filter(|s| !claimed.iter().any(|c| c.0 == *s))
        .collect())
}

/// Gives back what `claim_moved` took of a move that could not be completed.
pub async fn unclaim_moved(
    tx: &mut Tx,
    booking: &BookingId,
    to: EventId,
) -> Result<(), sqlx::Error> {
    drop_places_on(tx, booking, to).await
}

/// The booking's places on one sailing leave `booking_seat`.
async fn drop_places_on(
    tx: &mut Tx,
    booking: &BookingId,
    event: EventId,
) -> Result<(), sqlx::Error> {
    sqlx::query("delete from booking_seat where booking_id = $1 and event_id = $2")
        .bind(booking)
        .bind(event)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Completes a claimed move: the old places are kept in `moved_place`
/// and leave `booking_seat`, the guests follow their cabins, the booking
/// is the new sailing's. The price paid per place stays (an upgrade
/// costs nothing).
pub async fn complete_move(
    tx: &mut Tx,
    booking: &BookingId,
    from: EventId,
    to: EventId,
    moves: &[(SeatId, SeatId)],
    named: bool,
    now: At,
) -> Result<(), sqlx::Error> {
    let sql = format!(
        "{} insert into moved_place (booking_id, from_seat_id, to_seat_id, guests, price_cents, moved_at)
         select $1, m.from_seat, m.to_seat, bs.guests, bs.price_cents, $2
         from m join booking_seat bs on bs.booking_id = $1 and bs.seat_id = m.from_seat and bs.live = 1",
        pairs_cte(moves, 3)
    );
    let mut q = sqlx::query(&sql).bind(booking).bind(now);
    for (from_seat, to_seat) in moves {
        q = q.bind(from_seat).bind(to_seat);
    }
    q.execute(&mut **tx).await?;
    drop_places_on(tx, booking, from).await?;
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
    sqlx::query(
        "update booking set event_id = $2, updated_at = $3,
             places = ga_quantity + (select count(*) from booking_seat where booking_id = $1)
         where id = $1",
    )
    .bind(booking)
    .bind(to)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// What a guest (a device's buyer id without an account) booked follows
/// the account's buyer who just signed in on that device. The bookings
/// read first are the ones moved and added to the account's bounds: a
/// hold the guest commits meanwhile (another tab) stays the guest's.
pub async fn adopt_guest_bookings(
    tx: &mut Tx,
    buyer: &BuyerId,
    guest: &BuyerId,
) -> Result<(), sqlx::Error> {
    let bookings: Vec<(BookingId, EventId, i64, At)> = sqlx::query_as(
        "select id, event_id, places, updated_at from booking
         where buyer_id = $1 and not exists (select 1 from account where buyer_id = $1)",
    )
    .bind(guest)
    .fetch_all(&mut **tx)
    .await?;
    let mut per_event: std::collections::BTreeMap<EventId, (i64, At)> = Default::default();
    for (_, event, places, at) in &bookings {
        let e = per_event.entry(*event).or_insert((0, *at));
        e.0 += places;
        e.1 = e.1.max(*at);
    }
    for (event, (places, at)) in per_event {
        sqlx::query(&format!("{ADD_PLACED} values ($1, $2, $3, 1, $4) {ADDED}"))
            .bind(buyer)
            .bind(event)
            .bind(at)
            .bind(places)
            .execute(&mut **tx)
            .await?;
    }
    for (id, ..) in &bookings {
        sqlx::query("update booking set buyer_id = $1 where id = $2 and buyer_id = $3")
            .bind(buyer)
            .bind(id)
            .bind(guest)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}
