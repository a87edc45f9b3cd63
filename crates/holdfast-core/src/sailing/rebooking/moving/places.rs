//! What a move works from: each sailing's free cabins and seats (read once
//! per run, again after one was taken under the job), a cancelled
//! sailing's next sailing, and the parties aboard a booking.

use super::super::ANSWER_CUTOFF_MS;
use crate::sailing::placement::{Party, Room};
use crate::{ApiError, AppState};
use holdfast_model::{BookingId, BookingStatus, EventBrief, EventId, SeatId};
use std::collections::HashMap;

/// Free places per sailing, read once per run and again after a place was
/// taken under the job; and each cancelled sailing's next sailing.
#[derive(Default)]
pub(in crate::sailing::rebooking) struct Rooms {
    free: HashMap<EventId, Vec<Room>>,
    next: HashMap<EventId, Option<EventId>>,
    told: HashMap<EventId, (String, Option<EventBrief>)>,
}

impl Rooms {
    pub(super) async fn next_of(
        &mut self,
        state: &AppState,
        from: EventId,
    ) -> Result<Option<EventId>, ApiError> {
        if let Some(next) = self.next.get(&from) {
            return Ok(*next);
        }
        let next = next_sailing(state, from).await?;
        self.next.insert(from, next);
        Ok(next)
    }

    pub(super) async fn free_on(
        &mut self,
        state: &AppState,
        sailing: EventId,
    ) -> Result<&[Room], ApiError> {
        let rooms = match self.free.entry(sailing) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(free_rooms(state, sailing).await?)
            }
        };
        Ok(rooms.as_slice())
    }

    /// Takes `seats` out of the sailing's free places; the places taken.
    pub(super) fn take(&mut self, sailing: EventId, seats: &[SeatId]) -> Vec<Room> {
        let Some(rooms) = self.free.get_mut(&sailing) else {
            return Vec::new();
        };
        let (taken, left) = std::mem::take(rooms)
            .into_iter()
            .partition(|r| seats.contains(&r.seat));
        *rooms = left;
        taken
    }

    pub(super) fn put_back(&mut self, sailing: EventId, back: Vec<Room>) {
        if let Some(rooms) = self.free.get_mut(&sailing) {
            rooms.extend(back);
            rooms.sort_by_key(|r| r.seat);
        }
    }

    pub(super) fn forget_all(&mut self) {
        self.free.clear();
    }

    /// What the mails about `from`'s cancellation say: its reason, and the
    /// sailing its bookings go to.
    pub(super) async fn told(
        &mut self,
        state: &AppState,
        from: EventId,
        to: Option<EventId>,
    ) -> Result<(String, Option<EventBrief>), ApiError> {
        if let Some(told) = self.told.get(&from) {
            return Ok(told.clone());
        }
        let reason: (Option<String>,) =
            sqlx::query_as("select cancel_reason from sailing where event_id = $1")
                .bind(from)
                .fetch_one(state.db.reader())
                .await?;
        let new = match to {
            Some(to) => crate::catalog::event_brief(state, to).await?,
            None => None,
        };
        let told = (reason.0.unwrap_or_default(), new);
        self.told.insert(from, told.clone());
        Ok(told)
    }
}

/// The route's next sailing after `from` that sells and leaves time to
/// answer.
pub(in crate::sailing::rebooking) async fn next_sailing(
    state: &AppState,
    from: EventId,
) -> Result<Option<EventId>, ApiError> {
    let now = state.clock.now();
    let next: Option<(EventId,)> = sqlx::query_as(
        "select n.event_id from sailing c join sailing n on n.route_id = c.route_id
         where c.event_id = $1 and n.departs_at > c.departs_at and n.cancelled_at is null
           and n.departs_at > $2
         order by n.departs_at, n.event_id limit 1",
    )
    .bind(from)
    .bind(now + ANSWER_CUTOFF_MS)
    .fetch_optional(state.db.reader())
    .await?;
    Ok(next.map(|n| n.0))
}

/// The places of `sailing` no live booking owns (a hold that ran out does
/// not own its place).
pub(in crate::sailing::rebooking) async fn free_rooms(
    state: &AppState,
    sailing: EventId,
) -> Result<Vec<Room>, ApiError> {
    let sql = format!(
        "select s.id as seat, coalesce(s.level, '') as deck, s.row_label as corridor, s.number,
                pc.code as category, pc.price_cents,
                coalesce(c.min_guests, 1) as min_guests, coalesce(c.max_guests, 1) as max_guests
         from seat s join price_category pc on pc.id = s.category_id
         left join cabin c on c.seat_id = s.id
         where s.event_id = $1 and not exists (
             select 1 from booking_seat bs join booking b on b.id = bs.booking_id
             where bs.seat_id = s.id and bs.live = 1
               and {owns})
         order by s.id",
        owns = BookingStatus::owns_places_sql("b", "$2"),
    );
    let rows: Vec<RoomRow> = sqlx::query_as(&sql)
        .bind(sailing)
        .bind(state.clock.now())
        .fetch_all(state.db.reader())
        .await?;
    Ok(rows.into_iter().map(RoomRow::into_room).collect())
}

#[derive(sqlx::FromRow)]
struct RoomRow {
    seat: SeatId,
    deck: String,
    corridor: String,
    number: i64,
    category: String,
    price_cents: i64,
    min_guests: i64,
    max_guests: i64,
}

impl RoomRow {
    fn into_room(self) -> Room {
        Room {
            seat: self.seat,
            deck: self.deck,
            corridor: self.corridor,
            number: self.number,
            category: self.category,
            price_cents: self.price_cents,
            min_guests: self.min_guests,
            max_guests: self.max_guests,
        }
    }
}

/// Bookings' places as parties, their categories priced as on the
/// sailing `$1` (the upgrade rule compares with that price).
pub(super) const PARTIES: &str = "select bs.booking_id, bs.seat_id as seat, coalesce(s.level, '') as deck,
            s.row_label as corridor, s.number, pc.code as category,
            coalesce((select t.price_cents from price_category t
                      where t.event_id = $1 and t.code = pc.code), pc.price_cents) as category_price_cents,
            bs.guests
     from booking_seat bs join seat s on s.id = bs.seat_id
     join price_category pc on pc.id = s.category_id";

#[derive(sqlx::FromRow)]
pub(super) struct PartyRow {
    seat: SeatId,
    deck: String,
    corridor: String,
    number: i64,
    category: String,
    category_price_cents: i64,
    guests: i64,
}

impl PartyRow {
    pub(super) fn into_party(self) -> Party {
        Party {
            seat: self.seat,
            deck: self.deck,
            corridor: self.corridor,
            number: self.number,
            category: self.category,
            category_price_cents: self.category_price_cents,
            guests: self.guests,
        }
    }
}

/// The booking's live places as parties, priced as on `to`.
pub(in crate::sailing::rebooking) async fn parties(
    state: &AppState,
    booking: &BookingId,
    to: EventId,
) -> Result<Vec<Party>, ApiError> {
    let rows: Vec<PartyRow> = sqlx::query_as(&format!(
        "{PARTIES} where bs.booking_id = $2 and bs.live = 1 order by bs.seat_id"
    ))
    .bind(to)
    .bind(booking)
    .fetch_all(state.db.reader())
    .await?;
    Ok(rows.into_iter().map(PartyRow::into_party).collect())
}
