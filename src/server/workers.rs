//! Background work that runs on every instance: the expiry sweeper, payment
//! reconciliation, the outbox dispatcher, the sandbox's webhook deliveries,
//! the invariant canary, the purges and fresh planner statistics. Each is safe to run on many instances at once (conditional
//! updates; `skip locked` on Postgres) and only tidies: correctness never
//! waits for it.

use std::time::Duration;

use holdfast_app::core::admin::canary;
use holdfast_app::core::booking::release::expire_due_holds;
use holdfast_app::core::payments::outbox::{self, dispatch_due};
use holdfast_app::core::payments::reconcile::reconcile_due;
use holdfast_app::core::payments::sandbox::Sandbox;
use holdfast_app::core::platform::idempotency;
use holdfast_app::core::platform::session_store::DbSessionStore;
use holdfast_app::core::waiting_room::admit::admit_all_due;
use holdfast_app::core::waiting_room::setup::open_automatic_rooms;
use holdfast_app::core::AppState;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::config::Config;

const SWEEP_BATCH: i64 = 500;
/// A queue worker goes on for at most this many full batches per tick.
const MAX_BATCHES_PER_TICK: usize = 50;

pub fn spawn_all(
    state: AppState,
    config: &Config,
    stop: watch::Receiver<bool>,
) -> Vec<JoinHandle<()>> {
    let second = Duration::from_secs(1);
    let (auto_rate, auto_lead) = (
        config.auto_room_per_minute,
        config.auto_room_lead.as_millis() as i64,
    );
    vec![
        every(config.sweep_interval, &state, &stop, sweep),
        every(config.reconcile_interval, &state, &stop, reconcile),
        every(second, &state, &stop, dispatch_outbox),
        every(second, &state, &stop, deliver_sandbox_events),
        // The waiting rooms: one admission step a tick (shared across instances).
        every(config.admit_interval, &state, &stop, move |state| {
            step_waiting_rooms(state, auto_rate, auto_lead)
        }),
        // A violation logs at error level, counts in
        // holdfast_invariant_violations_total and turns the console red.
        every(Duration::from_secs(60), &state, &stop, run_canary),
        every(Duration::from_secs(3600), &state, &stop, purge),
        every(STATISTICS_INTERVAL, &state, &stop, refresh_statistics),
    ]
}

/// How often the busy tables' statistics are looked at (Postgres).
pub const STATISTICS_INTERVAL: Duration = Duration::from_secs(5);

/// Fresh planner statistics while an on-sale fills the booking tables
/// (`Db::refresh_statistics`).
pub async fn refresh_statistics(state: AppState) {
    match state.db.refresh_statistics().await {
        Ok(tables) if !tables.is_empty() => tracing::debug!(?tables, "statistics refreshed"),
        Ok(_) => {}
        Err(e) => tracing::warn!(error = %e, "refreshing statistics failed"),
    }
}

async fn sweep(state: AppState) {
    let expired = sweep_expired_holds(&state).await;
    if expired > 0 {
        tracing::info!(expired, "expired holds swept");
    }
}

async fn reconcile(state: AppState) {
    match reconcile_due(&state).await {
        Ok(n) if n > 0 => tracing::info!(settled = n, "payments reconciled"),
        Ok(_) => {}
        Err(e) => tracing::warn!(error = %e, "reconciliation failed"),
    }
}

/// Batch after batch while they come back full: after an on-sale thousands
/// of confirmations wait, and one batch a second would take minutes (the
/// simulator measured it).
async fn dispatch_outbox(state: AppState) {
    in_batches("outbox dispatch", outbox::BATCH, || dispatch_due(&state)).await;
}

async fn deliver_sandbox_events(state: AppState) {
    if let Some(sandbox) = &state.payments.sandbox {
        in_batches("sandbox webhook delivery", Sandbox::BATCH, || {
            sandbox.deliver_due()
        })
        .await;
    }
}

async fn step_waiting_rooms(state: AppState, auto_rate: i64, auto_lead_ms: i64) {
    if auto_rate > 0 {
        if let Err(e) = open_automatic_rooms(&state, auto_rate, auto_lead_ms).await {
            tracing::warn!(error = %e, "opening waiting rooms failed");
        }
    }
    match admit_all_due(&state).await {
        Ok(n) if n > 0 => tracing::debug!(admitted = n, "buyers admitted"),
        Ok(_) => {}
        Err(e) => tracing::warn!(error = %e, "admission step failed"),
    }
}

async fn run_canary(state: AppState) {
    if let Err(e) = canary::check(&state).await {
        tracing::warn!(error = %e, "invariant canary could not run");
    }
}

async fn purge(state: AppState) {
    let now = state.clock.now();
    match idempotency::purge_expired(&state.db, now).await {
        Ok(n) if n > 0 => tracing::info!(purged = n, "old idempotency keys purged"),
        Ok(_) => {}
        Err(e) => tracing::warn!(error = %e, "idempotency purge failed"),
    }
    state.limits.tidy();
    if let Err(e) = DbSessionStore::new(state.db.clone()).delete_expired().await {
        tracing::warn!(error = %e, "session purge failed");
    }
}

/// Runs `batch` again while it comes back full (at most
/// `MAX_BATCHES_PER_TICK` times).
async fn in_batches<F, Fut, E>(what: &str, full: usize, batch: F)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = Result<usize, E>>,
    E: std::fmt::Display,
{
    for _ in 0..MAX_BATCHES_PER_TICK {
        match batch().await {
            Ok(n) if n >= full => continue,
            Ok(_) => break,
            Err(e) => {
                tracing::warn!(error = %e, "{what} failed");
                break;
            }
        }
    }
}

/// Expires every due hold, batch after batch; returns how many.
pub async fn sweep_expired_holds(state: &AppState) -> u64 {
    let mut total = 0;
    loop {
        match expire_due_holds(state, SWEEP_BATCH).await {
            Ok(n) => {
                total += n;
                if n < SWEEP_BATCH as u64 {
                    return total;
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, "sweep failed; will retry");
                return total;
            }
        }
    }
}

/// Runs `job` every `period` (a late tick waits, never piles up) until
/// the stop signal.
fn every<F, Fut>(
    period: Duration,
    state: &AppState,
    stop: &watch::Receiver<bool>,
    job: F,
) -> JoinHandle<()>
where
    F: Fn(AppState) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send,
{
    let (state, mut stop) = (state.clone(), stop.clone());
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(period);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => job(state.clone()).await,
                _ = stop.changed() => return,
            }
        }
    })
}
