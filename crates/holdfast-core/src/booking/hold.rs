//! `hold_seats`: AVAILABLE → HELD for one or several seats, all or nothing,
//! in one short transaction.
//!
//! 1. Input is checked against the in-memory seat map (no query).
//! 2. A seat the map already knows as taken is refused without touching the
//!    booking tables (the fast path that keeps losers cheap during an
//!    on-sale spike); only the Idempotency-Key is looked up, for replays.
//! 3. The transaction (`store::claim`, three round trips on Postgres),
//!    shared with the claims queued beside it (`store::group_commit`):
//!    the Idempotency-Key row, the buyer's lock and limit, stale holds on
//!    these seats expired on the spot (invariant 4: nobody waits for the
//!    sweeper), the booking, its seats in ascending order. The partial
//!    unique index decides who wins a seat.

use crate::platform::clock::At;
use std::collections::{HashMap, HashSet};

use super::claim_flow::{attempt, claim_new_hold, HoldClaim};
use super::idempotent::{earlier_answer, Idempotent};
use super::store::{self, Claimed, Claiming};
use super::suggest;
use crate::platform::idempotency::IdempotencyKey;
use crate::seat_map::{EventSeatMap, Occupancy};
use crate::waiting_room::Admitted;
use crate::{ApiError, AppState};
use holdfast_model::i18n::Locale;
use holdfast_model::money::Money;
use holdfast_model::BuyerId;
use holdfast_model::{EventId, HoldResponse, SeatId};

/// Holds seats for the buyer the gate admitted, on its event (cabins for
/// their usual party).
pub async fn hold_seats(
    state: &AppState,
    admitted: &Admitted,
    seat_ids: &[SeatId],
    key: Option<&IdempotencyKey>,
) -> Result<Idempotent<HoldResponse>, ApiError> {
    hold_parties(state, admitted, seat_ids, &HashMap::new(), key).await
}

/// Holds seats, and cabins for the parties `guests` names (per seat; the
/// usual party of two where it names none).
pub async fn hold_parties(
    state: &AppState,
    admitted: &Admitted,
    seat_ids: &[SeatId],
    guests: &HashMap<SeatId, i64>,
    key: Option<&IdempotencyKey>,
) -> Result<Idempotent<HoldResponse>, ApiError> {
    attempt(state, admitted, async |buyer, event_id| {
        claim(state, buyer, event_id, seat_ids, guests, key).await
    })
    .await
}

async fn claim(
    state: &AppState,
    buyer: &BuyerId,
    event_id: EventId,
    seat_ids: &[SeatId],
    guests: &HashMap<SeatId, i64>,
    key: Option<&IdempotencyKey>,
) -> Result<Idempotent<HoldResponse>, ApiError> {
    let rules = &state.rules;
    if seat_ids.is_empty() {
        return Err(ApiError::unprocessable(
            "seatIds must name at least one seat",
            "seatIds",
        ));
    }
    if seat_ids.len() > rules.max_seats_per_booking {
        return Err(ApiError::unprocessable(
            format!("at most {} seats per booking", rules.max_seats_per_booking),
            "seatIds",
        ));
    }
    let mut ids = seat_ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    if ids.len() != seat_ids.len() {
        return Err(ApiError::unprocessable(
            "seatIds contains the same seat twice",
            "seatIds",
        ));
    }
    let map = state
        .seat_maps
        .get(&state.db, event_id)
        .await?
        .ok_or(ApiError::NotFound("event"))?;
    let unknown: Vec<String> = ids
        .iter()
        .filter(|id| map.seat(**id).is_none())
        .map(|id| id.to_string())
        .collect();
    if !unknown.is_empty() {
        return Err(if seat_ids.len() == 1 {
            ApiError::NotFound("seat")
        } else {
            ApiError::unprocessable(
                format!("no such seats in this event: {}", unknown.join(", ")),
                "seatIds",
            )
        });
    }
    // The map first, the key second: a hold is published to the map only
    // after it committed, so when the map shows our seats taken by a request
    // with this very key, the lookup below already sees its answer. When
    // the map shows them free, the claim itself finds an earlier answer (its
    // key insert conflicts), so the common path skips the lookup.
    let priced = map.priced(&ids, guests)?;
    let now = state.clock.now();
    let taken = map.taken_among(&ids, now);
    if !taken.is_empty() {
        if let Some(answer) = earlier_answer(state, buyer, key).await? {
            return Ok(answer);
        }
        return Err(seat_taken(&map, &ids, &taken, now));
    }

    let price = Money::new(priced.iter().map(|p| p.price_cents).sum(), map.currency);
    let what = Claiming::Seats(priced);
    let hold = match claim_new_hold(state, buyer, event_id, what, price, now, key).await? {
        HoldClaim::Ran(hold) => hold,
        HoldClaim::Answered(answer) => return Ok(answer),
    };
    let held_until = hold.held_until;
    let Claimed::Held { freed } = hold.outcome else {
        let taken = store::taken_seats(&state.db, &ids, now).await?;
        // The map was behind; the database just told us better.
        state.seat_maps.publish(event_id, &taken, now);
        let taken: Vec<SeatId> = taken.into_iter().map(|t| t.0).collect();
        return Err(seat_taken(&map, &ids, &taken, now));
    };
    let mut changes: Vec<_> = freed.iter().flat_map(|r| r.as_changes()).collect();
    changes.extend(ids.iter().map(|id| (*id, Occupancy::Held(held_until))));
    state.seat_maps.publish(event_id, &changes, now);
    Ok(Idempotent::Fresh(hold.response))
}

/// 409 SEAT_TAKEN naming the taken seats, with nearby alternatives (not
/// the ones another loser was just offered, while others are free).
pub fn seat_taken(map: &EventSeatMap, requested: &[SeatId], taken: &[SeatId], now: At) -> ApiError {
    let mut taken = taken.to_vec();
    if taken.is_empty() {
        // Lost a race to a hold that has since ended: name what was asked.
        taken = requested.to_vec();
    }
    // Named as the map and the tickets name them (the API's words are
    // English; a page says the refusal in its own language).
    let names: Vec<String> = taken
        .iter()
        .filter_map(|id| map.seat(*id))
        .map(|s| map.place_name(Locale::En, s))
        .collect();
    let message = match names.as_slice() {
        [one] => format!("{one} is no longer available"),
        many => format!("{} are no longer available", many.join("; ")),
    };
    let mut free = map.free_mask(now);
    let requested_idx: Vec<usize> = requested
        .iter()
        .filter_map(|id| map.index_of(*id))
        .collect();
    let taken_set: HashSet<SeatId> = taken.iter().copied().collect();
    for id in requested.iter().filter(|id| taken_set.contains(id)) {
        if let Some(i) = map.index_of(*id) {
            free[i] = false;
        }
    }
    ApiError::SeatTaken {
        message,
        seat_ids: taken,
        // Spread over the crowd that lost these seats with this buyer.
        suggestions: map.offer(now, &free, 3, |free, max| {
            suggest::alternatives(map, free, &requested_idx, requested.len(), max)
        }),
    }
}
