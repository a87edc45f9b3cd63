//! One runner for every periodic job (the sweeper, reconciliation, the
//! outbox, the waiting rooms' steps, the canary, the purges …), shared by
//! every instance through the `job` table:
//!
//! - a job runs on one instance at a time: its run holds the job's
//!   **lease** (`lease`), taken by a conditional update;
//! - each acquisition moves the job's **fence** up by one, and every
//!   transaction the run commits checks it (`fence`): a holder that stalled
//!   past its lease changes nothing once another instance took over;
//! - a run **beats** while it works; a holder that stops beating (a crash, a
//!   `kill -9`) is found by the next instance's poll once its lease is over,
//!   which records the abandoned run and runs the job again (`runner`);
//! - every run leaves a row in `job_run` (start, end, outcome, how much it
//!   did, the error, the instance); the console's Jobs view reads them
//!   (`history`), and "Run now" moves a job's next run to now.
//!
//! Jobs only tidy and deliver: each is safe to run again after a crash
//! (conditional updates, the outbox's dedupe keys), so resuming is running.

pub mod fence;
pub mod history;
mod lease;
mod runner;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

pub use runner::{forget_old_runs, run_now, Runner};

use crate::core::AppState;

/// What one run of a job did (how many things it handled), or why it failed.
pub type RunResult = Result<u64, String>;

pub type RunFuture = Pin<Box<dyn Future<Output = RunResult> + Send>>;

/// A periodic job: its name (the key in `job`), how often it runs (start
/// to start, across all instances), and its work.
#[derive(Clone)]
pub struct Job {
    pub name: &'static str,
    pub every: Duration,
    work: Arc<dyn Fn(AppState) -> RunFuture + Send + Sync>,
}

impl Job {
    pub fn new<F, Fut>(name: &'static str, every: Duration, work: F) -> Job
    where
        F: Fn(AppState) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = RunResult> + Send + 'static,
    {
        Job {
            name,
            every,
            work: Arc::new(move |state| Box::pin(work(state))),
        }
    }

    fn start(&self, state: AppState) -> RunFuture {
        (self.work)(state)
    }

    fn every_ms(&self) -> i64 {
        self.every.as_millis() as i64
    }
}
