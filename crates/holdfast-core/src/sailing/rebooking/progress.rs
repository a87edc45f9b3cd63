//! What a rebooking looks like from outside: a cancelled sailing's
//! progress (the console), and a moved booking's story and choices (its
//! buyer's page and `GET /api/bookings/{bookingId}`).

use super::moving::{free_rooms, parties};
use super::ANSWER_CUTOFF_MS;
use crate::platform::clock::{rfc3339, At};
use crate::sailing::{catalog, placement};
use crate::{ApiError, AppState};
use holdfast_model::sailing::{
    RebookingAnswer, RebookingChoice, RebookingOutcome, RebookingProgress, RebookingView,
    SailingStatus, SailingSummary,
};
use holdfast_model::{BookingId, BookingStatus, EventId};

/// Later sailings offered at most.
const OTHER_SAILINGS: usize = 6;

/// How far the rebooking of `sailing` has gone.
pub async fn progress(state: &AppState, sailing: EventId) -> Result<RebookingProgress, ApiError> {
    let found: Option<(Option<At>, Option<String>)> =
        sqlx::query_as("select cancelled_at, cancel_reason from sailing where event_id = $1")
            .bind(sailing)
            .fetch_optional(state.db.reader())
            .await?;
    let (cancelled_at, reason) = found.ok_or(ApiError::NotFound("sailing"))?;
    let (moved, refund_offered, answered): (i64, i64, i64) = sqlx::query_as(
        "select cast(coalesce(sum(case when to_event_id is not null then 1 else 0 end), 0) as bigint),
                cast(coalesce(sum(case when to_event_id is null then 1 else 0 end), 0) as bigint),
                cast(coalesce(sum(case when answer is not null then 1 else 0 end), 0) as bigint)
         from rebooking where from_event_id = $1",
    )
    .bind(sailing)
    .fetch_one(state.db.reader())
    .await?;
    let left = if cancelled_at.is_some() {
        let sql = format!(
            "select count(*) from booking b where b.event_id = $1 and b.status in {}
               and not exists (select 1 from rebooking r
                               where r.booking_id = b.id and r.from_event_id = b.event_id)",
            BookingStatus::sql_list(&BookingStatus::LIVE)
        );
        let (n,): (i64,) = sqlx::query_as(&sql)
            .bind(sailing)
            .fetch_one(state.db.reader())
            .await?;
        n
    } else {
        0
    };
    let to: Option<(Option<EventId>,)> = sqlx::query_as(
        "select to_event_id from rebooking where from_event_id = $1 and to_event_id is not null limit 1",
    )
    .bind(sailing)
    .fetch_optional(state.db.reader())
    .await?;
    // Where bookings went, or (none moved yet) where they will go.
    let to_sailing_id = match to.and_then(|t| t.0) {
        Some(to) => Some(to),
        None if cancelled_at.is_some() => super::moving::next_sailing(state, sailing).await?,
        None => None,
    };
    Ok(RebookingProgress {
        sailing_id: sailing,
        cancelled_at: cancelled_at.map(rfc3339),
        reason,
        to_sailing_id,
        moved,
        refund_offered,
        answered,
        left,
    })
}

/// The booking's last move off a cancelled sailing, as read.
#[derive(sqlx::FromRow)]
pub(super) struct Moved {
    pub from_event_id: EventId,
    pub to_event_id: Option<EventId>,
    pub answer: Option<String>,
    /// Where the booking is now, and in what state.
    pub event_id: EventId,
    pub status: BookingStatus,
}

impl Moved {
    pub fn outcome(&self) -> RebookingOutcome {
        match self.to_event_id {
            Some(_) => RebookingOutcome::Moved,
            None => RebookingOutcome::RefundOffered,
        }
    }

    pub fn answer(&self) -> Option<RebookingAnswer> {
        self.answer.as_deref().and_then(RebookingAnswer::parse)
    }
}

