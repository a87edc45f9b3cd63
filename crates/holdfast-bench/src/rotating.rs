//! The claims bench's fill with 512 buyers in rotation (seat k held by
//! buyer k mod 512), so every buyer's holds pile up too: 40 each at
//! 20,000, as when an integrator's clients or a crowd's buyers come back
//! for more. Each buyer's limit sums their bookings, so what a claim costs
//! may grow with them. Prints each round of the fill, then rounds on fresh
//! events with fresh buyers and on the filled event with its buyers, in
//! turns (`turns::compare`).

use crate::claims::{big_event, seat_id_base};
use crate::throughput::Run;
use crate::turns::{compare, flatness, rate_and_p99, TURNS};
use holdfast_core::platform::db::Db;

const BUYERS: usize = 512;

pub async fn rotating(base: &str, db: &Db) -> bool {
    let Ok(event) = big_event(db).await else {
        return false;
    };
    let seat_base = seat_id_base(db, event).await;
    let buyers = new_buyers(base).await;
    let mut next = 1i64;
    let mut live = 0usize;
    let mut first = None;
    let mut last = (0.0, 0.0);
    while live < 20_000 {
        let before = live;
        let seats: Vec<i64> = (next..next + 4_000).map(|s| seat_base + s - 1).collect();
        next += 4_000;
        let r = rotating_round(base, event, &buyers, seats, 64).await;
        live += r.ok;
        last = rate_and_p99(&r);
        first.get_or_insert(last);
        r.print(&format!("512 buyers in rotation, from {before} live holds"));
    }
    if let Some(first) = first {
        flatness("512 buyers: first and last round", first, last);
    }
    let mut fresh = Vec::new();
    for _ in 0..TURNS {
        let Ok(id) = big_event(db).await else {
            return false;
        };
        let first_seat = seat_id_base(db, id).await;
        let buyers = new_buyers(base).await;
        let warm: Vec<i64> = (0..64).map(|s| first_seat + s).collect();
        rotating_round(base, id, &buyers, warm, 8).await;
        fresh.push((id, first_seat, 64i64, buyers));
    }
    let mut next_fresh = fresh.iter_mut();
    compare(
        db,
        "512 buyers: flat under accumulation, in turns?",
        async || {
            let (id, first_seat, taken, buyers) = next_fresh.next().expect("one per turn");
            let seats = (*taken..*taken + 2_400).map(|s| *first_seat + s).collect();
            *taken += 2_400;
            let r = rotating_round(base, *id, buyers, seats, 64).await;
            let measured = rate_and_p99(&r);
            r.print("in turns: fresh event, fresh 512 buyers");
            measured
        },
        async || {
            let before = live;
            let seats: Vec<i64> = (next..next + 2_400).map(|s| seat_base + s - 1).collect();
            next += 2_400;
            let r = rotating_round(base, event, &buyers, seats, 64).await;
            live += r.ok;
            let measured = rate_and_p99(&r);
            r.print(&format!("in turns: 512 buyers, from {before} live holds"));
            measured
        },
    )
    .await;
    true
}

/// Buyers, each with a session of their own.
async fn new_buyers(base: &str) -> Vec<reqwest::Client> {
    let mut buyers = Vec::new();
    for _ in 0..BUYERS {
        let c = crate::throughput::client();
        let _ = c.get(format!("{base}/api/bookings")).send().await;
        buyers.push(c);
    }
    buyers
}

/// `seats` held one by one by the buyers in rotation over `conns`
/// connections.
async fn rotating_round(
    base: &str,
    event: i64,
    buyers: &[reqwest::Client],
    seats: Vec<i64>,
    conns: usize,
) -> Run {
    let started = std::time::Instant::now();
    let tasks: Vec<_> = (0..conns)
        .map(|j| {
            let mine: Vec<(reqwest::Client, i64)> = seats
                .iter()
                .enumerate()
                .filter(|(k, _)| k % conns == j)
                .map(|(k, s)| (buyers[k % buyers.len()].clone(), *s))
                .collect();
            let base = base.to_string();
            tokio::spawn(async move {
                let mut answers = Vec::new();
                for (c, seat) in mine {
                    let t = std::time::Instant::now();
                    let status = c
                        .post(format!("{base}/api/events/{event}/seats/{seat}/hold"))
                        .header("Idempotency-Key", uuid::Uuid::new_v4().to_string())
                        .send()
                        .await
                        .map(|r| r.status().as_u16())
                        .unwrap_or(0);
                    answers.push((status, t.elapsed()));
                }
                answers
            })
        })
        .collect();
    crate::throughput::tally(tasks, started).await
}
