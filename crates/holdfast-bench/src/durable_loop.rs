//! The SQLite yardstick: the hold use case in a loop, one transaction per
//! hold and no group commit (`CLAIM_BATCH_MAX=1`), with `synchronous=FULL`
//! — every hold fsynced before the next, durable across a power cut. What
//! SQLite gives an application that neither batches nor relaxes durability;
//! `holdfast-bench claims` prints holds over HTTP as a multiple of it.

use holdfast_core::platform::db::Backend;

use crate::throughput::{bare_holds, start_with, Run};

/// Runs the loop on a fresh SQLite file of its own (`None` on Postgres,
/// whose yardstick is pgbench).
pub async fn sqlite_full(backend: Backend) -> Option<Run> {
    if backend != Backend::Sqlite {
        return None;
    }
    let dir = std::env::temp_dir().join(format!("holdfast-bench-full-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let url = format!("sqlite://{}/loop.db", dir.display());
    let (_base, state) = start_with(Some(url), |c| c.claim_batch_max = 1).await;
    // SQLite's writer is one connection: the pragma holds for every write
    // of the loop (read back below, so a recycled connection would show).
    let full = async {
        sqlx::query("pragma synchronous = full")
            .execute(state.db.writer())
            .await?;
        sqlx::query_scalar::<_, i64>("pragma synchronous")
            .fetch_one(state.db.writer())
            .await
    };
    match full.await {
        Ok(2) => {}
        other => {
            eprintln!("could not set synchronous=FULL on the writer: {other:?}");
            return None;
        }
    }
    let run = bare_holds(&state, (1..=1_600).collect(), 1).await;
    let level: Result<i64, _> = sqlx::query_scalar("pragma synchronous")
        .fetch_one(state.db.writer())
        .await;
    if !matches!(level, Ok(2)) {
        eprintln!("the writer left synchronous=FULL during the loop: {level:?}");
        return None;
    }
    let _ = std::fs::remove_dir_all(&dir);
    Some(run)
}
