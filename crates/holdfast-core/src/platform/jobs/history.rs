//! The Jobs view's reads: every job with its holder and its last runs.

use crate::platform::clock::{rfc3339, At};
use crate::platform::db::Db;
use holdfast_model::console::{JobRunView, JobView, RunOutcome};

/// Runs shown per job.
const RUNS_SHOWN: i64 = 10;

#[derive(sqlx::FromRow)]
struct JobRow {
    name: String,
    schedule: String,
    every_ms: i64,
    next_run_at: At,
    holder: Option<String>,
    fence: i64,
    lease_until: At,
}

#[derive(sqlx::FromRow)]
struct RunRow {
    fence: i64,
    instance: String,
    started_at: At,
    ended_at: At,
    outcome: String,
    done: i64,
    error: Option<String>,
}

pub async fn jobs(db: &Db) -> Result<Vec<JobView>, sqlx::Error> {
    let rows: Vec<JobRow> = sqlx::query_as(
        "select name, schedule, every_ms, next_run_at, holder, fence, lease_until from job order by name",
    )
    .fetch_all(db.reader())
    .await?;
    let mut views = Vec::with_capacity(rows.len());
    for job in rows {
        let runs: Vec<RunRow> = sqlx::query_as(
            "select fence, instance, started_at, ended_at, outcome, done, error from job_run
             where job = $1 order by id desc limit $2",
        )
        .bind(&job.name)
        .bind(RUNS_SHOWN)
        .fetch_all(db.reader())
        .await?;
        views.push(JobView {
            lease_until: job.holder.as_ref().map(|_| rfc3339(job.lease_until)),
            name: job.name,
            schedule: job.schedule,
            every_ms: job.every_ms,
            next_run_at: rfc3339(job.next_run_at),
            holder: job.holder,
            fence: job.fence,
            runs: runs.into_iter().map(run_view).collect::<Result<_, _>>()?,
        });
    }
    Ok(views)
}

fn run_view(r: RunRow) -> Result<JobRunView, sqlx::Error> {
    let outcome = RunOutcome::parse(&r.outcome).ok_or_else(|| {
        sqlx::Error::Decode(format!("unknown job run outcome {:?}", r.outcome).into())
    })?;
    Ok(JobRunView {
        fence: r.fence,
        instance: r.instance,
        started_at: rfc3339(r.started_at),
        ended_at: rfc3339(r.ended_at),
        took_ms: r.ended_at - r.started_at,
        outcome,
        done: r.done,
        error: r.error,
    })
}
