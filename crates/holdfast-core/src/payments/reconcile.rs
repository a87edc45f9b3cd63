//! `reconcile_payments`: PAYMENT_PENDING bookings past their deadline are
//! looked up at the provider. Open sessions are expired there before the
//! seats are released; paid ones are booked (or refunded, as for a late
//! webhook). Each booking is claimed with a lease first, so with many
//! instances only one asks the provider about it at a time.

use super::checkout::{can_still_create, checkout_request, give_up, record_session};
use super::effects;
use super::outbox;
use super::store as payments;
use super::SessionState;
use crate::platform::db;
use crate::{ApiError, AppState};
use holdfast_model::{BookingId, Cause};

const LEASE_MS: i64 = 60_000;

/// Settles due payments; returns how many were settled.
pub async fn reconcile_due(state: &AppState) -> Result<usize, ApiError> {
    let now = state.clock.now();
    let min_ahead = state.payments.provider.min_checkout_lifetime_ms();
    let ttl = state.payments.settings.checkout_ttl_ms;
    let due = payments::due_for_reconciliation(&state.db, now, min_ahead, ttl).await?;
    let mut settled = 0;
    for booking_id in due {
        if !payments::lease(&state.db, &booking_id, now + LEASE_MS, now).await? {
            continue;
        }
        match settle(state, &booking_id).await {
            Ok(true) => settled += 1,
            Ok(false) => {}
            Err(e) => {
                tracing::warn!(%booking_id, error = %e, "reconciliation failed; will retry after the lease")
            }
        }
    }
    Ok(settled)
}

async fn settle(state: &AppState, booking_id: &BookingId) -> Result<bool, ApiError> {
    let provider = &state.payments.provider;
    let session = match payments::session_of(&state.db, booking_id).await? {
        Some(id) => provider.lookup_checkout(&id).await,
        // The pay step never heard back: the same idempotency key yields the
        // session the provider made then (or makes it now) — unless its
        // deadline is too close or past, when no session may be made.
        None => {
            let mut tx = state.db.begin().await?;
            let request = checkout_request(&mut tx, state, booking_id).await?;
            db::commit(tx).await?;
            if !can_still_create(state, &request, state.clock.now()) {
                return give_up(state, booking_id, &Cause::Reconciliation).await;
            }
            let session = provider.create_checkout(&request).await;
            if let Ok(s) = &session {
                let mut tx = state.db.begin().await?;
                record_session(&mut tx, booking_id, s, state.clock.now()).await?;
                db::commit(tx).await?;
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
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    let changes = match session.state {
        SessionState::Paid => {
            let paid = effects::Paid {
                payment_intent: session.payment_intent_id.as_deref(),
                amount_cents: session.amount_cents,
                currency: &session.currency,
                customer_email: session.customer_email.as_deref(),
                by: &Cause::Reconciliation,
            };
            let (_, changes) = effects::apply_paid(&mut tx, booking_id, paid, now).await?;
            changes
        }
        _ => {
            effects::apply_checkout_ended(&mut tx, booking_id, &Cause::Reconciliation, now)
                .await?
                .1
        }
    };
    db::commit(tx).await?;
    outbox::publish(state, &changes);
    Ok(true)
}
