//! What buyers see of the seat map: one shared view, kept current four
//! times a second with `If-None-Match` (as the live map keeps itself
//! current), sections ranked best first by price. The seats' names and
//! prices are read once from the full snapshot; after that only the status
//! letters (`…/seats/status`, one letter per seat in the same order), as
//! the page reads them: the full snapshot is for integrators, and rendering
//! it for every version would be load no browser puts on the servers.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock, RwLock};
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

#[derive(Deserialize)]
struct Letters {
    statuses: String,
}

/// A seat as the view ranks it, in the snapshot's seat order.
struct Place {
    section: String,
    row: String,
    number: i64,
    price_cents: i64,
    id: i64,
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
    /// Every seat, in seat order (read once, from the full snapshot).
    layout: OnceLock<Vec<Place>>,
    started: Instant,
    sold_out_at: RwLock<Option<Duration>>,
}

impl SeatView {
    pub fn new(started: Instant) -> Arc<SeatView> {
        Arc::new(SeatView {
            current: RwLock::new(Arc::new(View::default())),
            layout: OnceLock::new(),
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

    /// Brings the view up to date: the full snapshot the first time, the
    /// status letters after that (a 304 keeps the current view).
    pub async fn refresh(
        &self,
        http: &reqwest::Client,
        base: &str,
        event: i64,
        admin_token: &str,
    ) -> Result<(), String> {
        let layout = self.layout.get();
        let path = if layout.is_none() {
            format!("{base}/api/events/{event}/seats")
        } else {
            format!("{base}/api/events/{event}/seats/status")
        };
        // As the organizer's tool: the map stays readable while the
        // waiting room is on.
        let mut req = http.get(path).bearer_auth(admin_token);
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
        let view = if let Some(layout) = layout {
            let letters: Letters = r.json().await.map_err(|e| e.to_string())?;
            if letters.statuses.len() != layout.len() {
                return Err(format!(
                    "{} status letters for {} seats",
                    letters.statuses.len(),
                    layout.len()
                ));
            }
            build(layout, letters.statuses.as_bytes(), etag)
        } else {
            let snap: Snapshot = r.json().await.map_err(|e| e.to_string())?;
            let (layout, letters) = split(snap);
            build(self.layout.get_or_init(|| layout), &letters, etag)
        };
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

/// The snapshot as the seats' layout and their status letters.
fn split(snap: Snapshot) -> (Vec<Place>, Vec<u8>) {
    snap.seats
        .into_iter()
        .map(|s| {
            let letter = if s.status == "AVAILABLE" { b'a' } else { b'h' };
            let place = Place {
                section: s.section,
                row: s.row,
                number: s.number,
                price_cents: s.price_cents,
                id: s.id,
            };
            (place, letter)
        })
        .unzip()
}

/// The view of `layout` with these status letters (`a`: available).
fn build(layout: &[Place], letters: &[u8], etag: Option<String>) -> View {
    let seat_count = layout.len();
    // An available seat as (row, number, id): sorting puts it in row order.
    type Free<'a> = (&'a str, i64, i64);
    let mut by_section: HashMap<&str, (i64, Vec<Free>)> = HashMap::new();
    for (s, letter) in layout.iter().zip(letters) {
        let e = by_section.entry(&s.section).or_insert((0, Vec::new()));
        e.0 = e.0.max(s.price_cents);
        if *letter == b'a' {
            e.1.push((&s.row, s.number, s.id));
        }
    }
    let mut ranked: Vec<(&str, i64, Vec<Free>)> = by_section
        .into_iter()
        .map(|(name, (price, seats))| (name, price, seats))
        .collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
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
