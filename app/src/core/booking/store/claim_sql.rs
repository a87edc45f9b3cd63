//! The second statement of a claim on Postgres (`claim`): one statement of
//! data-modifying CTEs, run after the buyer's lock so its snapshot sees the
//! buyer's other claims. Data-modifying CTEs all run to completion, read or
//! not. It answers (places the buyer owns, stale holds in the way, whether
//! the event is ready to sell to this buyer, bookings inserted).
//!
//! Parameters: $1 buyer, $2 event, $3 booking id, $4 now, $5 held until,
//! $6 amount, $7 currency, $8 places wanted, $9 the buyer's limit, $10 the
//! Idempotency-Key (or null), $11 its answer; then the seats with their
//! prices and parties from $12, or the standing area as $12.

use super::BookingStatus::*;

/// The places the buyer holds or owns for the event. `offset 0` keeps the
/// buyer's bookings a scan of the buyer's index whatever a plan would make
/// of the statistics (never an AND with the (status, held_until) index,
/// which covers every live hold of every buyer).
fn owned() -> String {
    format!(
        "owned as (
             select cast(coalesce(sum(case when b.ga_quantity > 0 then b.ga_quantity
                     else (select count(*) from booking_seat bs
                           where bs.booking_id = b.id and bs.live = 1) end), 0) as bigint) as n
             from (select id, status, held_until, ga_quantity from booking
                   where buyer_id = $1 and event_id = $2 offset 0) as b
             where {owns})",
        owns = super::BookingStatus::owns_places_sql("b", "$4"),
    )
}

/// Published, on sale (and, for a sailing, not cancelled), within the
/// buyer's limit, nothing stale in the way.
const READY: &str = "ready as (
             select 1 from event
             where id = $2 and published = 1 and on_sale_at <= $4
               and not exists (select 1 from sailing where event_id = $2 and cancelled_at is not null)
               and (select n from owned) + $8 <= $9
               and not exists (select 1 from stale))";

/// The booking, inserted once `gate` (a CTE name) has a row.
fn new_booking(gate: &str, ga: &str) -> String {
    format!(
        "new_booking as (
             insert into booking (id, event_id, buyer_id, status, held_until, amount_cents,
                                  currency, ga_area_id, ga_quantity, created_at, updated_at)
             select $3, $2, $1, {held}, $5, $6, $7, {ga}, $4, $4
             where exists (select 1 from {gate})
             returning id)",
        held = Held.sql(),
    )
}

const ANSWER: &str = "answer as (
             update idempotency_key set status_code = 200, response_body = $11
             where buyer_id = $1 and key = $10 and exists (select 1 from new_booking))";

const RESULT: &str = "select (select n from owned), (select count(*) from stale),
                (select count(*) from ready), (select count(*) from new_booking)";

/// For `n` seats: the booking and its seats (the partial unique index
/// refuses a seat live elsewhere, failing the statement).
pub fn seats(n: usize) -> String {
    const FIRST_SEAT_PARAM: usize = 12;
    let rows: Vec<String> = (0..n)
        .map(|i| {
            let p = FIRST_SEAT_PARAM + 3 * i;
            format!(
                "({i}, cast(${p} as bigint), cast(${} as bigint), cast(${} as bigint))",
                p + 1,
                p + 2
            )
        })
        .collect();
    let params: Vec<String> = (0..n)
        .map(|i| format!("${}", FIRST_SEAT_PARAM + 3 * i))
        .collect();
    format!(
        "with {owned},
         stale as (
             select bs.booking_id from booking_seat bs join booking b on b.id = bs.booking_id
             where bs.live = 1 and bs.seat_id in ({params})
               and b.status = {held} and b.held_until <= $4),
         {READY},
         {new_booking},
         new_seats as (
             insert into booking_seat (booking_id, seat_id, event_id, price_cents, guests, live)
             select nb.id, s.seat_id, $2, s.price_cents, s.guests, 1
             from new_booking nb cross join (values {rows}) as s(n, seat_id, price_cents, guests)
             order by s.n),
         {ANSWER}
         {RESULT}",
        owned = owned(),
        held = Held.sql(),
        params = params.join(", "),
        new_booking = new_booking("ready", "null, 0"),
        rows = rows.join(", "),
    )
}

/// For places of the standing area $12: the area's count decremented where
/// enough are left (invariant 2, and `check (remaining >= 0)` behind it),
/// then the booking. The area's row stays locked until the commit, one
/// statement after.
pub fn places() -> String {
    format!(
        "with {owned},
         stale as (
             select id from booking
             where ga_area_id = $12 and status = {held} and held_until <= $4 limit 1),
         {READY},
         taken as (
             update ga_area set remaining = remaining - $8
             where id = $12 and event_id = $2 and remaining >= $8
               and exists (select 1 from ready)
             returning 1),
         {new_booking},
         {ANSWER}
         {RESULT}",
        owned = owned(),
        held = Held.sql(),
        new_booking = new_booking("taken", "$12, $8"),
    )
}
