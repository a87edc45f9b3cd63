//! The `job` table's SQL: registering jobs, finding the due ones, taking a
//! lease (and reaping an abandoned one), beating, and ending a run. Every
//! write after the acquisition names the fence it holds, so a stale holder's
//! update matches no row.

use super::fence::Fence;
use super::{Job, RunResult};
use crate::platform::clock::At;
use crate::platform::db::{self, Db};
use holdfast_model::console::RunOutcome;

/// Adds the jobs this instance runs that the table lacks, and keeps each
/// one's schedule as this instance's configuration says.
pub async fn register(db: &Db, jobs: &[Job], now: At) -> Result<(), sqlx::Error> {
    for job in jobs {
        sqlx::query(
            "insert into job (name, schedule, every_ms, next_run_at) values ($1, $2, $3, $4)
             on conflict (name) do update set schedule = excluded.schedule, every_ms = excluded.every_ms",
        )
        .bind(job.name)
        .bind(job.schedule.describe())
        .bind(job.schedule.gap(now).as_millis() as i64)
        .bind(job.schedule.first_due(now))
        .execute(db.writer())
        .await?;
    }
    Ok(())
}

/// The jobs to start now: due and free, or held by a holder whose lease is
/// over (it stopped beating).
pub async fn due(db: &Db, now: At) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "select name from job
         where (holder is null and next_run_at <= $1) or (holder is not null and lease_until < $1)
         order by name",
    )
    .bind(now)
    .fetch_all(db.reader())
    .await
}

/// A lease taken: the fence for the run, and what the reaper found.
pub struct Taken {
    pub fence: Fence,
    /// The holder whose lease had run out, when this is a takeover.
    pub took_over: Option<String>,
}

#[derive(sqlx::FromRow)]
struct Current {
    fence: i64,
    holder: Option<String>,
    started_at: Option<At>,
    heartbeat_at: Option<At>,
    next_run_at: At,
    lease_until: At,
}

/// Takes `job`'s lease for `instance` until `now + lease_ms` if it is due
/// and free (or its holder's lease is over); `None` when another instance
/// has it. A takeover records the abandoned run, in the same transaction.
pub async fn acquire(
    db: &Db,
    job: &Job,
    instance: &str,
    now: At,
    lease_ms: i64,
) -> Result<Option<Taken>, sqlx::Error> {
    let mut tx = db.begin().await?;
    let row: Option<Current> = sqlx::query_as(&format!(
        "select fence, holder, started_at, heartbeat_at, next_run_at, lease_until
         from job where name = $1{}",
        db.lock_row()
    ))
    .bind(job.name)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let free = row.holder.is_none() && row.next_run_at <= now;
    let abandoned = row.holder.is_some() && row.lease_until < now;
    if !free && !abandoned {
        return Ok(None);
    }
    let fence = row.fence + 1;
    // The next run is due by the schedule, counted from this one's start;
    // "Run now" during the run moves it back to now.
    let moved = sqlx::query(
        "update job set holder = $2, fence = $3, started_at = $4, heartbeat_at = $4,
             lease_until = $5, next_run_at = $6
         where name = $1 and fence = $7",
    )
    .bind(job.name)
    .bind(instance)
    .bind(fence)
    .bind(now)
    .bind(now + lease_ms)
    .bind(job.schedule.next_after(now))
    .bind(row.fence)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if moved != 1 {
        return Ok(None);
    }
    let took_over = if abandoned { row.holder.clone() } else { None };
    if let Some(holder) = &took_over {
        let last_beat = row.heartbeat_at.unwrap_or(row.lease_until);
        record(
            &mut tx,
            job.name,
            row.fence,
            holder,
            row.started_at.unwrap_or(last_beat),
            last_beat,
            Ended::Abandoned {
                why: format!(
                    "{holder} stopped beating (last at {} ms, lease over at {} ms); taken over by {instance}",
                    last_beat.ms(),
                    row.lease_until.ms()
                ),
            },
        )
        .await?;
    }
    tx.commit().await?;
    Ok(Some(Taken {
        fence: Fence {
            job: job.name,
            token: fence,
        },
        took_over,
    }))
}

/// Moves the lease on while the run works; false once the fence moved on
/// (another instance took the job over).
pub async fn beat(db: &Db, fence: &Fence, now: At, lease_ms: i64) -> Result<bool, sqlx::Error> {
    Ok(sqlx::query(
        "update job set heartbeat_at = $3, lease_until = $4 where name = $1 and fence = $2",
    )
    .bind(fence.job)
    .bind(fence.token)
    .bind(now)
    .bind(now + lease_ms)
    .execute(db.writer())
    .await?
    .rows_affected()
        == 1)
}

