//! A commit whose answer never came back (Postgres with synchronous
//! replication, as production runs it under Patroni).
//!
//! A backend cut off while its commit waits for the synchronous standby (its
//! primary lost, or the backend terminated) never answers the commit, yet
//! its rows become visible on that primary for a moment; the standby that is
//! promoted next may not have them. So a claim whose commit went unanswered
//! must not be acknowledged from what it left visible: it is answered 503
//! (nothing known; send it again), and the client's retry with the same
//! Idempotency-Key hears the truth from whichever primary it then reaches.
//!
//! The cluster here is the test's own (synchronous replication is set for the
//! whole cluster, which would hold up every other test's commits).

use std::collections::HashSet;
use std::process::Command;
use std::sync::Arc;

use crate::common;
use common::new_key;
use holdfast_core::platform::client_addr::TrustedProxies;
use serde_json::json;

/// A commit waiting for the standby that is a claim's: a claim alone, or a
/// batch's COMMIT; not the session a request saves as it ends (those wait
/// until commits go through again, and answer then).
const CLAIM_WAITING: &str = "wait_event = 'SyncRep' and query not like 'insert into session %'";

/// A throwaway Postgres cluster of this test's own (`scripts/pg.sh`).
struct OwnCluster {
    dir: std::path::PathBuf,
    url: String,
}

impl OwnCluster {
    fn start() -> OwnCluster {
        let root = env!("CARGO_MANIFEST_DIR");
        let dir = std::path::Path::new(root)
            .join(".tmp")
            .join(format!("commit-lost-{}", uuid::Uuid::new_v4().simple()));
        let out = Command::new(format!("{root}/scripts/pg.sh"))
            .arg("start")
            .arg(&dir)
            .output()
            .expect("scripts/pg.sh");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let url = String::from_utf8(out.stdout).expect("utf-8");
        let url = url.lines().last().expect("the cluster's URL").to_string();
        OwnCluster { dir, url }
    }

    async fn run(&self, sql: &str) -> Vec<i64> {
        let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect(&self.url)
            .await
            .expect("connect");
        sqlx::query_scalar(sql)
            .fetch_all(&mut conn)
            .await
            .expect(sql)
    }

    /// Commits from now on wait for a standby that never comes (or, with
    /// `false`, no longer wait, and those waiting go on).
    async fn wait_for_a_standby(&self, wait: bool) {
        let names = if wait { "nobody" } else { "" };
        let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect(&self.url)
            .await
            .expect("connect");
        sqlx::Executor::execute(&mut conn, "create table if not exists commit_probe (n int)")
            .await
            .expect("the probe's table");
        sqlx::Executor::execute(
            &mut conn,
            format!("alter system set synchronous_standby_names = '{names}'").as_str(),
        )
        .await
        .expect("alter system");
        sqlx::Executor::execute(&mut conn, "select pg_reload_conf()")
            .await
            .expect("reload");
        if wait {
            self.until_commits_wait().await;
        }
    }

    /// Whether commits wait for a standby is the checkpointer's word to
    /// the backends, given when it has read the reloaded settings: until
    /// then a commit goes through unwaited (and its hold would count as
    /// one a cut-off commit left). So a probe commits, again and again,
    /// until one waits; that one is cut off.
    async fn until_commits_wait(&self) {
        for _ in 0..200 {
            let mut probe = <sqlx::AnyConnection as sqlx::Connection>::connect(&self.url)
                .await
                .expect("connect");
            let pid: i64 = sqlx::query_scalar("select pg_backend_pid()::bigint")
                .fetch_all(&mut probe)
                .await
                .expect("pid")[0];
            let commit = sqlx::Executor::execute(&mut probe, "insert into commit_probe values (1)");
            tokio::pin!(commit);
            loop {
                tokio::select! {
                    _ = &mut commit => break,
                    _ = tokio::time::sleep(std::time::Duration::from_millis(5)) => {}
                }
                let waiting = self
                    .run(&format!(
                        "select count(*) from pg_stat_activity
                         where pid = {pid} and wait_event = 'SyncRep'"
                    ))
                    .await;
                if waiting[0] == 1 {
                    self.run(&format!(
                        "select pg_terminate_backend({pid}, 5000)::int::bigint"
                    ))
                    .await;
                    let _ = commit.await;
                    return;
                }
            }
        }
        panic!("commits never waited for the standby");
    }

