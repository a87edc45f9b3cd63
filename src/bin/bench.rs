//! `holdfast-bench`: throughput and latency of the hold endpoint and the
//! seat-map snapshot over real HTTP on 127.0.0.1, printed next to a
//! hello-world route on the same server; verifies the invariants at the end.
//!
//!     holdfast-bench [DATABASE_URL]      (default: a fresh SQLite file)
//!
//! Run it from a release build (`cargo build --release --features ssr`);
//! `scripts/bench.sh` also runs pgbench on the same SQL transaction.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::routing::get;
use holdfast::server::{build, config::Config};
use holdfast_app::core::clock::{Clock, SystemClock};
use tokio::sync::Mutex;

#[tokio::main]
async fn main() {
    let url = std::env::args().nth(1).unwrap_or_else(|| {
        let dir = std::env::temp_dir().join(format!("holdfast-bench-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        format!("sqlite://{}/bench.db", dir.display())
    });
    let mut config = Config::for_tests(&url);
    config.max_places_per_buyer = PER_BUYER as i64;
    config.db_max_connections = 32;
    let (router, state) = build(&config, Arc::new(SystemClock))
        .await
        .expect("app builds");
    let router = router.route("/hello", get(|| async { "hello" }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    tokio::spawn(async move { axum::serve(listener, router).await });
    println!("backend: {:?}   server: {base}", state.db.backend);

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
        let r = holds(&base, seats, PER_BUYER).await;
        r.print(&format!("holds, distinct seats, {conns} conns"));
    }
    // Hot seats: 1,000 buyers on 10 seats.
    let hot: Vec<i64> = (9000..9010).collect();
    let buyers: Vec<Vec<i64>> = (0..64)
        .map(|i| (0..16).map(|j| hot[(i + j) % 10]).collect())
        .collect();
    let r = holds(&base, buyers, 1).await;
    r.print("hot seats: 1,024 buyers on 10 seats, 64 conns");

    for (name, path, etag) in [
        ("hello world", "/hello".to_string(), false),
        (
            "seat map 200 (10,000 seats)",
            "/api/events/1/seats".to_string(),
            false,
        ),
        ("seat map 304", "/api/events/1/seats".to_string(), true),
    ] {
        let r = gets(&base, &path, etag, 64, Duration::from_secs(5)).await;
        r.print(name);
    }

    let v = holdfast_app::core::invariants::violations(&state.db, SystemClock.now_ms())
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
    if !v.is_empty() {
        std::process::exit(1);
    }
}

struct Run {
    ok: usize,
    conflicts: usize,
    other: usize,
    elapsed: Duration,
    latencies: Vec<Duration>,
}

impl Run {
    fn print(mut self, name: &str) {
        self.latencies.sort();
        let pct = |p: f64| {
            self.latencies
                .get(
                    ((self.latencies.len() as f64 * p) as usize)
                        .min(self.latencies.len().saturating_sub(1)),
                )
                .copied()
                .unwrap_or_default()
        };
        let total = self.ok + self.conflicts + self.other;
        println!(
            "{name:<48} {:>8.0} req/s  ok {:>6} ({:>7.0}/s)  409 {:>6} ({:>7.0}/s)  other {:>3}  p50 {:>6.2} ms  p99 {:>6.2} ms",
            total as f64 / self.elapsed.as_secs_f64(),
            self.ok,
            self.ok as f64 / self.elapsed.as_secs_f64(),
            self.conflicts,
            self.conflicts as f64 / self.elapsed.as_secs_f64(),
            self.other,
            pct(0.50).as_secs_f64() * 1e3,
            pct(0.99).as_secs_f64() * 1e3,
        );
    }
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .expect("client")
}

/// Each connection works through its seats as a line of buyers, each buyer
/// holding at most `per_buyer` of them, as real buyers hold a handful.
const PER_BUYER: usize = 8;

async fn holds(base: &str, per_conn: Vec<Vec<i64>>, per_buyer: usize) -> Run {
    let lat = Arc::new(Mutex::new(Vec::new()));
    let counts = Arc::new(Mutex::new((0usize, 0usize, 0usize)));
    let mut conns = Vec::new();
    for seats in per_conn {
        let mut line = Vec::new();
        for chunk in seats.chunks(per_buyer) {
            let c = client();
            // Open the session first: the run measures holds, not sign-ups.
            let _ = c.get(format!("{base}/api/bookings")).send().await;
            line.push((c, chunk.to_vec()));
        }
        conns.push(line);
    }
    let started = Instant::now();
    let tasks: Vec<_> = conns
        .into_iter()
        .map(|line| {
            let (base, lat, counts) = (base.to_string(), lat.clone(), counts.clone());
            tokio::spawn(async move {
                let mut mine = Vec::new();
                let mut tally = (0, 0, 0);
                let work: Vec<(reqwest::Client, i64)> = line
                    .into_iter()
                    .flat_map(|(c, seats)| seats.into_iter().map(move |s| (c.clone(), s)))
                    .collect();
                for (c, seat) in work {
                    let t = Instant::now();
                    let r = c
                        .post(format!("{base}/api/events/1/seats/{seat}/hold"))
                        .header("Idempotency-Key", uuid::Uuid::new_v4().to_string())
                        .send()
                        .await;
                    let status = r.as_ref().map(|r| r.status().as_u16()).unwrap_or(0);
                    if let Ok(r) = r {
                        let _ = r.bytes().await;
                    }
                    mine.push(t.elapsed());
                    match status {
                        200 => tally.0 += 1,
                        409 => tally.1 += 1,
                        _ => tally.2 += 1,
                    }
                }
                lat.lock().await.extend(mine);
                let mut c = counts.lock().await;
                c.0 += tally.0;
                c.1 += tally.1;
                c.2 += tally.2;
            })
        })
        .collect();
    for t in tasks {
        let _ = t.await;
    }
    let elapsed = started.elapsed();
    let (ok, conflicts, other) = *counts.lock().await;
    let latencies = std::mem::take(&mut *lat.lock().await);
    Run {
        ok,
        conflicts,
        other,
        elapsed,
        latencies,
    }
}

/// `conns` loops of GET for `dur`.
async fn gets(base: &str, path: &str, with_etag: bool, conns: usize, dur: Duration) -> Run {
    let url = format!("{base}{path}");
    let etag = if with_etag {
        let r = client().get(&url).send().await.expect("GET");
        r.headers()
            .get("etag")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    } else {
        None
    };
    let started = Instant::now();
    let tasks: Vec<_> = (0..conns)
        .map(|_| {
            let (url, etag) = (url.clone(), etag.clone());
            tokio::spawn(async move {
                let c = reqwest::Client::new();
                let mut lat = Vec::new();
                let mut n = (0, 0);
                while started.elapsed() < dur {
                    let t = Instant::now();
                    let mut req = c.get(&url);
                    if let Some(e) = &etag {
                        req = req.header("If-None-Match", e);
                    }
                    match req.send().await {
                        Ok(r) if r.status().is_success() || r.status() == 304 => {
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
    let mut run = Run {
        ok: 0,
        conflicts: 0,
        other: 0,
        elapsed: Duration::ZERO,
        latencies: Vec::new(),
    };
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
