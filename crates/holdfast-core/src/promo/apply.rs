//! `apply_promo`: a code onto the buyer's HELD booking, all in one
//! transaction under the booking's lock.

use super::{normalise, store};
use crate::booking;
use crate::platform::db;
use crate::{ApiError, AppState};
use holdfast_model::console::CampaignKind;
use holdfast_model::{BookingId, BookingStatus, BuyerId, PromoApplied};

pub async fn apply_promo(
    state: &AppState,
    buyer: &BuyerId,
    booking_id: &BookingId,
    code: &str,
) -> Result<PromoApplied, ApiError> {
    state.limits.buyer_attempt(buyer)?;
    let outcome = claim(state, buyer, booking_id, code).await;
    crate::platform::metrics::promo(match &outcome {
        Ok(_) => "applied",
        Err(ApiError::PromoUnknown) => "unknown",
        Err(ApiError::PromoExhausted) => "exhausted",
        Err(_) => "refused",
    });
    outcome
}

async fn claim(
    state: &AppState,
    buyer: &BuyerId,
    booking_id: &BookingId,
    code: &str,
) -> Result<PromoApplied, ApiError> {
    let code = normalise(code).ok_or(ApiError::PromoUnknown)?;
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    let booking = booking::store::lock(&mut tx, booking_id)
        .await?
        .filter(|b| &b.buyer_id == buyer)
        .ok_or(ApiError::NotFound("booking"))?;
    if let Some(used) = store::use_of(&mut tx, booking_id).await? {
        // The same code again is a replay, answered alike.
        return if used.code == code {
            Ok(PromoApplied {
                amount_cents: booking.price.minor(),
                discount_cents: used.discount_cents,
            })
        } else {
            Err(ApiError::PromoAlreadyApplied)
        };
    }
    if booking.status != BookingStatus::Held {
        return Err(ApiError::InvalidState(format!(
            "a promo code applies to a held booking; this one is {}",
            booking.status
        )));
    }
    if booking.held_until <= now {
        return Err(ApiError::HoldExpired);
    }
    let campaign = store::campaign_of_code(&mut tx, &code)
        .await?
        .ok_or(ApiError::PromoUnknown)?;
    // Another event's code, or a pooled code handed to somebody else: to
    // this buyer it does not exist (whether it is used up is none of their
    // business, and would tell a guesser they found a real code).
    if campaign.event_id.is_some_and(|e| e != booking.event_id)
        || (campaign.kind == CampaignKind::Pooled && campaign.holder.as_ref() != Some(buyer))
    {
        return Err(ApiError::PromoUnknown);
    }
    // Outside its campaign's window a code is real but not usable now.
    if let Some(starts) = campaign.starts_at.filter(|s| now < *s) {
        return Err(ApiError::InvalidState(format!(
            "this code can be used from {}",
            crate::platform::clock::rfc3339(starts)
        )));
    }
    if let Some(ends) = campaign.ends_at.filter(|e| now >= *e) {
        return Err(ApiError::InvalidState(format!(
            "this code could be used until {}",
            crate::platform::clock::rfc3339(ends)
        )));
    }
    let discount_cents = booking
        .price
        .discount(campaign.percent_off, campaign.amount_off_cents)
        .minor();
    if discount_cents == 0 {
        return Err(ApiError::InvalidState(
            "this booking already costs the least a payment can be; the code was not used".into(),
        ));
    }
    // The claim: the database decides who gets a use, before anything else.
    if !store::take_use(&mut tx, &campaign, &code, booking_id, buyer, now).await? {
        return Err(ApiError::PromoExhausted);
    }
    booking::store::add_to_amount(&mut tx, booking_id, -discount_cents).await?;
    let used = store::Use {
        code,
        campaign_id: campaign.campaign_id,
        discount_cents,
    };
    store::record_use(&mut tx, booking_id, &used, now).await?;
    db::commit(tx).await?;
    Ok(PromoApplied {
        amount_cents: booking.price.minor() - discount_cents,
        discount_cents,
    })
}
