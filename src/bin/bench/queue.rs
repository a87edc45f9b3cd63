//! The waiting room under a crowd, over HTTP: arrivals joining (each a new
//! client, so a new session and a new place: two writes), buyers refreshing
//! their place (the signed place and the room's in-memory picture: the
//! only database read is the session), and the gate turning away seat-map
//! requests without an admission (no database at all).

use std::sync::Arc;
use std::time::{Duration, Instant};

use holdfast_app::core::admin::auth::Admin;
use holdfast_app::core::waiting_room::join::join;
use holdfast_app::core::waiting_room::setup;
use holdfast_app::core::AppState;
use tokio::sync::Mutex;

use super::throughput::Run;

const ARRIVALS: usize = 10_000;
const CONNS: usize = 64;

pub async fn run(base: &str, state: &AppState, event: i64) {
    let admin = Admin {
        actor: "bench".into(),
    };
    // A slow room: everybody keeps waiting, as in an on-sale's first minute.
    setup::configure(state, &admin, event, true, 1)
        .await
        .expect("room on");

    let url = format!("{base}/api/events/{event}/queue");
    let next = Arc::new(Mutex::new(0usize));
    let started = Instant::now();
    let tasks: Vec<_> = (0..CONNS)
        .map(|_| {
            let (url, next) = (url.clone(), next.clone());
            tokio::spawn(async move {
                let mut lat = Vec::new();
                let mut n = (0, 0);
                let mut kept = None;
                loop {
                    {
                        let mut i = next.lock().await;
                        if *i >= ARRIVALS {
                            break;
                        }
                        *i += 1;
                    }
                    let client = reqwest::Client::builder()
                        .cookie_store(true)
                        .build()
                        .expect("client");
                    let t = Instant::now();
                    match client.post(&url).send().await {
                        Ok(r) if r.status().is_success() => {
                            let _ = r.bytes().await;
                            n.0 += 1;
                        }
                        _ => n.1 += 1,
                    }
                    lat.push(t.elapsed());
                    kept = Some(client);
                }
                (lat, n, kept)
            })
        })
        .collect();
    let mut joins = Run::default();
    let mut waiting_clients = Vec::new();
    for t in tasks {
        if let Ok((lat, n, kept)) = t.await {
            joins.latencies.extend(lat);
            joins.ok += n.0;
            joins.other += n.1;
            waiting_clients.extend(kept);
        }
    }
    joins.elapsed = started.elapsed();
    joins.print(&format!(
        "queue joins, {ARRIVALS} new buyers, {CONNS} conns"
    ));

    // The same joins without HTTP or sessions: what the batched writer of
    // places allows by itself.
    let started = Instant::now();
    let next = Arc::new(Mutex::new(0usize));
    let tasks: Vec<_> = (0..CONNS)
        .map(|_| {
            let (state, next) = (state.clone(), next.clone());
            tokio::spawn(async move {
                let mut lat = Vec::new();
                let mut n = (0, 0);
                loop {
                    let i = {
                        let mut i = next.lock().await;
                        if *i >= ARRIVALS {
                            break;
                        }
                        *i += 1;
                        *i
                    };
                    let t = Instant::now();
                    match join(&state, &format!("bench-buyer-{i}"), event).await {
                        Ok(_) => n.0 += 1,
                        Err(_) => n.1 += 1,
                    }
                    lat.push(t.elapsed());
                }
                (lat, n)
            })
        })
        .collect();
    let mut bare = Run::default();
    for t in tasks {
        if let Ok((lat, n)) = t.await {
            bare.latencies.extend(lat);
            bare.ok += n.0;
            bare.other += n.1;
        }
    }
    bare.elapsed = started.elapsed();
    bare.print(&format!("queue joins, use case (no HTTP), {CONNS} tasks"));

    // Each of the HTTP buyers refreshes their place in a loop.
    let r = loop_gets(waiting_clients, &url).await;
    r.print("queue status (signed place), 64 conns");
    let strangers = (0..CONNS).map(|_| reqwest::Client::new()).collect();
    let r = loop_gets(strangers, &format!("{base}/api/events/{event}/seats")).await;
    r.print("seat map refused at the gate (403), 64 conns");

    let (places, admitted): (i64, i64) =
        sqlx::query_as("select issued, admitted_through from waiting_room where event_id = $1")
            .bind(event)
            .fetch_one(state.db.reader())
            .await
            .expect("room");
    println!(
        "queue: {places} places handed out for {} arrivals, {admitted} admitted",
        2 * ARRIVALS
    );
    setup::configure(state, &admin, event, false, 1)
        .await
        .expect("room off");
}

/// Each client GETs `url` in a loop for five seconds; 200 and 403 both
/// count as answered.
async fn loop_gets(clients: Vec<reqwest::Client>, url: &str) -> Run {
    let dur = Duration::from_secs(5);
    let started = Instant::now();
    let tasks: Vec<_> = clients
        .into_iter()
        .map(|c| {
            let url = url.to_string();
            tokio::spawn(async move {
                let mut lat = Vec::new();
                let mut n = (0, 0);
                while started.elapsed() < dur {
                    let t = Instant::now();
                    match c.get(&url).send().await {
                        Ok(r) if r.status().is_success() || r.status() == 403 => {
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
