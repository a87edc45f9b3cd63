//! The periodic jobs, as the job runner (`core::platform::jobs`) runs
//! them: the expiry sweeper, payment reconciliation, the outbox dispatcher,
//! the sandbox's webhook deliveries, a cancelled sailing's rebooking, the
//! waiting rooms' steps, the invariant canary, the purges and fresh planner
//! statistics. Each runs on
//! one instance at a time under a fenced lease, and each only tidies or
//! delivers: correctness never waits for it, and running it again after a
//! crash is safe. A run's transaction that the database rolls back for
//! contention is run again whole (`retry`).

use std::sync::Arc;
use std::time::Duration;

use holdfast_core::admin::canary;
use holdfast_core::booking::release::expire_due_holds;
use holdfast_core::payments::outbox::{self, dispatch_due};
use holdfast_core::payments::reconcile::reconcile_due;
use holdfast_core::payments::sandbox::Sandbox;
use holdfast_core::platform::idempotency;
use holdfast_core::platform::jobs::{self, Job, RunResult, Runner, Schedule};
use holdfast_core::platform::retry::retried;
use holdfast_core::platform::session_store::DbSessionStore;
use holdfast_core::sailing::rebooking;
use holdfast_core::waiting_room::admit::admit_all_due;
use holdfast_core::waiting_room::setup::open_automatic_rooms;
use holdfast_core::AppState;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::config::Config;

const SWEEP_BATCH: i64 = 500;
/// A queue job goes on for at most this many full batches per run.
const MAX_BATCHES_PER_RUN: usize = 50;
/// How often an instance looks for due jobs (at most).
const POLL: Duration = Duration::from_millis(250);
/// How long finished runs are kept in `job_run`.
const KEEP_RUNS: Duration = Duration::from_secs(24 * 3600);

/// Every periodic job, with its interval from the configuration.
pub fn jobs(config: &Config) -> Vec<Job> {
    let second = Duration::from_secs(1);
    let (auto_rate, auto_lead) = (
        config.auto_room_per_minute,
        config.auto_room_lead.as_millis() as i64,
    );
    vec![
        Job::new("sweep", config.sweep_interval, |s| async move {
            sweep_expired_holds(&s).await
        }),
        Job::new("reconcile", config.reconcile_interval, |s| async move {
            Ok(retried("reconcile", || reconcile_due(&s))
                .await
                .map_err(say)? as u64)
        }),
        // Batch after batch while they come back full: after an on-sale
        // thousands of confirmations wait, and one batch a second would
        // take minutes.
        Job::new("outbox", second, |s| async move {
            in_batches(outbox::BATCH, || retried("outbox", || dispatch_due(&s))).await
        }),
        // A cancelled sailing's bookings move to the route's next sailing;
        // cancelling wakes it at once ("run now").
        Job::new(rebooking::JOB, second, |s| async move {
            in_batches(rebooking::BATCH as usize, || {
                rebooking::run(&s, rebooking::BATCH)
            })
            .await
        }),
        Job::new("sandbox-deliveries", second, |s| async move {
            match &s.payments.sandbox {
                Some(sandbox) => in_batches(Sandbox::BATCH, || sandbox.deliver_due()).await,
                None => Ok(0),
            }
        }),
        // One admission step a run, shared by every room's queue.
        Job::new(
            "waiting-rooms",
            config.admit_interval,
            move |s| async move {
                if auto_rate > 0 {
                    open_automatic_rooms(&s, auto_rate, auto_lead)
                        .await
                        .map_err(say)?;
                }
                Ok(retried("admission", || admit_all_due(&s))
                    .await
                    .map_err(say)? as u64)
            },
        ),
        // A violation logs at error level, counts in
        // holdfast_invariant_violations_total and turns the console red.
        Job::new("canary", Duration::from_secs(60), |s| async move {
            Ok(canary::check(&s).await.map_err(say)?.violations.len() as u64)
        }),
        // Hourly at a quarter past, on whichever instance polls first.
        Job::on(
            "purge",
            purge_schedule(),
            |s| async move { purge(&s).await },
        ),
        Job::new("statistics", STATISTICS_INTERVAL, |s| async move {
            Ok(s.db.refresh_statistics().await.map_err(say)?.len() as u64)
        }),
    ]
}

/// The purge's cron expression (seconds first), checked by a test.
pub const PURGE_CRON: &str = "0 15 * * * *";

fn purge_schedule() -> Schedule {
    Schedule::cron(PURGE_CRON).unwrap_or(Schedule::Every(Duration::from_secs(3600)))
}

/// How long a stopping instance lets its job runs finish before it lets
/// their leases go (systemd's stop timeout leaves room for it).
pub const STOP_GRACE: Duration = Duration::from_secs(10);

/// Starts this instance's job runner.
pub fn spawn_all(
    state: AppState,
    config: &Config,
    stop: watch::Receiver<bool>,
) -> Vec<JoinHandle<()>> {
    let runner = Runner::new(state, jobs(config), instance_name(), config.job_lease)
        .stopping_within(STOP_GRACE);
    vec![Arc::new(runner).spawn(POLL, stop)]
}

/// This process among the instances: host, process id and a random tail
/// (a restarted process with a reused pid is another holder).
fn instance_name() -> String {
    let host = std::fs::read_to_string("/etc/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "host".into());
    use std::hash::{BuildHasher, Hasher};
    // Randomly keyed per process by the standard library.
    let tail = std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish() as u32;
    format!("{host}-{}-{tail:08x}", std::process::id())
}

/// How often the busy tables' statistics are looked at (Postgres).
pub const STATISTICS_INTERVAL: Duration = Duration::from_secs(5);

/// Fresh planner statistics while an on-sale fills the booking tables
/// (`Db::refresh_statistics`); the bench calls it by itself.
pub async fn refresh_statistics(state: AppState) {
    if let Err(e) = state.db.refresh_statistics().await {
        tracing::warn!(error = %e, "refreshing statistics failed");
    }
}

fn say(e: impl std::fmt::Display) -> String {
    e.to_string()
}

async fn purge(state: &AppState) -> RunResult {
    let now = state.clock.now();
    let keys = idempotency::purge_expired(&state.db, now)
        .await
        .map_err(say)?;
    state.limits.tidy();
    let sessions = DbSessionStore::new(state.db.clone(), holdfast_core::state::SIGNED_IN_KEYS)
        .delete_expired()
        .await
        .map_err(say)?;
    let links = holdfast_core::account::link::purge_expired(&state.db, now)
        .await
        .map_err(say)?;
    let runs = jobs::forget_old_runs(state, KEEP_RUNS).await.map_err(say)?;
    Ok(keys + sessions + links + runs)
}

/// Runs `batch` again while it comes back full (at most
/// `MAX_BATCHES_PER_RUN` times); how many it handled in all.
async fn in_batches<F, Fut, E>(full: usize, batch: F) -> RunResult
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = Result<usize, E>>,
    E: std::fmt::Display,
{
    let mut total = 0;
    for _ in 0..MAX_BATCHES_PER_RUN {
        let n = batch().await.map_err(say)?;
        total += n as u64;
        if n < full {
            break;
        }
    }
    Ok(total)
}

/// Expires every due hold, batch after batch; how many.
pub async fn sweep_expired_holds(state: &AppState) -> RunResult {
    let mut total = 0;
    loop {
        let n = retried("sweep", || expire_due_holds(state, SWEEP_BATCH))
            .await
            .map_err(say)?;
        total += n;
        if n < SWEEP_BATCH as u64 {
            return Ok(total);
        }
    }
}
