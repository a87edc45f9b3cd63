//! The job runner (`core::platform::jobs`) against a real database, with
//! two instances sharing it: one runs a job at a time, a holder that
//! stalled past its lease writes nothing after the takeover, a killed
//! holder's job is taken over and run again, a failure is recorded with
//! its error, and the Jobs view and "Run now" work over HTTP.

use crate::common;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use holdfast_core::platform::clock::{Clock, ManualClock, SharedClock};
use holdfast_core::platform::db;
use holdfast_core::platform::jobs::{Job, Runner};
use holdfast_core::AppState;
use reqwest::StatusCode;
use tokio::sync::Notify;

use common::{Backend, TestApp};

const LEASE: Duration = Duration::from_secs(10);
const EVERY: Duration = Duration::from_secs(1);

/// Two instances of Holdfast on one database, moved by one clock.
struct Pair {
    a: TestApp,
    b: TestApp,
    clock: Arc<ManualClock>,
}

impl Pair {
    /// `None` when Postgres is asked for and not wanted.
    async fn new(backend: Backend) -> Option<Pair> {
        if matches!(backend, Backend::Postgres) && !common::wants_postgres() {
            return None;
        }
        let a = common::spawn_app(backend).await;
        let b = common::spawn_on(&a.database_url, None, |_| {}).await;
        sqlx::query("create table probe (fence bigint not null, step text not null)")
            .execute(a.state.db.writer())
            .await
            .expect("probe table");
        Some(Pair {
            clock: a.clock.clone(),
            a,
            b,
        })
    }

    fn state(&self, app: &TestApp) -> AppState {
        let clock: SharedClock = self.clock.clone();
        app.state.with_clock(clock)
    }

    fn runner(&self, app: &TestApp, name: &str, job: Job) -> Arc<Runner> {
        Arc::new(Runner::new(self.state(app), vec![job], name.into(), LEASE))
    }

    async fn rows(&self, sql: &str) -> Vec<(i64, String)> {
        sqlx::query_as(sql)
            .fetch_all(self.a.state.db.reader())
            .await
            .expect("rows")
    }

    /// The probe job's writes, in order: "fence step".
    async fn probe(&self) -> Vec<String> {
        let rows = self
            .rows("select fence, step from probe order by fence, step")
            .await;
        rows.into_iter().map(|(f, s)| format!("{f} {s}")).collect()
    }
}

/// The probe job's one write: a row naming the run's fence and its step,
/// committed as every write is (`db::commit`, fenced inside a run).
async fn write(state: &AppState, step: &str) -> Result<(), sqlx::Error> {
    let fence = holdfast_core::platform::jobs::fence::Fence::current()
        .map(|f| f.token)
        .unwrap_or(-1);
    let mut tx = state.db.begin().await?;
    sqlx::query("insert into probe (fence, step) values ($1, $2)")
        .bind(fence)
        .bind(step)
        .execute(&mut *tx)
        .await?;
    db::commit(tx).await
}

async fn finish_all(handles: Vec<tokio::task::JoinHandle<()>>) {
    for h in handles {
        h.await.expect("run");
    }
}

