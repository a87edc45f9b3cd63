//! An admin cancels a sailing with a reason: from its commit no claim on it
//! succeeds (the claim reads `sailing.cancelled_at`), the cancellation is
//! audited in the same transaction, and the rebooking job is woken.

use super::JOB;
use crate::admin::access::Admin;
use crate::admin::audit::{self, Entry};
use crate::admin::audit_detail::Detail;
use crate::platform::{db, jobs};
use crate::{ApiError, AppState};
use holdfast_model::sailing::RebookingProgress;
use holdfast_model::EventId;

/// The longest reason kept.
pub const MAX_REASON: usize = 300;

pub async fn cancel(
    state: &AppState,
    sailing: EventId,
    reason: &str,
    by: &Admin,
) -> Result<RebookingProgress, ApiError> {
    let reason = reason.trim();
    if reason.is_empty() || reason.chars().count() > MAX_REASON {
        return Err(ApiError::unprocessable(
            format!("reason must say why, in 1 to {MAX_REASON} characters"),
            "reason",
        ));
    }
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    let found: Option<(Option<i64>, i64)> =
        sqlx::query_as("select cancelled_at, departs_at from sailing where event_id = $1")
            .bind(sailing)
            .fetch_optional(&mut *tx)
            .await?;
    match found {
        None => return Err(ApiError::NotFound("sailing")),
        Some((Some(_), _)) => {
            return Err(ApiError::InvalidState(
                "this sailing is already cancelled".into(),
            ))
        }
        Some((None, departs_at)) if departs_at <= now.ms() => {
            return Err(ApiError::InvalidState(
                "this sailing has already departed".into(),
            ))
        }
        Some(_) => {}
    }
    sqlx::query(
        "update sailing set cancelled_at = $2, cancel_reason = $3, cancelled_by = $4
         where event_id = $1 and cancelled_at is null",
    )
    .bind(sailing)
    .bind(now)
    .bind(reason)
    .bind(&by.actor)
    .execute(&mut *tx)
    .await?;
    let said = Detail::SailingCancelled {
        reason: reason.to_string(),
    };
    let entry = Entry::on_event(by, "cancel_sailing", sailing, &said);
    audit::record(&mut tx, &entry, now).await?;
    db::commit(tx).await?;
    // The job's next poll would find it; this makes that poll's run now.
    jobs::run_now(state, JOB).await?;
    super::progress(state, sailing).await
}
