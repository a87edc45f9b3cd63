//! The simulator's progress bar and its final report.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::live::Sightings;
use super::options::Options;
use super::record::{Outcome, Tally, STEPS};
use super::view::SeatView;
use super::Harvest;
use crate::stats::summary;

/// A bar of buyers done, with holds and bookings so far and the seats the
/// map shows available (on a terminal; a line every five seconds in a log:
/// a sale's last seats go in its last few seconds).
pub fn progress(
    buyers: u64,
    tally: Arc<Tally>,
    view: Arc<SeatView>,
    mut stop: watch::Receiver<bool>,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        let bar = ProgressBar::new(buyers);
        bar.set_style(
            ProgressStyle::with_template("{elapsed:>4} [{bar:32}] {pos}/{len} buyers  {msg}")
                .expect("template")
                .progress_chars("=> "),
        );
        let tty = !bar.is_hidden();
        let mut ticks = 0u64;
        loop {
            let msg = format!(
                "holds {}  409 {}  booked {}  available {}",
                Tally::get(&tally.holds),
                Tally::get(&tally.conflicts),
                Tally::get(&tally.booked),
                view.now().available
            );
            bar.set_position(Tally::get(&tally.buyers_done));
            bar.set_message(msg.clone());
            if !tty && ticks.is_multiple_of(25) {
                println!(
                    "  … {} / {buyers} buyers  {msg}",
                    Tally::get(&tally.buyers_done)
                );
            }
            ticks += 1;
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_millis(200)) => {}
                _ = stop.changed() => break,
            }
        }
        bar.finish_and_clear();
    })
}

#[allow(clippy::too_many_arguments)]
pub fn print(
    opts: &Options,
    harvest: &mut Harvest,
    tally: &Tally,
    view: &SeatView,
    sightings: &Sightings,
    elapsed: Duration,
    seat_count: usize,
    failures: &mut Vec<String>,
) {
    let secs = elapsed.as_secs_f64();
    let attempts = Tally::get(&tally.hold_attempts);
    let holds = Tally::get(&tally.holds);
    let conflicts = Tally::get(&tally.conflicts);
    let booked = Tally::get(&tally.booked);
    println!("run: {secs:.1} s");
    match view.sold_out_at() {
        Some(t) => {
            let before = harvest
                .acks
                .iter()
                .filter(|a| a.acked.saturating_duration_since(view.started()) <= t)
                .count();
            println!(
                "sold out after {:.2} s (the map showed no available seat): {before} holds, {:.0} holds/s until then",
                t.as_secs_f64(),
                before as f64 / t.as_secs_f64().max(1e-3)
            );
        }
        None => println!(
            "never sold out ({} seats still available at the end)",
            view.now().available
        ),
    }
    println!(
        "holds: {holds} of {attempts} attempts ({:.0} holds/s, {:.0} attempts/s); conflict rate {:.1}%",
        holds as f64 / secs,
        attempts as f64 / secs,
        100.0 * conflicts as f64 / attempts.max(1) as f64
    );
    let booked_ids: std::collections::HashSet<&str> = harvest
        .outcomes
        .iter()
        .filter_map(|o| match o {
            Outcome::Booked(id) => Some(id.as_str()),
            _ => None,
        })
        .collect();
    let booked_seats: usize = harvest
        .acks
        .iter()
        .filter(|a| booked_ids.contains(a.booking_id.as_str()))
        .map(|a| a.seats.len())
        .sum();
    println!(
        "bookings: {booked} ({:.0} bookings/s), {booked_seats} of {seat_count} seats",
        booked as f64 / secs
    );
    let mut outcomes: BTreeMap<String, usize> = BTreeMap::new();
    for o in &harvest.outcomes {
        let name = match o {
            Outcome::Refused(s, c) => format!("refused ({s} {c})"),
            o => o.name().to_string(),
        };
        *outcomes.entry(name).or_default() += 1;
    }
    if harvest.not_started > 0 {
        outcomes.insert("not started (time limit)".into(), harvest.not_started);
    }
    println!("buyers: {outcomes:?}");
    for o in &harvest.outcomes {
        match o {
            Outcome::Unsettled(b) => {
                failures.push(format!("booking {b} paid but unsettled after 60 s"))
            }
            Outcome::Refused(s, c) => failures.push(format!("a buyer got an unexpected {s} {c}")),
            Outcome::Unanswered => failures.push("a buyer got no answer from any instance".into()),
            _ => {}
        }
    }
    for step in STEPS {
        let samples = &mut harvest.samples.0[step as usize];
        if !samples.is_empty() {
            println!("  {:<10} {}", format!("{step:?}"), summary(samples));
        }
    }
    if opts.waiting_room > 0 {
        println!(
            "waiting room: {} buyers let in (at most {} a minute)",
            Tally::get(&tally.admitted),
            opts.waiting_room
        );
    }
    println!(
        "answers: 429 {}  5xx {} (outside the error shape: {})  unreachable {}  key in flight {}",
        Tally::get(&tally.rate_limited),
        Tally::get(&tally.server_errors),
        Tally::get(&tally.bad_errors),
        Tally::get(&tally.unreachable),
        Tally::get(&tally.in_flight)
    );
    for example in tally.server_error_examples.lock().expect("examples").iter() {
        println!("  a 5xx: {example}");
    }
    let outage = *tally.outage.lock().expect("outage");
    if outage.longest > Duration::ZERO {
        println!(
            "outage: {:.1} s, the longest stretch between two accepted holds or payments with requests refused in it",
            outage.longest.as_secs_f64()
        );
    } else {
        println!(
            "outage: none (no accepted hold or payment was followed by refusals before the next)"
        );
    }
    let internal = Tally::get(&tally.internal_errors);
    if opts.forbid_500 && internal > 0 {
        failures.push(format!(
            "{internal} answers were 500 (a failover answers 503 with Retry-After)"
        ));
    }
    if Tally::get(&tally.bad_errors) > 0 {
        failures.push("a 5xx answer was not in the API's error shape".into());
        failures.extend(tally.examples.lock().expect("examples").iter().cloned());
    }
    if opts.live_check && opts.targets.len() > 1 {
        let sighted = sightings.delays(&harvest.acks);
        let slowest = sightings.slowest(&sighted, std::time::Duration::from_secs(5));
        let (mut delays, missed) = (sighted.delays, sighted.missed);
        println!(
            "live: a hold on one instance seen on the others: {}  missed {missed}  resets {}",
            summary(&mut delays),
            sightings.resets()
        );
        if let Some(why) = slowest {
            println!("live: the slowest sighting: {why}");
        }
        let p99 = crate::stats::percentile(&delays, 0.99);
        if missed > 0 || p99 > 1000.0 {
            failures.push(format!(
                "live updates across instances: p99 {p99:.0} ms, {missed} missed"
            ));
        }
    }
}
