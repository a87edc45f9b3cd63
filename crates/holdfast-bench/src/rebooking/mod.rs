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

use serde_json::json;

mod load;
mod setup;
use load::{hold_load, sell_out};
use setup::{cabins_of, setup};

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

pub(super) fn admin_client(token: &str) -> reqwest::Client {
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
