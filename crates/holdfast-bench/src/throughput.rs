//! `holdfast-bench`: throughput and latency of the hold endpoint and the
//! seat-map snapshot over real HTTP on 127.0.0.1, printed next to a
//! hello-world route on the same server; verifies the invariants at the end.
//!
//!     holdfast-bench [DATABASE_URL]      (default: a fresh SQLite file)
//!
//! Run it from a release build (`cargo build --release --features ssr`);
//! `scripts/bench.sh` also runs pgbench on the same SQL transaction.
//!
//! (Over 350 lines on purpose: one benchmark program, its scenarios side by
//! side so their numbers are printed and read together.)

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::stats::percentile;
use axum::routing::get;
use holdfast::server::{build, config::Config};
use holdfast_core::booking::hold::hold_seats;
use holdfast_core::platform::clock::{Clock, SystemClock};
use holdfast_core::platform::idempotency::IdempotencyKey;
use holdfast_core::waiting_room::admit;
use holdfast_core::AppState;
use holdfast_model::{BuyerId, EventId, SeatId};

/// A server in this process on a fresh database (SQLite in a temp dir
/// unless a URL is given), with a bare `/hello` route beside the app's.
pub async fn start(url: Option<String>) -> (String, AppState) {
    start_with(url, |_| {}).await
}

/// `start`, with the test configuration adjusted first.
pub async fn start_with(
    url: Option<String>,
    adjust: impl FnOnce(&mut Config),
) -> (String, AppState) {
    let url = url.unwrap_or_else(|| {
        let dir = std::env::temp_dir().join(format!("holdfast-bench-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        format!("sqlite://{}/bench.db", dir.display())
    });
    let mut config = Config::for_tests(&url);
    config.max_places_per_buyer = PER_BUYER as i64;
    config.db_max_connections = 32;
    if let Ok(root) = std::env::var("LEPTOS_SITE_ROOT") {
        config.site_root = root;
    }
    // `CLAIM_BATCH_MAX=1` measures holds without group commit.
    if let Some(n) = std::env::var("CLAIM_BATCH_MAX")
        .ok()
        .and_then(|n| n.parse().ok())
    {
        config.claim_batch_max = n;
    }
    adjust(&mut config);
    let (router, state) = build(&config, Arc::new(SystemClock))
        .await
        .expect("app builds");
    let router = router.route("/hello", get(|| async { "hello" }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    let listener = holdfast::server::no_delay(listener);
    tokio::spawn(
        async move { axum::serve(listener, holdfast::server::per_connection(router)).await },
    );
    // As a server does (`workers`): fresh planner statistics while the
    // holds pile up (`HOLDFAST_BENCH_STALE_STATISTICS=1` leaves them to
    // autovacuum, to measure the difference).
    if std::env::var("HOLDFAST_BENCH_STALE_STATISTICS").is_err() {
        let state = state.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(holdfast::server::workers::STATISTICS_INTERVAL).await;
                holdfast::server::workers::refresh_statistics(state.clone()).await;
            }
        });
    }
    println!("backend: {:?}   server: {base}", state.db.backend);
    (base, state)
}

/// Only what a browser fetches (`holdfast-bench pages [DATABASE_URL]`).
pub async fn pages(url: Option<String>) -> bool {
    let (base, _state) = start(url).await;
    super::browser::run(&base, 1).await;
    true
}

pub async fn main(url: Option<String>) -> bool {
    let (base, state) = start(url).await;

    let mut next_seat = 1i64;
    for conns in [8usize, 32, 64] {
        let per = 2400 / conns;
        let seats: Vec<Vec<i64>> = (0..conns)
            .map(|_| {
                let s: Vec<i64> = (next_seat..next_seat + per as i64).collect();
                next_seat += per as i64;
                s
            })
            .collect();
        let buyers = seats
            .into_iter()
            .map(|s| s.chunks(PER_BUYER).map(<[i64]>::to_vec).collect())
            .collect();
        let r = holds(&base, 1, buyers, Until::AllTried).await;
        r.print(&format!("holds, distinct seats, {conns} conns"));
    }
    // Hot seats: 1,024 buyers on 10 seats. Each buyer tries the ten seats
    // one after the other (starting at a different one) until one is held,
    // as a buyer clicking around a sold-out block would.
    let hot: Vec<i64> = (9000..9010).collect();
    let buyers: Vec<Vec<Vec<i64>>> = (0..64)
        .map(|i| {
            (0..16)
                .map(|j| (0..10).map(|k| hot[(i + j + k) % 10]).collect())
                .collect()
        })
        .collect();
    let r = holds(&base, 1, buyers, Until::FirstWin).await;
    r.print("hot seats: 1,024 buyers on 10 seats, 64 conns");

    // The same hold use case called in a loop, without HTTP: what the
    // database and the claim transaction allow by themselves.
    let r = bare_holds(&state, (7300..8900).collect(), 8).await;
    r.print("holds, use case in a loop (no HTTP), 8 tasks");

    // The event page and what it makes a browser fetch, beside /healthz.
    super::browser::run(&base, 1).await;

    // The waiting room of the cruise (event 2) under a crowd.
    super::queue::run(&base, &state, 2).await;

    let v = holdfast_core::invariants::violations(&state.db, SystemClock.now())
        .await
        .expect("invariants run");
    println!(
        "invariants: {}",
        if v.is_empty() {
            "ok".to_string()
        } else {
            format!("VIOLATED {v:?}")
        }
    );
    v.is_empty()
}

#[derive(Default)]
pub struct Run {
    pub ok: usize,
    pub conflicts: usize,
    pub other: usize,
    pub elapsed: Duration,
    pub latencies: Vec<Duration>,
    /// Latencies of the 409 answers alone: the losers of a contested seat.
    pub loser_latencies: Vec<Duration>,
}

impl Run {
    pub fn print(mut self, name: &str) {
        self.latencies.sort();
        self.loser_latencies.sort();
        let secs = self.elapsed.as_secs_f64();
        let total = self.ok + self.conflicts + self.other;
        println!(
            "{name:<48} {:>8.0} req/s  ok {:>6} ({:>7.0}/s)  409 {:>6} ({:>7.0}/s)  other {:>3}  p50 {:>6.2} ms  p99 {:>6.2} ms",
            total as f64 / secs,
            self.ok,
            self.ok as f64 / secs,
            self.conflicts,
            self.conflicts as f64 / secs,
            self.other,
            percentile(&self.latencies, 0.50),
            percentile(&self.latencies, 0.99),
        );
        if self.conflicts > 0 {
            println!(
                "{:<48} losers (409 alone): p50 {:>6.2} ms  p99 {:>6.2} ms",
                "",
                percentile(&self.loser_latencies, 0.50),
                percentile(&self.loser_latencies, 0.99),
            );
        }
    }
}

pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .expect("client")
}

