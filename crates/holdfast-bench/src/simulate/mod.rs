//! The on-sale simulator: N buyers (default 100,000) arrive at once for one
//! event (default the 10,000-seat arena), spread over one or more server
//! instances. Most want the best sections; each tries up to k times, taking
//! the suggestions of a 409; some abandon their hold, some pay too late,
//! some are declined; webhooks come twice or delayed. It reports holds/s,
//! bookings/s, the conflict rate, p50/p95/p99 per step and the time until
//! sold out, then waits for payments in flight to settle and checks every
//! invariant through the database and each instance's
//! `/api/admin/invariants`. Exit status 1 when anything is wrong.
//!
//!     holdfast-bench simulate --targets http://127.0.0.1:3000[,…] --database URL
//!         [--event 1] [--buyers 100000] [--concurrency 256] [--arrival 1]
//!         [--tries 3] [--time-limit 300] [--hold-ttl 300] [--live-check]
//!         [--abandon 0.1] [--late 0.03] [--twice 0.2] [--delayed 0.05]
//!         [--declined 0.02] [--admin-token T] [--seed 7] [--waiting-room PER_MINUTE]
//!
//! With `--waiting-room`, the event's waiting room is opened for the run:
//! every buyer joins the queue, looks at the place until let in (leaving
//! when it stays sold out longer than a hold lasts), and holds with its
//! admission token; the organizer's token reads the map meanwhile.

mod buyer;
mod checks;
mod live;
mod options;
mod record;
mod report;
mod view;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use holdfast_core::platform::db::Db;
use tokio::sync::watch;

use self::buyer::Buyer;
use self::live::Sightings;
use self::options::Options;
use self::record::{Ack, Outcome, Samples, Tally};
use self::view::SeatView;
use crate::stats::Rng;

/// What the workers bring back.
#[derive(Default)]
pub struct Harvest {
    pub samples: Samples,
    pub acks: Vec<Ack>,
    pub outcomes: Vec<Outcome>,
    pub not_started: usize,
}

