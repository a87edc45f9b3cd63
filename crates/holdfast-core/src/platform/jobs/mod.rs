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
//! - a job runs on an interval (start to start) or at a cron expression's
//!   fire times (`Schedule`);
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

use crate::platform::clock::At;
use crate::AppState;

/// What one run of a job did (how many things it handled), or why it failed.
pub type RunResult = Result<u64, String>;

pub type RunFuture = Pin<Box<dyn Future<Output = RunResult> + Send>>;

/// A periodic job: its name (the key in `job`), when it runs (across all
/// instances), and its work.
#[derive(Clone)]
pub struct Job {
    pub name: &'static str,
    pub schedule: Schedule,
    work: Arc<dyn Fn(AppState) -> RunFuture + Send + Sync>,
}

/// When a job runs.
#[derive(Clone)]
pub enum Schedule {
    /// Start to start: the next run is due this long after one starts.
    Every(Duration),
    /// At the fire times of a cron expression, in UTC (with seconds:
    /// `sec min hour day-of-month month day-of-week`).
    Cron(Arc<cron::Schedule>),
}

impl Schedule {
    /// A cron schedule; the expression's error when it does not parse.
    pub fn cron(expression: &str) -> Result<Schedule, String> {
        expression
            .parse::<cron::Schedule>()
            .map(|s| Schedule::Cron(Arc::new(s)))
            .map_err(|e| format!("cron expression {expression:?}: {e}"))
    }

    /// When the run after one starting at `start` is due.
    pub fn next_after(&self, start: At) -> At {
        match self {
            Schedule::Every(every) => start + every.as_millis() as i64,
            Schedule::Cron(cron) => chrono::DateTime::from_timestamp_millis(start.ms())
                .and_then(|t| cron.after(&t).next())
                .map_or(At::from_ms(i64::MAX), |t| At::from_ms(t.timestamp_millis())),
        }
    }

    /// When a job seen for the first time is first due: an interval job at
    /// once, a cron job at its next fire time.
    fn first_due(&self, now: At) -> At {
        match self {
            Schedule::Every(_) => At::from_ms(0),
            Schedule::Cron(_) => self.next_after(now),
        }
    }

    /// The usual gap between runs (the overdue alert's unit).
    pub fn gap(&self, now: At) -> Duration {
        let next = self.next_after(now);
        let after = self.next_after(next);
        Duration::from_millis((after - next).max(0) as u64)
    }

    /// As the Jobs view says it: `every 1000 ms`, or the cron expression.
    pub fn describe(&self) -> String {
        match self {
            Schedule::Every(every) => format!("every {} ms", every.as_millis()),
            Schedule::Cron(cron) => format!("cron {cron}"),
        }
    }
}

impl Job {
    pub fn new<F, Fut>(name: &'static str, every: Duration, work: F) -> Job
    where
        F: Fn(AppState) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = RunResult> + Send + 'static,
    {
        Job::on(name, Schedule::Every(every), work)
    }

    pub fn on<F, Fut>(name: &'static str, schedule: Schedule, work: F) -> Job
    where
        F: Fn(AppState) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = RunResult> + Send + 'static,
    {
        Job {
            name,
            schedule,
            work: Arc::new(move |state| Box::pin(work(state))),
        }
    }

    fn start(&self, state: AppState) -> RunFuture {
        (self.work)(state)
    }
}
