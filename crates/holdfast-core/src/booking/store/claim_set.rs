//! A batch's independent claims on Postgres as a set: one statement for
//! the lot instead of three trips per claim (`group_commit` runs it first
//! in a batch's transaction, behind a savepoint).
//!
//! - **Which claims**: holds of seats whose buyer has no other claim in the
//!   batch and whose seats no other claim of the batch wants. Their order
//!   in the batch cannot change an answer; every other claim (and places of
//!   a standing area) goes one by one after, as before.
//! - **The statement** locks the buyers (in buyer order, so two writers
//!   never wait on each other in a circle) and bumps their claim counters
//!   and the places they ever claimed (`claim_sql`; a buyer whose bound
//!   stays within the limit is not counted booking by booking); then
//!   decides every claim as the claim alone would, in the same order: its
//!   Idempotency-Key already there (`KeyTaken`), over the limit, a stale
//!   hold in the way (put aside: the claim alone expires it), not on sale,
//!   a seat live elsewhere (`SeatTaken`); the rest are
//!   inserted (seats in ascending order) with their keys and answers in
//!   one go. A refused claim leaves no key, as alone. A claim whose buyer
//!   had another claim commit between the statement's snapshot and its
//!   lock (the counter moved) is put aside too: its count may be short.
//! - **Anything in the way** (a seat or a key another transaction inserted
//!   after the snapshot: a unique index refuses it; a row another writer
//!   holds past the batch's lock timeout): the statement fails, the caller
//!   rolls back to its savepoint and runs every claim one by one. The index
//!   still decides; the set only saves trips when nothing contends.

use std::collections::HashMap;
use std::sync::LazyLock;

use serde_json::json;

use super::claim::{Claim, Claimed, Claiming};
use super::BookingStatus::*;
use crate::platform::db::Tx;

/// The claims of `claims` that can be decided as a set: seats, a buyer
/// and seats no other claim of the batch has. Fewer than two: none.
pub(super) fn independent(claims: &[&Claim]) -> Vec<usize> {
    let mut buyers: HashMap<&str, usize> = HashMap::new();
    let mut seats: HashMap<i64, usize> = HashMap::new();
    for c in claims {
        *buyers.entry(c.booking.buyer_id.as_str()).or_default() += 1;
        if let Claiming::Seats(places) = &c.what {
            for p in places {
                *seats.entry(p.seat.0).or_default() += 1;
            }
        }
    }
    let alone = |c: &Claim| match &c.what {
        Claiming::Seats(places) => {
            buyers[c.booking.buyer_id.as_str()] == 1 && places.iter().all(|p| seats[&p.seat.0] == 1)
        }
        Claiming::Places { .. } => false,
    };
    let set: Vec<usize> = (0..claims.len()).filter(|&i| alone(claims[i])).collect();
    if set.len() < 2 {
        return Vec::new();
    }
    set
}

/// Decides the claims `set` (indices into `claims`): `Some` for each one
/// decided, `None` for one to run alone (a stale hold in its way, or a
/// count that may be short). An error leaves the transaction to be rolled
/// back to before this call.
pub(super) async fn decide(
    tx: &mut Tx,
    claims: &[&Claim],
    set: &[usize],
) -> Result<Vec<(usize, Option<Claimed>)>, sqlx::Error> {
    Ok(statement(tx, claims, set)
        .await?
        .into_iter()
        .map(|(i, verdict, owned)| {
            let outcome = match verdict {
                HELD => Some(Claimed::Held { freed: Vec::new() }),
                KEY_TAKEN => Some(Claimed::KeyTaken),
                OVER_LIMIT => Some(Claimed::OverLimit { owned }),
                NOT_ON_SALE => Some(Claimed::NotOnSale),
                SEAT_TAKEN => Some(Claimed::SeatTaken),
                _ => None,
            };
            (i, outcome)
        })
        .collect())
}

/// The statement's verdicts.
const HELD: i64 = 0;
const OVER_LIMIT: i64 = 1;
const STALE: i64 = 2;
const NOT_ON_SALE: i64 = 3;
const SEAT_TAKEN: i64 = 4;
const KEY_TAKEN: i64 = 5;
const UNCOUNTED: i64 = 6;

/// (claim, verdict, places the buyer owns).
async fn statement(
    tx: &mut Tx,
    claims: &[&Claim],
    set: &[usize],
) -> Result<Vec<(usize, i64, i64)>, sqlx::Error> {
    let mut rows = Vec::with_capacity(set.len());
    let mut seats = Vec::new();
    for &i in set {
        let (c, b) = (claims[i], &claims[i].booking);
        let Claiming::Seats(places) = &c.what else {
            continue;
        };
        rows.push(json!({
            "i": i,
            "booking_id": b.id.as_str(),
            "buyer_id": b.buyer_id.as_str(),
            "event_id": b.event_id.0,
            "now": b.now_ms.ms(),
            "held_until": b.held_until.ms(),
            "amount": b.price.minor(),
            "currency": b.price.currency().code(),
            "wanted": places.len(),
            "lim": c.limit,
            "key": c.key.as_ref().map(|k| k.0.key.as_str()),
            "fingerprint": c.key.as_ref().map(|k| k.0.fingerprint.as_str()),
            "body": c.key.as_ref().map(|k| k.1.as_str()),
        }));
        seats.extend(places.iter().map(|p| {
            json!({"i": i, "seat_id": p.seat.0, "price_cents": p.price_cents, "guests": p.guests})
        }));
    }
    static SQL: LazyLock<String> = LazyLock::new(statement_sql);
    let verdicts: Vec<(i64, i64, i64)> = sqlx::query_as(&SQL)
        .bind(serde_json::Value::Array(rows).to_string())
        .bind(serde_json::Value::Array(seats).to_string())
        .fetch_all(&mut **tx)
        .await?;
    Ok(verdicts
        .into_iter()
        .map(|(i, v, owned)| (i as usize, v, owned))
        .collect())
}

