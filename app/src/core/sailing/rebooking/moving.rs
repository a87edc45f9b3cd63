//! Moving a booking's places from one sailing of a ship to another: the
//! job's move off a cancelled sailing (`rebook`) and a buyer's choice of
//! another sailing (`answer`) both write through `move_places`.

use std::collections::HashMap;

use super::ANSWER_CUTOFF_MS;
use crate::core::booking::store;
use crate::core::platform::clock::At;
use crate::core::platform::db::{self, is_unique_violation, Tx};
use crate::core::platform::jobs::fence::Fence;
use crate::core::platform::retry;
use crate::core::sailing::placement::{self, Party, Placement, Room};
use crate::core::seat_map::Occupancy;
use crate::core::{ApiError, AppState};
use crate::i18n::Msg;
use crate::model::{BookingId, BookingStatus, EventId, SeatId};

/// How often a move is tried again after a place it chose was taken
/// meanwhile (each time with the places read again).
const ATTEMPTS: usize = 5;

/// Free places per sailing, read once per run and again after a place was
/// taken under the job; and each cancelled sailing's next sailing.
#[derive(Default)]
pub(super) struct Rooms {
    free: HashMap<EventId, Vec<Room>>,
    next: HashMap<EventId, Option<EventId>>,
}

impl Rooms {
    async fn next_of(
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

    async fn free_on(&mut self, state: &AppState, sailing: EventId) -> Result<&[Room], ApiError> {
        let rooms = match self.free.entry(sailing) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(free_rooms(state, sailing).await?)
            }
        };
        Ok(rooms.as_slice())
    }

    fn taken(&mut self, sailing: EventId, seats: &[SeatId]) {
        if let Some(rooms) = self.free.get_mut(&sailing) {
            rooms.retain(|r| !seats.contains(&r.seat));
        }
    }

    fn forget(&mut self, sailing: EventId) {
        self.free.remove(&sailing);
    }
}