async fn one_instance_at_a_time(backend: Backend) {
    let Some(pair) = Pair::new(backend).await else {
        return;
    };
    let in_flight = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let job = {
        let (in_flight, most) = (in_flight.clone(), most.clone());
        Job::new("probe", EVERY, move |state| {
            let (in_flight, most) = (in_flight.clone(), most.clone());
            async move {
                let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(15)).await;
                let written = write(&state, "ran").await;
                in_flight.fetch_sub(1, Ordering::SeqCst);
                written.map(|_| 1).map_err(|e| e.to_string())
            }
        })
    };
    let a = pair.runner(&pair.a, "a", job.clone());
    let b = pair.runner(&pair.b, "b", job);
    a.register().await.expect("register");
    b.register().await.expect("register");
    const ROUNDS: usize = 30;
    for _ in 0..ROUNDS {
        // Both instances poll at the same moment, several times over.
        let polls = (0..3)
            .flat_map(|_| [a.clone(), b.clone()])
            .map(|r| async move { r.poll().await.expect("poll") });
        let started: Vec<_> = futures::future::join_all(polls)
            .await
            .into_iter()
            .flatten()
            .collect();
        assert_eq!(
            started.len(),
            1,
            "exactly one poll of six starts the due run"
        );
        finish_all(started).await;
        pair.clock.advance_ms(EVERY.as_millis() as i64);
    }
    assert_eq!(most.load(Ordering::SeqCst), 1, "two runs overlapped");
    let ran = pair
        .rows("select fence, step from probe order by fence")
        .await;
    let fences: Vec<i64> = ran.iter().map(|r| r.0).collect();
    assert_eq!(
        fences,
        (1..=ROUNDS as i64).collect::<Vec<_>>(),
        "one run per fence, in order"
    );
    let runs = pair
        .rows("select fence, outcome from job_run order by fence")
        .await;
    assert_eq!(runs.len(), ROUNDS);
    assert!(runs.iter().all(|r| r.1 == "ok"), "{runs:?}");
}

async fn a_stalled_holder_cannot_write_after_the_takeover(backend: Backend) {
    let Some(pair) = Pair::new(backend).await else {
        return;
    };
    let stall_next = Arc::new(AtomicBool::new(true));
    let stalled = Arc::new(Notify::new());
    let resume = Arc::new(Notify::new());
    let late_write = Arc::new(Mutex::new(None::<String>));
    let job = {
        let (stall_next, stalled, resume, late_write) = (
            stall_next.clone(),
            stalled.clone(),
            resume.clone(),
            late_write.clone(),
        );
        Job::new("probe", EVERY, move |state| {
            let (stall_next, stalled, resume, late_write) = (
                stall_next.clone(),
                stalled.clone(),
                resume.clone(),
                late_write.clone(),
            );
            async move {
                write(&state, "before").await.map_err(|e| e.to_string())?;
                if stall_next.swap(false, Ordering::SeqCst) {
                    // A pause (GC, a frozen VM): heartbeats and all.
                    stalled.notify_one();
                    resume.notified().await;
                    let refused = write(&state, "after").await;
                    *late_write.lock().unwrap() = Some(format!("{refused:?}"));
                    return refused.map(|_| 1).map_err(|e| e.to_string());
                }
                write(&state, "after").await.map_err(|e| e.to_string())?;
                Ok(2)
            }
        })
    };
    // A's runs never beat: the whole process is paused.
    let a = Arc::new(
        Runner::new(pair.state(&pair.a), vec![job.clone()], "a".into(), LEASE)
            .beating_every(Duration::from_secs(3600)),
    );
    let b = pair.runner(&pair.b, "b", job);
    a.register().await.expect("register");
    let a_run = a.poll().await.expect("poll");
    assert_eq!(a_run.len(), 1);
    stalled.notified().await;
    // Within the lease nobody else may start it.
    pair.clock.advance_ms(LEASE.as_millis() as i64 - 1);
    assert!(
        b.poll().await.expect("poll").is_empty(),
        "taken over inside the lease"
    );
    // Past it, B takes over and runs the job whole.
    pair.clock.advance_ms(2);
    finish_all(b.poll().await.expect("poll")).await;
    // A wakes up and tries its write.
    resume.notify_one();
    finish_all(a_run).await;
    let said = late_write
        .lock()
        .unwrap()
        .clone()
        .expect("A tried to write");
    assert!(
        said.contains("passed to another instance"),
        "A's late write was not refused: {said}"
    );
    assert_eq!(
        pair.probe().await,
        ["1 before", "2 after", "2 before"],
        "the stale holder wrote after the takeover"
    );
    let runs = pair
        .rows("select fence, outcome || ':' || instance from job_run order by id")
        .await;
    assert_eq!(
        runs,
        vec![(1, "abandoned:a".to_string()), (2, "ok:b".into())]
    );
    let holder: Option<String> = sqlx::query_scalar("select holder from job where name = 'probe'")
        .fetch_one(pair.a.state.db.reader())
        .await
        .expect("job");
    assert_eq!(
        holder, None,
        "B's end freed the job; A's stale end changed nothing"
    );
}

