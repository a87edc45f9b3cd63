//! Fencing: a run's writes count only while its job's lease is still the
//! one it took. The runner starts each run inside `Fence::scope`; every
//! transaction commits through `db::commit`, which, inside a run, first
//! reads the job's fence in the same transaction and rolls back when it
//! moved on. On Postgres that read takes a share lock on the job's row, so
//! a takeover (an update of that row) waits for the commit in flight and
//! the check cannot go stale before the commit; on SQLite the transaction
//! is the only writer until it ends.

use crate::platform::db::Tx;

/// The lease a run holds: its job and the fence it was given.
#[derive(Debug, Clone)]
pub struct Fence {
    pub job: &'static str,
    pub token: i64,
}

tokio::task_local! {
    static RUN: Fence;
}

impl Fence {
    /// Runs `work` as this lease's run: its commits check the fence.
    pub async fn scope<F: std::future::Future>(self, work: F) -> F::Output {
        RUN.scope(self, work).await
    }

    /// The lease of the run this task belongs to, if any (a request or a
    /// test calling a job's work directly has none).
    pub fn current() -> Option<Fence> {
        RUN.try_with(Fence::clone).ok()
    }

    /// Whether this lease is still the job's, read inside `tx`.
    pub async fn still_held(&self, tx: &mut Tx) -> Result<bool, sqlx::Error> {
        let share = if tx.backend_name() == "PostgreSQL" {
            " for share"
        } else {
            ""
        };
        let held: Option<i64> = sqlx::query_scalar(&format!(
            "select fence from job where name = $1 and fence = $2{share}"
        ))
        .bind(self.job)
        .bind(self.token)
        .fetch_optional(&mut **tx)
        .await?;
        Ok(held.is_some())
    }
}

/// Why a run's write was refused.
pub fn lost(fence: &Fence) -> sqlx::Error {
    sqlx::Error::Protocol(format!(
        "the {} job's lease (fence {}) passed to another instance; nothing was written",
        fence.job, fence.token
    ))
}
