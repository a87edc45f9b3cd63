//! The door: a staff member scans a ticket at a chosen event's door and
//! it is checked in once. A ticket of another event (another night of a
//! tour, another venue) is refused there (`WRONG_EVENT`), and the answer
//! names the event, its start in the venue's time, and the places let in.
//! A seat's (or standing place's) ticket admits that one person; the
//! booking's own ticket admits the whole party. The first scan is recorded
//! under the booking's row lock (the lock every change of the booking
//! takes), so a refund and a scan, or two scanners, decide one after the
//! other; a second scan answers when and at which gate the ticket was
//! used, and a ticket whose booking is no longer BOOKED is refused.

use serde::{Deserialize, Serialize};

use crate::admin::audit::{self, Entry};
use crate::admin::audit_detail::Detail;
use crate::admin::auth::Admin;
use crate::booking::store;
use crate::catalog;
use crate::platform::clock::{rfc3339, At};
use crate::platform::{db, retry};
use crate::{ApiError, AppState};
use holdfast_model::i18n::{Locale, Msg};
use holdfast_model::BookingId;
use holdfast_model::BookingStatus;
use holdfast_model::{EventBrief, EventKind};
use holdfast_model::{EventId, SeatId};

/// What a door scanner reads of a ticket without checking it in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TicketStatus {
    pub booking_id: BookingId,
    pub event_id: EventId,
    /// Its booking is BOOKED.
    pub valid: bool,
    pub status: BookingStatus,
}

/// Is this a genuine ticket, and is its booking BOOKED? (404 when forged.)
pub async fn ticket_status(state: &AppState, token: &str) -> Result<TicketStatus, ApiError> {
    let booking_id = state
        .tickets
        .verify(token)
        .ok_or(ApiError::NotFound("ticket"))?;
    let row: Option<(BookingStatus, EventId)> =
        sqlx::query_as("select status, event_id from booking where id = $1")
            .bind(&booking_id)
            .fetch_optional(state.db.reader())
            .await?;
    let (status, event_id) = row.ok_or(ApiError::NotFound("ticket"))?;
    Ok(TicketStatus {
        booking_id,
        event_id,
        valid: status == BookingStatus::Booked,
        status,
    })
}

/// The answer to a first scan: who was let in, when, where, to what.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CheckedIn {
    pub booking_id: BookingId,
    /// The seats (ids) or standing places (`p1`, …) let in by this scan.
    pub units: Vec<String>,
    pub checked_in_at: String,
    pub gate: String,
    #[schema(value_type = i64)]
    pub event_id: EventId,
    pub event_name: String,
    /// When the event starts, in its venue's time, named ("Sat 24 Oct
    /// 2026, 20:00 CEST").
    pub event_starts: String,
    /// The places let in, as people read them ("Section L4, row 2, seat 7",
    /// "Standing place 1"), in the order of `units`.
    pub places: Vec<String>,
}

/// The units of a booking's tickets: its seat ids, then `p1`…`pN` for its
/// standing places.
pub fn units(seats: &[SeatId], standing_places: i64) -> Vec<String> {
    seats
        .iter()
        .map(SeatId::to_string)
        .chain((1..=standing_places).map(|i| format!("p{i}")))
        .collect()
}

/// A gate's name as staff type it: 1–40 visible characters ("main" when none).
fn gate_name(gate: Option<&str>) -> Result<String, ApiError> {
    let gate = gate
        .map(str::trim)
        .filter(|g| !g.is_empty())
        .unwrap_or("main");
    if gate.chars().count() > 40 || gate.chars().any(char::is_control) {
        return Err(ApiError::unprocessable(
            "a gate is 1 to 40 visible characters",
            "gate",
        ));
    }
    Ok(gate.to_string())
}

/// Where a ticket is scanned: the event whose door it is (`None` only for
/// API clients that predate it: the ticket's own event is taken), and the
/// gate; `l`: the language places are named in.
#[derive(Debug, Clone, Copy)]
pub struct Door<'a> {
    pub event: Option<EventId>,
    pub gate: Option<&'a str>,
    pub l: Locale,
}

pub async fn check_in(
    state: &AppState,
    admin: &Admin,
    token: &str,
    door: Door<'_>,
) -> Result<CheckedIn, ApiError> {
    retry::retried("check-in", || check_in_once(state, admin, token, door)).await
}

