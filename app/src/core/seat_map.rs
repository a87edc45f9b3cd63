//! The live seat map of each event, kept in memory: the static seats (loaded
//! once, they never change) and who occupies each one. Use cases report every
//! committed change here (`apply`), so `GET …/seats` is served from a
//! versioned, pre-serialised snapshot instead of a 10,000-row query, and the
//! stream of changes feeds the SSE endpoint. The database stays the authority:
//! this cache only ever answers "is it worth trying".

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use serde::Serialize;
use tokio::sync::{broadcast, mpsc};

use super::platform::db::Db;
use super::ApiError;
use crate::model::{EventId, SeatId, SeatStatus};

/// Who holds a seat, as far as the map needs to know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Occupancy {
    Free,
    /// HELD until this instant (ms); free for others once it passes.
    Held(i64),
    /// In checkout: shown as HELD, freed only by an explicit transition.
    Pending,
    Booked,
}

impl Occupancy {
    pub fn status(self, now_ms: i64) -> SeatStatus {
        match self {
            Occupancy::Free => SeatStatus::Available,
            Occupancy::Held(until) if until <= now_ms => SeatStatus::Available,
            Occupancy::Held(_) | Occupancy::Pending => SeatStatus::Held,
            Occupancy::Booked => SeatStatus::Booked,
        }
    }

