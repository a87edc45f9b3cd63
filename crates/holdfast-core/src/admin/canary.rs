//! The invariant canary: the invariants of docs/ARCHITECTURE.md evaluated against the
//! database on demand (`GET /api/admin/invariants`) and every minute by a
//! worker. A violation is logged at error level, counted in
//! `holdfast_invariant_violations_total`, and kept for the console's banner.

use std::sync::Mutex;

use crate::invariants;
use crate::platform::clock::rfc3339;
use crate::{ApiError, AppState};
use holdfast_model::console::CanaryReport;

/// The last report, for the console.
#[derive(Default)]
pub struct LastReport(Mutex<Option<CanaryReport>>);

impl LastReport {
    pub fn get(&self) -> Option<CanaryReport> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    fn set(&self, report: CanaryReport) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = Some(report);
    }
}

/// Checks the invariants now, records and reports the outcome.
pub async fn check(state: &AppState) -> Result<CanaryReport, ApiError> {
    let now = state.clock.now();
    let violations = invariants::violations(&state.db, now).await?;
    let report = CanaryReport {
        ok: violations.is_empty(),
        checked_at: rfc3339(now),
        violations,
    };
    // Counted every time, zero included, so the series exists before the
    // first violation and an alert sees that one too.
    metrics::counter!("holdfast_invariant_violations_total")
        .increment(report.violations.len() as u64);
    if !report.ok {
        for v in &report.violations {
            tracing::error!(violation = %v, "invariant violated");
        }
    }
    state.canary.set(report.clone());
    Ok(report)
}