pub async fn main(args: &[String]) -> bool {
    let opts = match Options::parse(args) {
        Ok(o) => Arc::new(o),
        Err(e) => {
            eprintln!("holdfast-bench simulate: {e}");
            return false;
        }
    };
    let db = match Db::connect(&opts.database, 4).await {
        Ok(db) => db,
        Err(e) => {
            eprintln!("cannot reach the database: {e}");
            return false;
        }
    };
    let started = Instant::now();
    let view = SeatView::new(started);
    if let Err(e) = view
        .refresh(
            &reqwest::Client::new(),
            &opts.targets[0],
            opts.event,
            &opts.admin_token,
        )
        .await
    {
        eprintln!("cannot read the seat map of event {}: {e}", opts.event);
        return false;
    }
    let (stop_tx, stop_rx) = watch::channel(false);
    tokio::spawn(view.clone().keep_current(
        opts.targets.clone(),
        opts.event,
        opts.admin_token.clone(),
        stop_rx.clone(),
    ));
    let sightings = Arc::new(Sightings::new(opts.targets.len()));
    if opts.live_check {
        for (i, base) in opts.targets.iter().enumerate() {
            let (s, base, stop) = (sightings.clone(), base.clone(), stop_rx.clone());
            let (event, token) = (opts.event, opts.admin_token.clone());
            tokio::spawn(async move { s.listen(base, i, event, token, stop).await });
        }
        // Let the listeners connect before the first buyer arrives.
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let seat_count = view.now().seat_count;
    println!(
        "on-sale simulation: {} buyers for {} seats of event {} on {} instance(s), {} at once, arriving over {:?}",
        opts.buyers,
        seat_count,
        opts.event,
        opts.targets.len(),
        opts.concurrency,
        opts.arrival
    );

    if opts.waiting_room > 0 {
        if let Err(e) = set_room(&opts, true).await {
            eprintln!("cannot open the waiting room: {e}");
            return false;
        }
        println!(
            "waiting room on: {} buyers a minute at most",
            opts.waiting_room
        );
    }
    let tally = Arc::new(Tally::default());
    let progress = report::progress(
        opts.buyers as u64,
        tally.clone(),
        view.clone(),
        stop_rx.clone(),
    );
    let started = Instant::now();
    let next = Arc::new(AtomicUsize::new(0));
    let workers: Vec<_> = (0..opts.concurrency)
        .map(|w| {
            let (opts, tally, next, view) =
                (opts.clone(), tally.clone(), next.clone(), view.clone());
            tokio::spawn(async move { work(w, opts, tally, &next, &view, started).await })
        })
        .collect();
    let mut harvest = Harvest::default();
    for w in workers {
        if let Ok(h) = w.await {
            harvest.samples.merge(h.samples);
            harvest.acks.extend(h.acks);
            harvest.outcomes.extend(h.outcomes);
            harvest.not_started += h.not_started;
        }
    }
    let elapsed = started.elapsed();
    let _ = stop_tx.send(true);
    progress.await.ok();

    if opts.waiting_room > 0 {
        if let Err(e) = set_room(&opts, false).await {
            eprintln!("cannot close the waiting room: {e}");
        }
    }
    let waiting = checks::settle(&db, Duration::from_secs(90)).await;
    let booked: Vec<String> = harvest
        .outcomes
        .iter()
        .filter_map(|o| match o {
            Outcome::Booked(id) => Some(id.clone()),
            _ => None,
        })
        .collect();
    let mut failures = match checks::verify(&db, &opts, &harvest.acks, &booked).await {
        Ok(f) => f,
        Err(e) => vec![format!("the checks could not run: {e}")],
    };
    failures.extend(checks::ask_instances(&opts).await);
    match waiting {
        Ok(0) => {}
        Ok(n) => failures.push(format!(
            "{n} payments, refunds or deliveries still waiting after 90 s"
        )),
        Err(e) => failures.push(format!("settling could not be checked: {e}")),
    }
    report::print(
        &opts,
        &mut harvest,
        &tally,
        &view,
        &sightings,
        elapsed,
        seat_count,
        &mut failures,
    );
    if failures.is_empty() {
        println!("invariants: ok");
        true
    } else {
        println!("FAILED:");
        for f in failures.iter().take(30) {
            println!("  {f}");
        }
        false
    }
}

/// Opens or closes the event's waiting room through the admin API.
async fn set_room(opts: &Options, enabled: bool) -> Result<(), String> {
    let r = reqwest::Client::new()
        .put(format!(
            "{}/api/admin/events/{}/queue",
            opts.targets[0], opts.event
        ))
        .bearer_auth(&opts.admin_token)
        .json(
            &serde_json::json!({ "enabled": enabled, "admitPerMinute": opts.waiting_room.max(1) }),
        )
        .send()
        .await
        .map_err(|e| e.to_string())?;
    if r.status().is_success() {
        Ok(())
    } else {
        Err(format!("{}", r.status()))
    }
}

/// One worker: buyers one after another, each on a fresh session, each
/// starting no earlier than its arrival time.
async fn work(
    w: usize,
    opts: Arc<Options>,
    tally: Arc<Tally>,
    next: &AtomicUsize,
    view: &SeatView,
    started: Instant,
) -> Harvest {
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(30))
        .build()
        .expect("http client");
    let mut out = Harvest::default();
    // What the event page names, for the buyers with an empty cache.
    let assets = match http
        .get(format!(
            "{}/events/{}",
            opts.targets[w % opts.targets.len()],
            opts.event
        ))
        .send()
        .await
    {
        Ok(r) => crate::browser::assets_named(&r.text().await.unwrap_or_default(), opts.event),
        Err(_) => Vec::new(),
    };
    loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= opts.buyers {
            break;
        }
        let arrival = opts.arrival.mul_f64(i as f64 / opts.buyers as f64);
        if let Some(wait) = arrival.checked_sub(started.elapsed()) {
            tokio::time::sleep(wait).await;
        }
        if started.elapsed() > opts.time_limit {
            out.not_started += 1;
            tally.add(&tally.buyers_done);
            continue;
        }
        let mut rng = Rng::new(opts.seed ^ (i as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
        let mut buyer = Buyer {
            http: &http,
            targets: &opts.targets,
            home: i + w,
            cookie: None,
            admission: None,
            assets: &assets,
            samples: &mut out.samples,
            tally: &tally,
            opts: &opts,
        };
        let outcome = match buyer.choose(&mut rng, view, &mut out.acks).await {
            Ok(checkout) => buyer.settle(checkout).await,
            Err(outcome) => outcome,
        };
        out.outcomes.push(outcome);
        tally.add(&tally.buyers_done);
    }
    out
}
