//! A claim on Postgres (`claim`) as statements of data-modifying CTEs.
//! Data-modifying CTEs all run to completion, read or not.
//!
//! - **`Statement::Whole`**, tried first: the whole claim in one statement.
//!   It inserts the Idempotency-Key row (with the answer it will have if
//!   the claim holds: a refused claim is rolled back), locks the buyer's
//!   row, bumps the buyer's claim counter and adds the places asked for to
//!   the places the buyer ever claimed for the event (`placed`), counts the
//!   buyer's places, checks and inserts. When `placed` is within the
//!   limit, the buyer cannot own more than it, and their bookings are not
//!   read at all (`owned`). The count is read from the statement's snapshot,
//!   taken before the lock: it is right only when no claim of this buyer
//!   committed in between — when the counter the lock returns is the one
//!   the snapshot saw, plus ours. Otherwise nothing is inserted and the
//!   claim goes on with the next statement.
//! - **`Statement::AfterLock`**: the same claim after the key and the lock,
//!   its snapshot taken after them, so it sees every claim of the buyer.
//!   The key row `Whole` inserted already holds the answer.
//! - **`Statement::Alone`**: the whole claim as a transaction of its own,
//!   committed by Postgres when the statement ends (one round trip, no
//!   BEGIN or COMMIT). So it writes nothing a refused claim must not
//!   leave: the key is looked up in the snapshot and inserted only with
//!   the booking — a key another request committed meanwhile fails the
//!   statement on the key's primary key, as a seat taken meanwhile fails
//!   it on the seats' partial unique index. The buyer's lock still bumps the
//!   claim counter, refused or not: a bump only sends a concurrent claim
//!   of the same buyer to count again after its lock, never past a count.
//!
//! Both answer (places the buyer owns, stale holds in the way, whether the
//! event is ready to sell to this buyer, bookings inserted, whether the
//! count was taken under the lock, whether the key was someone else's,
//! whether a seat was already live in the statement's snapshot).
//!
//! A seat live in the snapshot refuses the claim without an insert: the
//! statement ends cleanly instead of failing on the partial unique index
//! (a failed statement aborts its transaction, and Postgres logs it with
//! its text: at an on-sale, where most tries lose to a hold committed a
//! moment before, that was most of the claims). The index still decides
//! every race the snapshot cannot see.
//!
//! Parameters: $1 buyer, $2 event, $3 booking id, $4 now, $5 held until,
//! $6 amount, $7 currency, $8 places wanted, $9 the buyer's limit, $10 the
//! Idempotency-Key (or null), $11 its answer, $12 its fingerprint; then
//! the seats with their prices and parties from $13, or the standing area
//! as $13.

use super::BookingStatus::*;

/// The places the buyer holds or owns for the event. After the buyer's
/// lock in this statement (`Whole`, `Alone`), the places the buyer ever
/// claimed, ours included, bound them from above: when that bound is
/// within the limit, the buyer's bookings are not read (a buyer with 40
/// holds cost 40 reads of `booking` a claim), and the bound less ours
/// stands in for the count. Otherwise, and in `AfterLock`, they are
/// counted one by one. Postgres evaluates the count only when the bound
/// does not do.
fn owned(statement: Statement) -> String {
    let counted = super::places_owned_pg("$1", "$2", "$4");
    match statement {
        Statement::AfterLock => format!("owned as ({counted})"),
        Statement::Whole | Statement::Alone => format!(
            "owned as (
             select case when (select placed from buyer_lock) <= $9
                         then (select placed from buyer_lock) - $8
                         else ({counted}) end as n)"
        ),
    }
}

/// Which statement of a claim (see the module's words).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Statement {
    Whole,
    AfterLock,
    Alone,
}

/// The Idempotency-Key's primary key, which refuses `Alone` a key another
/// request committed after the statement's snapshot.
pub const KEY_INDEX: &str = "idempotency_key_pkey";

/// The buyer's claim counter as the snapshot saw it, then the buyer's row
/// locked, the counter bumped and the places asked for added to the places
/// the buyer ever claimed (`placed`; a refused claim of `Alone` leaves them
/// added: the bound only grows looser).
const SEEN_AND_LOCK: &str = "seen as (
             select claims from buyer_event where buyer_id = $1 and event_id = $2),
         buyer_lock as (
             insert into buyer_event (buyer_id, event_id, touched_at, claims, placed)
             values ($1, $2, $4, 1, $8)
             on conflict (buyer_id, event_id)
                 do update set touched_at = excluded.touched_at, claims = buyer_event.claims + 1,
                               placed = buyer_event.placed + excluded.placed
             returning claims, placed),";

/// A row when the snapshot saw every earlier claim of the buyer (the
/// counter is the snapshot's plus ours) and the key is this request's.
const COUNTED: &str = "counted as (
             select 1 from buyer_lock
             where claims = coalesce((select claims from seen), 0) + 1
               and not exists (select 1 from key_taken)),";

/// The request's key with the answer the claim gives when it holds (the
/// caller adds its condition and its end).
const KEY_ROW: &str = "new_key as (
             insert into idempotency_key (buyer_id, key, fingerprint, status_code,
                                          response_body, created_at)
             select $1, $10, $12, 200, $11, $4 where $10 is not null";

