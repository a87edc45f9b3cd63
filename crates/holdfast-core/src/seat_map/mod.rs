//! The live seat map of each event, kept in memory: the static seats (loaded
//! once, they never change) and who occupies each one. Use cases report every
//! committed change here (`apply`), so `GET …/seats` is served from a
//! versioned, pre-serialised snapshot instead of a 10,000-row query, and the
//! stream of changes feeds the SSE endpoint. The database stays the authority:
//! this cache only ever answers "is it worth trying".
//!
//! Here: one event's map (seats, their index and rows, occupancy, the change
//! log); `snapshot` serialises it (the full JSON, and one letter per seat)
//! with an ETag; `drawing` is its SVG without statuses, built once;
//! `claiming` marks seats a request picked and is claiming right now;
//! `offers` spreads the seats suggested to losers over different blocks;
//! `registry` keeps every event's map, loads them, and broadcasts changes;
//! `fanout` carries changes between instances on one Postgres.

use crate::platform::clock::At;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use crate::platform::compressed::Compressed;
use holdfast_model::i18n::Locale;
use holdfast_model::money::Currency;
use holdfast_model::{EventDetail, EventId, EventKind, SeatId, SeatStatus};

pub mod cabins;
mod claiming;
mod drawing;
pub mod fanout;
mod offers;
mod registry;
mod snapshot;
#[cfg(test)]
mod test_rows;

pub use claiming::BeingClaimed;
pub use drawing::Drawing;
pub use registry::{ChangeSender, SeatMaps, RESET};

/// Who holds a seat, as far as the map needs to know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Occupancy {
    Free,
    /// HELD until this instant (ms); free for others once it passes.
    Held(At),
    /// In checkout: shown as HELD, freed only by an explicit transition.
    Pending,
    Booked,
}

impl Occupancy {
    pub fn status(self, now_ms: At) -> SeatStatus {
        match self {
            Occupancy::Free => SeatStatus::Available,
            Occupancy::Held(until) if until <= now_ms => SeatStatus::Available,
            Occupancy::Held(_) | Occupancy::Pending => SeatStatus::Held,
            Occupancy::Booked => SeatStatus::Booked,
        }
    }

    pub fn from_booking(status: holdfast_model::BookingStatus, held_until: At) -> Occupancy {
        use holdfast_model::BookingStatus;
        match status {
            BookingStatus::Held => Occupancy::Held(held_until),
            BookingStatus::PaymentPending => Occupancy::Pending,
            BookingStatus::Booked => Occupancy::Booked,
            _ => Occupancy::Free,
        }
    }
}

pub use holdfast_model::{Seat, SeatChange, SeatChanges};

/// The serialised snapshot with its version and ETag (`snapshot`): the
/// compact `GET …/seats/status`, and the full JSON of `GET …/seats` made
/// when first asked for (browsers read the letters; the JSON is for
/// integrators), each compressed once when first asked for.
pub struct Rendered {
    pub version: u64,
    pub etag: String,
    pub statuses: Compressed,
    json: OnceLock<Compressed>,
    /// What the JSON is made from: the seats, and their statuses as of
    /// this version.
    seats: Arc<Vec<Seat>>,
    seat_statuses: Vec<SeatStatus>,
    event_id: EventId,
}

pub struct EventSeatMap {
    pub event_id: EventId,
    pub currency: Currency,
    pub kind: EventKind,
    /// Fixed once the map is loaded; shared with the snapshots made of it.
    pub seats: Arc<Vec<Seat>>,
    /// The seats that are cabins (a sailing's), with their occupancy.
    pub cabins: HashMap<SeatId, cabins::Cabin>,
    index: HashMap<SeatId, usize>,
    /// Seat indices grouped by (section, row), each group ordered by number.
    pub rows: Vec<Vec<usize>>,
    live: Mutex<Live>,
    /// Per seat: picked by a request that is claiming it now (`claiming`).
    claiming: Mutex<Vec<bool>>,
    /// Per seat: offered to a loser until this instant (`offers`).
    offered_until: Mutex<Vec<At>>,
    drawing: OnceLock<Arc<Drawing>>,
    /// The event as its page last read it, and when (`catalog::event_for_page`).
    page_detail: Mutex<Option<(Instant, Arc<EventDetail>)>>,
    /// Held while one request reads the details again: the others that
    /// found them stale wait for that read instead of each querying.
    page_refresh: tokio::sync::Mutex<()>,
}