/// See the module's words; the places owned counted as the claim alone
/// counts them (`claim_sql`). The keys are looked up one claim at a time:
/// as a join, the generic plan scans the whole table of keys, a cost per
/// batch that grows with every key an on-sale stores.
fn statement_sql() -> String {
    format!(
        "with c as (
             select * from json_to_recordset(cast($1 as json))
                 as c(i bigint, booking_id text, buyer_id text, event_id bigint, now bigint,
                      held_until bigint, amount bigint, currency text, wanted bigint,
                      lim bigint, key text, fingerprint text, body text)),
         s as (
             select * from json_to_recordset(cast($2 as json))
                 as s(i bigint, seat_id bigint, price_cents bigint, guests bigint)),
         seen as materialized (
             select c.i, coalesce((select be.claims from buyer_event be
                                   where be.buyer_id = c.buyer_id and be.event_id = c.event_id),
                                  0) as claims
             from c),
         buyer_lock as (
             insert into buyer_event (buyer_id, event_id, touched_at, claims, placed)
             select buyer_id, event_id, now, 1, wanted from c order by buyer_id, event_id
             on conflict (buyer_id, event_id)
                 do update set touched_at = excluded.touched_at, claims = buyer_event.claims + 1,
                               placed = buyer_event.placed + excluded.placed
             returning buyer_id, event_id, claims, placed),
         counted as (
             select c.i from c join seen on seen.i = c.i
             join buyer_lock bl on bl.buyer_id = c.buyer_id and bl.event_id = c.event_id
             where bl.claims = seen.claims + 1),
         key_taken as (
             select c.i from c
             cross join lateral (
                 select 1 from idempotency_key k
                 where k.buyer_id = c.buyer_id and k.key = c.key
                 limit 1) as k),
         owned as materialized (
             select c.i, case when bl.placed <= c.lim then bl.placed - c.wanted
                              else ({owned}) end as n
             from c join buyer_lock bl on bl.buyer_id = c.buyer_id and bl.event_id = c.event_id),
         live as (
             select s.i, bool_or(b.status = {held} and b.held_until <= c.now) as stale
             from s join c on c.i = s.i
             join booking_seat bs on bs.seat_id = s.seat_id and bs.live = 1
             join booking b on b.id = bs.booking_id
             group by s.i),
         ready as (
             select c.i from c join event e on e.id = c.event_id
             where e.published = 1 and e.on_sale_at <= c.now
               and not exists (select 1 from sailing sa
                               where sa.event_id = c.event_id and sa.cancelled_at is not null)),
         verdict as (
             select c.i, o.n as owned,
                    case when kt.i is not null then {KEY_TAKEN}
                         when n.i is null then {UNCOUNTED}
                         when o.n + c.wanted > c.lim then {OVER_LIMIT}
                         when coalesce(l.stale, false) then {STALE}
                         when r.i is null then {NOT_ON_SALE}
                         when l.i is not null then {SEAT_TAKEN}
                         else {HELD} end as v
             from c join owned o on o.i = c.i
             left join key_taken kt on kt.i = c.i
             left join counted n on n.i = c.i
             left join live l on l.i = c.i
             left join ready r on r.i = c.i),
         new_booking as (
             insert into booking (id, event_id, buyer_id, status, held_until, amount_cents,
                                  currency, ga_area_id, ga_quantity, places, created_at,
                                  updated_at)
             select c.booking_id, c.event_id, c.buyer_id, {held}, c.held_until, c.amount,
                    c.currency, null, 0, c.wanted, c.now, c.now
             from c join verdict v on v.i = c.i where v.v = {HELD}
             order by c.i
             returning id),
         new_seats as (
             insert into booking_seat (booking_id, seat_id, event_id, price_cents, guests, live)
             select nb.id, s.seat_id, c.event_id, s.price_cents, s.guests, 1
             from new_booking nb join c on c.booking_id = nb.id join s on s.i = c.i
             order by s.seat_id),
         answer as (
             insert into idempotency_key (buyer_id, key, fingerprint, status_code,
                                          response_body, created_at)
             select c.buyer_id, c.key, c.fingerprint, 200, c.body, c.now
             from c join new_booking nb on nb.id = c.booking_id
             where c.key is not null)
         select i, cast(v as bigint), owned from verdict",
        owned = super::places_owned_pg("c.buyer_id", "c.event_id", "c.now"),
        held = Held.sql(),
    )
}
