//! "Run now": an admin makes a periodic job due at once. The runner on
//! some instance picks it up at its next look; who asked is on record.

use super::audit::{self, Entry};
use super::audit_detail::Detail;
use super::auth::Admin;
use crate::platform::{db, jobs};
use crate::{ApiError, AppState};

/// Makes `job` due now (404 when there is no such job), audited.
pub async fn run_now(state: &AppState, admin: &Admin, job: &str) -> Result<(), ApiError> {
    if !jobs::run_now(state, job).await? {
        return Err(ApiError::NotFound("no such job"));
    }
    let detail = Detail::JobRunAsked {
        job: job.to_string(),
    };
    let entry = Entry {
        by: admin,
        action: "run_job",
        event_id: None,
        booking_id: None,
        detail: &detail,
    };
    let mut tx = state.db.begin().await?;
    audit::record(&mut tx, &entry, state.clock.now()).await?;
    db::commit(tx).await?;
    tracing::info!(job, "run now asked for");
    Ok(())
}