pub(super) async fn last_move(
    state: &AppState,
    booking: &BookingId,
) -> Result<Option<Moved>, ApiError> {
    Ok(sqlx::query_as(
        "select r.from_event_id, r.to_event_id, r.answer, b.event_id, b.status
         from rebooking r join booking b on b.id = r.booking_id
         where r.booking_id = $1 order by r.moved_at desc, r.from_event_id desc limit 1",
    )
    .bind(booking)
    .fetch_optional(state.db.reader())
    .await?)
}

/// Until when a moved booking's buyer may answer: the departure of the
/// sailing it is on, less the cut-off (none for a refund offer: it waits).
pub(super) fn answer_by(outcome: RebookingOutcome, now_on: &SailingSummary) -> Option<At> {
    match outcome {
        RebookingOutcome::Moved => chrono::DateTime::parse_from_rfc3339(&now_on.departs_at)
            .ok()
            .map(|d| At::from_ms(d.timestamp_millis() - ANSWER_CUTOFF_MS)),
        RebookingOutcome::RefundOffered => None,
    }
}

/// What the buyer may answer now: nothing once answered, refunded or past
/// the cut-off; keeping only what was moved; another sailing only when one
/// has room.
pub(super) fn choices(
    moved: &Moved,
    answer_by: Option<At>,
    now: At,
    others: bool,
) -> Vec<RebookingChoice> {
    let open = moved.answer.is_none()
        && moved.status == BookingStatus::Booked
        && answer_by.is_none_or(|by| now < by);
    if !open {
        return Vec::new();
    }
    let mut out = Vec::new();
    if moved.outcome() == RebookingOutcome::Moved {
        out.push(RebookingChoice::Keep);
    }
    if others {
        out.push(RebookingChoice::Sailing);
    }
    out.push(RebookingChoice::Refund);
    out
}

/// The later sailings of the route (selling, leaving time to answer, not
/// the one the booking is on) with room for every party of the booking.
pub(super) async fn sailings_with_room(
    state: &AppState,
    booking: &BookingId,
    route: &str,
    not: &[EventId],
) -> Result<Vec<SailingSummary>, ApiError> {
    let now = state.clock.now();
    let mut out = Vec::new();
    for sailing in catalog::list(state, Some(route)).await? {
        if out.len() == OTHER_SAILINGS {
            break;
        }
        let leaves_time = chrono::DateTime::parse_from_rfc3339(&sailing.departs_at)
            .is_ok_and(|d| d.timestamp_millis() > now.ms() + ANSWER_CUTOFF_MS);
        if sailing.status != SailingStatus::Scheduled || !leaves_time || not.contains(&sailing.id) {
            continue;
        }
        let wanted = parties(state, booking, sailing.id).await?;
        if placement::place(&wanted, &free_rooms(state, sailing.id).await?).is_some() {
            out.push(sailing);
        }
    }
    Ok(out)
}

/// The booking's rebooking, if its sailing was ever cancelled under it.
pub async fn view_of(
    state: &AppState,
    booking: &BookingId,
) -> Result<Option<RebookingView>, ApiError> {
    let Some(moved) = last_move(state, booking).await? else {
        return Ok(None);
    };
    let now = state.clock.now();
    let cancelled = catalog::detail(state, moved.from_event_id).await?.summary;
    let outcome = moved.outcome();
    let moved_to = match outcome {
        RebookingOutcome::Moved => Some(catalog::detail(state, moved.event_id).await?.summary),
        RebookingOutcome::RefundOffered => None,
    };
    let answer_by = moved_to.as_ref().and_then(|s| answer_by(outcome, s));
    let undecided = choices(&moved, answer_by, now, true);
    let other_sailings = if undecided.is_empty() {
        Vec::new()
    } else {
        let not = [moved.from_event_id, moved.event_id];
        sailings_with_room(state, booking, &cancelled.route.code, &not).await?
    };
    let choices = choices(&moved, answer_by, now, !other_sailings.is_empty());
    Ok(Some(RebookingView {
        cancelled,
        outcome,
        moved_to,
        answer: moved.answer(),
        answer_by: answer_by.map(rfc3339),
        choices,
        other_sailings,
    }))
}
