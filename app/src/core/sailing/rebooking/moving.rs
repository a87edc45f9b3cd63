//! Moving a booking's places from one sailing of a ship to another: the
//! job's move off a cancelled sailing (`rebook`) and a buyer's choice of
//! another sailing (`answer`) both write through `claim` and
//! `complete_move`.

use std::collections::HashMap;

use super::ANSWER_CUTOFF_MS;
use crate::core::platform::clock::At;
use crate::core::platform::db::{self, Tx};
use crate::core::platform::jobs::fence::Fence;
use crate::core::platform::retry;
use crate::core::sailing::placement::{self, Party, Placement, Room};
use crate::core::seat_map::Occupancy;
use crate::core::{ApiError, AppState};
use crate::i18n::Msg;
use crate::model::{BookingId, BookingStatus, BuyerId, EventBrief, EventId, SeatId};

/// How often a booking's parties are placed again after a place chosen
/// for them was taken meanwhile.
const ATTEMPTS: usize = 5;

/// Bookings moved in one transaction (one commit, one fence check).
const GROUP: usize = 25;

/// Free places per sailing, read once per run and again after a place was
/// taken under the job; and each cancelled sailing's next sailing.
#[derive(Default)]
pub(super) struct Rooms {
    free: HashMap<EventId, Vec<Room>>,
    next: HashMap<EventId, Option<EventId>>,
    told: HashMap<EventId, (String, Option<EventBrief>)>,
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

    /// Takes `seats` out of the sailing's free places; the places taken.
    fn take(&mut self, sailing: EventId, seats: &[SeatId]) -> Vec<Room> {
        let Some(rooms) = self.free.get_mut(&sailing) else {
            return Vec::new();
        };
        let (taken, left) = std::mem::take(rooms)
            .into_iter()
            .partition(|r| seats.contains(&r.seat));
        *rooms = left;
        taken
    }

    fn put_back(&mut self, sailing: EventId, back: Vec<Room>) {
        if let Some(rooms) = self.free.get_mut(&sailing) {
            rooms.extend(back);
            rooms.sort_by_key(|r| r.seat);
        }
    }

    fn forget_all(&mut self) {
        self.free.clear();
    }

    /// What the mails about `from`'s cancellation say: its reason, and the
    /// sailing its bookings go to.
    async fn told(
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
            Some(to) => crate::core::catalog::event_brief(state, to).await?,
            None => None,
        };
        let told = (reason.0.unwrap_or_default(), new);
        self.told.insert(from, told.clone());
        Ok(told)
    }
}

