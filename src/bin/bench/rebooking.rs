//! `holdfast-bench rebooking --targets URL,... --database URL --admin-token T
//! [--bookings N] [--hold-rate R] [--kill-after M]`: the cruise seed's failure, measured. A ship of
//! `N + 200` cabins sails a route weekly; its first sailing is sold out to
//! `N` bookings (each a buyer's hold, payment and webhook, through the
//! instances); then the line cancels it while buyers keep holding and
//! releasing cabins of a later sailing. Printed: how long the rebooking of
//! every booking took (moved or offered a refund), and the holds' latency
//! during it next to the same load before it. With `--kill-after M` the
//! instance running the job is killed (SIGKILL) after M moves, and another
//! takes it over once its lease ends. Every invariant is checked at the
//! end, and from the database that each booking was moved and mailed once. Run it with `scripts/onsale.sh --bench rebooking` (several
//! instances sharing Postgres, the job runner on each).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use holdfast_app::core::platform::clock::At;
use holdfast_app::core::sailing::plan::{self, PlaceKind, PlaceSpec, ShipSpec, Side};
use holdfast_app::core::sailing::schedule::{self, FareSpec, SailingSpec};
use serde_json::json;

use crate::stats::summary;
use crate::throughput::{client, spread};

const DAY: i64 = 86_400_000;
/// Buyers holding and releasing cabins of the later sailing meanwhile,
/// together at `--hold-rate` holds a second (an on-sale's steady trickle,
/// not a flood that would measure only the machine's saturation).
const HOLDERS: usize = 32;

struct Options {
    targets: Vec<String>,
    database: String,
    admin_token: String,
    bookings: usize,
    hold_rate: f64,
    /// Kill (SIGKILL) the instance running the job after this many moves.
    kill_after: Option<usize>,
}

fn options(args: &[String]) -> Option<Options> {
    let mut o = Options {
        targets: Vec::new(),
        database: String::new(),
        admin_token: String::new(),
        bookings: 3_000,
        hold_rate: 200.0,
        kill_after: None,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned();
        match a.as_str() {
            "--targets" => o.targets = value()?.split(',').map(str::to_string).collect(),
            "--database" => o.database = value()?,
            "--admin-token" => o.admin_token = value()?,
            "--bookings" => o.bookings = value()?.parse().ok()?,
            "--hold-rate" => o.hold_rate = value()?.parse().ok()?,
            "--kill-after" => o.kill_after = Some(value()?.parse().ok()?),
            // The harness's options for the simulator, not used here.
            "--hold-ttl" => {
                value()?;
            }
            other => {
                eprintln!("unknown option {other}");
                return None;
            }
        }
    }
    (!o.targets.is_empty() && !o.database.is_empty()).then_some(o)
}

