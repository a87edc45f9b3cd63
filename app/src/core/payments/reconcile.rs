//! `reconcile_payments`: PAYMENT_PENDING bookings past their deadline are
//! looked up at the provider. Open sessions are expired there before the
//! seats are released; paid ones are booked (or refunded, as for a late
//! webhook). Each booking is claimed with a lease first, so with many
//! instances only one asks the provider about it at a time.

use super::checkout::{checkout_request, record_session};
use super::effects;
use super::outbox;
use super::SessionState;
use crate::core::{ApiError, AppState};

const LEASE_MS: i64 = 60_000;

/// Settles due payments; returns how many were settled.
pub async fn reconcile_due(state: &AppState) -> Result<usize, ApiError> {
    let now = state.clock.now_ms();
    let due: Vec<(String,)> = sqlx::query_as(
        "select b.id from booking b join payment p on p.booking_id = b.id
         where b.status = 'PAYMENT_PENDING' and b.held_until <= $1 and p.lease_until <= $1
         order by b.held_until limit 50",
    )
    .bind(now)
    .fetch_all(state.db.reader())
    .await?;
    let mut settled = 0;
    for (booking_id,) in due {
        let claimed = sqlx::query(
            "update payment set lease_until = $2 where booking_id = $1 and lease_until <= $3",
        )
        .bind(&booking_id)
        .bind(now + LEASE_MS)
        .bind(now)
        .execute(state.db.writer())
        .await?
        .rows_affected()
            == 1;
        if !claimed {
            continue;
        }
        match settle(state, &booking_id).await {
            Ok(true) => settled += 1,
            Ok(false) => {}
            Err(e) => {
                tracing::warn!(booking_id, error = %e, "reconciliation failed; will retry after the lease")
            }
        }
    }
    Ok(settled)
}

async fn settle(state: &AppState, booking_id: &str) -> Result<bool, ApiError> {
    let provider = &state.payments.provider;
    let known: (Option<String>,) =
        sqlx::query_as("select checkout_session_id from payment where booking_id = $1")
            .bind(booking_id)
            .fetch_one(state.db.reader())
            .await?;
    let session = match known.0 {
        Some(id) => provider.lookup_checkout(&id).await,
        // The pay step never heard back: the same idempotency key yields the
        // session the provider made then (or makes it now).
        None => {
            let mut tx = state.db.begin().await?;
            let request = checkout_request(&mut tx, state, booking_id).await?;
            tx.commit().await?;
            let session = provider.create_checkout(&request).await;
            if let Ok(s) = &session {
                let mut tx = state.db.begin().await?;
                record_session(&mut tx, booking_id, s, state.clock.now_ms()).await?;
                tx.commit().await?;
            }
            session
        }
    }
    .map_err(ApiError::internal)?;
    let session = if session.state == SessionState::Open {
        provider
            .expire_checkout(&session.id)
            .await
            .map_err(ApiError::internal)?
    } else {
        session
    };
    let now = state.clock.now_ms();
    let mut tx = state.db.begin().await?;
    let changes = match session.state {
        SessionState::Paid => {
            let paid = effects::Paid {
                payment_intent: session.payment_intent_id.as_deref(),
                amount_cents: session.amount_cents,
                currency: &session.currency,
                customer_email: session.customer_email.as_deref(),
            };
            let (_, changes) = effects::apply_paid(&mut tx, booking_id, paid, now).await?;
            changes
        }
        _ => {
            effects::apply_checkout_ended(&mut tx, booking_id, now)
                .await?
                .1
        }
    };
    tx.commit().await?;
    outbox::publish(state, &changes);
    Ok(true)
}
