//! Background work that runs on every instance: the expiry sweeper and the
//! purges. Each is safe to run on many instances at once (conditional
//! updates; `skip locked` on Postgres) and only tidies: correctness never
//! waits for it.

use std::time::Duration;

use holdfast_app::core::booking::release::expire_due_holds;
use holdfast_app::core::idempotency;
use holdfast_app::core::session_store::DbSessionStore;
use holdfast_app::core::AppState;
use tokio::sync::watch;
use tokio::task::JoinHandle;

const SWEEP_BATCH: i64 = 500;

pub fn spawn_all(
    state: AppState,
    sweep_every: Duration,
    stop: watch::Receiver<bool>,
) -> Vec<JoinHandle<()>> {
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
    let purge = every(Duration::from_secs(3600), stop, move || {
        let state = state.clone();
        async move {
            let now = state.clock.now_ms();
            match idempotency::purge_expired(&state.db, now).await {
                Ok(n) if n > 0 => tracing::info!(purged = n, "old idempotency keys purged"),
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "idempotency purge failed"),
            }
            if let Err(e) = DbSessionStore::new(state.db.clone()).delete_expired().await {
                tracing::warn!(error = %e, "session purge failed");
            }
        }
    });
    vec![sweeper, purge]
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