/// Each connection works through its seats as a line of buyers, each buyer
/// holding at most `PER_BUYER` of them, as real buyers hold a handful.
pub const PER_BUYER: usize = 8;

/// How long a buyer goes on through its list of seats.
#[derive(Clone, Copy, PartialEq)]
pub enum Until {
    /// Holds every seat of the list.
    AllTried,
    /// Stops at the first seat held.
    FirstWin,
}

/// One task per connection; each works through its line of buyers, each
/// buyer through its seats, one hold request per seat.
pub async fn holds(base: &str, event: i64, per_conn: Vec<Vec<Vec<i64>>>, until: Until) -> Run {
    let mut conns = Vec::new();
    for buyers in per_conn {
        let mut line = Vec::new();
        for seats in buyers {
            let c = client();
            // Open the session first: the run measures holds, not sign-ups.
            let _ = c.get(format!("{base}/api/bookings")).send().await;
            line.push((c, seats));
        }
        conns.push(line);
    }
    let started = Instant::now();
    let tasks: Vec<_> = conns
        .into_iter()
        .map(|line| {
            let base = base.to_string();
            tokio::spawn(async move {
                let mut answers: Vec<(u16, Duration)> = Vec::new();
                for (c, seats) in line {
                    for seat in seats {
                        let t = Instant::now();
                        let r = c
                            .post(format!("{base}/api/events/{event}/seats/{seat}/hold"))
                            .header("Idempotency-Key", uuid::Uuid::new_v4().to_string())
                            .send()
                            .await;
                        let status = r.as_ref().map(|r| r.status().as_u16()).unwrap_or(0);
                        if let Ok(r) = r {
                            let _ = r.bytes().await;
                        }
                        answers.push((status, t.elapsed()));
                        if until == Until::FirstWin && status == 200 {
                            break;
                        }
                    }
                }
                answers
            })
        })
        .collect();
    tally(tasks, started).await
}

