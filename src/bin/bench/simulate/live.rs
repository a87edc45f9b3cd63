//! The live check: one seat-stream listener per instance, noting when each
//! seat showed as HELD there, so that a hold acknowledged by one instance can
//! be timed until every other instance's buyers saw it.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use holdfast_app::model::SeatStatus;
use serde::Deserialize;
use tokio::sync::watch;

use super::record::Ack;

#[derive(Default)]
pub struct Sightings {
    /// Per instance: seat → the moments it was reported HELD.
    held: Vec<Mutex<HashMap<i64, Vec<Instant>>>>,
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
                for c in batch
                    .changes
                    .into_iter()
                    .filter(|c| c.status == SeatStatus::Held)
                {
                    held.entry(c.id).or_default().push(at);
                }
            }
            _ => {}
        }
    }

    /// For every acknowledged hold and every other instance: how long after
    /// the acknowledgement that instance reported the seat HELD (zero when
    /// it did so before the answer reached the buyer). Holds never reported
    /// by some instance count as missed.
    pub fn delays(&self, acks: &[Ack]) -> (Vec<Duration>, usize) {
        let maps: Vec<_> = self
            .held
            .iter()
            .map(|m| m.lock().expect("sightings"))
            .collect();
        let (mut delays, mut missed) = (Vec::new(), 0);
        for ack in acks {
            let Some(seat) = ack.seats.first() else {
                continue;
            };
            for (j, seen) in maps.iter().enumerate() {
                if j == ack.target {
                    continue;
                }
                match seen
                    .get(seat)
                    .and_then(|ts| ts.iter().find(|t| **t >= ack.sent))
                {
                    Some(t) => delays.push(t.saturating_duration_since(ack.acked)),
                    None => missed += 1,
                }
            }
        }
        (delays, missed)
    }
}