struct Live {
    occupancy: Vec<Occupancy>,
    version: u64,
    rendered: Option<Arc<Rendered>>,
    /// The rendered snapshot is exact until this instant: the next hold expiry.
    exact_until: At,
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
        currency: Currency,
        seats: Vec<Seat>,
        occupancy: Vec<Occupancy>,
    ) -> Self {
        let index = seats.iter().enumerate().map(|(i, s)| (s.id, i)).collect();
        let seat_count = seats.len();
        let mut groups: HashMap<(&str, &str), Vec<usize>> = HashMap::new();
        for (i, s) in seats.iter().enumerate() {
            groups.entry((&s.section, &s.row)).or_default().push(i);
        }
        let mut rows: Vec<Vec<usize>> = groups.into_values().collect();
        for r in rows.iter_mut() {
            r.sort_by_key(|&i| seats[i].number);
        }
        rows.sort_by_key(|r| seats[r[0]].id);
        EventSeatMap {
            event_id,
            currency,
            kind: EventKind::Concert,
            seats: Arc::new(seats),
            cabins: HashMap::new(),
            index,
            rows,
            live: Mutex::new(Live {
                occupancy,
                version: 1,
                rendered: None,
                exact_until: At::from_ms(i64::MIN),
                built_at: None,
                builds: 0,
                recent: VecDeque::new(),
            }),
            claiming: Mutex::new(vec![false; seat_count]),
            offered_until: Mutex::new(vec![At::from_ms(0); seat_count]),
            drawing: OnceLock::new(),
            page_detail: Mutex::new(None),
            page_refresh: tokio::sync::Mutex::new(()),
        }
    }

    /// The map of a sailing, whose cabins take parties.
    pub fn with_cabins(mut self, cabins: HashMap<SeatId, cabins::Cabin>) -> Self {
        self.cabins = cabins;
        self
    }

    /// A concert's map (the default) or a ship's: how its places are named.
    pub fn with_kind(mut self, kind: EventKind) -> Self {
        self.kind = kind;
        self
    }

    /// A place as people name it ("Section U4, row 20, seat 10"; "Deck 6,
    /// Inside starboard, cabin 6051"), in `l`.
    pub fn place_name(&self, l: Locale, seat: &Seat) -> String {
        let cabin = self.cabins.contains_key(&seat.id);
        self.kind
            .name_place(l, cabin, &seat.section, &seat.row, seat.number)
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
    pub fn taken_among(&self, ids: &[SeatId], now_ms: At) -> Vec<SeatId> {
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
    pub fn statuses(&self, now_ms: At) -> Vec<SeatStatus> {
        self.live()
            .occupancy
            .iter()
            .map(|o| o.status(now_ms))
            .collect()
    }

    /// One flag per seat (by index): free now?
    pub fn free_mask(&self, now_ms: At) -> Vec<bool> {
        self.live()
            .occupancy
            .iter()
            .map(|o| o.status(now_ms) == SeatStatus::Available)
            .collect()
    }

    pub fn available_count(&self, now_ms: At) -> i64 {
        self.live()
            .occupancy
            .iter()
            .filter(|o| o.status(now_ms) == SeatStatus::Available)
            .count() as i64
    }

    /// Records committed changes; returns the batch for the live stream.
    pub fn apply(&self, changes: &[(SeatId, Occupancy)], now_ms: At) -> Option<Arc<SeatChanges>> {
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
        live.exact_until = At::from_ms(i64::MIN);
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

    /// The event's details as a page last read them, if younger than `fresh`.
    pub fn page_detail(&self, fresh: std::time::Duration) -> Option<Arc<EventDetail>> {
        let kept = self.page_detail.lock().unwrap_or_else(|p| p.into_inner());
        kept.as_ref()
            .filter(|(at, _)| at.elapsed() < fresh)
            .map(|(_, d)| d.clone())
    }

    /// One reader of the details at a time (see `page_refresh`).
    pub async fn refreshing_page_detail(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.page_refresh.lock().await
    }

    pub fn keep_page_detail(&self, detail: Arc<EventDetail>) {
        *self.page_detail.lock().unwrap_or_else(|p| p.into_inner()) =
            Some((Instant::now(), detail));
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
}