/// The answers (status, latency) of hold loops, counted.
pub async fn tally(
    tasks: Vec<tokio::task::JoinHandle<Vec<(u16, Duration)>>>,
    started: Instant,
) -> Run {
    let mut run = Run::default();
    for t in tasks {
        for (status, took) in t.await.unwrap_or_default() {
            match status {
                200 => run.ok += 1,
                409 => {
                    run.conflicts += 1;
                    run.loser_latencies.push(took);
                }
                _ => run.other += 1,
            }
            run.latencies.push(took);
        }
    }
    run.elapsed = started.elapsed();
    run
}

/// Holds through `hold_seats` directly, one seat per call, buyers of
/// `PER_BUYER` seats each, `tasks` at once.
pub async fn bare_holds(state: &AppState, seats: Vec<i64>, tasks: usize) -> Run {
    let per = seats.len().div_ceil(tasks);
    let started = Instant::now();
    let handles: Vec<_> = seats
        .chunks(per)
        .map(|line| {
            let (state, line) = (state.clone(), line.to_vec());
            tokio::spawn(async move {
                let mut answers = Vec::new();
                for buyer_seats in line.chunks(PER_BUYER) {
                    let buyer = BuyerId::random();
                    for seat in buyer_seats {
                        let path = format!("/api/events/1/seats/{seat}/hold");
                        let key = IdempotencyKey::parse(
                            &uuid::Uuid::new_v4().to_string(),
                            &[b"POST", path.as_bytes(), b""],
                        )
                        .expect("key");
                        let t = Instant::now();
                        // The gate, as every hold path asks it (no room on).
                        let ok = match admit(&state, &buyer, EventId(1), None).await {
                            Ok(admitted) => {
                                hold_seats(&state, &admitted, &[SeatId(*seat)], Some(&key))
                                    .await
                                    .is_ok()
                            }
                            Err(_) => false,
                        };
                        answers.push((ok, t.elapsed()));
                    }
                }
                answers
            })
        })
        .collect();
    let mut run = Run::default();
    for h in handles {
        for (ok, took) in h.await.unwrap_or_default() {
            if ok {
                run.ok += 1;
            } else {
                run.other += 1;
            }
            run.latencies.push(took);
        }
    }
    run.elapsed = started.elapsed();
    run
}

/// Each client GETs `url` in a loop for `dur` (revalidating `etag` when
/// given); an answer with one of the `expected` statuses counts as served.
pub async fn loop_gets(
    clients: Vec<reqwest::Client>,
    url: &str,
    etag: Option<String>,
    dur: Duration,
    expected: &'static [u16],
) -> Run {
    let started = Instant::now();
    let tasks: Vec<_> = clients
        .into_iter()
        .map(|c| {
            let (url, etag) = (url.to_string(), etag.clone());
            tokio::spawn(async move {
                let mut lat = Vec::new();
                let mut n = (0, 0);
                while started.elapsed() < dur {
                    let t = Instant::now();
                    let mut req = c.get(&url);
                    if let Some(e) = &etag {
                        req = req.header("If-None-Match", e);
                    }
                    match req.send().await {
                        Ok(r) if expected.contains(&r.status().as_u16()) => {
                            let _ = r.bytes().await;
                            n.0 += 1;
                        }
                        _ => n.1 += 1,
                    }
                    lat.push(t.elapsed());
                }
                (lat, n)
            })
        })
        .collect();
    collect(tasks, started).await
}

/// `count` jobs spread over `tasks` concurrent loops; a job says whether
/// it was served.
pub async fn spread<F, Fut>(count: usize, tasks: usize, job: F) -> Run
where
    F: Fn(usize) -> Fut + Clone + Send + 'static,
    Fut: std::future::Future<Output = bool> + Send,
{
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let started = Instant::now();
    let handles: Vec<_> = (0..tasks)
        .map(|_| {
            let (job, next) = (job.clone(), next.clone());
            tokio::spawn(async move {
                let mut lat = Vec::new();
                let mut n = (0, 0);
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    let t = Instant::now();
                    if job(i).await {
                        n.0 += 1;
                    } else {
                        n.1 += 1;
                    }
                    lat.push(t.elapsed());
                }
                (lat, n)
            })
        })
        .collect();
    collect(handles, started).await
}

/// What one loop brings back: its latencies, and (served, not served).
type LoopResult = (Vec<Duration>, (usize, usize));

async fn collect(tasks: Vec<tokio::task::JoinHandle<LoopResult>>, started: Instant) -> Run {
    let mut run = Run::default();
    for t in tasks {
        if let Ok((lat, n)) = t.await {
            run.latencies.extend(lat);
            run.ok += n.0;
            run.other += n.1;
        }
    }
    run.elapsed = started.elapsed();
    run
}
