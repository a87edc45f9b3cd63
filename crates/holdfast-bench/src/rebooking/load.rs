//! The rebooking bench's buyers: the first sailing sold out through the
//! instances, and the holds and releases that go on beside the rebooking.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;

use super::{admin_client, cabins_of, Options, HOLDERS};
use crate::stats::summary;
use crate::throughput::{client, spread};

/// `bookings` buyers each hold one cabin of the sailing (a party of one
/// to its occupancy), pay on the sandbox, and wait for BOOKED.
pub(super) async fn sell_out(o: &Options, sailing: i64) -> bool {
    let cabins = Arc::new(cabins_of(o, sailing).await);
    if cabins.len() < o.bookings {
        eprintln!("the sailing has {} cabins", cabins.len());
        return false;
    }
    let targets = Arc::new(o.targets.clone());
    let run = spread(o.bookings, 64, move |i| {
        let (cabins, targets) = (cabins.clone(), targets.clone());
        async move {
            let base = &targets[i % targets.len()];
            let c = client();
            let guests = 1 + (i % 2) as i64;
            let held = c
                .post(format!("{base}/api/events/{sailing}/holds"))
                .header("Idempotency-Key", uuid::Uuid::new_v4().to_string())
                .json(&json!({ "seatIds": [cabins[i]], "guests": [{ "seatId": cabins[i], "count": guests }] }))
                .send()
                .await;
            let Ok(held) = held else { return false };
            let held: serde_json::Value = held.json().await.unwrap_or_default();
            let Some(booking) = held["bookingId"].as_str() else {
                return false;
            };
            let paid = c
                .post(format!("{base}/api/bookings/{booking}/pay"))
                .header("Idempotency-Key", uuid::Uuid::new_v4().to_string())
                .send()
                .await;
            let Ok(paid) = paid else { return false };
            let paid: serde_json::Value = paid.json().await.unwrap_or_default();
            let Some(session) = paid["checkoutSessionId"].as_str() else {
                return false;
            };
            c.post(format!("{base}/sandbox/checkout/{session}/complete"))
                .form(&[("outcome", "paid"), ("delivery", "once"), ("email", "passenger@example.com")])
                .send()
                .await
                .is_ok_and(|r| r.status().is_success() || r.status().is_redirection())
        }
    })
    .await;
    if run.ok != o.bookings {
        eprintln!("selling out: {} of {} bookings paid", run.ok, o.bookings);
        return false;
    }
    // The webhooks arrive through the sandbox's delivery job.
    let admin = admin_client(&o.admin_token);
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(120) {
        let sold: serde_json::Value = match admin
            .get(format!("{}/api/sailings/{sailing}", o.targets[0]))
            .send()
            .await
        {
            Ok(r) => r.json().await.unwrap_or_default(),
            Err(_) => serde_json::Value::Null,
        };
        let fares = sold["fares"].as_array().cloned().unwrap_or_default();
        let free: i64 = fares
            .iter()
            .filter_map(|f| f["availableCount"].as_i64())
            .sum();
        let booked = booked_count(o, sailing).await;
        if booked == o.bookings as i64 && free == 200 {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    eprintln!("the payments did not all settle");
    false
}

pub(super) async fn booked_count(o: &Options, sailing: i64) -> i64 {
    let Ok(pool) = sqlx::AnyPool::connect(&o.database).await else {
        return -1;
    };
    let n: Result<(i64,), _> =
        sqlx::query_as("select count(*) from booking where event_id = $1 and status = 'BOOKED'")
            .bind(sailing)
            .fetch_one(&pool)
            .await;
    pool.close().await;
    n.map_or(-1, |n| n.0)
}

/// `HOLDERS` buyers hold a cabin of `sailing` and release it, again and
/// again, for `length` or until `done`: the holds' latencies.
pub(super) async fn hold_load(
    targets: Vec<String>,
    rate: f64,
    sailing: i64,
    cabins: Vec<i64>,
    length: Duration,
    done: Option<Arc<AtomicBool>>,
) -> String {
    if rate <= 0.0 {
        return "no hold load (--hold-rate 0)".into();
    }
    let cabins = Arc::new(cabins);
    let started = Instant::now();
    // Each holder starts a hold every `gap`, whatever the last one took.
    let gap = Duration::from_secs_f64(HOLDERS as f64 / rate);
    let tasks: Vec<_> = (0..HOLDERS)
        .map(|h| {
            let (cabins, done) = (cabins.clone(), done.clone());
            let base = targets[h % targets.len()].clone();
            tokio::spawn(async move {
                let c = client();
                let mut latencies = Vec::new();
                let mut i = h;
                let mut tick = tokio::time::interval(gap);
                tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                while started.elapsed() < length
                    && !done.as_ref().is_some_and(|d| d.load(Ordering::SeqCst))
                {
                    tick.tick().await;
                    let seat = cabins[i % cabins.len()];
                    i += HOLDERS;
                    let t = Instant::now();
                    let held = c
                        .post(format!("{base}/api/events/{sailing}/seats/{seat}/hold"))
                        .header("Idempotency-Key", uuid::Uuid::new_v4().to_string())
                        .send()
                        .await;
                    latencies.push(t.elapsed());
                    let Ok(held) = held else { continue };
                    let held: serde_json::Value = held.json().await.unwrap_or_default();
                    if let Some(b) = held["bookingId"].as_str() {
                        let _ = c.delete(format!("{base}/api/bookings/{b}")).send().await;
                    }
                }
                latencies
            })
        })
        .collect();
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap_or_default());
    }
    summary(&mut all)
}
