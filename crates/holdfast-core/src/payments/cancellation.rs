//! A buyer cancels their own BOOKED booking under the event's refund
//! policy: the booking ends CANCELLED and its places are free at once, the
//! policy's amount goes back through the outbox (the booking's one refund
//! key, so it is refunded once however the request, an admin's refund or a
//! late webhook interleave: each takes the booking's row lock first).

use super::outbox::{self, RefundReason};
use super::store as payments;
use crate::booking::query::RefundPolicyRow;
use crate::booking::{begin_with_key, earlier_answer, store, Began, Idempotent};
use crate::buyer::Owner;
use crate::platform::clock::At;
use crate::platform::db::{self, Tx};
use crate::platform::idempotency::{self, IdempotencyKey};
use crate::{ApiError, AppState};
use holdfast_model::{BookingId, BookingStatus, CancelResponse, Cause, RefundPolicy};

/// Cancels `booking_id` for its owner, refunding what the policy gives.
pub async fn cancel(
    state: &AppState,
    owner: &Owner,
    booking_id: &BookingId,
    key: Option<&IdempotencyKey>,
) -> Result<Idempotent<CancelResponse>, ApiError> {
    if let Some(answer) = earlier_answer(state, &owner.buyer, key).await? {
        return Ok(answer);
    }
    let now = state.clock.now();
    let mut tx = match begin_with_key(state, &owner.buyer, key, now).await? {
        Began::Work(tx) => tx,
        Began::Answered(answer) => return Ok(answer),
    };
    let booking = store::lock(&mut tx, booking_id)
        .await?
        .ok_or(ApiError::NotFound("booking"))?;
    if !owner.owns(&mut *tx, booking_id).await? {
        return Err(ApiError::NotFound("booking"));
    }
    if booking.status != BookingStatus::Booked {
        return Err(ApiError::InvalidState(format!(
            "only a booked booking can be cancelled; this one is {}",
            booking.status
        )));
    }
    // Checked in under the same row lock the door takes: a buyer who went
    // in does not also get the money back (an admin still can).
    let (scanned,): (i64,) =
        sqlx::query_as("select count(*) from ticket_checkin where booking_id = $1")
            .bind(booking_id)
            .fetch_one(&mut *tx)
            .await?;
    if scanned > 0 {
        return Err(ApiError::InvalidState(
            "tickets of this booking were already used at the door, so it can no longer be cancelled".into(),
        ));
    }
    let step = booking.price.currency().charge_step();
    let refund_cents = refund_due(&mut tx, booking_id, step, now).await?;
    let Some(released) = store::cancel_booked(&mut tx, booking_id, &Cause::Buyer, now).await?
    else {
        return Err(ApiError::InvalidState(
            "only a booked booking can be cancelled".into(),
        ));
    };
    if !payments::begin_refund(&mut tx, booking_id, now).await? {
        // BOOKED always has a paid payment (invariant 5); never refund blind.
        return Err(ApiError::InvalidState(
            "this booking has no paid payment to refund".into(),
        ));
    }
    let reason = RefundReason::BuyerCancelled;
    outbox::enqueue_refund_of(&mut tx, booking_id, reason, Some(refund_cents), now).await?;
    let response = CancelResponse {
        booking_id: booking_id.clone(),
        status: BookingStatus::Cancelled,
        refund_cents,
        currency: booking.price.currency().code().to_string(),
    };
    if let Some(key) = key {
        let body = serde_json::to_string(&response).map_err(ApiError::internal)?;
        idempotency::complete(&mut tx, &owner.buyer, key, 200, &body).await?;
    }
    db::commit(tx).await?;
    state
        .seat_maps
        .publish(released.event_id, &released.as_changes(), now);
    crate::platform::metrics::payment("cancelled_by_buyer");
    Ok(Idempotent::Fresh(response))
}

/// What the event's policy gives back of what is left of the payment now;
/// 409 when it allows no cancellation (any more).
async fn refund_due(
    tx: &mut Tx,
    booking_id: &BookingId,
    step: i64,
    now: At,
) -> Result<i64, ApiError> {
    #[derive(sqlx::FromRow)]
    struct Due {
        #[sqlx(flatten)]
        policy: RefundPolicyRow,
        starts_at: At,
        left_cents: Option<i64>,
    }
    let sql = format!(
        "select e.refund_full_days, e.refund_partial_days, e.refund_partial_percent, e.starts_at,
                (select {} from payment p where p.booking_id = b.id) as left_cents
         from booking b join event e on e.id = b.event_id where b.id = $1",
        super::refund_part::left_to_refund_sql("p")
    );
    let due: Due = sqlx::query_as(&sql)
        .bind(booking_id)
        .fetch_one(&mut **tx)
        .await?;
    let (policy, starts_at, left) = (
        RefundPolicy::from(due.policy),
        due.starts_at,
        due.left_cents,
    );
    if !policy.allows_cancellation() {
        return Err(ApiError::InvalidState(
            "the organizer does not allow cancelling bookings for this event".into(),
        ));
    }
    policy
        .refund_cents(left.unwrap_or(0), step, starts_at.ms(), now.ms())
        .ok_or_else(|| {
            ApiError::InvalidState(
                "it is too close to the start to cancel under this event's refund policy".into(),
            )
        })
}
