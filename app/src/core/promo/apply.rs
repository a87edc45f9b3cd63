//! `apply_promo`: a code onto the buyer's HELD booking, all in one
//! transaction under the booking's lock.

use super::normalise;
use crate::core::{ApiError, AppState};
use crate::model::money::Money;
use crate::model::PromoApplied;

pub async fn apply_promo(
    state: &AppState,
    buyer: &str,
    booking_id: &str,
    code: &str,
) -> Result<PromoApplied, ApiError> {
    state.limits.buyer_attempt(buyer)?;
    let outcome = claim(state, buyer, booking_id, code).await;
    crate::core::platform::metrics::promo(match &outcome {
        Ok(_) => "applied",
        Err(ApiError::PromoUnknown) => "unknown",
        Err(ApiError::PromoExhausted) => "exhausted",
        Err(_) => "refused",
    });
    outcome
}

async fn claim(
    state: &AppState,
    buyer: &str,
    booking_id: &str,
    code: &str,
) -> Result<PromoApplied, ApiError> {
    let code = normalise(code).ok_or(ApiError::PromoUnknown)?;
    let now = state.clock.now_ms();
    let mut tx = state.db.begin().await?;
    let booking: Option<(String, i64, i64, i64, String)> = sqlx::query_as(&format!(
        "select status, held_until, amount_cents, event_id, currency from booking
         where id = $1 and buyer_id = $2{}",
        state.db.lock_row()
    ))
    .bind(booking_id)
    .bind(buyer)
    .fetch_optional(&mut *tx)
    .await?;
    let (status, held_until, amount, event_id, currency) =
        booking.ok_or(ApiError::NotFound("booking"))?;
    let applied: Option<(String, i64)> =
        sqlx::query_as("select code, discount_cents from booking_promo where booking_id = $1")
            .bind(booking_id)
            .fetch_optional(&mut *tx)
            .await?;
    if let Some((applied_code, discount_cents)) = applied {
        // The same code again is a replay, answered alike.
        return if applied_code == code {
            Ok(PromoApplied {
                amount_cents: amount,
                discount_cents,
            })
        } else {
            Err(ApiError::PromoAlreadyApplied)
        };
    }
    if status != crate::model::BookingStatus::Held.as_str() {
        return Err(ApiError::InvalidState(format!(
            "a promo code applies to a held booking; this one is {status}"
        )));
    }
    if held_until <= now {
        return Err(ApiError::HoldExpired);
    }
    type Campaign = (i64, String, i64, i64, Option<i64>, Option<String>);
    let campaign: Option<Campaign> = sqlx::query_as(
        "select c.id, c.kind, c.percent_off, c.amount_off_cents, c.event_id, p.holder
         from promo_code p join promo_campaign c on c.id = p.campaign_id where p.code = $1",
    )
    .bind(&code)
    .fetch_optional(&mut *tx)
    .await?;
    let (campaign_id, kind, percent_off, amount_off, only_event, holder) =
        campaign.ok_or(ApiError::PromoUnknown)?;
    // Another event's code, or a pooled code handed to somebody else: to
    // this buyer it does not exist (whether it is used up is none of their
    // business, and would tell a guesser they found a real code).
    if only_event.is_some_and(|e| e != event_id)
        || (kind == "pooled" && holder.as_deref() != Some(buyer))
    {
        return Err(ApiError::PromoUnknown);
    }
    // Events are set up only in currencies Holdfast sells in.
    let price = Money::of(amount, &currency).ok_or_else(|| {
        ApiError::InvalidState(format!(
            "this event's currency {currency} cannot be charged"
        ))
    })?;
    let discount_cents = price.discount(percent_off, amount_off).minor();
    if discount_cents == 0 {
        return Err(ApiError::InvalidState(
            "this booking already costs the least a payment can be; the code was not used".into(),
        ));
    }
    // The claim: the database decides who gets a use, before anything else.
    // A pooled code is redeemed only by the buyer it was handed to.
    let claimed = if kind == "capped" {
        sqlx::query("update promo_campaign set uses = uses + 1 where id = $1 and uses < max_uses")
            .bind(campaign_id)
            .execute(&mut *tx)
            .await?
            .rows_affected()
    } else {
        sqlx::query(
            "update promo_code set redeemed_at = $2, redeemed_booking = $3
             where code = $1 and redeemed_at is null and ($4 = 0 or holder = $5)",
        )
        .bind(&code)
        .bind(now)
        .bind(booking_id)
        .bind(i64::from(kind == "pooled"))
        .bind(buyer)
        .execute(&mut *tx)
        .await?
        .rows_affected()
    };
    if claimed != 1 {
        return Err(ApiError::PromoExhausted);
    }
    crate::core::booking::store::add_to_amount(&mut tx, booking_id, -discount_cents).await?;
    sqlx::query(
        "insert into booking_promo (booking_id, code, campaign_id, discount_cents, created_at)
         values ($1, $2, $3, $4, $5)",
    )
    .bind(booking_id)
    .bind(&code)
    .bind(campaign_id)
    .bind(discount_cents)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(PromoApplied {
        amount_cents: amount - discount_cents,
        discount_cents,
    })
}
