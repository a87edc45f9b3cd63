//! The buyer's answer to a rebooking: keep the new places, move to another
//! sailing of the route with room, or cancel with everything paid back
//! (through the outbox, under the booking's one refund key: once, however
//! the answer, an admin's refund or a webhook interleave — each takes the
//! booking's row lock first, as here).

use super::moving::{free_rooms, parties};
use super::progress::{answer_by, choices, last_move, sailings_with_room, view_of};
use crate::booking::store;
use crate::buyer::Owner;
use crate::payments::outbox::{self, RefundReason};
use crate::payments::store as payments;
use crate::platform::db;
use crate::sailing::{catalog, placement};
use crate::seat_map::Occupancy;
use crate::{ApiError, AppState};
use holdfast_model::sailing::{RebookingAnswer, RebookingChoice, RebookingOutcome, RebookingView};
use holdfast_model::{BookingId, Cause, EventId, SeatId};

/// What the buyer answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Keep,
    Sailing(EventId),
    Refund,
}

impl Answer {
    fn choice(self) -> RebookingChoice {
        match self {
            Answer::Keep => RebookingChoice::Keep,
            Answer::Sailing(_) => RebookingChoice::Sailing,
            Answer::Refund => RebookingChoice::Refund,
        }
    }
}

pub async fn answer(
    state: &AppState,
    owner: &Owner,
    booking: &BookingId,
    answer: Answer,
) -> Result<RebookingView, ApiError> {
    // Another buyer's booking answers exactly like an unknown one.
    if !owner.owns(state.db.reader(), booking).await? {
        return Err(ApiError::NotFound("booking"));
    }
    let moved = last_move(state, booking)
        .await?
        .ok_or(ApiError::NotFound("rebooking"))?;
    let now = state.clock.now();
    // The choices as the page showed them (another sailing is checked below).
    let on = match moved.outcome() {
        RebookingOutcome::Moved => Some(catalog::detail(state, moved.event_id).await?.summary),
        RebookingOutcome::RefundOffered => None,
    };
    let by = on.as_ref().and_then(|s| answer_by(moved.outcome(), s));
    if !choices(&moved, by, now, true).contains(&answer.choice()) {
        return Err(ApiError::InvalidState(match moved.answer() {
            Some(given) => format!("this rebooking was already answered ({})", given.stored()),
            None if moved.outcome() == RebookingOutcome::RefundOffered
                && answer == Answer::Keep =>
            {
                "nothing was kept for this booking: choose another sailing or a refund".into()
            }
            None => "the choices for this booking are closed".into(),
        }));
    }
    let placed = match answer {
        Answer::Sailing(to) => {
            let cancelled = catalog::detail(state, moved.from_event_id).await?.summary;
            let not = [moved.from_event_id, moved.event_id];
            let open = sailings_with_room(state, booking, &cancelled.route.code, &not).await?;
            if !open.iter().any(|s| s.id == to) {
                return Err(ApiError::unprocessable(
                    "sailingId must be a later sailing of the same route with room for your party",
                    "sailingId",
                ));
            }
            let wanted = parties(state, booking, to).await?;
            let placed =
                placement::place(&wanted, &free_rooms(state, to).await?).ok_or_else(no_room)?;
            Some((to, placed))
        }
        _ => None,
    };

    let mut tx = state.db.begin().await?;
    let locked = store::lock(&mut tx, booking)
        .await?
        .ok_or(ApiError::NotFound("booking"))?;
    if locked.event_id != moved.event_id || locked.status != moved.status {
        return Err(ApiError::InvalidState(
            "this booking changed meanwhile; look at it again".into(),
        ));
    }
    let answered = sqlx::query(
        "update rebooking set answer = $3, answered_at = $4, answered_event_id = $5
         where booking_id = $1 and from_event_id = $2 and answer is null",
    )
    .bind(booking)
    .bind(moved.from_event_id)
    .bind(
        match answer {
            Answer::Keep => RebookingAnswer::Kept,
            Answer::Sailing(_) => RebookingAnswer::Changed,
            Answer::Refund => RebookingAnswer::Refunded,
        }
        .stored(),
    )
    .bind(now)
    .bind(placed.as_ref().map(|p| p.0))
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if answered == 0 {
        return Err(ApiError::InvalidState(
            "this rebooking was already answered".into(),
        ));
    }
    let mut freed: Vec<SeatId> = Vec::new();
    match (answer, &placed) {
        (Answer::Sailing(to), Some((_, placement))) => {
            store::bound_moving(&mut tx, &[booking], to).await?;
            if !store::claim_moved(&mut tx, booking, to, &placement.moves)
                .await?
                .is_empty()
            {
                return Err(no_room());
            }
            store::complete_move(
                &mut tx,
                booking,
                moved.event_id,
                to,
                &placement.moves,
                true,
                now,
            )
            .await?;
        }
        (Answer::Refund, _) => {
            let released = store::cancel_booked(&mut tx, booking, &Cause::Buyer, now)
                .await?
                .ok_or_else(|| {
                    ApiError::InvalidState("only a booked booking can be refunded".into())
                })?;
            if !payments::begin_refund(&mut tx, booking, now).await? {
                return Err(ApiError::InvalidState(
                    "this booking has no paid payment to refund".into(),
                ));
            }
            let reason = RefundReason::SailingCancelled;
            outbox::enqueue_refund_of(&mut tx, booking, reason, None, now).await?;
            freed = released.seats;
        }
        _ => {}
    }
    db::commit(tx).await?;
    match (&placed, answer) {
        (Some((to, placement)), _) => {
            super::moving::publish_move(state, moved.event_id, *to, placement);
        }
        (None, Answer::Refund) => {
            let changes: Vec<(SeatId, Occupancy)> =
                freed.iter().map(|s| (*s, Occupancy::Free)).collect();
            state.seat_maps.publish(moved.event_id, &changes, now);
        }
        _ => {}
    }
    view_of(state, booking)
        .await?
        .ok_or(ApiError::NotFound("rebooking"))
}

fn no_room() -> ApiError {
    ApiError::InvalidState("that sailing no longer has room for your party".into())
}
