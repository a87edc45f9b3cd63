//! The claim of seats on SQLite in one trip to SQLite's thread, where the
//! step-by-step path takes six (in the single writer a claim costs what
//! its trips cost: each is a wake-up of that thread and of ours). One call
//! of four statements, each conditional on the one before; sqlx binds
//! `$N` to the same arguments in all of them:
//!
//! 1. The HELD booking, inserted only when nothing could refuse it: the
//!    event is on sale, the buyer stays within the limit (counted in the
//!    statement, after every earlier claim of the single writer), and no
//!    live booking owns any of the seats — taken or stale, the step-by-step
//!    path then answers (or expires the stale holds and goes on).
//! 2. Its seats, if the booking was inserted (the partial unique index
//!    still decides: a violation fails the claim as `SeatTaken`).
//! 3. The Idempotency-Key with its answer, if the booking was inserted;
//!    a key another request already has is left as it is.
//! 4. What came of it: the booking inserted, the key ours.
//!
//! Nothing is written unless the booking is; when the key was another
//! request's, the caller rolls the claim back (it commits only `Held`).

use super::claim::{Claim, Claimed};
use super::{held_booking_args, held_booking_insert, places_owned};
use crate::platform::db::Tx;
use crate::seat_map::cabins::PricedPlace;
use sqlx::Arguments;

/// The first seat's parameter; before it, the booking's ($1–$10, the
/// places asked for last), the limit, the key, its fingerprint and answer.
const FIRST_SEAT: usize = 15;

/// Claims `seats` for `c`, or `None` (nothing written) when a check would
/// refuse it or a live booking owns one of the seats.
pub(super) async fn in_one_trip(
    tx: &mut Tx,
    c: &Claim,
    seats: &[PricedPlace],
) -> Result<Option<Claimed>, sqlx::Error> {
    let b = &c.booking;
    let mut args = held_booking_args(b)?;
    let mut add = || -> Result<(), sqlx::error::BoxDynError> {
        args.add(c.limit)?;
        args.add(c.key.as_ref().map(|k| k.0.key.clone()))?;
        args.add(c.key.as_ref().map(|k| k.0.fingerprint.clone()))?;
        args.add(c.key.as_ref().map(|k| k.1.clone()))?;
        for place in seats {
            args.add(place.seat)?;
            args.add(place.price_cents)?;
            args.add(place.guests)?;
        }
        Ok(())
    };
    add().map_err(sqlx::Error::Encode)?;
    let sql = statements(seats.len());
    // All rows, not one: sqlx's `fetch_one` would stop at the first
    // statement's result, which is no row.
    let rows: Vec<(i64, i64)> = sqlx::query_as_with(&sql, args).fetch_all(&mut **tx).await?;
    let (inserted, answered) = rows.last().copied().ok_or(sqlx::Error::RowNotFound)?;
    Ok(match (inserted, answered) {
        (0, _) => None,
        (_, 0) if c.key.is_some() => Some(Claimed::KeyTaken),
        _ => Some(Claimed::Held { freed: Vec::new() }),
    })
}

fn statements(n: usize) -> String {
    let seat = |i: usize| FIRST_SEAT + 3 * i;
    let seats: Vec<String> = (0..n).map(|i| format!("${}", seat(i))).collect();
    let rows: Vec<String> = (0..n)
        .map(|i| format!("(${}, ${}, ${})", seat(i), seat(i) + 1, seat(i) + 2))
        .collect();
    let booking = held_booking_insert(&format!(
        "and ({owned}) + $10 <= $11
         and not exists (select 1 from booking_seat where live = 1 and seat_id in ({seats}))",
        owned = places_owned("$3", "$2", "$9"),
        seats = seats.join(", "),
    ));
    format!(
        "{booking};
         insert into booking_seat (booking_id, seat_id, event_id, price_cents, guests, live)
         select $1, v.column1, $2, v.column2, v.column3, 1 from (values {rows}) as v
         where exists (select 1 from booking where id = $1);
         insert into idempotency_key (buyer_id, key, fingerprint, created_at, status_code, response_body)
         select $3, $12, $13, $9, 200, $14
         where $12 is not null and exists (select 1 from booking where id = $1)
         on conflict (buyer_id, key) do nothing;
         select (select count(*) from booking where id = $1),
                (select count(*) from idempotency_key
                 where buyer_id = $3 and key = $12 and response_body = $14)",
        rows = rows.join(", "),
    )
}
