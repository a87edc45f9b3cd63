//! `holdfast-bench claims [DATABASE_URL]`: holds as an on-sale makes them,
//! on one 44,000-seat event whose live holds pile up. Prints holds over
//! HTTP at 8, 32 and 64 connections on the fresh event, then fills it round
//! by round (64 connections) and prints each round beside the live holds
//! it started from, and last the 64-connection figure again after 20,000
//! live holds, as a ratio to the fresh one (on Postgres each of those two
//! rounds starts right after a checkpoint). Then the same comparison with
//! the machine's drift taken out: rounds on fresh events of the same size
//! and on the filled event in turns, compared by their medians (`in_turns`).
//! `scripts/bench.sh` prints
//! pgbench on the same SQL beside it; on SQLite the yardstick is printed
//! here, after the fresh rounds (`durable_loop`).

use std::time::Duration;

use crate::throughput::{holds, start_with, Run, Until, PER_BUYER};
use crate::turns::{checkpoint, flatness, rate_and_p99, TURNS};
use holdfast_core::platform::db::Db;
use holdfast_core::seed::{insert_layout, SeatSpec};
use holdfast_model::EventId;

const SEATS: i64 = 44_000;
const SEATS_PER_ROW: i64 = 50;

pub async fn main(url: Option<String>) -> bool {
    let (base, state) = start_with(url, |c| {
        // Nothing expires during the run: the holds pile up as at an on-sale.
        c.hold_ttl = Duration::from_secs(3 * 3600);
        // Room for the 40 holds each of 512 buyers in rotation reach.
        c.max_places_per_buyer = 64;
    })
    .await;
    // `HOLDFAST_BENCH_FRESH_FIRST=1`: the fresh events of `in_turns` made
    // before the filled one, so that it has the highest seat ids (its holds
    // are then the index's rightmost entries, as the fresh events' are by
    // default), to tell the holds piled up from where in the index they go.
    // `HOLDFAST_BENCH_ONLY_ROTATING=1`: the 512 buyers in rotation alone,
    // to compare two builds on what the buyers' own holds cost.
    if std::env::var("HOLDFAST_BENCH_ONLY_ROTATING").is_ok() {
        return crate::rotating::rotating(&base, &state.db).await;
    }
    let mut early = Vec::new();
    if std::env::var("HOLDFAST_BENCH_FRESH_FIRST").is_ok() {
        for _ in 0..TURNS {
            match big_event(&state.db).await {
                Ok(id) => early.push(id),
                Err(_) => return false,
            }
        }
    }
    let event = match big_event(&state.db).await {
        Ok(id) => id,
        Err(e) => {
            eprintln!("could not create the bench event: {e}");
            return false;
        }
    };
    let mut seats = 1..=SEATS;
    let take = |n: usize, seats: &mut std::ops::RangeInclusive<i64>| -> Vec<i64> {
        seats.by_ref().take(n).collect()
    };
    let seat_base = seat_id_base(&state.db, event).await;
    let mut live = 0usize;
    // A server is warm when an on-sale opens: its statements prepared, its
    // pages cached, its pool's connections open. The warm-up rounds are
    // printed, not counted; the second opens the connections that 64 at
    // once need. With the 8-connection warm-up alone, the first
    // 64-connection round would pay for opening connections and preparing
    // their statements, and its p99 would stand well above the later
    // rounds'.
    for conns in [8usize, 64] {
        let r = round(&base, event, seat_base, take(800, &mut seats), conns).await;
        live += r.ok;
        r.print(&format!("warm-up, {conns} conns"));
    }
    let mut fresh = Vec::new();
    for conns in [8usize, 32, 64] {
        if conns == 64 {
            checkpoint(&state.db).await;
        }
        let r = round(&base, event, seat_base, take(2_400, &mut seats), conns).await;
        live += r.ok;
        let (rate, p99) = rate_and_p99(&r);
        fresh.push((conns, rate, p99));
        r.print(&format!("claims, fresh event, {conns} conns"));
    }
    let fresh_64 = fresh.last().map(|&(_, rate, p99)| (rate, p99));
    if let Some(full) = crate::durable_loop::sqlite_full(state.db.backend).await {
        let rate = full.ok as f64 / full.elapsed.as_secs_f64();
        full.print("one hold per transaction, synchronous=FULL, loop");
        for (conns, http, _) in &fresh {
            println!(
                "{:<48} {:.2}× that loop",
                format!("holds over HTTP at {conns} conns"),
                http / rate
            );
        }
    }
    while live < 20_000 {
        let before = live;
        let r = round(&base, event, seat_base, take(4_000, &mut seats), 64).await;
        live += r.ok;
        r.print(&format!("claims, 64 conns, from {before} live holds"));
    }
    checkpoint(&state.db).await;
    let r = round(&base, event, seat_base, take(2_400, &mut seats), 64).await;
    let after = rate_and_p99(&r);
    r.print(&format!("claims, 64 conns, after {live} live holds"));
    if let Some(fresh) = fresh_64 {
        flatness("flat under accumulation?", fresh, after);
    }
    let filled = Filled {
        event,
        seat_base,
        seats: &mut seats,
        live: &mut live,
    };
    if !in_turns(&base, &state.db, filled, early).await {
        return false;
    }
    crate::rotating::rotating(&base, &state.db).await
}

