//! A buyer's running hold on an event, wherever they look from: the event
//! page after a reload, after Back from the provider's checkout, or on
//! another device signed in to the same account (the session carries the
//! account's buyer id). A hold belongs to the buyer, not to the tab.

use super::BookingStatus;
use crate::platform::clock::{rfc3339, At};
use crate::{ApiError, AppState};
use holdfast_model::money::Money;
use holdfast_model::{BookingId, BuyerId, EventId, GeneralAdmissionLine, HoldResponse, SeatId};

#[derive(sqlx::FromRow)]
struct Running {
    id: BookingId,
    status: BookingStatus,
    held_until: At,
    #[sqlx(flatten)]
    price: Money,
    ga_area_id: Option<i64>,
    ga_quantity: i64,
}

/// The buyer's newest hold on the event that is still running at `now`
/// (held, or its checkout begun and not yet ended), as a fresh hold's
/// answer gives it: its places, price and the time it has left by the
/// server's clock. `None` when there is none.
pub async fn running_hold(
    state: &AppState,
    buyer: &BuyerId,
    event_id: EventId,
) -> Result<Option<HoldResponse>, ApiError> {
    let now = state.clock.now();
    let sql = format!(
        "select id, status, held_until, amount_cents, currency, ga_area_id, ga_quantity
         from booking
         where buyer_id = $1 and event_id = $2 and status in ({}, {}) and held_until > $3
         order by created_at desc, id limit 1",
        BookingStatus::Held.sql(),
        BookingStatus::PaymentPending.sql(),
    );
    let rows: Vec<Running> = sqlx::query_as(&sql)
        .bind(buyer)
        .bind(event_id)
        .bind(now)
        .fetch_all(state.db.reader())
        .await?;
    let Some(hold) = rows.into_iter().next() else {
        return Ok(None);
    };
    let seat_ids: Vec<SeatId> = sqlx::query_scalar(
        "select seat_id from booking_seat where booking_id = $1 and live = 1 order by seat_id",
    )
    .bind(&hold.id)
    .fetch_all(state.db.reader())
    .await?;
    Ok(Some(HoldResponse {
        booking_id: hold.id,
        status: hold.status,
        seat_ids,
        held_until: rfc3339(hold.held_until),
        expires_in_ms: hold.held_until - now,
        amount_cents: hold.price.minor(),
        currency: hold.price.currency().code().to_string(),
        general_admission: hold
            .ga_area_id
            .filter(|_| hold.ga_quantity > 0)
            .map(|area_id| GeneralAdmissionLine {
                area_id,
                quantity: hold.ga_quantity,
            }),
    }))
}
