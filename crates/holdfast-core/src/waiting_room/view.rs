//! Each instance's picture of its events' waiting rooms, read from the
//! database at most every `MAX_AGE` per event. Status polls, the status
//! stream and the admission gate read this picture, never the database, so
//! a crowd refreshing its place costs the database nothing.

use crate::platform::clock::At;
use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use super::arrivals::Arrivals;
use super::store;
use super::token::AdmissionSigner;
use crate::platform::db::Db;
use crate::platform::secrets::{Purpose, Secrets};
use crate::seat_map::SeatMaps;
use crate::ApiError;
use holdfast_model::EventId;

const MAX_AGE: Duration = Duration::from_millis(500);

/// One event's waiting room as last read.
#[derive(Debug, Clone, Default)]
pub struct RoomView {
    /// The event has a room, on or off.
    pub configured: bool,
    pub enabled: bool,
    pub admit_per_minute: i64,
    pub on_sale_at: At,
    /// The event's time zone (IANA name).
    pub time_zone: String,
    pub issued: i64,
    pub admitted_through: i64,
    /// Places up to here were admitted longer ago than an admission lasts.
    pub expired_through: i64,
    /// Admission steps still valid: (through position, admitted at), by position.
    pub steps: Vec<(i64, At)>,
    /// Seats and standing places free right now.
    pub free_places: i64,
    pub admission_ttl_ms: i64,
}

impl RoomView {
    /// When the step that let `place` in happened, if it is still valid.
    pub fn admitted_at(&self, place: i64) -> Option<At> {
        if place <= self.expired_through || place > self.admitted_through {
            return None;
        }
        let i = self.steps.partition_point(|(through, _)| *through < place);
        self.steps.get(i).map(|s| s.1)
    }

    /// Buyers waiting behind the watermark.
    pub fn waiting(&self) -> i64 {
        self.issued - self.admitted_through
    }
}

pub struct WaitingRooms {
    rooms: RwLock<HashMap<EventId, (Instant, Arc<RoomView>)>>,
    pub signer: AdmissionSigner,
    pub admission_ttl_ms: i64,
    /// Production: the queue and admission cookies are `Secure`.
    pub secure_cookies: bool,
    /// This instance's writer of queue places.
    pub arrivals: Arrivals,
}

impl WaitingRooms {
    /// Starts the writer of places too (inside the runtime).
    pub fn new(db: &Db, secrets: &Secrets, admission_ttl_ms: i64, secure_cookies: bool) -> Self {
        WaitingRooms {
            rooms: RwLock::new(HashMap::new()),
            signer: AdmissionSigner::new(
                &secrets.key(Purpose::QueuePlaces),
                &secrets.key(Purpose::Admissions),
            ),
            admission_ttl_ms,
            secure_cookies,
            arrivals: Arrivals::start(db.clone(), admission_ttl_ms),
        }
    }

    /// The room of an event (`None`: no such event).
    pub async fn view(
        &self,
        db: &Db,
        maps: &SeatMaps,
        event_id: EventId,
        now: At,
    ) -> Result<Option<Arc<RoomView>>, ApiError> {
        if let Some((at, view)) = self
            .rooms
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .get(&event_id)
        {
            if at.elapsed() < MAX_AGE {
                return Ok(Some(view.clone()));
            }
        }
        let Some(view) = load(db, maps, event_id, now, self.admission_ttl_ms).await? else {
            return Ok(None);
        };
        let view = Arc::new(view);
        self.rooms
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .insert(event_id, (Instant::now(), view.clone()));
        Ok(Some(view))
    }

    /// Drops this instance's picture of a room after changing it here.
    pub fn forget(&self, event_id: EventId) {
        self.rooms
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&event_id);
    }
}

async fn load(
    db: &Db,
    maps: &SeatMaps,
    event_id: EventId,
    now: At,
    admission_ttl_ms: i64,
) -> Result<Option<RoomView>, ApiError> {
    let Some(room) = store::room(db, event_id).await? else {
        return Ok(None);
    };
    let places = places(db, maps, event_id, now).await?;
    let mut view = RoomView {
        configured: room.enabled.is_some(),
        enabled: room.enabled == Some(1),
        admit_per_minute: room.admit_per_minute.unwrap_or(1),
        on_sale_at: room.on_sale_at,
        time_zone: room.time_zone,
        issued: room.issued.unwrap_or(0),
        admitted_through: room.admitted_through.unwrap_or(0),
        admission_ttl_ms,
        free_places: places.free,
        ..RoomView::default()
    };
    if view.configured {
        let window_start = now - admission_ttl_ms;
        view.expired_through =
            store::admitted_through_at(db.reader(), event_id, window_start).await?;
        view.steps = store::steps_since(db, event_id, window_start).await?;
    }
    Ok(Some(view))
}

/// Seats free on the live map plus standing places left.
/// An event's places (seats and standing places): free now, and in all.
pub struct Places {
    pub free: i64,
    pub total: i64,
}

pub async fn places(
    db: &Db,
    maps: &SeatMaps,
    event_id: EventId,
    now: At,
) -> Result<Places, ApiError> {
    let standing = crate::catalog::standing_places(db, event_id).await?;
    places_with(db, maps, event_id, standing, now).await
}

/// [`places`] for a caller that read the standing areas' places (left, in
/// all) in a statement of its own.
pub async fn places_with(
    db: &Db,
    maps: &SeatMaps,
    event_id: EventId,
    (free_standing, standing): (i64, i64),
    now: At,
) -> Result<Places, ApiError> {
    let (free_seats, seats) = maps
        .get(db, event_id)
        .await?
        .map_or((0, 0), |m| (m.available_count(now), m.seats.len() as i64));
    Ok(Places {
        free: free_seats + free_standing,
        total: seats + standing,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_finds_the_step_that_admitted_it() {
        let room = RoomView {
            admitted_through: 30,
            expired_through: 10,
            steps: vec![(20, At::from_ms(1_000)), (30, At::from_ms(2_000))],
            ..RoomView::default()
        };
        assert_eq!(room.admitted_at(5), None, "expired");
        assert_eq!(room.admitted_at(11), Some(At::from_ms(1_000)));
        assert_eq!(room.admitted_at(20), Some(At::from_ms(1_000)));
        assert_eq!(room.admitted_at(21), Some(At::from_ms(2_000)));
        assert_eq!(room.admitted_at(31), None, "still waiting");
    }
}