/// The probe job: writes "started", then hangs the first time it runs (an
/// instance lost mid-run) and, every later time, writes "done" and
/// reports `processed`.
fn hangs_the_first_time(processed: u64) -> Job {
    let first = Arc::new(AtomicBool::new(true));
    Job::new("probe", EVERY, move |state| {
        let first = first.clone();
        async move {
            write(&state, "started").await.map_err(|e| e.to_string())?;
            if first.swap(false, Ordering::SeqCst) {
                std::future::pending::<()>().await;
            }
            write(&state, "done").await.map_err(|e| e.to_string())?;
            Ok(processed)
        }
    })
}

async fn a_killed_holder_is_taken_over_and_the_job_resumed(backend: Backend) {
    let Some(pair) = Pair::new(backend).await else {
        return;
    };
    let job = hangs_the_first_time(7);
    let a = pair.runner(&pair.a, "a", job.clone());
    let b = pair.runner(&pair.b, "b", job);
    a.register().await.expect("register");
    let a_run = a.poll().await.expect("poll");
    while pair.rows("select fence, step from probe").await.is_empty() {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // kill -9: nothing of A's run goes on, no end is written.
    for run in a_run {
        run.abort();
    }
    assert!(
        b.poll().await.expect("poll").is_empty(),
        "taken over while A's lease lasts"
    );
    pair.clock.advance_ms(LEASE.as_millis() as i64 + 1);
    finish_all(b.poll().await.expect("poll")).await;
    let runs: Vec<(i64, String, String, Option<String>, i64)> =
        sqlx::query_as("select fence, instance, outcome, error, done from job_run order by id")
            .fetch_all(pair.a.state.db.reader())
            .await
            .expect("runs");
    assert_eq!(runs.len(), 2, "{runs:?}");
    let (fence, instance, outcome, error, _) = &runs[0];
    assert_eq!(
        (*fence, instance.as_str(), outcome.as_str()),
        (1, "a", "abandoned")
    );
    let error = error.as_deref().unwrap_or_default();
    assert!(
        error.contains("a stopped beating") && error.contains("taken over by b"),
        "{error}"
    );
    assert_eq!(
        (runs[1].0, runs[1].1.as_str(), runs[1].2.as_str(), runs[1].4),
        (2, "b", "ok", 7)
    );
    assert_eq!(pair.probe().await, ["1 started", "2 done", "2 started"]);
}

async fn a_failure_is_recorded_and_the_jobs_view_shows_it(backend: Backend) {
    let Some(pair) = Pair::new(backend).await else {
        return;
    };
    let job = Job::new("mail-relay", Duration::from_secs(60), |_state| async {
        Err("the mail relay said 451 try later".to_string())
    });
    let a = pair.runner(&pair.a, "a", job);
    a.register().await.expect("register");
    finish_all(a.poll().await.expect("poll")).await;
    assert!(
        a.poll().await.expect("poll").is_empty(),
        "not due again before its interval"
    );

    let admin = pair.a.admin();
    let view = admin.get("/api/admin/jobs").await;
    assert_eq!(view.status, StatusCode::OK, "{}", view.text);
    let jobs = view.json();
    let job = jobs
        .as_array()
        .expect("list")
        .iter()
        .find(|j| j["name"] == "mail-relay")
        .expect("listed");
    assert_eq!(job["everyMs"], 60_000);
    assert_eq!(job["holder"], serde_json::Value::Null);
    assert_eq!(job["runs"][0]["outcome"], "failed");
    assert_eq!(job["runs"][0]["error"], "the mail relay said 451 try later");
    assert_eq!(job["runs"][0]["instance"], "a");

    // Run now: due at once, on whichever instance polls first.
    let asked = admin
        .post("/api/admin/jobs/mail-relay/run", None, None)
        .await;
    assert_eq!(asked.status, StatusCode::ACCEPTED, "{}", asked.text);
    // Who asked is on record.
    let (actor, words): (String, String) = sqlx::query_as(
        "select actor, words from audit_log where action = 'run_job' order by id desc",
    )
    .fetch_one(pair.a.state.db.reader())
    .await
    .expect("the run is audited");
    assert!(!actor.is_empty());
    assert!(words.contains("mail-relay"), "{words}");
    let b = pair.runner(
        &pair.b,
        "b",
        Job::new("mail-relay", Duration::from_secs(60), |_s| async { Ok(3) }),
    );
    finish_all(b.poll().await.expect("poll")).await;
    let jobs = admin.get("/api/admin/jobs").await.json();
    let job = jobs
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["name"] == "mail-relay")
        .unwrap()
        .clone();
    assert_eq!(job["runs"][0]["outcome"], "ok");
    assert_eq!(job["runs"][0]["done"], 3);
    assert_eq!(job["runs"][0]["instance"], "b");
    assert_eq!(job["runs"].as_array().unwrap().len(), 2);

    let unknown = admin
        .post("/api/admin/jobs/no-such-job/run", None, None)
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert_eq!(unknown.code(), "NOT_FOUND");
    let audited = pair
        .a
        .scalar("select count(*) from audit_log where action = 'run_job'")
        .await;
    assert_eq!(audited, 1, "a refused run is not on record");
    let stranger = pair
        .a
        .buyer()
        .post("/api/admin/jobs/mail-relay/run", None, None)
        .await;
    assert_eq!(
        stranger.status,
        StatusCode::UNAUTHORIZED,
        "{}",
        stranger.text
    );
    assert_eq!(
        pair.a.buyer().get("/api/admin/jobs").await.status,
        StatusCode::UNAUTHORIZED
    );
}

