//! What buyers see of the seat map: one shared snapshot, refreshed four
//! times a second with `If-None-Match` (as the live map keeps itself
//! current), sections ranked best first by price.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use serde::Deserialize;

#[derive(Deserialize)]
struct Snapshot {
    seats: Vec<SnapshotSeat>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SnapshotSeat {
    id: i64,
    section: String,
    row: String,
    number: i64,
    price_cents: i64,
    status: String,
}

#[derive(Default)]
pub struct View {
    pub etag: Option<String>,
    /// Sections best first; in each, the available seats in row order.
    pub sections: Vec<Vec<i64>>,
    pub available: usize,
    pub seat_count: usize,
}

pub struct SeatView {
    current: RwLock<Arc<View>>,
    started: Instant,
    sold_out_at: RwLock<Option<Duration>>,
}

impl SeatView {
    pub fn new(started: Instant) -> Arc<SeatView> {
        Arc::new(SeatView {
            current: RwLock::new(Arc::new(View::default())),
            started,
            sold_out_at: RwLock::new(None),
        })
    }

    pub fn now(&self) -> Arc<View> {
        self.current.read().expect("view lock").clone()
    }

    pub fn started(&self) -> Instant {
        self.started
    }

    /// When the map first showed no available seat, since the start.
    pub fn sold_out_at(&self) -> Option<Duration> {
        *self.sold_out_at.read().expect("view lock")
    }

    /// Fetches the snapshot (a 304 keeps the current view).
    pub async fn refresh(
        &self,
        http: &reqwest::Client,
        base: &str,
        event: i64,
        admin_token: &str,
    ) -> Result<(), String> {
        // As the organizer's tool: the map stays readable while the
        // waiting room is on.
        let mut req = http
            .get(format!("{base}/api/events/{event}/seats"))
            .bearer_auth(admin_token);
        if let Some(tag) = &self.now().etag {
            req = req.header("If-None-Match", tag);
        }
        let r = req.send().await.map_err(|e| e.to_string())?;
        if r.status() == 304 {
            return Ok(());
        }
        if !r.status().is_success() {
            return Err(format!("seat map answered {}", r.status()));
        }
        let etag = r
            .headers()
            .get("etag")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let snap: Snapshot = r.json().await.map_err(|e| e.to_string())?;
        let view = build(snap, etag);
        if view.available == 0 && view.seat_count > 0 {
            let mut sold = self.sold_out_at.write().expect("view lock");
            sold.get_or_insert(self.started.elapsed());
        }
        *self.current.write().expect("view lock") = Arc::new(view);
        Ok(())
    }

    /// Refreshes every 250 ms until `stop`, spreading over the targets.
    pub async fn keep_current(
        self: Arc<Self>,
        targets: Vec<String>,
        event: i64,
        admin_token: String,
        stop: tokio::sync::watch::Receiver<bool>,
    ) {
        let http = reqwest::Client::new();
        let mut turn = 0usize;
        while !*stop.borrow() {
            let _ = self
                .refresh(&http, &targets[turn % targets.len()], event, &admin_token)
                .await;
            turn += 1;
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }
}

/// An available seat as (row, number, id): sorting puts it in row order.
type Place = (String, i64, i64);

fn build(snap: Snapshot, etag: Option<String>) -> View {
    let seat_count = snap.seats.len();
    let mut by_section: HashMap<String, (i64, Vec<Place>)> = HashMap::new();
    for s in snap.seats {
        let e = by_section.entry(s.section).or_insert((0, Vec::new()));
        e.0 = e.0.max(s.price_cents);
        if s.status == "AVAILABLE" {
            e.1.push((s.row, s.number, s.id));
        }
    }
    let mut ranked: Vec<(String, i64, Vec<Place>)> = by_section
        .into_iter()
        .map(|(name, (price, seats))| (name, price, seats))
        .collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let sections: Vec<Vec<i64>> = ranked
        .into_iter()
        .map(|(_, _, mut seats)| {
            seats.sort();
            seats.into_iter().map(|s| s.2).collect()
        })
        .collect();
    let available = sections.iter().map(Vec::len).sum();
    View {
        etag,
        sections,
        available,
        seat_count,
    }
}