    pub fn from_booking(status: &str, held_until: i64) -> Occupancy {
        use crate::model::BookingStatus;
        match BookingStatus::parse(status) {
            Some(BookingStatus::Held) => Occupancy::Held(held_until),
            Some(BookingStatus::PaymentPending) => Occupancy::Pending,
            Some(BookingStatus::Booked) => Occupancy::Booked,
            _ => Occupancy::Free,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Seat {
    pub id: SeatId,
    pub label: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    pub section: String,
    pub row: String,
    pub number: i64,
    pub x: f64,
    pub y: f64,
    pub category: String,
    pub price_cents: i64,
}

pub use crate::model::{SeatChange, SeatChanges};

/// The serialised snapshot with its version and ETag.
pub struct Rendered {
    pub version: u64,
    pub etag: String,
    pub json: Bytes,
}

pub struct EventSeatMap {
    pub event_id: EventId,
    pub currency: String,
    pub seats: Vec<Seat>,
    index: HashMap<SeatId, usize>,
    /// Seat indices grouped by (section, row), each group ordered by number.
    pub rows: Vec<Vec<usize>>,
    /// Position of each seat: (row group, place in that group).
    pub place: Vec<(usize, usize)>,
    live: Mutex<Live>,
}

struct Live {
    occupancy: Vec<Occupancy>,
    version: u64,
    rendered: Option<Arc<Rendered>>,
    /// The rendered snapshot is exact until this instant: the next hold expiry.
    exact_until_ms: i64,
    built_at: Option<Instant>,
    /// Snapshots built so far: part of the ETag, since a hold running out
    /// changes the picture without a new version of changes.
    builds: u64,
    /// The latest batches, so a reconnecting stream can catch up.
    recent: VecDeque<Arc<SeatChanges>>,
}

/// Batches kept for reconnecting streams.
const RECENT_BATCHES: usize = 512;

impl EventSeatMap {
    pub fn new(
        event_id: EventId,
        currency: String,
        seats: Vec<Seat>,
        occupancy: Vec<Occupancy>,
    ) -> Self {
        let index = seats.iter().enumerate().map(|(i, s)| (s.id, i)).collect();
        let mut groups: HashMap<(&str, &str), Vec<usize>> = HashMap::new();
        for (i, s) in seats.iter().enumerate() {
            groups.entry((&s.section, &s.row)).or_default().push(i);
        }
        let mut rows: Vec<Vec<usize>> = groups.into_values().collect();
        for r in rows.iter_mut() {
            r.sort_by_key(|&i| seats[i].number);
        }
        rows.sort_by_key(|r| seats[r[0]].id);
        let mut place = vec![(0, 0); seats.len()];
        for (g, r) in rows.iter().enumerate() {
            for (p, &i) in r.iter().enumerate() {
                place[i] = (g, p);
            }
        }
        EventSeatMap {
            event_id,
            currency,
            seats,
            index,
            rows,
            place,
            live: Mutex::new(Live {
                occupancy,
                version: 1,
                rendered: None,
                exact_until_ms: i64::MIN,
                built_at: None,
                builds: 0,
                recent: VecDeque::new(),
            }),
        }
    }

    pub fn index_of(&self, id: SeatId) -> Option<usize> {
        self.index.get(&id).copied()
    }

    pub fn seat(&self, id: SeatId) -> Option<&Seat> {
        self.index_of(id).map(|i| &self.seats[i])
    }

    fn live(&self) -> std::sync::MutexGuard<'_, Live> {
        self.live.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Which of these seats the map believes are taken right now.
    pub fn taken_among(&self, ids: &[SeatId], now_ms: i64) -> Vec<SeatId> {
        let live = self.live();
        ids.iter()
            .copied()
            .filter(|id| {
                self.index_of(*id)
                    .is_some_and(|i| live.occupancy[i].status(now_ms) != SeatStatus::Available)
            })
            .collect()
    }

    /// Each seat's status now (by index).
    pub fn statuses(&self, now_ms: i64) -> Vec<SeatStatus> {
        self.live()
            .occupancy
            .iter()
            .map(|o| o.status(now_ms))
            .collect()
    }

    /// One flag per seat (by index): free now?
    pub fn free_mask(&self, now_ms: i64) -> Vec<bool> {
        self.statuses(now_ms)
            .into_iter()
            .map(|s| s == SeatStatus::Available)
            .collect()
    }

    pub fn available_count(&self, now_ms: i64) -> i64 {
        self.free_mask(now_ms).iter().filter(|f| **f).count() as i64
    }

    /// Records committed changes; returns the batch for the live stream.
    pub fn apply(&self, changes: &[(SeatId, Occupancy)], now_ms: i64) -> Option<Arc<SeatChanges>> {
        let mut live = self.live();
        let mut out = Vec::with_capacity(changes.len());
        for (id, occ) in changes {
            if let Some(i) = self.index_of(*id) {
                live.occupancy[i] = *occ;
                out.push(SeatChange {
                    id: *id,
                    status: occ.status(now_ms),
                });
            }
        }
        if out.is_empty() {
            return None;
        }
        live.version += 1;
        live.exact_until_ms = i64::MIN;
        let batch = Arc::new(SeatChanges {
            event_id: self.event_id,
            version: live.version,
            changes: out,
        });
        if live.recent.len() == RECENT_BATCHES {
            live.recent.pop_front();
        }
        live.recent.push_back(batch.clone());
        Some(batch)
    }

    /// The version of the latest change.
    pub fn current_version(&self) -> u64 {
        self.live().version
    }

    /// The batches after `version`, or `None` when they are no longer all
    /// kept (the client must refetch the snapshot).
    pub fn changes_since(&self, version: u64) -> Option<Vec<Arc<SeatChanges>>> {
        let live = self.live();
        if version > live.version {
            return None;
        }
        let oldest_kept = live.recent.front().map_or(live.version + 1, |b| b.version);
        if version + 1 < oldest_kept && version < live.version {
            return None;
        }
        Some(
            live.recent
                .iter()
                .filter(|b| b.version > version)
                .cloned()
                .collect(),
        )
    }

    /// The serialised snapshot, rebuilt when something changed (at most once
    /// per `max_staleness`) or when a hold in it has since expired.
    pub fn snapshot(&self, now_ms: i64, max_staleness: Duration) -> Arc<Rendered> {
        let mut live = self.live();
        if let Some(r) = &live.rendered {
            let unchanged = r.version == live.version;
            let exact = unchanged && now_ms < live.exact_until_ms;
            // Writes pouring in are batched: at most one rebuild per
            // `max_staleness`. A hold running out is rare and rebuilt at once.
            let throttled =
                !unchanged && live.built_at.is_some_and(|b| b.elapsed() < max_staleness);
            if exact || throttled {
                return r.clone();
            }
        }
        live.builds += 1;
        let rendered = Arc::new(self.render(&live, now_ms));
        live.exact_until_ms = live
            .occupancy
            .iter()
            .filter_map(|o| match o {
                Occupancy::Held(until) if *until > now_ms => Some(*until),
                _ => None,
            })
            .min()
            .unwrap_or(i64::MAX);
        live.rendered = Some(rendered.clone());
        live.built_at = Some(Instant::now());
        rendered
    }

    fn render(&self, live: &Live, now_ms: i64) -> Rendered {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Row<'a> {
            #[serde(flatten)]
            seat: &'a Seat,
            status: SeatStatus,
        }
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Body<'a> {
            event_id: EventId,
            version: u64,
            seats: Vec<Row<'a>>,
        }
        let body = Body {
            event_id: self.event_id,
            version: live.version,
            seats: self
                .seats
                .iter()
                .zip(&live.occupancy)
                .map(|(seat, o)| Row {
                    seat,
                    status: o.status(now_ms),
                })
                .collect(),
        };
        let json = serde_json::to_vec(&body).unwrap_or_default();
        Rendered {
            version: live.version,
            etag: format!("\"{}-{}.{}\"", self.event_id, live.version, live.builds),
            json: Bytes::from(json),
        }
    }
}

/// Hands one event's committed changes to the fan-out to other instances.
pub type ChangeSender = mpsc::UnboundedSender<(EventId, Vec<(SeatId, Occupancy)>)>;

/// All events' maps, loaded on first use, plus the broadcast of changes.
pub struct SeatMaps {
    maps: RwLock<HashMap<EventId, Arc<EventSeatMap>>>,
    changes: broadcast::Sender<Arc<SeatChanges>>,
    /// Where local changes go to reach the other instances (Postgres only).
    fanout: OnceLock<ChangeSender>,
}

impl Default for SeatMaps {
    fn default() -> Self {
        let (changes, _) = broadcast::channel(1024);
        SeatMaps {
            maps: RwLock::new(HashMap::new()),
            changes,
            fanout: OnceLock::new(),
        }
    }
}

impl SeatMaps {
    /// The map of a published event, or `None` when there is no such event.
    pub async fn get(
        &self,
        db: &Db,
        event_id: EventId,
    ) -> Result<Option<Arc<EventSeatMap>>, ApiError> {
        if let Some(m) = self.cached(event_id) {
            return Ok(Some(m));
        }
        let Some(map) = load(db, event_id).await? else {
            return Ok(None);
        };
        let mut maps = self.maps.write().unwrap_or_else(|p| p.into_inner());
        Ok(Some(
            maps.entry(event_id)
                .or_insert_with(|| Arc::new(map))
                .clone(),
        ))
    }