/// How a run ended.
pub enum Ended {
    Done(RunResult),
    Abandoned { why: String },
}

impl Ended {
    fn parts(&self) -> (RunOutcome, i64, Option<&str>) {
        match self {
            Ended::Done(Ok(done)) => (RunOutcome::Ok, *done as i64, None),
            Ended::Done(Err(e)) => (RunOutcome::Failed, 0, Some(e)),
            Ended::Abandoned { why } => (RunOutcome::Abandoned, 0, Some(why)),
        }
    }
}

/// Frees the job and records the run, if the run still holds the lease;
/// false (and nothing written) if another instance took it over, whose
/// reaper has recorded this run as abandoned.
pub async fn finish(
    db: &Db,
    fence: &Fence,
    instance: &str,
    started_at: At,
    now: At,
    result: RunResult,
) -> Result<bool, sqlx::Error> {
    let mut tx = db.begin().await?;
    let freed = sqlx::query(
        "update job set holder = null, started_at = null, heartbeat_at = null, lease_until = 0
         where name = $1 and fence = $2",
    )
    .bind(fence.job)
    .bind(fence.token)
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    if freed {
        record(
            &mut tx,
            fence.job,
            fence.token,
            instance,
            started_at,
            now,
            Ended::Done(result),
        )
        .await?;
        tx.commit().await?;
    }
    Ok(freed)
}

async fn record(
    tx: &mut db::Tx,
    job: &str,
    fence: i64,
    instance: &str,
    started_at: At,
    ended_at: At,
    ended: Ended,
) -> Result<(), sqlx::Error> {
    let (outcome, done, error) = ended.parts();
    sqlx::query(
        "insert into job_run (job, fence, instance, started_at, ended_at, outcome, done, error)
         values ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(job)
    .bind(fence)
    .bind(instance)
    .bind(started_at)
    .bind(ended_at)
    .bind(outcome.as_str())
    .bind(done)
    .bind(error)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// At a shutdown: every lease `instance` still holds is let go at once,
/// the job due again now (its run is recorded as abandoned), so another
/// instance resumes it without waiting for the lease to run out. The jobs
/// let go.
pub async fn give_back(db: &Db, instance: &str, now: At) -> Result<Vec<String>, sqlx::Error> {
    let mut tx = db.begin().await?;
    let held: Vec<(String, i64, Option<At>)> =
        sqlx::query_as("select name, fence, started_at from job where holder = $1")
            .bind(instance)
            .fetch_all(&mut *tx)
            .await?;
    let mut given = Vec::new();
    for (name, fence, started_at) in held {
        let moved = sqlx::query(
            "update job set holder = null, started_at = null, heartbeat_at = null,
                 lease_until = 0, next_run_at = $3
             where name = $1 and fence = $2",
        )
        .bind(&name)
        .bind(fence)
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if moved == 1 {
            let why = format!("{instance} stopped before the run ended; due again at once");
            let ended = Ended::Abandoned { why };
            record(
                &mut tx,
                &name,
                fence,
                instance,
                started_at.unwrap_or(now),
                now,
                ended,
            )
            .await?;
            given.push(name);
        }
    }
    tx.commit().await?;
    Ok(given)
}

/// Moves a job's next run to now; false for a job that does not exist.
pub async fn run_now(db: &Db, job: &str) -> Result<bool, sqlx::Error> {
    Ok(
        sqlx::query("update job set next_run_at = 0 where name = $1")
            .bind(job)
            .execute(db.writer())
            .await?
            .rows_affected()
            == 1,
    )
}

/// Forgets runs older than `before` (the purge job; fenced).
pub async fn forget_runs(db: &Db, before: At) -> Result<u64, sqlx::Error> {
    let mut tx = db.begin().await?;
    let forgotten = sqlx::query("delete from job_run where ended_at < $1")
        .bind(before)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    db::commit(tx).await?;
    Ok(forgotten)
}

/// Each job's last successful end, as recorded by any instance.
pub async fn last_successes(db: &Db) -> Result<Vec<(String, At)>, sqlx::Error> {
    sqlx::query_as("select job, max(ended_at) from job_run where outcome = 'ok' group by job")
        .fetch_all(db.reader())
        .await
}
