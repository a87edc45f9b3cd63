//! `hold_general_admission`: places in a standing area, sold by count. The
//! claim is the conditional decrement in `store::claim_ga` (invariant 2);
//! expiry and cancellation give the places back exactly once, in the same
//! transaction as the transition that ends the booking.

use super::store::{self, NewBooking};
use super::{begin_with_key, earlier_answer, within_buyer_limit, Idempotent};
use crate::core::platform::clock::rfc3339;
use crate::core::platform::idempotency::{self, IdempotencyKey};
use crate::core::waiting_room::Admitted;
use crate::core::{ApiError, AppState};
use crate::model::{BookingStatus, EventId, GeneralAdmissionLine, HoldResponse};

pub async fn hold_general_admission(
    state: &AppState,
    admitted: &Admitted,
    area_id: i64,
    quantity: i64,
    key: Option<&IdempotencyKey>,
) -> Result<Idempotent<HoldResponse>, ApiError> {
    let (buyer, event_id) = (admitted.buyer(), admitted.event_id());
    state.limits.buyer_attempt(buyer)?;
    let outcome = claim(state, buyer, event_id, area_id, quantity, key).await;
    super::count_attempt(&outcome);
    outcome
}

async fn claim(
    state: &AppState,
    buyer: &str,
    event_id: EventId,
    area_id: i64,
    quantity: i64,
    key: Option<&IdempotencyKey>,
) -> Result<Idempotent<HoldResponse>, ApiError> {
    let rules = &state.rules;
    if quantity < 1 || quantity > rules.max_seats_per_booking as i64 {
        return Err(ApiError::unprocessable(
            format!(
                "quantity must be between 1 and {}",
                rules.max_seats_per_booking
            ),
            "quantity",
        ));
    }
    let area: Option<(i64, String)> = sqlx::query_as(
        "select c.price_cents, e.currency from ga_area a
         join price_category c on c.id = a.category_id join event e on e.id = a.event_id
         where a.id = $1 and a.event_id = $2 and e.published = 1",
    )
    .bind(area_id)
    .bind(event_id)
    .fetch_optional(state.db.reader())
    .await?;
    let (price, currency) = area.ok_or(ApiError::NotFound("general-admission area"))?;
    if let Some(answer) = earlier_answer(state, buyer, key).await? {
        return Ok(answer);
    }
    let now = state.clock.now_ms();
    let held_until = now + rules.hold_ttl_ms;
    let booking_id = uuid::Uuid::new_v4().to_string();
    let response = HoldResponse {
        booking_id: booking_id.clone(),
        status: BookingStatus::Held.as_str().into(),
        seat_ids: vec![],
        held_until: rfc3339(held_until),
        expires_in_ms: held_until - now,
        amount_cents: price * quantity,
        currency: currency.clone(),
        general_admission: Some(GeneralAdmissionLine { area_id, quantity }),
    };
    let body = serde_json::to_string(&response).map_err(ApiError::internal)?;

    let mut tx = match begin_with_key(state, buyer, key, now).await? {
        Ok(tx) => tx,
        Err(answer) => return Ok(answer),
    };
    within_buyer_limit(&mut tx, state, buyer, event_id, quantity, now).await?;
    // Places of expired holds come back before we count what is left.
    let stale_holds = stale_ga_holds(&mut tx, area_id, now).await?;
    store::expire_stale(&mut tx, &stale_holds, now).await?;
    if !store::claim_ga(&mut tx, area_id, quantity).await? {
        tx.rollback().await?;
        return Err(ApiError::SoldOut(format!(
            "fewer than {quantity} places are left in this area"
        )));
    }
    let on_sale = store::insert_held(
        &mut tx,
        &NewBooking {
            id: &booking_id,
            event_id,
            buyer_id: buyer,
            held_until,
            amount_cents: price * quantity,
            currency: &currency,
            ga: Some((area_id, quantity)),
            now_ms: now,
        },
    )
    .await?;
    if !on_sale {
        tx.rollback().await?;
        return Err(ApiError::NotOnSale);
    }
    if let Some(key) = key {
        idempotency::complete(&mut tx, buyer, key, 200, &body).await?;
    }
    tx.commit().await?;
    Ok(Idempotent::Fresh(response))
}

async fn stale_ga_holds(
    tx: &mut crate::core::platform::db::Tx,
    area_id: i64,
    now: i64,
) -> Result<Vec<String>, sqlx::Error> {
    let sql = format!(
        "select id from booking where ga_area_id = $1 and status = {} and held_until <= $2 limit 100",
        BookingStatus::Held.sql()
    );
    let rows: Vec<(String,)> = sqlx::query_as(&sql)
        .bind(area_id)
        .bind(now)
        .fetch_all(&mut **tx)
        .await?;
    Ok(rows.into_iter().map(|r| r.0).collect())
}
