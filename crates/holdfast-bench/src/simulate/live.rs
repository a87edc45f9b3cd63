//! The live check: one seat-stream listener per instance, noting when each
//! seat showed as HELD there, so that a hold acknowledged by one instance can
//! be timed until every other instance's buyers saw it.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use holdfast_model::SeatStatus;
use serde::Deserialize;
use tokio::sync::watch;

use super::record::Ack;

/// One instance's reports: seat → (when, status) in the order they came.
type Reports = HashMap<i64, Vec<(Instant, SeatStatus)>>;

#[derive(Default)]
pub struct Sightings {
    /// Per instance: seat → every status it was reported in, and when.
    held: Vec<Mutex<Reports>>,
    resets: Mutex<u64>,
}

#[derive(Deserialize)]
struct Batch {
    changes: Vec<Change>,
}

#[derive(Deserialize)]
struct Change {
    id: i64,
    status: SeatStatus,
}

impl Sightings {
    pub fn new(instances: usize) -> Sightings {
        Sightings {
            held: (0..instances).map(|_| Mutex::default()).collect(),
            resets: Mutex::new(0),
        }
    }

    pub fn resets(&self) -> u64 {
        *self.resets.lock().expect("resets")
    }

    /// Reads instance `idx`'s stream until `stop`, reconnecting with
    /// `Last-Event-ID` when it drops.
    pub async fn listen(
        &self,
        base: String,
        idx: usize,
        event: i64,
        admin_token: String,
        mut stop: watch::Receiver<bool>,
    ) {
        let http = reqwest::Client::new();
        let mut last_id: Option<String> = None;
        while !*stop.borrow() {
            // The organizer's token: the stream stays open to the check
            // while a waiting room is on.
            let mut req = http
                .get(format!("{base}/api/events/{event}/seats/stream"))
                .bearer_auth(&admin_token);
            if let Some(id) = &last_id {
                req = req.header("Last-Event-ID", id);
            }
            let Ok(mut r) = req.send().await else {
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            };
            let mut buf = String::new();
            loop {
                let chunk = tokio::select! {
                    c = r.chunk() => c,
                    _ = stop.changed() => return,
                };
                let Ok(Some(chunk)) = chunk else { break };
                let now = Instant::now();
                buf.push_str(&String::from_utf8_lossy(&chunk));
                while let Some(end) = buf.find("\n\n") {
                    let message: String = buf.drain(..end + 2).collect();
                    self.take(idx, &message, now, &mut last_id);
                }
            }
        }
    }

    fn take(&self, idx: usize, message: &str, at: Instant, last_id: &mut Option<String>) {
        let (mut kind, mut data) = ("message", String::new());
        for line in message.lines() {
            if let Some(v) = line.strip_prefix("event:") {
                kind = if v.trim() == "seats" {
                    "seats"
                } else if v.trim() == "reset" {
                    "reset"
                } else {
                    "other"
                };
            } else if let Some(v) = line.strip_prefix("data:") {
                data.push_str(v.trim());
            } else if let Some(v) = line.strip_prefix("id:") {
                *last_id = Some(v.trim().to_string());
            }
        }
        match kind {
            "reset" => *self.resets.lock().expect("resets") += 1,
            "seats" => {
                let Ok(batch) = serde_json::from_str::<Batch>(&data) else {
                    return;
                };
                let mut held = self.held[idx].lock().expect("sightings");
                for c in batch.changes {
                    held.entry(c.id).or_default().push((at, c.status));
                }
            }
            _ => {}
        }
    }

    /// For every acknowledged hold and every other instance: how long after
    /// the acknowledgement that instance reported the seat HELD (zero when
    /// it did so before the answer reached the buyer). Holds never reported
    /// by some instance count as missed.
    pub fn delays<'a>(&self, acks: &'a [Ack]) -> Sighted<'a> {
        let maps: Vec<_> = self
            .held
            .iter()
            .map(|m| m.lock().expect("sightings"))
            .collect();
        let (mut delays, mut missed, mut whose) = (Vec::new(), 0, Vec::new());
        for ack in acks {
            let Some(seat) = ack.seats.first() else {
                continue;
            };
            for (j, seen) in maps.iter().enumerate() {
                if j == ack.target {
                    continue;
                }
                match seen.get(seat).and_then(|ts| {
                    ts.iter()
                        .find(|(t, s)| *s == SeatStatus::Held && *t >= ack.sent)
                }) {
                    Some((t, _)) => {
                        delays.push(t.saturating_duration_since(ack.acked));
                        whose.push((ack, j));
                    }
                    None => missed += 1,
                }
            }
        }
        Sighted {
            delays,
            missed,
            whose,
        }
    }

    /// The slowest sighting, when it took longer than `over`: the seat's
    /// statuses as that instance reported them, in ms from the hold's
    /// request (to tell a late report from a seat that showed HELD all along).
    pub fn slowest(&self, sighted: &Sighted, over: Duration) -> Option<String> {
        let (i, delay) = sighted.delays.iter().enumerate().max_by_key(|(_, d)| **d)?;
        if *delay <= over {
            return None;
        }
        let (ack, instance) = sighted.whose[i];
        let seat = *ack.seats.first()?;
        let maps = self.held[instance].lock().expect("sightings");
        let ms = |t: Instant| {
            if t >= ack.sent {
                format!("+{}", t.duration_since(ack.sent).as_millis())
            } else {
                format!("-{}", ack.sent.duration_since(t).as_millis())
            }
        };
        let seen: Vec<String> = maps
            .get(&seat)
            .map(|ts| {
                ts.iter()
                    .map(|(t, s)| format!("{} {s:?}", ms(*t)))
                    .collect()
            })
            .unwrap_or_default();
        Some(format!(
            "seat {seat} held through instance {} (acknowledged at {} ms) took {} ms on instance {instance}, which reported it: {}",
            ack.target,
            ms(ack.acked),
            delay.as_millis(),
            seen.join(", ")
        ))
    }
}

/// The live check's findings: each sighting's delay, the holds some
/// instance never reported, and for each delay the hold and the instance.
pub struct Sighted<'a> {
    pub delays: Vec<Duration>,
    pub missed: usize,
    whose: Vec<(&'a Ack, usize)>,
}