/// `Whole`: the key claimed (inserted with its answer), the buyer locked
/// and counted.
const KEY_INSERTED: &str = "
             on conflict (buyer_id, key) do nothing returning 1),";
const KEY_INSERTED_TAKEN: &str = "key_taken as (
             select 1 where $10 is not null and not exists (select 1 from new_key)),";

/// `Alone`: the key looked up (not inserted), the buyer locked and
/// counted.
const KEY_LOOKED_UP: &str = "key_taken as (
             select 1 from idempotency_key where $10 is not null and buyer_id = $1 and key = $10),";

/// `Alone`: the key and its answer, inserted with the booking.
const KEY_WITH_BOOKING: &str = " and exists (select 1 from new_booking))";

/// `AfterLock`: the key (answered) and the lock are already this
/// transaction's.
const AFTER_LOCK: &str = "key_taken as (select 1 where false),
         counted as (select 1),";

/// Published, on sale (and, for a sailing, not cancelled), within the
/// buyer's limit, nothing stale in the way, counted under the lock.
const READY: &str = "ready as (
             select 1 from event
             where id = $2 and published = 1 and on_sale_at <= $4
               and not exists (select 1 from sailing where event_id = $2 and cancelled_at is not null)
               and (select n from owned) + $8 <= $9
               and not exists (select 1 from stale)
               and exists (select 1 from counted))";

/// The booking, inserted once `gate` (a CTE name) has a row.
fn new_booking(gate: &str, ga: &str) -> String {
    format!(
        "new_booking as (
             insert into booking (id, event_id, buyer_id, status, held_until, amount_cents,
                                  currency, ga_area_id, ga_quantity, places, created_at,
                                  updated_at)
             select $3, $2, $1, {held}, $5, $6, $7, {ga}, $8, $4, $4
             where exists (select 1 from {gate})
             returning id)",
        held = Held.sql(),
    )
}

fn start(statement: Statement) -> String {
    match statement {
        Statement::Whole => [
            KEY_ROW,
            KEY_INSERTED,
            SEEN_AND_LOCK,
            KEY_INSERTED_TAKEN,
            COUNTED,
        ]
        .concat(),
        Statement::AfterLock => AFTER_LOCK.to_string(),
        Statement::Alone => [KEY_LOOKED_UP, SEEN_AND_LOCK, COUNTED].concat(),
    }
}

fn finish(statement: Statement) -> String {
    match statement {
        Statement::Alone => [",\n         ", KEY_ROW, KEY_WITH_BOOKING].concat(),
        Statement::Whole | Statement::AfterLock => String::new(),
    }
}

const RESULT: &str = "select (select n from owned), (select count(*) from stale),
                (select count(*) from ready), (select count(*) from new_booking),
                (select count(*) from counted), (select count(*) from key_taken),
                (select count(*) from seat_taken)";

/// For `n` seats: the booking and its seats (a seat live in the snapshot
/// refuses the claim; the partial unique index refuses one taken since,
/// failing the statement).
pub fn seats(statement: Statement, n: usize) -> String {
    const FIRST_SEAT_PARAM: usize = 13;
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
        "with {start}
         {owned},
         live_seats as (
             select b.status, b.held_until from booking_seat bs join booking b on b.id = bs.booking_id
             where bs.live = 1 and bs.seat_id in ({params})),
         stale as (
             select 1 from live_seats where status = {held} and held_until <= $4),
         seat_taken as (
             select 1 from live_seats where not (status = {held} and held_until <= $4)),
         {READY},
         free as (
             select 1 from ready where not exists (select 1 from seat_taken)),
         {new_booking},
         new_seats as (
             insert into booking_seat (booking_id, seat_id, event_id, price_cents, guests, live)
             select nb.id, s.seat_id, $2, s.price_cents, s.guests, 1
             from new_booking nb cross join (values {rows}) as s(n, seat_id, price_cents, guests)
             order by s.n){finish}
         {RESULT}",
        start = start(statement),
        finish = finish(statement),
        owned = owned(statement),
        held = Held.sql(),
        params = params.join(", "),
        new_booking = new_booking("free", "null, 0"),
        rows = rows.join(", "),
    )
}

/// For places of the standing area $13: the area's count decremented where
/// enough are left (invariant 2, and `check (remaining >= 0)` behind it),
/// then the booking. The area's row stays locked until the commit, one
/// statement after.
pub fn places(statement: Statement) -> String {
    format!(
        "with {start}
         {owned},
         stale as (
             select id from booking
             where ga_area_id = $13 and status = {held} and held_until <= $4 limit 1),
         seat_taken as (select 1 where false),
         {READY},
         taken as (
             update ga_area set remaining = remaining - $8
             where id = $13 and event_id = $2 and remaining >= $8
               and exists (select 1 from ready)
             returning 1),
         {new_booking}{finish}
         {RESULT}",
        start = start(statement),
        finish = finish(statement),
        owned = owned(statement),
        held = Held.sql(),
        new_booking = new_booking("taken", "$13, $8"),
    )
}
