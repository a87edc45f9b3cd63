//! `hold_best`: "N seats, the best there are" — the server picks and holds
//! in one request. The best block is N adjacent seats in one row, closest
//! to the stage (the top centre of the map), leaving no single orphan seat
//! beside it when another block would not; with `together: false` the
//! nearest seats are taken when no such block is left. Requests asking at
//! the same moment pick one after the other around the seats the others
//! are claiming (`seat_map::claiming`), so they get different blocks; a
//! race still lost (another instance, a map behind) moves the request on
//! to the next-best block instead of failing. Each try is an ordinary hold
//! (`hold_seats`, the same transaction and rules): the database decides
//! who gets a seat.

use std::collections::HashSet;

use super::hold::hold_seats;
use super::idempotent::{earlier_answer, Idempotent};
use crate::platform::idempotency::IdempotencyKey;
use crate::seat_map::EventSeatMap;
use crate::waiting_room::Admitted;
use crate::{ApiError, AppState};
use holdfast_model::{HoldResponse, SeatId};

use super::blocks::{best_block, best_pick, nearest, ranked_blocks, toward, Point};

/// Blocks tried in one request before it gives up (each a real hold).
const MAX_TRIES: usize = 8;

/// The most category codes one request may name (each seat is matched
/// against them: a request cannot make the server compare without end).
const MAX_CATEGORIES: usize = 64;

/// The longest category code (as a layout allows).
const MAX_CODE_LEN: usize = 16;

/// What the buyer asks for.
#[derive(Debug, Clone, Default)]
pub struct BestRequest {
    pub quantity: usize,
    /// Category codes to choose from (empty: any).
    pub categories: Vec<String>,
    /// The most one seat may cost.
    pub max_price_cents: Option<i64>,
    /// One block side by side (the default), or the nearest seats anywhere
    /// when no block is left.
    pub together: bool,
    /// Best means nearest this seat instead of the stage (a buyer who lost
    /// a seat asks for seats "nearby").
    pub near: Option<SeatId>,
}

pub async fn hold_best(
    state: &AppState,
    admitted: &Admitted,
    request: &BestRequest,
    key: Option<&IdempotencyKey>,
) -> Result<Idempotent<HoldResponse>, ApiError> {
    let limit = state.rules.max_seats_per_booking;
    if request.quantity == 0 || request.quantity > limit {
        return Err(ApiError::unprocessable(
            format!("quantity must be from 1 to {limit}"),
            "quantity",
        ));
    }
    if request.categories.len() > MAX_CATEGORIES
        || request.categories.iter().any(|c| c.len() > MAX_CODE_LEN)
    {
        return Err(ApiError::unprocessable(
            format!("at most {MAX_CATEGORIES} category codes of up to {MAX_CODE_LEN} characters"),
            "categories",
        ));
    }
    let map = state
        .seat_maps
        .get(&state.db, admitted.event_id())
        .await?
        .ok_or(ApiError::NotFound("event"))?;
    let toward = toward(&map, request.near);
    let mut tried: HashSet<SeatId> = HashSet::new();
    let mut last_refusal = None;
    for attempt in 0..MAX_TRIES {
        // Picked among the seats free and not being claimed by another
        // request right now, and marked as being claimed until this try
        // has its answer: a crowd asking at once gets different blocks.
        let picked = map.pick_to_claim(state.clock.now(), |open| {
            let eligible: Vec<bool> = (0..map.seats.len())
                .map(|i| open[i] && !tried.contains(&map.seats[i].id) && wanted(&map, i, request))
                .collect();
            pick(&map, &eligible, request, attempt, toward)
        });
        let Some(picked) = picked else { break };
        let seats = picked.seat_ids();
        match hold_seats(state, admitted, &seats, key).await {
            // Somebody was faster (on another instance, or before the map
            // knew): the next-best block, in this request.
            Err(refusal @ ApiError::SeatTaken { .. }) => {
                tried.extend(seats);
                last_refusal = Some(refusal);
            }
            outcome => return outcome,
        }
    }
    // A retry of an answered request replays it, even when no block is
    // left now (the block it got is gone: it holds it). While blocks are
    // left, the claim itself finds the key's answer: no lookup up front.
    if let Some(answer) = earlier_answer(state, admitted.buyer(), key).await? {
        return Ok(answer);
    }
    // Lost every race, or nothing fits: say which, as the map now stands.
    let now = state.clock.now();
    let free = map.free_mask(now);
    let fits: Vec<bool> = (0..map.seats.len())
        .map(|i| free[i] && wanted(&map, i, request))
        .collect();
    let still_possible =
        best_pick(&map, &fits, request.quantity, request.together, toward).is_some();
    Err(match last_refusal {
        Some(refusal) if still_possible => refusal,
        _ => {
            let free_any: Vec<bool> = (0..map.seats.len()).map(|i| free[i]).collect();
            nothing_left(&map, &fits, &free_any, request, toward)
        }
    })
}

/// Why nothing could be picked — no eligible seat at all, or none side by
/// side — with the best alternatives: the nearest matching seats apart,
/// and a block of as many in any category or price. `fits`: per seat, free
/// now and matching the request; `free`: free now.
fn nothing_left(
    map: &EventSeatMap,
    fits: &[bool],
    free: &[bool],
    request: &BestRequest,
    toward: Point,
) -> ApiError {
    let n = request.quantity;
    let sold_out = fits.iter().filter(|f| **f).count() < n;
    let mut suggestions = Vec::new();
    if !sold_out {
        suggestions.extend(nearest(map, fits, n, toward));
    }
    let filtered = !request.categories.is_empty() || request.max_price_cents.is_some();
    if filtered {
        suggestions.extend(best_block(map, free, n, toward));
    }
    let message = if sold_out {
        format!("fewer than {n} seats are left that match")
    } else {
        format!(
            "no {n} seats side by side are left that match; ask again without `together` for the nearest ones"
        )
    };
    ApiError::NothingFits {
        sold_out,
        message,
        suggestions,
    }
}

fn wanted(map: &EventSeatMap, i: usize, request: &BestRequest) -> bool {
    let seat = &map.seats[i];
    (request.categories.is_empty() || request.categories.contains(&seat.category))
        && request
            .max_price_cents
            .is_none_or(|max| seat.price_cents <= max)
}

/// The block to try: the best one first; after a lost race, one of the
/// next best at random among more and more of them, so crowds on several
/// instances spread over the good blocks instead of queueing for the same
/// one. With `together: false`, the nearest seats when no block is left.
fn pick(
    map: &EventSeatMap,
    eligible: &[bool],
    request: &BestRequest,
    attempt: usize,
    toward: Point,
) -> Option<Vec<SeatId>> {
    let n = request.quantity;
    let block = if attempt == 0 {
        best_block(map, eligible, n, toward)
    } else {
        use rand::Rng;
        let spread = 4usize.pow(attempt.min(5) as u32);
        let mut ranked = ranked_blocks(map, eligible, n, spread, toward);
        (!ranked.is_empty()).then(|| {
            let i = rand::thread_rng().gen_range(0..ranked.len());
            ranked.swap_remove(i)
        })
    };
    match block {
        Some(block) => Some(block),
        None if !request.together => nearest(map, eligible, n, toward),
        None => None,
    }
}
