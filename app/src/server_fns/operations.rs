//! Server functions of the console's operations views: the periodic jobs
//! ("Run now") and a booking's history. Each checks the admin session and
//! calls what the admin API calls.

use leptos::prelude::*;

use crate::model::console::JobView;
use crate::model::{BookingId, HistoryEntry};

/// Every job with its last runs; `None` when not signed in.
#[server]
pub async fn admin_jobs() -> Result<Option<Vec<JobView>>, ServerFnError> {
    if super::console::admin().await.is_err() {
        return Ok(None);
    }
    let state = expect_context::<crate::core::AppState>();
    crate::core::platform::jobs::history::jobs(&state.db)
        .await
        .map(Some)
        .map_err(|e| ServerFnError::new(crate::core::ApiError::from(e).to_string()))
}

/// Makes a job due now; false for a job that does not exist.
#[server]
pub async fn admin_run_job(name: String) -> Result<bool, ServerFnError> {
    super::console::admin().await?;
    let state = expect_context::<crate::core::AppState>();
    crate::core::platform::jobs::run_now(&state, &name)
        .await
        .map_err(|e| ServerFnError::new(crate::core::ApiError::from(e).to_string()))
}

/// A booking's history, oldest first (empty for an unknown booking).
#[server]
pub async fn admin_booking_history(
    booking_id: BookingId,
) -> Result<Vec<HistoryEntry>, ServerFnError> {
    super::console::admin().await?;
    let state = expect_context::<crate::core::AppState>();
    crate::core::booking::history::of(&state.db, &booking_id)
        .await
        .map(Option::unwrap_or_default)
        .map_err(|e| ServerFnError::new(crate::core::ApiError::from(e).to_string()))
}
