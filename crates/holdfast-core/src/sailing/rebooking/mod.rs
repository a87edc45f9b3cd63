//! When the line cancels a sailing (weather, the sea), its bookings move.
//!
//! - `cancel`: an admin cancels a sailing with a reason. It stops selling
//!   at once (the claim's condition reads `sailing.cancelled_at`, so every
//!   instance agrees) and the rebooking job is woken.
//! - The **rebooking job** (`run`, one runner job: one instance at a time,
//!   its writes fenced) ends the sailing's running holds and checkouts, and
//!   moves every BOOKED booking, in the order they were paid, to the
//!   route's next sailing by the rules of `placement` — or, when nothing
//!   has room, offers a full refund. Each booking is moved in its own
//!   transaction with its `rebooking` row (primary key: booking and the
//!   sailing it leaves), so a booking is moved at most once however often
//!   the job is run, killed or resumed elsewhere; the buyer's mail leaves
//!   through the outbox under one key.
//! - The job's places are claimed through the same partial unique index as
//!   every hold: a buyer holding a place on the next sailing keeps it, and
//!   the job takes the next place the rules allow (first come, first
//!   served; a hold that has run out is ended first).
//! - `answer`: the buyer keeps the new places, chooses another sailing with
//!   room, or takes a full refund (through the outbox, once). Until they
//!   answer the moved booking stays BOOKED on the new sailing; unanswered
//!   at the new sailing's departure less `ANSWER_CUTOFF_MS`, the move
//!   stands.

pub mod answer;
pub mod cancel;
mod moving;
pub mod progress;

pub use progress::{progress, view_of};

use crate::platform::clock::At;
use crate::platform::{db, retry};
use crate::{ApiError, AppState};
use holdfast_model::{BookingId, BookingStatus, Cause, EventId};

/// How long before the new sailing's departure the buyer's choices close.
pub const ANSWER_CUTOFF_MS: i64 = 48 * 3_600_000;

/// Bookings one batch handles at most (a run goes on batch after batch).
pub const BATCH: i64 = 500;

/// The job's name in the runner's table.
pub const JOB: &str = "rebooking";

/// A booking of a cancelled sailing the job has still to handle.
#[derive(sqlx::FromRow)]
struct Due {
    id: BookingId,
    event_id: EventId,
    status: BookingStatus,
    held_until: At,
    cancelled_by: Option<String>,
}

/// One batch of the rebooking job: up to `batch` bookings of cancelled
/// sailings handled (running holds ended, booked ones moved); how many.
pub async fn run(state: &AppState, batch: i64) -> Result<usize, ApiError> {
    let now = state.clock.now();
    let due = due(state, now, batch).await?;
    let mut rooms = moving::Rooms::default();
    for booking in due.iter().filter(|b| b.status != BookingStatus::Booked) {
        end_running(state, booking).await?;
    }
    // Booked ones by sailing, each sailing's in the order paid.
    let booked: Vec<&Due> = due
        .iter()
        .filter(|b| b.status == BookingStatus::Booked)
        .collect();
    for sailing in booked.chunk_by(|a, b| a.event_id == b.event_id) {
        let ids: Vec<BookingId> = sailing.iter().map(|b| b.id.clone()).collect();
        moving::rebook(state, &ids, sailing[0].event_id, &mut rooms).await?;
    }
    Ok(due.len())
}

/// The bookings of cancelled sailings still live there and not yet moved,
/// in the order they were paid (holds and checkouts first: they end).
async fn due(state: &AppState, now: At, batch: i64) -> Result<Vec<Due>, ApiError> {
    let sql = format!(
        "select b.id, b.event_id, b.status, b.held_until, sl.cancelled_by,
                coalesce((select min(h.at) from booking_history h
                          where h.booking_id = b.id and h.to_status = {booked}), 0) as paid_at
         from sailing sl join booking b on b.event_id = sl.event_id
         where sl.cancelled_at is not null and sl.cancelled_at <= $1 and b.status in {live}
           and not exists (select 1 from rebooking r
                           where r.booking_id = b.id and r.from_event_id = b.event_id)
         order by sl.cancelled_at, sl.event_id, paid_at, b.id
         limit $2",
        booked = BookingStatus::Booked.sql(),
        live = BookingStatus::sql_list(&BookingStatus::LIVE),
    );
    Ok(sqlx::query_as(&sql)
        .bind(now)
        .bind(batch)
        .fetch_all(state.db.reader())
        .await?)
}

/// A hold or checkout on a cancelled sailing ends: a running hold as the
/// cancelling admin's release, a spent one as expired, a checkout as ended
/// unpaid (a payment arriving later is refunded or moved like any other).
async fn end_running(state: &AppState, booking: &Due) -> Result<(), ApiError> {
    let by = Cause::Admin(
        booking
            .cancelled_by
            .clone()
            .unwrap_or_else(|| "sailing cancelled".into()),
    );
    let released = retry::retried("rebooking", || async {
        use crate::booking::store;
        let now = state.clock.now();
        let mut tx = state.db.begin().await?;
        let released = match booking.status {
            BookingStatus::Held if booking.held_until > now => {
                store::cancel_hold_by_admin(&mut tx, &booking.id, &by, now).await?
            }
            BookingStatus::Held => store::expire_hold(&mut tx, &booking.id, now).await?,
            _ => store::end_unpaid_checkout(&mut tx, &booking.id, &by, now).await?,
        };
        db::commit(tx).await?;
        Ok::<_, ApiError>(released)
    })
    .await?;
    if let Some(released) = released {
        let now = state.clock.now();
        state
            .seat_maps
            .publish(released.event_id, &released.as_changes(), now);
    }
    Ok(())
}