/// The product's own jobs through the runner: the sweeper, fenced, expires
/// a lapsed hold and records what it did.
async fn the_sweeper_runs_as_a_job(backend: Backend) {
    let Some(pair) = Pair::new(backend).await else {
        return;
    };
    let config = holdfast::server::config::Config::for_tests(&pair.a.database_url);
    let jobs = holdfast::server::workers::jobs(&config);
    let runner = Arc::new(Runner::new(pair.state(&pair.a), jobs, "a".into(), LEASE));
    runner.register().await.expect("register");
    let seat = pair.a.first_seat(1).await;
    let held = pair.a.buyer().hold(1, seat).await;
    assert_eq!(held.status, StatusCode::OK, "{}", held.text);
    // Everything runs once now (a first run is due at once).
    finish_all(runner.poll().await.expect("poll")).await;
    pair.clock
        .advance_ms(config.sweep_interval.as_millis() as i64 + 301_000);
    finish_all(runner.poll().await.expect("poll")).await;
    let sweeps = pair
        .rows("select done, outcome from job_run where job = 'sweep' order by id")
        .await;
    assert_eq!(
        sweeps,
        vec![(0, "ok".to_string()), (1, "ok".into())],
        "{sweeps:?}"
    );
    let booking = held.json()["bookingId"].as_str().unwrap().to_string();
    assert_eq!(pair.a.status_of(&booking).await, "EXPIRED");
    pair.a.assert_invariants().await;
}