/// The route's next sailing after `from` that sells and leaves time to
/// answer.
pub(super) async fn next_sailing(
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

/// Bookings' places as parties, their categories priced as on the
/// sailing `$1` (the upgrade rule compares with that price).
const PARTIES: &str = "select bs.booking_id, bs.seat_id as seat, coalesce(s.level, '') as deck,
            s.row_label as corridor, s.number, pc.code as category,
            coalesce((select t.price_cents from price_category t
                      where t.event_id = $1 and t.code = pc.code), pc.price_cents) as category_price_cents,
            bs.guests
     from booking_seat bs join seat s on s.id = bs.seat_id
     join price_category pc on pc.id = s.category_id";

#[derive(sqlx::FromRow)]
struct PartyRow {
    seat: SeatId,
    deck: String,
    corridor: String,
    number: i64,
    category: String,
    category_price_cents: i64,
    guests: i64,
}

impl PartyRow {
    fn into_party(self) -> Party {
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
pub(super) async fn parties(
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

/// The pairs of a placement as a CTE's rows, from parameter `$first`:
/// `m(from_seat, to_seat)`.
fn pairs_cte(placement: &Placement, first: usize) -> String {
    let rows: Vec<String> = (0..placement.moves.len())
        .map(|i| {
            let p = first + 2 * i;
            format!("(cast(${p} as bigint), cast(${} as bigint))", p + 1)
        })
        .collect();
    format!("with m(from_seat, to_seat) as (values {})", rows.join(", "))
}

/// Claims the booking's new places on `to` (at the price paid and for the
/// party of the places they replace) through the partial unique index
/// that decides every hold: a place live in another booking is passed
/// over (`on conflict … do nothing`). Answers the places it could not
/// claim; if any, the caller gives back the others (`unclaim`).
pub(super) async fn claim(
    tx: &mut Tx,
    booking: &BookingId,
    to: EventId,
    placement: &Placement,
) -> Result<Vec<SeatId>, sqlx::Error> {
    let sql = format!(
        "{} insert into booking_seat (booking_id, seat_id, event_id, price_cents, guests, live)
         select $1, m.to_seat, $2, bs.price_cents, bs.guests, 1
         from m join booking_seat bs on bs.booking_id = $1 and bs.seat_id = m.from_seat and bs.live = 1
         where true
         on conflict (seat_id) where live = 1 do nothing
         returning seat_id",
        pairs_cte(placement, 3)
    );
    let mut q = sqlx::query_as(&sql).bind(booking).bind(to);
    for (from, to_seat) in &placement.moves {
        q = q.bind(from).bind(to_seat);
    }
    let claimed: Vec<(SeatId,)> = q.fetch_all(&mut **tx).await?;
    Ok(placement
        .moves
        .iter()
        .map(|m| m.1)
        .filter(|s| !claimed.iter().any(|c| c.0 == *s))
        .collect())
}

/// Gives back what `claim` took of a move that could not be completed.
pub(super) async fn unclaim(
    tx: &mut Tx,
    booking: &BookingId,
    to: EventId,
) -> Result<(), sqlx::Error> {
    sqlx::query("delete from booking_seat where booking_id = $1 and event_id = $2")
        .bind(booking)
        .bind(to)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Completes a claimed move: the old places are kept in `moved_place`
/// and leave `booking_seat`, the guests follow their cabins, the booking
/// is the new sailing's. The price paid per place stays (an upgrade
/// costs nothing).
pub(super) async fn complete_move(
    tx: &mut Tx,
    booking: &BookingId,
    from: EventId,
    to: EventId,
    placement: &Placement,
    named: bool,
    now: At,
) -> Result<(), sqlx::Error> {
    let sql = format!(
        "{} insert into moved_place (booking_id, from_seat_id, to_seat_id, guests, price_cents, moved_at)
         select $1, m.from_seat, m.to_seat, bs.guests, bs.price_cents, $2
         from m join booking_seat bs on bs.booking_id = $1 and bs.seat_id = m.from_seat and bs.live = 1",
        pairs_cte(placement, 3)
    );
    let mut q = sqlx::query(&sql).bind(booking).bind(now);
    for (from_seat, to_seat) in &placement.moves {
        q = q.bind(from_seat).bind(to_seat);
    }
    q.execute(&mut **tx).await?;
    sqlx::query("delete from booking_seat where booking_id = $1 and event_id = $2")
        .bind(booking)
        .bind(from)
        .execute(&mut **tx)
        .await?;
    if named {
        sqlx::query(
            "update booking_guest set seat_id = (select m.to_seat_id from moved_place m
                 where m.booking_id = booking_guest.booking_id and m.from_seat_id = booking_guest.seat_id)
             where booking_id = $1 and seat_id in (select s.id from seat s where s.event_id = $2)",
        )
        .bind(booking)
        .bind(from)
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

/// Places and claims the booking's parties on `to`: a place taken under
/// the job is passed over and the parties placed again, a few times;
/// `None` when they no longer fit (a refund is offered).
async fn place_and_claim(
    tx: &mut Tx,
    state: &AppState,
    rooms: &mut Rooms,
    booking: &BookingId,
    parties: &[Party],
    to: EventId,
) -> Result<Option<Placement>, ApiError> {
    for _ in 0..ATTEMPTS {
        let Some(placed) = placement::place(parties, rooms.free_on(state, to).await?) else {
            return Ok(None);
        };
        let missed = claim(tx, booking, to, &placed).await?;
        let seats: Vec<SeatId> = placed.moves.iter().map(|m| m.1).collect();
        let taken = rooms.take(to, &seats);
        if missed.is_empty() {
            return Ok(Some(placed));
        }
        unclaim(tx, booking, to).await?;
        // The missed places are someone else's; the others stay free.
        let back = taken
            .into_iter()
            .filter(|r| !missed.contains(&r.seat))
            .collect();
        rooms.put_back(to, back);
    }
    Ok(None)
}

/// The job's move of BOOKED bookings off the cancelled sailing `from` to
/// the route's next sailing (or a refund offer when nothing there has room
/// for one), `GROUP` to a transaction with each one's `rebooking` row and
/// mail. A group the database rolls back for contention is done again
/// with the places read again.
pub(super) async fn rebook(
    state: &AppState,
    bookings: &[BookingId],
    from: EventId,
    rooms: &mut Rooms,
) -> Result<(), ApiError> {
    let to = rooms.next_of(state, from).await?;
    for group in bookings.chunks(GROUP) {
        let mut tried = 0;
        loop {
            tried += 1;
            match rebook_group(state, group, from, to, rooms).await {
                Ok(moved) => {
                    if let Some(to) = to {
                        for placement in &moved {
                            publish_move(state, from, to, placement);
                        }
                    }
                    break;
                }
                Err(ApiError::Contended(_)) if tried < retry::TRIES => rooms.forget_all(),
                Err(e) => {
                    rooms.forget_all();
                    return Err(e);
                }
            }
        }
    }
    Ok(())
}

/// A booking of a group as locked: its state, buyer, whether it was
/// handled already, whether guests are named, the buyer's language.
#[derive(sqlx::FromRow)]
struct Locked {
    id: BookingId,
    status: BookingStatus,
    event_id: EventId,
    buyer_id: BuyerId,
    handled: i64,
    named: i64,
    language: Option<String>,
}

/// One transaction: each booking of the group still BOOKED on `from` and
/// not yet handled is moved or offered a refund; the placements made. The
/// group's rows are locked, read and recorded in one statement each; a
/// booking costs its claim, its move and its mail.
async fn rebook_group(
    state: &AppState,
    group: &[BookingId],
    from: EventId,
    to: Option<EventId>,
    rooms: &mut Rooms,
) -> Result<Vec<Placement>, ApiError> {
    let (reason, new) = rooms.told(state, from, to).await?;
    let now = state.clock.now();
    let fence = Fence::current().map_or(0, |f| f.token);
    let mut tx = state.db.begin().await?;
    let ids = (0..group.len())
        .map(|i| format!("${}", i + 2))
        .collect::<Vec<_>>()
        .join(", ");
    // The rows' locks first, as every verdict takes a booking's.
    let sql = format!(
        "update booking set updated_at = updated_at where id in ({ids})
         returning id, status, event_id, buyer_id,
                   (select count(*) from rebooking r
                    where r.booking_id = booking.id and r.from_event_id = $1) as handled,
                   (select count(*) from booking_guest g where g.booking_id = booking.id) as named,
                   (select l.language from buyer_language l where l.buyer_id = booking.buyer_id) as language"
    );
    let mut q = sqlx::query_as(&sql).bind(from);
    for id in group {
        q = q.bind(id);
    }
    let locked: Vec<Locked> = q.fetch_all(&mut *tx).await?;
    let mut parties = match to {
        Some(to) => parties_of_group(&mut tx, group, to).await?,
        None => HashMap::new(),
    };
    let mut moved = Vec::new();
    let mut recorded: Vec<(&BookingId, Option<EventId>)> = Vec::new();
    // In the group's order: the order paid.
    for booking in group {
        let Some(b) = locked.iter().find(|b| &b.id == booking) else {
            continue;
        };
        if b.status != BookingStatus::Booked || b.event_id != from || b.handled > 0 {
            continue;
        }
        let placed = match (to, parties.remove(booking)) {
            (Some(to), Some(wanted)) => {
                place_and_claim(&mut tx, state, rooms, booking, &wanted, to).await?
            }
            _ => None,
        };
        let moved_to = placed.as_ref().and(to);
        if let (Some(to), Some(p)) = (moved_to, &placed) {
            complete_move(&mut tx, booking, from, to, p, b.named > 0, now).await?;
        }
        recorded.push((booking, moved_to));
        let l = b
            .language
            .as_deref()
            .and_then(crate::i18n::Locale::parse)
            .unwrap_or_default();
        let body = match (&new, moved_to) {
            (Some(new), Some(_)) => l.fill(
                Msg::MailRebooked,
                &[
                    ("reason", &reason),
                    ("sailing", &new.name),
                    ("when", &new.when(l)),
                ],
            ),
            _ => l.fill(Msg::MailRebookingRefundOffered, &[("reason", &reason)]),
        };
        crate::core::payments::outbox::enqueue_email(
            &mut tx,
            booking,
            &format!("rebooked-{booking}-{}", from.0),
            &format!("buyer:{}", b.buyer_id),
            l.t(Msg::MailSailingCancelledSubject),
            &body,
            now,
        )
        .await?;
        moved.extend(placed);
    }
    record(&mut tx, &recorded, from, fence, now).await?;
    db::commit(tx).await?;
    Ok(moved)
}

/// The group's `rebooking` rows, in one statement.
async fn record(
    tx: &mut Tx,
    rows: &[(&BookingId, Option<EventId>)],
    from: EventId,
    fence: i64,
    now: At,
) -> Result<(), sqlx::Error> {
    if rows.is_empty() {
        return Ok(());
    }
    let values = (0..rows.len())
        .map(|i| {
            format!(
                "(${}, $1, cast(${} as bigint), $2, $3)",
                4 + 2 * i,
                5 + 2 * i
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    let sql = format!(
        "insert into rebooking (booking_id, from_event_id, to_event_id, moved_at, fence) values {values}"
    );
    let mut q = sqlx::query(&sql).bind(from).bind(now).bind(fence);
    for (booking, to) in rows {
        q = q.bind(*booking).bind(*to);
    }
    q.execute(&mut **tx).await?;
    Ok(())
}

/// The live places of a group's bookings as parties, priced as on `to`.
async fn parties_of_group(
    tx: &mut Tx,
    group: &[BookingId],
    to: EventId,
) -> Result<HashMap<BookingId, Vec<Party>>, ApiError> {
    #[derive(sqlx::FromRow)]
    struct Row {
        booking_id: BookingId,
        #[sqlx(flatten)]
        party: PartyRow,
    }
    let ids = (0..group.len())
        .map(|i| format!("${}", i + 2))
        .collect::<Vec<_>>()
        .join(", ");
    let sql =
        format!("{PARTIES} where bs.booking_id in ({ids}) and bs.live = 1 order by bs.seat_id");
    let mut q = sqlx::query_as(&sql).bind(to);
    for id in group {
        q = q.bind(id);
    }
    let rows: Vec<Row> = q.fetch_all(&mut **tx).await?;
    let mut out: HashMap<BookingId, Vec<Party>> = HashMap::new();
    for r in rows {
        out.entry(r.booking_id)
            .or_default()
            .push(r.party.into_party());
    }
    Ok(out)
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
