//! Every event's seat map, loaded on first use, and the broadcast of their
//! changes (to this instance's streams, and through the fan-out to the
//! other instances).

use crate::platform::clock::At;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock, RwLock};

use tokio::sync::{broadcast, mpsc};

use super::{EventSeatMap, Occupancy, Seat, SeatChanges};
use crate::platform::db::Db;
use crate::ApiError;
use holdfast_model::money::Currency;
use holdfast_model::{BookingStatus, EventId, EventKind, SeatId};

/// Hands one event's committed changes to the fan-out to other instances.
pub type ChangeSender = mpsc::UnboundedSender<(EventId, Vec<(SeatId, Occupancy)>)>;

/// All events' maps, loaded on first use, plus the broadcast of changes.
pub struct SeatMaps {
    maps: RwLock<HashMap<EventId, Arc<EventSeatMap>>>,
    changes: broadcast::Sender<Arc<SeatChanges>>,
    /// Where local changes go to reach the other instances (Postgres only).
    fanout: OnceLock<ChangeSender>,
    /// Held while a map loads, so a crowd arriving at a map not loaded yet
    /// (first requests of an on-sale, a restart) loads it once, not once per
    /// request: concurrent loads of a large map contend for the same cores
    /// and database, and each would take many times as long as one alone.
    loading: tokio::sync::Mutex<()>,
    loads: AtomicU64,
}

impl Default for SeatMaps {
    fn default() -> Self {
        let (changes, _) = broadcast::channel(1024);
        SeatMaps {
            maps: RwLock::new(HashMap::new()),
            changes,
            fanout: OnceLock::new(),
            loading: tokio::sync::Mutex::new(()),
            loads: AtomicU64::new(0),
        }
    }
}

/// The version of a batch that carries no change but says "read the map
/// again" (`forget_all`).
pub const RESET: u64 = 0;

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
        let _loading = self.loading.lock().await;
        if let Some(m) = self.cached(event_id) {
            return Ok(Some(m));
        }
        self.loads.fetch_add(1, Ordering::Relaxed);
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

    /// How many times a map was read from the database.
    pub fn loads(&self) -> u64 {
        self.loads.load(Ordering::Relaxed)
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
    pub fn publish(&self, event_id: EventId, changes: &[(SeatId, Occupancy)], now_ms: At) {
        self.apply_here(event_id, changes, now_ms);
        if let Some(out) = self.fanout.get() {
            let _ = out.send((event_id, changes.to_vec()));
        }
    }

    /// Applies changes to this instance's map and its streams only (what
    /// arrives from other instances).
    pub fn apply_here(&self, event_id: EventId, changes: &[(SeatId, Occupancy)], now_ms: At) {
        if let Some(map) = self.cached(event_id) {
            if let Some(batch) = map.apply(changes, now_ms) {
                let _ = self.changes.send(batch);
            }
        }
    }

    /// Drops one event's map (it is loaded again on next use).
    pub fn forget(&self, event_id: EventId) {
        self.maps
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&event_id);
    }

    /// Drops every map (changes were missed: the fan-out's connection was
    /// lost, a failover perhaps) and tells every open stream of them to
    /// read its map again: a batch of version 0 (`RESET`), which no change
    /// ever has, since a map reloaded numbers its changes from 1 again.
    pub fn forget_all(&self) {
        let dropped: Vec<EventId> = {
            let mut maps = self.maps.write().unwrap_or_else(|p| p.into_inner());
            maps.drain().map(|(event_id, _)| event_id).collect()
        };
        for event_id in dropped {
            let _ = self.changes.send(Arc::new(SeatChanges {
                event_id,
                version: RESET,
                changes: Vec::new(),
            }));
        }
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
    let event: Option<(Currency, String)> =
        sqlx::query_as("select currency, kind from event where id = $1 and published = 1")
            .bind(event_id)
            .fetch_optional(db.reader())
            .await?;
    let Some((currency, kind)) = event else {
        return Ok(None);
    };
    let kind = EventKind::parse(&kind).unwrap_or(EventKind::Concert);
    let seats: Vec<Seat> = sqlx::query_as(
        "select s.id, s.label, s.level, s.section, s.row_label as row, s.number, s.x, s.y,
                c.code as category, c.price_cents
         from seat s join price_category c on c.id = s.category_id
         where s.event_id = $1 order by s.id",
    )
    .bind(event_id)
    .fetch_all(db.reader())
    .await?;
    let held: Vec<(SeatId, BookingStatus, At)> = sqlx::query_as(
        "select bs.seat_id, b.status, b.held_until
         from booking_seat bs join booking b on b.id = bs.booking_id
         where bs.event_id = $1 and bs.live = 1",
    )
    .bind(event_id)
    .fetch_all(db.reader())
    .await?;
    let mut occupancy = vec![Occupancy::Free; seats.len()];
    let position: HashMap<SeatId, usize> =
        seats.iter().enumerate().map(|(i, s)| (s.id, i)).collect();
    for (seat_id, status, held_until) in held {
        if let Some(&i) = position.get(&seat_id) {
            occupancy[i] = Occupancy::from_booking(status, held_until);
        }
    }
    let cabins = super::cabins::load(db, event_id).await?;
    Ok(Some(
        EventSeatMap::new(event_id, currency, seats, occupancy)
            .with_cabins(cabins)
            .with_kind(kind),
    ))
}