    pub fn cached(&self, event_id: EventId) -> Option<Arc<EventSeatMap>> {
        self.maps
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .get(&event_id)
            .cloned()
    }

    /// Records committed changes (only for maps already loaded: a map loaded
    /// later reads them from the database).
    pub fn publish(&self, event_id: EventId, changes: &[(SeatId, Occupancy)], now_ms: i64) {
        self.apply_here(event_id, changes, now_ms);
        if let Some(out) = self.fanout.get() {
            let _ = out.send((event_id, changes.to_vec()));
        }
    }

    /// Applies changes to this instance's map and its streams only (what
    /// arrives from other instances).
    pub fn apply_here(&self, event_id: EventId, changes: &[(SeatId, Occupancy)], now_ms: i64) {
        if let Some(map) = self.cached(event_id) {
            if let Some(batch) = map.apply(changes, now_ms) {
                let _ = self.changes.send(batch);
            }
        }
    }

    /// Drops every map; each reloads from the database on its next use.
    /// Drops one event's map (it is loaded again on next use).
    pub fn forget(&self, event_id: EventId) {
        self.maps
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&event_id);
    }

    pub fn forget_all(&self) {
        self.maps.write().unwrap_or_else(|p| p.into_inner()).clear();
    }

    /// From now on, local changes are also handed to `out` for the other
    /// instances.
    pub fn fan_out_to(&self, out: ChangeSender) {
        let _ = self.fanout.set(out);
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Arc<SeatChanges>> {
        self.changes.subscribe()
    }
}

async fn load(db: &Db, event_id: EventId) -> Result<Option<EventSeatMap>, ApiError> {
    let event: Option<(String,)> =
        sqlx::query_as("select currency from event where id = $1 and published = 1")
            .bind(event_id)
            .fetch_optional(db.reader())
            .await?;
    let Some((currency,)) = event else {
        return Ok(None);
    };
    type SeatRow = (
        i64,
        String,
        Option<String>,
        String,
        String,
        i64,
        f64,
        f64,
        String,
        i64,
    );
    let rows: Vec<SeatRow> = sqlx::query_as(
        "select s.id, s.label, s.level, s.section, s.row_label, s.number, s.x, s.y, c.code, c.price_cents
         from seat s join price_category c on c.id = s.category_id
         where s.event_id = $1 order by s.id",
    )
    .bind(event_id)
    .fetch_all(db.reader())
    .await?;
    let seats: Vec<Seat> = rows
        .into_iter()
        .map(
            |(id, label, level, section, row, number, x, y, category, price_cents)| Seat {
                id,
                label,
                level,
                section,
                row,
                number,
                x,
                y,
                category,
                price_cents,
            },
        )
        .collect();
    let held: Vec<(i64, String, i64)> = sqlx::query_as(
        "select bs.seat_id, b.status, b.held_until
         from booking_seat bs join booking b on b.id = bs.booking_id
         where bs.event_id = $1 and bs.live = 1",
    )
    .bind(event_id)
    .fetch_all(db.reader())
    .await?;
    let mut occupancy = vec![Occupancy::Free; seats.len()];
    let position: HashMap<i64, usize> = seats.iter().enumerate().map(|(i, s)| (s.id, i)).collect();
    for (seat_id, status, held_until) in held {
        if let Some(&i) = position.get(&seat_id) {
            occupancy[i] = Occupancy::from_booking(&status, held_until);
        }
    }
    Ok(Some(EventSeatMap::new(
        event_id, currency, seats, occupancy,
    )))
}
