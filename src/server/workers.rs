//! Background work that runs on every instance: the expiry sweeper, payment
//! reconciliation, the outbox dispatcher, the sandbox's webhook deliveries,
//! the invariant canary and the purges. Each is safe to run on many instances at once (conditional
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
    let sweep_every = config.sweep_interval;
    let sweeper = {
        let state = state.clone();
        every(sweep_every, stop.clone(), move || {
            let state = state.clone();
            async move {
                let expired = sweep_expired_holds(&state).await;
                if expired > 0 {
                    tracing::info!(expired, "expired holds swept");
                }
            }
        })
    };
    let reconcile = {
        let state = state.clone();
        every(config.reconcile_interval, stop.clone(), move || {
            let state = state.clone();
            async move {
                match reconcile_due(&state).await {
                    Ok(n) if n > 0 => tracing::info!(settled = n, "payments reconciled"),
                    Ok(_) => {}
                    Err(e) => tracing::warn!(error = %e, "reconciliation failed"),
                }
            }
        })
    };
    let outbox = {
        let state = state.clone();
        every(Duration::from_secs(1), stop.clone(), move || {
            let state = state.clone();
            async move {
                // Batch after batch while they come back full: after an
                // on-sale thousands of confirmations wait, and one batch a
                // second would take minutes (the simulator measured it).
                for _ in 0..MAX_BATCHES_PER_TICK {
                    match dispatch_due(&state).await {
                        Ok(n) if n >= outbox::BATCH => continue,
                        Ok(_) => break,
                        Err(e) => {
                            tracing::warn!(error = %e, "outbox dispatch failed");
                            break;
                        }
                    }
                }
            }
        })
    };
    let sandbox = {
        let state = state.clone();
        every(Duration::from_secs(1), stop.clone(), move || {
            let state = state.clone();
            async move {
                if let Some(sandbox) = &state.payments.sandbox {
                    for _ in 0..MAX_BATCHES_PER_TICK {
                        match sandbox.deliver_due().await {
                            Ok(n) if n >= Sandbox::BATCH => continue,
                            Ok(_) => break,
                            Err(e) => {
                                tracing::warn!(error = %e, "sandbox webhook delivery failed");
                                break;
                            }
                        }
                    }
                }
            }
        })
    };
    // The waiting rooms: one admission step a tick (shared across instances).
    let admitter = {
        let state = state.clone();
        let (auto_rate, auto_lead) = (
            config.auto_room_per_minute,
            config.auto_room_lead.as_millis() as i64,
        );
        every(config.admit_interval, stop.clone(), move || {
            let state = state.clone();
            async move {
                if auto_rate > 0 {
                    if let Err(e) = open_automatic_rooms(&state, auto_rate, auto_lead).await {
                        tracing::warn!(error = %e, "opening waiting rooms failed");
                    }
                }
                match admit_all_due(&state).await {
                    Ok(n) if n > 0 => tracing::debug!(admitted = n, "buyers admitted"),
                    Ok(_) => {}
                    Err(e) => tracing::warn!(error = %e, "admission step failed"),
                }
            }
        })
    };
    // The invariant canary: a violation logs at error level, counts in
    // holdfast_invariant_violations_total and turns the console red.
    let canary = {
        let state = state.clone();
        every(Duration::from_secs(60), stop.clone(), move || {
            let state = state.clone();
            async move {
                if let Err(e) = canary::check(&state).await {
                    tracing::warn!(error = %e, "invariant canary could not run");
                }
            }
        })
    };
    let purge = every(Duration::from_secs(3600), stop, move || {
        let state = state.clone();
        async move {
            let now = state.clock.now_ms();
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
    });
    vec![sweeper, reconcile, outbox, sandbox, admitter, canary, purge]
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

fn every<F, Fut>(period: Duration, mut stop: watch::Receiver<bool>, job: F) -> JoinHandle<()>
where
    F: Fn() -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send,
{
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(period);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => job().await,
                _ = stop.changed() => return,
            }
        }
    })
}