/// A stopping instance (SIGTERM): a run that ends within the grace ends as
/// usual; one that does not is stopped and its lease let go at once, so the
/// other instance takes the job over without waiting for the lease to run
/// out (the clock never moves here).
async fn a_stopping_instance_lets_its_leases_go(backend: Backend) {
    let Some(pair) = Pair::new(backend).await else {
        return;
    };
    let job = hangs_the_first_time(3);
    let a = Arc::new(
        Runner::new(pair.state(&pair.a), vec![job.clone()], "a".into(), LEASE)
            .stopping_within(Duration::from_millis(200)),
    );
    let b = pair.runner(&pair.b, "b", job);
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let runner = a.clone().spawn(Duration::from_millis(20), stopped);
    while pair.probe().await.is_empty() {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(
        b.poll().await.expect("poll").is_empty(),
        "A holds the lease"
    );
    stop.send(true).expect("stop");
    tokio::time::timeout(Duration::from_secs(10), runner)
        .await
        .expect("the runner stops within its grace")
        .expect("runner");
    let (holder, lease_until): (Option<String>, i64) =
        sqlx::query_as("select holder, lease_until from job where name = 'probe'")
            .fetch_one(pair.a.state.db.reader())
            .await
            .expect("job");
    assert_eq!((holder, lease_until), (None, 0), "the lease was let go");
    finish_all(b.poll().await.expect("poll")).await;
    let runs: Vec<(String, String, Option<String>)> =
        sqlx::query_as("select instance, outcome, error from job_run order by id")
            .fetch_all(pair.a.state.db.reader())
            .await
            .expect("runs");
    assert_eq!(runs.len(), 2, "{runs:?}");
    assert_eq!((runs[0].0.as_str(), runs[0].1.as_str()), ("a", "abandoned"));
    assert!(
        runs[0]
            .2
            .as_deref()
            .unwrap_or_default()
            .contains("a stopped before the run ended"),
        "{runs:?}"
    );
    assert_eq!((runs[1].0.as_str(), runs[1].1.as_str()), ("b", "ok"));
    assert_eq!(pair.probe().await, ["1 started", "2 done", "2 started"]);

    // A run that ends within the grace ends as usual: nothing abandoned.
    let quick = Job::new("quick", EVERY, |_| async { Ok(1) });
    let c = Arc::new(
        Runner::new(pair.state(&pair.a), vec![quick], "c".into(), LEASE)
            .stopping_within(Duration::from_secs(5)),
    );
    c.register().await.expect("register");
    let started = c.poll().await.expect("poll");
    assert_eq!(started.len(), 1);
    c.stop(started).await;
    let (outcome,): (String,) = sqlx::query_as("select outcome from job_run where job = 'quick'")
        .fetch_one(pair.a.state.db.reader())
        .await
        .expect("quick run");
    assert_eq!(outcome, "ok");
}

for_each_backend!(
    a_stopping_instance_lets_its_leases_go,
    one_instance_at_a_time,
    a_stalled_holder_cannot_write_after_the_takeover,
    a_killed_holder_is_taken_over_and_the_job_resumed,
    a_failure_is_recorded_and_the_jobs_view_shows_it,
    the_sweeper_runs_as_a_job,
    a_cron_job_runs_at_its_fire_times,
);

/// A real process killed (SIGKILL) in the middle of a run: the sweeper of
/// instance A is inside its transaction (a trigger makes the expiry
/// statement sleep) when A dies. Instance B, another process, takes the
/// job over once A's lease is over, records A's run as abandoned, and
/// expires the hold once. Postgres: its `pg_sleep` is what holds the run.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_process_killed_mid_run_is_taken_over_by_another() {
    use common::process::Server;
    if !common::wants_postgres() {
        return;
    }
    let (url, _) = common::fresh_database(Backend::Postgres).await;
    let settings = [
        ("HOLD_TTL_SECONDS", "1"),
        ("SWEEP_INTERVAL_SECONDS", "1"),
        ("JOB_LEASE_SECONDS", "3"),
    ];
    let mut a = Server::start(&url, &settings).await;
    let db = sqlx::AnyPool::connect(&url).await.expect("pool");
    sqlx::raw_sql(
        "create function slow_expiry() returns trigger language plpgsql as $$
         begin perform pg_sleep(4); return new; end $$;
         create trigger slow_expiry before update on booking for each row
         when (new.status = 'EXPIRED') execute function slow_expiry();",
    )
    .execute(&db)
    .await
    .expect("trigger");
    let http = reqwest::Client::new();
    let seat: i64 = sqlx::query_scalar("select min(id) from seat where event_id = 1")
        .fetch_one(&db)
        .await
        .expect("a seat");
    let held: serde_json::Value = http
        .post(format!("{}/api/events/1/holds", a.base))
        .header("Idempotency-Key", "killed-mid-run")
        .json(&serde_json::json!({ "seatIds": [seat] }))
        .send()
        .await
        .expect("hold")
        .json()
        .await
        .expect("json");
    let booking = held["bookingId"].as_str().expect("held").to_string();

    // A's sweeper is inside the expiry when it dies.
    let mut holder = None;
    for _ in 0..100 {
        let sleeping: i64 = sqlx::query_scalar(
            "select count(*) from pg_stat_activity where wait_event = 'PgSleep'",
        )
        .fetch_one(&db)
        .await
        .expect("activity");
        if sleeping > 0 {
            holder = sqlx::query_scalar("select holder from job where name = 'sweep'")
                .fetch_one(&db)
                .await
                .expect("job");
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let holder: String = holder.expect("A's sweep reached the slow expiry");
    a.kill();
    sqlx::raw_sql("drop trigger slow_expiry on booking")
        .execute(&db)
        .await
        .expect("drop trigger");
    let status: String = sqlx::query_scalar("select status from booking where id = $1")
        .bind(&booking)
        .fetch_one(&db)
        .await
        .expect("booking");
    assert_eq!(status, "HELD", "A's run died before its commit");

    let _b = Server::start(&url, &settings).await;
    let mut runs: Vec<(String, String, i64)> = Vec::new();
    for _ in 0..150 {
        runs = sqlx::query_as(
            "select instance, outcome, done from job_run where job = 'sweep' order by id",
        )
        .fetch_all(&db)
        .await
        .expect("runs");
        if runs.iter().any(|r| r.1 == "ok" && r.2 == 1) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let abandoned: Vec<_> = runs.iter().filter(|r| r.1 == "abandoned").collect();
    assert_eq!(abandoned.len(), 1, "{runs:?}");
    assert_eq!(abandoned[0].0, holder, "the abandoned run is A's");
    let after = runs.iter().position(|r| r.1 == "abandoned").unwrap();
    assert!(
        runs[after + 1..]
            .iter()
            .any(|r| r.0 != holder && r.1 == "ok" && r.2 == 1),
        "B expired the hold after taking over: {runs:?}"
    );
    let steps: Vec<(String, String)> = sqlx::query_as(
        "select to_status, cause from booking_history where booking_id = $1 order by id",
    )
    .bind(&booking)
    .fetch_all(&db)
    .await
    .expect("history");
    assert_eq!(
        steps,
        vec![
            ("HELD".to_string(), "buyer".to_string()),
            ("EXPIRED".into(), "expiry".into())
        ],
        "expired once"
    );
}

/// A cron job is first due at its next fire time, then at each one after.
async fn a_cron_job_runs_at_its_fire_times(backend: Backend) {
    use holdfast_core::platform::jobs::Schedule;
    let Some(pair) = Pair::new(backend).await else {
        return;
    };
    let every_five_minutes = Schedule::cron("0 */5 * * * *").expect("parses");
    let job = Job::on("report", every_five_minutes, |state| async move {
        write(&state, "ran")
            .await
            .map(|_| 1)
            .map_err(|e| e.to_string())
    });
    let runner = pair.runner(&pair.a, "a", job);
    runner.register().await.expect("register");
    let next: i64 = pair
        .a
        .scalar("select next_run_at from job where name = 'report'")
        .await;
    assert_eq!(next % 300_000, 0, "a five-minute boundary");
    let wait = next - pair.clock.now().ms();
    assert!(wait > 0 && wait <= 300_000, "{wait}");
    pair.clock.advance_ms(wait - 1);
    assert!(
        runner.poll().await.expect("poll").is_empty(),
        "not before its time"
    );
    pair.clock.advance_ms(1);
    finish_all(runner.poll().await.expect("poll")).await;
    let after: i64 = pair
        .a
        .scalar("select next_run_at from job where name = 'report'")
        .await;
    assert_eq!(after, next + 300_000, "then at the next fire time");
    let listed = pair.a.admin().get("/api/admin/jobs").await.json();
    let report = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["name"] == "report")
        .unwrap()
        .clone();
    assert_eq!(report["schedule"], "cron 0 */5 * * * *");
    assert_eq!(report["everyMs"], 300_000);
    assert!(Schedule::cron("every tuesday").is_err());
    assert!(Schedule::cron(holdfast::server::workers::PURGE_CRON).is_ok());
}
