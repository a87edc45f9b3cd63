//! The job's move off a cancelled sailing: its bookings placed and moved
//! `GROUP` to a transaction, each one's `rebooking` row recorded with it.

use super::places::{PartyRow, PARTIES};
use super::{place_and_claim, publish_move, Rooms, GROUP};
use crate::booking::store;
use crate::platform::clock::At;
use crate::platform::db::{self, Tx};
use crate::platform::jobs::fence::Fence;
use crate::platform::retry;
use crate::sailing::placement::{Party, Placement};
use crate::{ApiError, AppState};
use holdfast_model::i18n::Msg;
use holdfast_model::{BookingId, BookingStatus, BuyerId, EventId};
use std::collections::HashMap;

/// The job's move of BOOKED bookings off the cancelled sailing `from` to
/// the route's next sailing (or a refund offer when nothing there has room
/// for one), `GROUP` to a transaction with each one's `rebooking` row and
/// mail. A group the database rolls back for contention is done again
/// with the places read again.
pub(in crate::sailing::rebooking) async fn rebook(
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
    let eligible =
        |b: &Locked| b.status == BookingStatus::Booked && b.event_id == from && b.handled == 0;
    let mut parties = match to {
        Some(to) => {
            let moving: Vec<&BookingId> = locked
                .iter()
                .filter(|b| eligible(b))
                .map(|b| &b.id)
                .collect();
            store::bound_moving(&mut tx, &moving, to).await?;
            parties_of_group(&mut tx, group, to).await?
        }
        None => HashMap::new(),
    };
    let mut moved = Vec::new();
    let mut recorded: Vec<(&BookingId, Option<EventId>)> = Vec::new();
    // In the group's order: the order paid.
    for booking in group {
        let Some(b) = locked.iter().find(|b| &b.id == booking) else {
            continue;
        };
        if !eligible(b) {
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
            store::complete_move(&mut tx, booking, from, to, &p.moves, b.named > 0, now).await?;
        }
        recorded.push((booking, moved_to));
        let l = b
            .language
            .as_deref()
            .and_then(holdfast_model::i18n::Locale::parse)
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
        crate::payments::outbox::enqueue_email(
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