/// The route's next sailing after `from` that sells and leaves time to
/// answer.
async fn next_sailing(state: &AppState, from: EventId) -> Result<Option<EventId>, ApiError> {
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
pub(super) async fn free_rooms(state: &AppState, sailing: EventId) -> Result<Vec<Room>, ApiError> {
    let sql = format!(
        "select s.id as seat, coalesce(s.level, '') as deck, s.row_label as corridor, s.number,
                pc.code as category, pc.price_cents,
                coalesce(c.min_guests, 1) as min_guests, coalesce(c.max_guests, 1) as max_guests
         from seat s join price_category pc on pc.id = s.category_id
         left join cabin c on c.seat_id = s.id
         where s.event_id = $1 and not exists (
             select 1 from booking_seat bs join booking b on b.id = bs.booking_id
             where bs.seat_id = s.id and bs.live = 1
               and (b.status in {owning} or (b.status = {held} and b.held_until > $2)))
         order by s.id",
        owning = BookingStatus::sql_list(&[BookingStatus::PaymentPending, BookingStatus::Booked]),
        held = BookingStatus::Held.sql(),
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

/// The booking's live places as parties, their categories priced as on
/// `to` (the upgrade rule compares with that price).
pub(super) async fn parties(
    state: &AppState,
    booking: &BookingId,
    to: EventId,
) -> Result<Vec<Party>, ApiError> {
    #[derive(sqlx::FromRow)]
    struct Row {
        seat: SeatId,
        deck: String,
        corridor: String,
        number: i64,
        category: String,
        category_price_cents: i64,
        guests: i64,
    }
    let rows: Vec<Row> = sqlx::query_as(
        "select bs.seat_id as seat, coalesce(s.level, '') as deck, s.row_label as corridor, s.number,
                pc.code as category,
                coalesce((select t.price_cents from price_category t
                          where t.event_id = $2 and t.code = pc.code), pc.price_cents) as category_price_cents,
                bs.guests
         from booking_seat bs join seat s on s.id = bs.seat_id
         join price_category pc on pc.id = s.category_id
         where bs.booking_id = $1 and bs.live = 1 order by bs.seat_id",
    )
    .bind(booking)
    .bind(to)
    .fetch_all(state.db.reader())
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| Party {
            seat: r.seat,
            deck: r.deck,
            corridor: r.corridor,
            number: r.number,
            category: r.category,
            category_price_cents: r.category_price_cents,
            guests: r.guests,
        })
        .collect())
}

/// Why a move was not written.
pub(super) enum NotMoved {
    /// A place it chose was taken meanwhile: read the places again.
    PlaceTaken,
    Failed(ApiError),
}

impl From<sqlx::Error> for NotMoved {
    fn from(e: sqlx::Error) -> NotMoved {
        if is_unique_violation(&e) {
            NotMoved::PlaceTaken
        } else {
            NotMoved::Failed(e.into())
        }
    }
}

/// Moves the booking's places as `placement` says, in `tx`: holds that
/// ran out on the new places end first; the new places are claimed
/// through the partial unique index (a place live elsewhere fails the
/// statement); the guests follow their cabins; the old rows are kept in
/// `moved_place`. The price paid per place stays (an upgrade costs
/// nothing).
pub(super) async fn move_places(
    tx: &mut Tx,
    booking: &BookingId,
    to: EventId,
    placement: &Placement,
    now: At,
) -> Result<(), sqlx::Error> {
    let seats: Vec<SeatId> = placement.moves.iter().map(|m| m.1).collect();
    let in_list = seats
        .iter()
        .map(|s| s.0.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let stale: Vec<(BookingId,)> = sqlx::query_as(&format!(
        "select distinct bs.booking_id from booking_seat bs join booking b on b.id = bs.booking_id
         where bs.live = 1 and bs.seat_id in ({in_list}) and b.status = {} and b.held_until <= $1",
        BookingStatus::Held.sql()
    ))
    .bind(now)
    .fetch_all(&mut **tx)
    .await?;
    let stale: Vec<BookingId> = stale.into_iter().map(|s| s.0).collect();
    let ended = store::expire_stale(tx, &stale, now).await?;
    debug_assert!(ended.iter().all(|r| r.event_id == to));
    for (from_seat, to_seat) in &placement.moves {
        sqlx::query(
            "insert into moved_place (booking_id, from_seat_id, to_seat_id, guests, price_cents, moved_at)
             select booking_id, seat_id, $3, guests, price_cents, $4 from booking_seat
             where booking_id = $1 and seat_id = $2 and live = 1",
        )
        .bind(booking)
        .bind(from_seat)
        .bind(to_seat)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    }
    sqlx::query("delete from booking_seat where booking_id = $1")
        .bind(booking)
        .execute(&mut **tx)
        .await?;
    for (from_seat, to_seat) in &placement.moves {
        sqlx::query(
            "insert into booking_seat (booking_id, seat_id, event_id, price_cents, guests, live)
             select booking_id, to_seat_id, $3, price_cents, guests, 1 from moved_place
             where booking_id = $1 and from_seat_id = $2",
        )
        .bind(booking)
        .bind(from_seat)
        .bind(to)
        .execute(&mut **tx)
        .await?;
        sqlx::query("update booking_guest set seat_id = $3 where booking_id = $1 and seat_id = $2")
            .bind(booking)
            .bind(from_seat)
            .bind(to_seat)
            .execute(&mut **tx)
            .await?;
    }
    sqlx::query("update booking set event_id = $2, updated_at = $3 where id = $1")
        .bind(booking)
        .bind(to)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The job's move of one BOOKED booking off the cancelled sailing `from`
/// to the route's next sailing, or its refund offer when nothing there has
/// room for it. A place taken under it means reading the places again.
pub(super) async fn rebook(
    state: &AppState,
    booking: &BookingId,
    from: EventId,
    rooms: &mut Rooms,
) -> Result<(), ApiError> {
    let to = rooms.next_of(state, from).await?;
    for _ in 0..ATTEMPTS {
        let placement = match to {
            Some(to) => {
                let parties = parties(state, booking, to).await?;
                placement::place(&parties, rooms.free_on(state, to).await?)
            }
            None => None,
        };
        let written = retry::retried("rebooking", || async {
            match write_rebooking(state, booking, from, to, placement.as_ref()).await {
                Ok(done) => Ok(Ok(done)),
                Err(NotMoved::PlaceTaken) => Ok(Err(())),
                Err(NotMoved::Failed(e)) => Err(e),
            }
        })
        .await?;
        match (written, to) {
            (Ok(true), Some(to)) => {
                if let Some(p) = &placement {
                    let seats: Vec<SeatId> = p.moves.iter().map(|m| m.1).collect();
                    rooms.taken(to, &seats);
                    publish_move(state, from, to, p);
                }
                return Ok(());
            }
            (Ok(_), _) => return Ok(()),
            (Err(()), Some(to)) => rooms.forget(to),
            (Err(()), None) => return Ok(()),
        }
    }
    tracing::warn!(%booking, "places kept being taken under the rebooking; the next run tries again");
    Ok(())
}

/// The move (or the refund offer) with its `rebooking` row and the buyer's
/// mail, in one transaction; false when the booking was already handled
/// (moved by an earlier run, refunded, no longer on `from`).
async fn write_rebooking(
    state: &AppState,
    booking: &BookingId,
    from: EventId,
    to: Option<EventId>,
    placement: Option<&Placement>,
) -> Result<bool, NotMoved> {
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    let Some(locked) = store::lock(&mut tx, booking).await? else {
        return Ok(false);
    };
    if locked.status != BookingStatus::Booked || locked.event_id != from {
        return Ok(false);
    }
    let moved_to = placement.and(to);
    let fence = Fence::current().map_or(0, |f| f.token);
    let inserted = sqlx::query(
        "insert into rebooking (booking_id, from_event_id, to_event_id, moved_at, fence)
         values ($1, $2, $3, $4, $5) on conflict do nothing",
    )
    .bind(booking)
    .bind(from)
    .bind(moved_to)
    .bind(now)
    .bind(fence)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if inserted == 0 {
        return Ok(false);
    }
    if let (Some(to), Some(p)) = (moved_to, placement) {
        move_places(&mut tx, booking, to, p, now).await?;
    }
    mail(
        &mut tx,
        state,
        booking,
        from,
        &locked.buyer_id,
        moved_to,
        now,
    )
    .await
    .map_err(NotMoved::Failed)?;
    db::commit(tx).await?;
    Ok(true)
}

/// The buyer's mail about the cancellation, once (its outbox key), in the
/// language they paid in: where the booking went, or that a refund waits.
async fn mail(
    tx: &mut Tx,
    state: &AppState,
    booking: &BookingId,
    from: EventId,
    buyer: &crate::model::BuyerId,
    moved_to: Option<EventId>,
    now: At,
) -> Result<(), ApiError> {
    let l = crate::core::buyer_language::of_booking(tx, booking).await?;
    let reason: (Option<String>,) =
        sqlx::query_as("select cancel_reason from sailing where event_id = $1")
            .bind(from)
            .fetch_one(&mut **tx)
            .await?;
    let reason = reason.0.unwrap_or_default();
    let body = match moved_to {
        Some(to) => {
            let new = crate::core::catalog::event_brief(state, to)
                .await?
                .ok_or(ApiError::NotFound("sailing"))?;
            l.fill(
                Msg::MailRebooked,
                &[
                    ("reason", &reason),
                    ("sailing", &new.name),
                    ("when", &new.when(l)),
                ],
            )
        }
        None => l.fill(Msg::MailRebookingRefundOffered, &[("reason", &reason)]),
    };
    crate::core::payments::outbox::enqueue_email(
        tx,
        booking,
        &format!("rebooked-{booking}-{}", from.0),
        &format!("buyer:{buyer}"),
        l.t(Msg::MailSailingCancelledSubject),
        &body,
        now,
    )
    .await?;
    Ok(())
}

/// The maps after a committed move: the old places free (on a sailing
/// that no longer sells), the new ones booked.
pub(super) fn publish_move(state: &AppState, from: EventId, to: EventId, placement: &Placement) {
    let now = state.clock.now();
    let freed: Vec<(SeatId, Occupancy)> = placement
        .moves
        .iter()
        .map(|m| (m.0, Occupancy::Free))
        .collect();
    let booked: Vec<(SeatId, Occupancy)> = placement
        .moves
        .iter()
        .map(|m| (m.1, Occupancy::Booked))
        .collect();
    state.seat_maps.publish(from, &freed, now);
    state.seat_maps.publish(to, &booked, now);
}
