//! Two kinds of claim rounds compared without the machine's drift: a round
//! on something fresh and a round on something filled, taken in turns
//! (fresh, filled, filled, fresh, fresh, filled), each after a checkpoint,
//! and compared by their medians. On a shared machine one round's rate
//! drifts from minute to minute by more than the effects measured; rounds
//! taken in turns within seconds leave the filling as the one difference.

use crate::throughput::Run;
use holdfast_core::platform::db::{Backend, Db};

/// Rounds of each kind.
pub const TURNS: usize = 3;

/// Runs `TURNS` rounds of each kind in turns (each answers its
/// `rate_and_p99`), prints their medians and the filled ones' as a ratio
/// of the fresh ones' under `label`.
pub async fn compare(
    db: &Db,
    label: &str,
    mut fresh: impl AsyncFnMut() -> (f64, f64),
    mut filled: impl AsyncFnMut() -> (f64, f64),
) {
    let (mut on_fresh, mut on_filled) = (Vec::new(), Vec::new());
    for turn in 0..2 * TURNS {
        // F E E F F E: a drift over the run weighs on both kinds alike.
        let fresh_now = (turn % 4 == 0) || (turn % 4 == 3);
        checkpoint(db).await;
        if fresh_now {
            on_fresh.push(fresh().await);
        } else {
            on_filled.push(filled().await);
        }
    }
    let (f, a) = (median(&on_fresh), median(&on_filled));
    println!(
        "{:<48} fresh {:.0}/s p99 {:.1} ms, filled {:.0}/s p99 {:.1} ms",
        format!("medians of {TURNS} rounds each"),
        f.0,
        f.1,
        a.0,
        a.1
    );
    flatness(label, f, a);
}

fn median(v: &[(f64, f64)]) -> (f64, f64) {
    let mut rates: Vec<f64> = v.iter().map(|r| r.0).collect();
    let mut p99s: Vec<f64> = v.iter().map(|r| r.1).collect();
    rates.sort_by(f64::total_cmp);
    p99s.sort_by(f64::total_cmp);
    (rates[rates.len() / 2], p99s[p99s.len() / 2])
}

/// A round's holds per second and its p99 in ms.
pub fn rate_and_p99(r: &Run) -> (f64, f64) {
    let mut l = r.latencies.clone();
    l.sort();
    (
        r.ok as f64 / r.elapsed.as_secs_f64(),
        crate::stats::percentile(&l, 0.99),
    )
}

/// On Postgres, a checkpoint before each round compared: the first change
/// to a page after a checkpoint writes the whole page to the WAL, so a
/// round that happens to run just after one of Postgres' timed checkpoints
/// pays more than a round that does not. Both rounds start from one, and
/// differ only in what was filled before them.
pub async fn checkpoint(db: &Db) {
    if db.backend == Backend::Postgres {
        if let Err(e) = sqlx::query("checkpoint").execute(db.writer()).await {
            println!("(no checkpoint before the round: {e})");
        }
    }
}

pub fn flatness(label: &str, fresh: (f64, f64), after: (f64, f64)) {
    println!(
        "{label:<48} throughput {:.2}× the fresh event's, p99 {:.2}×",
        after.0 / fresh.0,
        after.1 / fresh.1
    );
}