/// The event the holds piled up in, and its seats not yet held.
struct Filled<'a> {
    event: i64,
    seat_base: i64,
    seats: &'a mut std::ops::RangeInclusive<i64>,
    live: &'a mut usize,
}

/// The flatness check again, without the machine's drift in it: rounds on
/// fresh events of the same size (nothing held but a 64-hold warm-up) and
/// on the filled event, taken in turns (`turns::compare`).
/// (`HOLDFAST_BENCH_FRESH_FIRST=1` makes the fresh events first; see main.)
async fn in_turns(base: &str, db: &Db, filled: Filled<'_>, early: Vec<i64>) -> bool {
    let mut ids = early;
    while ids.len() < TURNS {
        match big_event(db).await {
            Ok(id) => ids.push(id),
            Err(_) => return false,
        }
    }
    let mut fresh_events = Vec::new();
    for id in ids {
        let first = seat_id_base(db, id).await;
        let warm = round(base, id, first, (1..=64).collect(), 8).await;
        fresh_events.push((id, first, 65..=SEATS, warm.ok));
    }
    let mut next_fresh = fresh_events.iter_mut();
    crate::turns::compare(
        db,
        "flat under accumulation, in turns?",
        async || {
            let (id, first, seats, held) = next_fresh.next().expect("one fresh event per turn");
            let r = round(base, *id, *first, seats.by_ref().take(2_400).collect(), 64).await;
            let measured = rate_and_p99(&r);
            r.print(&format!("in turns: fresh event ({held} held), 64 conns"));
            measured
        },
        async || {
            let held = *filled.live;
            let take = filled.seats.by_ref().take(2_400).collect();
            let r = round(base, filled.event, filled.seat_base, take, 64).await;
            *filled.live += r.ok;
            let measured = rate_and_p99(&r);
            r.print(&format!("in turns: from {held} live holds, 64 conns"));
            measured
        },
    )
    .await;
    true
}

/// One round: `seats` (offsets into the event) split over `conns`
/// connections, each a line of buyers holding `PER_BUYER` seats one by one.
async fn round(base: &str, event: i64, seat_base: i64, seats: Vec<i64>, conns: usize) -> Run {
    let per = seats.len().div_ceil(conns);
    let lines = seats
        .chunks(per)
        .map(|line| {
            line.chunks(PER_BUYER)
                .map(|b| b.iter().map(|s| seat_base + s - 1).collect())
                .collect()
        })
        .collect();
    holds(base, event, lines, Until::AllTried).await
}

/// A published, on-sale event of `SEATS` seats in rows of `SEATS_PER_ROW`.
pub async fn big_event(db: &Db) -> Result<i64, sqlx::Error> {
    event_of_seats(db, SEATS, "Claims bench", 0).await
}

/// A published, on-sale event called `name` starting at `starts_at` (ms),
/// of `seats` seats in one category, in rows of `SEATS_PER_ROW`.
pub async fn event_of_seats(
    db: &Db,
    seats: i64,
    name: &str,
    starts_at: i64,
) -> Result<i64, sqlx::Error> {
    let mut tx = db.begin().await?;
    let (id,): (i64,) = sqlx::query_as(
        "insert into event (slug, name, kind, venue, starts_at, currency, published, created_at)
         values ($1, $2, 'concert', 'Bench hall', $3, 'EUR', 1, 0) returning id",
    )
    .bind(format!("bench-{}", uuid::Uuid::new_v4()))
    .bind(name)
    .bind(starts_at)
    .fetch_one(&mut *tx)
    .await?;
    let seats: Vec<SeatSpec> = (0..seats)
        .map(|i| {
            let (row, number) = (i / SEATS_PER_ROW + 1, i % SEATS_PER_ROW + 1);
            SeatSpec {
                category: "A".into(),
                level: None,
                section: "S".into(),
                row: row.to_string(),
                number,
                label: format!("S-{row}-{number}"),
                x: number as f64 * 10.0,
                y: row as f64 * 10.0,
            }
        })
        .collect();
    insert_layout(
        &mut tx,
        EventId(id),
        &[("A", "Seat", 5_000, "#336699")],
        &seats,
        &[],
    )
    .await?;
    tx.commit().await?;
    Ok(id)
}

/// The id of the event's first seat (its seats have consecutive ids).
pub async fn seat_id_base(db: &Db, event: i64) -> i64 {
    let (first,): (i64,) = sqlx::query_as("select min(id) from seat where event_id = $1")
        .bind(event)
        .fetch_one(db.reader())
        .await
        .expect("the bench event has seats");
    first
}
