//! The manifest: every guest of a booking's cabins and seats on a cruise,
//! by name and date of birth, required before boarding. The buyer gives it
//! at checkout (or later, until departure); it is replaced whole, under the
//! booking's row lock, and must name exactly as many guests per place as
//! the place was held for.

use chrono::NaiveDate;

use crate::booking::store;
use crate::buyer::Owner;
use crate::platform::clock::At;
use crate::platform::db::{self, Tx};
use crate::{ApiError, AppState};
use holdfast_model::sailing::{Guest, Manifest, ManifestPlace};
use holdfast_model::{BookingId, BookingStatus, SeatId};

/// The longest name a guest may give.
pub const MAX_NAME_CHARS: usize = 100;

/// Replaces the booking's manifest with `guests`; answers the whole of it.
pub async fn set(
    state: &AppState,
    owner: &Owner,
    booking_id: &BookingId,
    guests: Vec<Guest>,
) -> Result<Manifest, ApiError> {
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    let booking = store::lock(&mut tx, booking_id)
        .await?
        .ok_or(ApiError::NotFound("booking"))?;
    if !owner.owns(&mut *tx, booking_id).await? {
        return Err(ApiError::NotFound("booking"));
    }
    let (kind, departs): (String, At) =
        sqlx::query_as("select kind, starts_at from event where id = $1")
            .bind(booking.event_id)
            .fetch_one(&mut *tx)
            .await?;
    if kind != "cruise" {
        return Err(ApiError::InvalidState(
            "only a booking on a cruise has guests to name".into(),
        ));
    }
    let live = match booking.status {
        BookingStatus::Held => booking.held_until > now,
        BookingStatus::PaymentPending | BookingStatus::Booked => true,
        _ => false,
    };
    if !live {
        return Err(ApiError::InvalidState(format!(
            "guests can be named for a held or booked booking; this one is {}",
            booking.status
        )));
    }
    if departs <= now {
        return Err(ApiError::InvalidState("the sailing has departed".into()));
    }
    let places = places_of(&mut tx, booking_id).await?;
    let guests = checked(guests, &places, departs)?;
    sqlx::query("delete from booking_guest where booking_id = $1")
        .bind(booking_id)
        .execute(&mut *tx)
        .await?;
    let mut position = std::collections::HashMap::<SeatId, i64>::new();
    for guest in &guests {
        let n = position.entry(guest.seat_id).or_insert(0);
        *n += 1;
        sqlx::query(
            "insert into booking_guest (booking_id, seat_id, position, full_name, birth_date)
             values ($1, $2, $3, $4, $5)",
        )
        .bind(booking_id)
        .bind(guest.seat_id)
        .bind(*n)
        .bind(&guest.full_name)
        .bind(&guest.birth_date)
        .execute(&mut *tx)
        .await?;
    }
    db::commit(tx).await?;
    Ok(Manifest {
        booking_id: booking_id.clone(),
        complete: true,
        places,
        guests,
    })
}

/// The guests named for a booking, place by place.
pub async fn guests_of(state: &AppState, booking_id: &BookingId) -> Result<Vec<Guest>, ApiError> {
    let rows: Vec<(SeatId, String, String)> = sqlx::query_as(
        "select seat_id, full_name, birth_date from booking_guest
         where booking_id = $1 order by seat_id, position",
    )
    .bind(booking_id)
    .fetch_all(state.db.reader())
    .await?;
    Ok(rows
        .into_iter()
        .map(|(seat_id, full_name, birth_date)| Guest {
            seat_id,
            full_name,
            birth_date,
        })
        .collect())
}

/// The booking's live places and the party each is for.
async fn places_of(tx: &mut Tx, booking_id: &BookingId) -> Result<Vec<ManifestPlace>, ApiError> {
    let rows: Vec<(SeatId, String, i64)> = sqlx::query_as(
        "select bs.seat_id, s.label, bs.guests from booking_seat bs join seat s on s.id = bs.seat_id
         where bs.booking_id = $1 and bs.live = 1 order by bs.seat_id",
    )
    .bind(booking_id)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(seat_id, label, guests)| ManifestPlace {
            seat_id,
            label,
            guests,
        })
        .collect())
}

/// The guests in place order, names trimmed, or the first thing wrong
/// with them (on its field: `guests[2].birthDate`).
fn checked(
    guests: Vec<Guest>,
    places: &[ManifestPlace],
    departs: At,
) -> Result<Vec<Guest>, ApiError> {
    let sailing_day = chrono::DateTime::from_timestamp_millis(departs.ms())
        .map(|d| d.date_naive())
        .unwrap_or_default();
    let earliest = NaiveDate::from_ymd_opt(1900, 1, 1).unwrap_or_default();
    let mut out = Vec::with_capacity(guests.len());
    for (i, guest) in guests.into_iter().enumerate() {
        if !places.iter().any(|p| p.seat_id == guest.seat_id) {
            return Err(ApiError::unprocessable(
                format!("seat {} is not a place of this booking", guest.seat_id),
                &format!("guests[{i}].seatId"),
            ));
        }
        let full_name = guest
            .full_name
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let name_chars = full_name.chars().count();
        if name_chars == 0 || name_chars > MAX_NAME_CHARS || full_name.chars().any(char::is_control)
        {
            return Err(ApiError::unprocessable(
                format!("a guest's full name is 1 to {MAX_NAME_CHARS} characters"),
                &format!("guests[{i}].fullName"),
            ));
        }
        let born = NaiveDate::parse_from_str(&guest.birth_date, "%Y-%m-%d")
            .ok()
            .filter(|d| *d >= earliest && *d <= sailing_day)
            .ok_or_else(|| {
                ApiError::unprocessable(
                    "birthDate must be a date (YYYY-MM-DD) from 1900 to the day of sailing",
                    &format!("guests[{i}].birthDate"),
                )
            })?;
        out.push(Guest {
            seat_id: guest.seat_id,
            full_name,
            birth_date: born.format("%Y-%m-%d").to_string(),
        });
    }
    for place in places {
        let named = out.iter().filter(|g| g.seat_id == place.seat_id).count() as i64;
        if named != place.guests {
            return Err(ApiError::unprocessable(
                format!(
                    "{} is held for {}; {named} named",
                    place.label,
                    if place.guests == 1 {
                        "1 guest".to_string()
                    } else {
                        format!("{} guests", place.guests)
                    }
                ),
                "guests",
            ));
        }
    }
    out.sort_by_key(|g| g.seat_id);
    Ok(out)
}