/// One attempt of `check_in`.
async fn check_in_once(
    state: &AppState,
    admin: &Admin,
    token: &str,
    door: Door<'_>,
) -> Result<CheckedIn, ApiError> {
    let gate = door.gate;
    let gate = gate_name(gate)?;
    let ticket = state
        .tickets
        .verify_unit(token)
        .ok_or(ApiError::NotFound("ticket"))?;
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    let booking = store::lock(&mut tx, &ticket.booking_id)
        .await?
        .ok_or(ApiError::NotFound("ticket"))?;
    let event = event_at_door(&mut tx, booking.event_id).await?;
    if door.event.is_some_and(|here| here != booking.event_id) {
        return Err(ApiError::WrongEvent(format!(
            "{}, {}",
            event.name,
            event.when(door.l)
        )));
    }
    if booking.status != BookingStatus::Booked {
        return Err(ApiError::TicketVoid(booking.status.to_string()));
    }
    let seats = store::seats_of(&mut tx, &ticket.booking_id).await?;
    let all = units(&seats, booking.ga_quantity);
    let wanted = match &ticket.unit {
        Some(unit) if all.contains(unit) => vec![unit.clone()],
        Some(_) => return Err(ApiError::NotFound("ticket")),
        None => all,
    };
    for unit in &wanted {
        let earlier: Option<(String, At)> = sqlx::query_as(
            "select gate, checked_in_at from ticket_checkin where booking_id = $1 and unit = $2",
        )
        .bind(&ticket.booking_id)
        .bind(unit)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some((gate, at)) = earlier {
            return Err(ApiError::AlreadyCheckedIn {
                at: rfc3339(at),
                gate,
            });
        }
    }
    for unit in &wanted {
        sqlx::query(
            "insert into ticket_checkin (booking_id, unit, gate, actor, checked_in_at)
             values ($1, $2, $3, $4, $5)",
        )
        .bind(&ticket.booking_id)
        .bind(unit)
        .bind(&gate)
        .bind(&admin.actor)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    let detail = Detail::CheckedIn {
        places: wanted.join(", "),
        gate: gate.to_string(),
    };
    let entry = Entry {
        by: admin,
        action: "check_in",
        event_id: Some(booking.event_id),
        booking_id: Some(&ticket.booking_id),
        detail: &detail,
    };
    audit::record(&mut tx, &entry, now).await?;
    let places = place_names(&mut tx, &ticket.booking_id, event.kind, door.l, &wanted).await?;
    db::commit(tx).await?;
    Ok(CheckedIn {
        booking_id: ticket.booking_id,
        units: wanted,
        checked_in_at: rfc3339(now),
        gate,
        event_id: booking.event_id,
        event_starts: event.when(door.l),
        event_name: event.name,
        places,
    })
}

/// The event a ticket is for, as door staff read it.
async fn event_at_door(tx: &mut db::Tx, event_id: EventId) -> Result<EventBrief, ApiError> {
    let (name, kind, venue, starts_at, time_zone): (String, String, String, At, String) =
        sqlx::query_as("select name, kind, venue, starts_at, time_zone from event where id = $1")
            .bind(event_id)
            .fetch_one(&mut **tx)
            .await?;
    Ok(catalog::brief(name, &kind, venue, starts_at, time_zone))
}

/// The places of `units` as people read them.
async fn place_names(
    tx: &mut db::Tx,
    booking_id: &BookingId,
    kind: EventKind,
    l: Locale,
    units: &[String],
) -> Result<Vec<String>, ApiError> {
    let seats: Vec<(SeatId, String, String, i64, i64)> = sqlx::query_as(
        "select s.id, s.section, s.row_label, s.number,
                case when exists (select 1 from cabin c where c.seat_id = s.id) then 1 else 0 end
         from booking_seat bs join seat s on s.id = bs.seat_id where bs.booking_id = $1",
    )
    .bind(booking_id)
    .fetch_all(&mut **tx)
    .await?;
    Ok(units
        .iter()
        .map(|unit| {
            let seat = seats.iter().find(|s| s.0.to_string() == *unit);
            match (seat, unit.strip_prefix('p')) {
                (Some((_, section, row, number, cabin)), _) => {
                    kind.name_place(l, *cabin == 1, section, row, *number)
                }
                (None, Some(n)) => l.fill(Msg::StandingPlaceNumber, &[("n", &n)]),
                (None, None) => unit.clone(),
            }
        })
        .collect())
}
