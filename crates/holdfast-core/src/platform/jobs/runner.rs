//! The runner every instance starts: it polls the `job` table, takes the
//! lease of each due job it knows, runs it inside its fence while beating,
//! and ends the run (`lease::finish`).

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::fence::Fence;
use super::{lease, Job, RunResult};
use crate::platform::clock::At;
use crate::platform::metrics;
use crate::AppState;

pub struct Runner {
    state: AppState,
    jobs: Vec<Job>,
    /// This instance's name in `job.holder` and `job_run.instance`.
    instance: String,
    lease_ms: i64,
    /// How often a run moves its lease on (a third of the lease).
    beat_every: Duration,
    /// At the stop signal, how long runs under way may take to end before
    /// their leases are let go.
    stop_grace: Duration,
}

impl Runner {
    pub fn new(state: AppState, jobs: Vec<Job>, instance: String, lease: Duration) -> Runner {
        Runner {
            state,
            jobs,
            instance,
            lease_ms: lease.as_millis() as i64,
            beat_every: lease / 3,
            stop_grace: Duration::from_secs(10),
        }
    }

    /// Runs under way at the stop signal get this long to end.
    pub fn stopping_within(mut self, grace: Duration) -> Runner {
        self.stop_grace = grace;
        self
    }

    /// A runner whose runs beat this often (a test's stand-in for a
    /// process that stalls, beats and all).
    pub fn beating_every(mut self, every: Duration) -> Runner {
        self.beat_every = every;
        self
    }

    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// Adds this instance's jobs to the table (each instance does, so a
    /// job added by an upgrade appears with the first instance running it).
    /// Its series start from what the table remembers, so a job that has
    /// not succeeded since a restart of every instance still looks overdue.
    pub async fn register(&self) -> Result<(), sqlx::Error> {
        let now = self.state.clock.now();
        lease::register(&self.state.db, &self.jobs, now).await?;
        let last = lease::last_successes(&self.state.db).await?;
        for job in &self.jobs {
            metrics::job_interval(job.name, job.schedule.gap(now));
            if let Some((_, at)) = last.iter().find(|(name, _)| name == job.name) {
                metrics::job_succeeded_at(job.name, *at);
            }
        }
        Ok(())
    }

    /// One poll: starts a run of every due job whose lease this instance
    /// takes; the runs started (each ends by itself).
    pub async fn poll(self: &Arc<Self>) -> Result<Vec<JoinHandle<()>>, sqlx::Error> {
        let db = &self.state.db;
        let now = self.state.clock.now();
        let mut started = Vec::new();
        for name in lease::due(db, now).await? {
            // A job only another version of Holdfast knows waits for it.
            let Some(job) = self.jobs.iter().find(|j| j.name == name) else {
                continue;
            };
            let Some(taken) = lease::acquire(db, job, &self.instance, now, self.lease_ms).await?
            else {
                continue;
            };
            if let Some(holder) = &taken.took_over {
                tracing::warn!(
                    job = job.name,
                    holder,
                    "took over a run its holder abandoned"
                );
            }
            let run = self.clone().run(job.clone(), taken.fence, now);
            started.push(tokio::spawn(run));
        }
        Ok(started)
    }

    /// Polls every `every` until the stop signal.
    pub fn spawn(
        self: Arc<Self>,
        every: Duration,
        mut stop: watch::Receiver<bool>,
    ) -> JoinHandle<()> {
        tokio::spawn(async move {
            if let Err(e) = self.register().await {
                tracing::error!(error = %e, "registering the jobs failed; none will run here");
                return;
            }
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut running: Vec<JoinHandle<()>> = Vec::new();
            loop {
                tokio::select! {
                    _ = tick.tick() => {
                        running.retain(|run| !run.is_finished());
                        match self.poll().await {
                            Ok(started) => running.extend(started),
                            Err(e) => tracing::warn!(error = %e, "polling the jobs failed"),
                        }
                    }
                    _ = stop.changed() => {
                        self.stop(running).await;
                        return;
                    }
                }
            }
        })
    }

    /// The instance is stopping: runs under way get `stop_grace` to end
    /// (each frees its lease as it ends); those still running then are
    /// stopped and their leases let go, the jobs due again at once, so
    /// another instance resumes them without waiting for a lease to run out.
    pub async fn stop(&self, running: Vec<JoinHandle<()>>) {
        let deadline = tokio::time::Instant::now() + self.stop_grace;
        let mut cut = 0;
        for mut run in running {
            if tokio::time::timeout_at(deadline, &mut run).await.is_err() {
                run.abort();
                cut += 1;
            }
        }
        if cut == 0 {
            return;
        }
        let now = self.state.clock.now();
        match lease::give_back(&self.state.db, &self.instance, now).await {
            Ok(jobs) => tracing::info!(
                ?jobs,
                "stopping: let go of the leases of runs still under way"
            ),
            Err(e) => {
                tracing::warn!(error = %e, "stopping: letting the leases go failed; they run out by themselves")
            }
        }
    }

    async fn run(self: Arc<Self>, job: Job, fence: Fence, started_at: At) {
        let work = fence.clone().scope(job.start(self.state.clone()));
        let result: RunResult = tokio::select! {
            result = work => result,
            lost = self.beat_until_lost(&fence) => Err(lost),
        };
        if let Err(e) = &result {
            tracing::warn!(job = job.name, error = %e, "job run failed");
        }
        let now = self.state.clock.now();
        let ok = result.is_ok();
        match lease::finish(&self.state.db, &fence, &self.instance, started_at, now, result).await {
            Ok(true) => metrics::job_run(job.name, ok, now),
            Ok(false) => tracing::warn!(
                job = job.name,
                fence = fence.token,
                "the run's lease passed to another instance before it ended; its end is not recorded here"
            ),
            Err(e) => tracing::warn!(job = job.name, error = %e, "recording the end of a job run failed"),
        }
    }

    /// Beats every `beat_every`; returns (why) once the lease is lost.
    async fn beat_until_lost(&self, fence: &Fence) -> String {
        loop {
            tokio::time::sleep(self.beat_every).await;
            let now = self.state.clock.now();
            match lease::beat(&self.state.db, fence, now, self.lease_ms).await {
                Ok(true) => {}
                Ok(false) => {
                    return format!(
                        "stopped: the lease (fence {}) passed to another instance",
                        fence.token
                    )
                }
                Err(e) => tracing::warn!(job = fence.job, error = %e, "a job's heartbeat failed"),
            }
        }
    }
}

/// Moves `job`'s next run to now ("Run now"); false for an unknown job.
pub async fn run_now(state: &AppState, job: &str) -> Result<bool, sqlx::Error> {
    lease::run_now(&state.db, job).await
}

/// Forgets finished runs older than `keep` (called by the purge job).
pub async fn forget_old_runs(state: &AppState, keep: Duration) -> Result<u64, sqlx::Error> {
    let before = state.clock.now() - keep.as_millis() as i64;
    lease::forget_runs(&state.db, before).await
}