    /// Waits until at least `n` claims' commits wait for the standby.
    async fn until_claims_wait(&self, n: i64) {
        for _ in 0..500 {
            let waiting = self
                .run(&format!(
                    "select count(*) from pg_stat_activity where {CLAIM_WAITING}"
                ))
                .await;
            if waiting[0] >= n {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        panic!("{n} claims never waited for the standby");
    }

    /// Terminates every backend whose claim's commit waits for the standby,
    /// and waits until each has gone. Whether one of them was a batch's
    /// commit (several claims behind savepoints; a claim alone is one
    /// statement).
    async fn cut_off_waiting_claims(&self) -> bool {
        let batches = self
            .run(&format!(
                "with waiting as materialized (
                     select pid, query from pg_stat_activity where {CLAIM_WAITING})
                 select (query = 'COMMIT')::int from waiting
                 where pg_terminate_backend(pid, 5000)"
            ))
            .await;
        batches.contains(&1)
    }
}

impl Drop for OwnCluster {
    fn drop(&mut self) {
        let _ = Command::new(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/pg.sh"))
            .arg("stop")
            .arg(&self.dir)
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Twelve holds at once while every commit waits for the standby. The
/// claims' commits are cut off in their wait, round after round, until a
/// batch's (several claims in one commit) has been cut; then commits go
/// through again. What the cut-off commits left is read before that: no hold
/// may be acknowledged, in its first answer, with one of those bookings (the
/// failing build retried a cut-off batch's claims at once, found their keys
/// and replayed their answers). Each retry with its key then finds its hold.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_a_claim_whose_commit_went_unanswered_is_not_acknowledged() {
    if !common::wants_postgres() {
        return;
    }
    let cluster = OwnCluster::start();
    // Each buyer from an address of its own, as a proxy says: opening
    // twelve sessions from one address would meet the sign-in link limit.
    let app = common::spawn_on(&cluster.url, None, |c| {
        c.trusted_proxies = TrustedProxies::parse("127.0.0.1").expect("proxies");
    })
    .await;
    let arena = app.arena_seats().await;
    let (seats, warm_up) = (&arena[..12], &arena[12..24]);
    let buyers: Vec<Arc<common::Buyer>> = (0..seats.len())
        .map(|i| Arc::new(app.buyer_at(&format!("203.0.113.{}", i + 1))))
        .collect();
    // Each buyer made (a hold's first step saves the new buyer in the
    // session) before commits stop: a hold held and let go.
    for (buyer, seat) in buyers.iter().zip(warm_up) {
        let booking = buyer.held_booking(1, *seat).await;
        let released = buyer.delete(&format!("/api/bookings/{booking}")).await;
        assert_eq!(released.status, 200, "{}", released.text);
    }
    let before: HashSet<String> = bookings(&app).await;
    cluster.wait_for_a_standby(true).await;

    let keys: Vec<String> = seats.iter().map(|_| new_key()).collect();
    let answers: Vec<_> = (0..seats.len())
        .map(|i| {
            let (buyer, seat, key) = (buyers[i].clone(), seats[i], keys[i].clone());
            tokio::spawn(async move {
                buyer
                    .send(
                        reqwest::Method::POST,
                        "/api/events/1/holds",
                        &[("Idempotency-Key", key.as_str())],
                        Some(json!({ "seatIds": [seat] })),
                    )
                    .await
            })
        })
        .collect();
    let mut batch_cut = false;
    for _ in 0..12 {
        cluster.until_claims_wait(1).await;
        batch_cut |= cluster.cut_off_waiting_claims().await;
        if batch_cut {
            break;
        }
    }
    assert!(batch_cut, "no batch of claims ever waited to commit");
    let left_by_cut_commits: HashSet<String> =
        bookings(&app).await.difference(&before).cloned().collect();
    assert!(!left_by_cut_commits.is_empty());
    cluster.wait_for_a_standby(false).await;

    for answer in answers {
        let answer = answer.await.expect("hold");
        if answer.status == 200 {
            let booking = answer.json()["bookingId"].as_str().unwrap().to_string();
            assert!(
                !left_by_cut_commits.contains(&booking),
                "{booking} was acknowledged from a commit nobody confirmed"
            );
        } else {
            assert_eq!(answer.code(), "SERVICE_BUSY", "{}", answer.text);
        }
    }
    // Asked again with their keys: each hold is there once (this one node
    // kept what its cut-off commits wrote), whatever the first answer was.
    for (i, key) in keys.iter().enumerate() {
        let again = buyers[i]
            .post(
                "/api/events/1/holds",
                Some(key),
                Some(json!({ "seatIds": [seats[i]] })),
            )
            .await;
        assert_eq!(again.status, 200, "{}", again.text);
        let booking = again.json()["bookingId"].as_str().unwrap().to_string();
        assert_eq!(app.status_of(&booking).await, "HELD");
    }
    assert_eq!(
        app.scalar("select count(*) from booking where status = 'HELD'")
            .await,
        12
    );
    app.assert_invariants().await;
}

async fn bookings(app: &common::TestApp) -> HashSet<String> {
    sqlx::query_scalar("select id from booking")
        .fetch_all(app.state.db.reader())
        .await
        .expect("bookings")
        .into_iter()
        .collect()
}