pub async fn main(args: &[String]) -> bool {
    let Some(o) = options(args) else {
        eprintln!("usage: holdfast-bench rebooking --targets URL,... --database URL --admin-token T [--bookings N] [--hold-rate R] [--kill-after M]");
        return false;
    };
    let (cancelled, next, later) = match setup(&o).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("setting up the ship: {e}");
            return false;
        }
    };
    println!(
        "ship of {} cabins; sailing {cancelled} to cancel, {next} next, {later} under a hold load; {} instance(s)",
        o.bookings + 200,
        o.targets.len()
    );
    let started = Instant::now();
    if !sell_out(&o, cancelled).await {
        return false;
    }
    println!(
        "sold out: {} bookings BOOKED in {:.1} s",
        o.bookings,
        started.elapsed().as_secs_f64()
    );

    let cabins = cabins_of(&o, later).await;
    // Warm up: every instance has the later sailing's map in memory.
    hold_load(
        o.targets.clone(),
        o.hold_rate,
        later,
        cabins.clone(),
        Duration::from_secs(2),
        None,
    )
    .await;
    let before = hold_load(
        o.targets.clone(),
        o.hold_rate,
        later,
        cabins.clone(),
        Duration::from_secs(5),
        None,
    )
    .await;
    println!("holds on sailing {later}, no rebooking:     {}", before);

    let done = Arc::new(AtomicBool::new(false));
    let load = tokio::spawn(hold_load(
        o.targets.clone(),
        o.hold_rate,
        later,
        cabins,
        Duration::from_secs(120),
        Some(done.clone()),
    ));
    let admin = admin_client(&o.admin_token);
    let t0 = Instant::now();
    let cancel = admin
        .post(format!(
            "{}/api/admin/sailings/{cancelled}/cancel",
            o.targets[0]
        ))
        .json(&json!({ "reason": "Storm warning: the harbour is closed" }))
        .send()
        .await;
    if !cancel.as_ref().is_ok_and(|r| r.status() == 202) {
        eprintln!("cancelling failed: {cancel:?}");
        return false;
    }
    let mut progress = serde_json::Value::Null;
    let mut killed = o.kill_after.is_none();
    while t0.elapsed() < Duration::from_secs(300) {
        let path = format!("/api/admin/sailings/{cancelled}/rebooking");
        if let Some(p) = any_instance(&admin, &o.targets, &path).await {
            progress = p;
            let moved = progress["moved"].as_i64().unwrap_or(0);
            let handled = moved + progress["refundOffered"].as_i64().unwrap_or(0);
            if progress["left"] == 0 && handled as usize == o.bookings {
                break;
            }
            if !killed && moved as usize >= o.kill_after.unwrap_or(0) {
                killed = true;
                match kill_job_holder(&admin, &o.targets).await {
                    Some(pid) => println!(
                        "!! kill -9 {pid}, the instance running the rebooking, after {moved} moves ({:.2} s)",
                        t0.elapsed().as_secs_f64()
                    ),
                    None => println!("!! no instance held the rebooking to kill"),
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let took = t0.elapsed();
    done.store(true, Ordering::SeqCst);
    let during = load.await.unwrap_or_default();
    println!(
        "rebooked {} bookings in {:.2} s ({:.0}/s): {progress}",
        o.bookings,
        took.as_secs_f64(),
        o.bookings as f64 / took.as_secs_f64()
    );
    println!("holds on sailing {later}, during rebooking: {during}");

    // The killed instance may be the first one: ask one that answers.
    let inv = any_instance(&admin, &o.targets, "/api/admin/invariants")
        .await
        .unwrap_or_default();
    println!("invariants: {inv}");
    let once = once_each(&o, cancelled).await;
    println!("{once}");
    inv["ok"] == true && progress["left"] == 0 && once.ends_with("once each")
}

/// An admin GET answered by the first instance that answers (one may
/// have been killed); its JSON.
async fn any_instance(
    admin: &reqwest::Client,
    targets: &[String],
    path: &str,
) -> Option<serde_json::Value> {
    for base in targets {
        if let Ok(r) = admin.get(format!("{base}{path}")).send().await {
            return r.json().await.ok();
        }
    }
    None
}

/// The instance holding the rebooking job's lease, killed with SIGKILL
/// (its name in the job table carries its process id); the pid.
async fn kill_job_holder(admin: &reqwest::Client, targets: &[String]) -> Option<u32> {
    let jobs: serde_json::Value = admin
        .get(format!("{}/api/admin/jobs", targets[0]))
        .send()
        .await
        .ok()?
        .json()
        .await
        .ok()?;
    let holder = jobs.as_array()?.iter().find(|j| j["name"] == "rebooking")?["holder"]
        .as_str()?
        .to_string();
    let pid: u32 = holder.rsplit('-').nth(1)?.parse().ok()?;
    let killed = std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .ok()?;
    killed.success().then_some(pid)
}

/// From the database: every booking of the cancelled sailing has one
/// rebooking row and one mail.
async fn once_each(o: &Options, sailing: i64) -> String {
    let Ok(pool) = sqlx::AnyPool::connect(&o.database).await else {
        return "could not read the database".into();
    };
    let count = |sql: &'static str| {
        let pool = pool.clone();
        async move {
            sqlx::query_as::<_, (i64,)>(sql)
                .bind(sailing)
                .fetch_one(&pool)
                .await
                .map_or(-1, |n| n.0)
        }
    };
    let rows = count("select count(*) from rebooking where from_event_id = $1").await;
    let distinct =
        count("select count(distinct booking_id) from rebooking where from_event_id = $1").await;
    let mails = count(
        "select count(*) from outbox where dedupe_key like 'rebooked-%-' || cast($1 as text)",
    )
    .await;
    let n = o.bookings as i64;
    let verdict = if rows == n && distinct == n && mails == n {
        "once each"
    } else {
        "NOT once each"
    };
    format!(
        "rebooking rows {rows} ({distinct} bookings), mails {mails}, for {n} bookings: {verdict}"
    )
}

fn admin_client(token: &str) -> reqwest::Client {
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert(
        reqwest::header::AUTHORIZATION,
        format!("Bearer {token}").parse().expect("header"),
    );
    reqwest::Client::builder()
        .default_headers(headers)
        .build()
        .expect("client")
}

/// The bench ship (10 decks of cabins), its route and three weekly
/// sailings, straight into the database (the world the benchmark needs;
/// everything measured goes through the instances).
async fn setup(o: &Options) -> Result<(i64, i64, i64), sqlx::Error> {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&o.database).await?;
    let now = At::from_ms(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64),
    );
    let per_deck = (o.bookings + 200).div_ceil(10);
    let mut places = Vec::new();
    for deck in 0..10i64 {
        for i in 0..per_deck as i64 {
            let (category, max_guests) = match i % 10 {
                0..=3 => ("INSIDE", 2),
                4..=6 => ("OCEAN", 3),
                7 | 8 => ("BALCONY", 3),
                _ => ("SUITE", 4),
            };
            places.push(PlaceSpec {
                deck: format!("Deck {}", deck + 3),
                kind: PlaceKind::Cabin,
                corridor: if i % 2 == 0 { "Port" } else { "Starboard" }.into(),
                side: if i % 2 == 0 {
                    Side::Port
                } else {
                    Side::Starboard
                },
                number: (deck + 3) * 1000 + i,
                category,
                x: 10.0 + (i / 2) as f64 * 12.0,
                y: 40.0 + deck as f64 * 100.0 + (i % 2) as f64 * 50.0,
                width: 10.0,
                depth: 40.0,
                min_guests: 1,
                max_guests,
                accessible: false,
            });
        }
    }
    let mut tx = pool.begin().await?;
    let ship = plan::insert_ship(
        &mut tx,
        &ShipSpec {
            slug: "ms-bench",
            name: "MS Bench",
            places,
        },
        now,
    )
    .await?;
    let route = plan::insert_route(&mut tx, "BENCH-7N", "Bench route, 7 nights", ship).await?;
    let mut ids = Vec::new();
    for week in 0..3 {
        let departs = now + (30 + week * 7) * DAY;
        let spec = SailingSpec {
            slug: format!("ms-bench-{}", departs.ms()),
            name: format!("MS Bench — week {}", week + 1),
            venue: "MS Bench · Bench route".into(),
            route_id: route,
            ship_id: ship,
            departs_at: departs,
            arrives_at: departs + 7 * DAY,
            time_zone: "UTC",
            currency: "EUR",
            fares: [
                ("INSIDE", 50_000),
                ("OCEAN", 70_000),
                ("BALCONY", 90_000),
                ("SUITE", 150_000),
            ]
            .into_iter()
            .map(|(code, price_cents)| FareSpec {
                code,
                name: code,
                price_cents,
                extra_guest_cents: 10_000,
                color: "#336699",
            })
            .collect(),
            itinerary: Vec::new(),
        };
        let id = schedule::insert_sailing(&mut tx, &spec, now)
            .await?
            .map(|e| e.0)
            .unwrap_or_default();
        ids.push(id);
    }
    tx.commit().await?;
    Ok((ids[0], ids[1], ids[2]))
}

async fn cabins_of(o: &Options, sailing: i64) -> Vec<i64> {
    let c = client();
    let drawn: serde_json::Value = match c
        .get(format!("{}/api/events/{sailing}/seats", o.targets[0]))
        .send()
        .await
    {
        Ok(r) => r.json().await.unwrap_or_default(),
        Err(_) => serde_json::Value::Null,
    };
    drawn["seats"]
        .as_array()
        .map(|seats| seats.iter().filter_map(|s| s["id"].as_i64()).collect())
        .unwrap_or_default()
}

/// `bookings` buyers each hold one cabin of the sailing (a party of one
/// to its occupancy), pay on the sandbox, and wait for BOOKED.
async fn sell_out(o: &Options, sailing: i64) -> bool {
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

async fn booked_count(o: &Options, sailing: i64) -> i64 {
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
async fn hold_load(
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
