//! Handing out pooled codes: each buyer gets at most one code of a
//! campaign, and concurrent buyers never get the same one. Only a buyer
//! with a live hold on the campaign's event is handed one (fresh sessions
//! cannot drain a pool); to anybody else an existing campaign looks like a
//! missing one.

use super::store;
use crate::platform::db::is_unique_violation;
use crate::{ApiError, AppState};
use holdfast_model::BuyerId;

/// The buyer's code from a pooled campaign (the same one when asked again).
pub async fn code_for_buyer(
    state: &AppState,
    buyer: &BuyerId,
    campaign_id: i64,
) -> Result<String, ApiError> {
    state.limits.buyer_attempt(buyer)?;
    let db = &state.db;
    if !store::entitled_to_pool(db, campaign_id, buyer, state.clock.now()).await? {
        return Err(ApiError::NotFound("promo campaign"));
    }
    if let Some(code) = store::held_by(db, buyer, campaign_id).await? {
        return Ok(code);
    }
    let now = state.clock.now();
    match store::hand_out(db, campaign_id, buyer, now).await {
        Ok(Some(code)) => {
            crate::platform::metrics::promo("handed_out");
            Ok(code)
        }
        // The same buyer asked twice at once and the other request won.
        Err(e) if is_unique_violation(&e) => store::held_by(db, buyer, campaign_id)
            .await?
            .ok_or(ApiError::PromoExhausted),
        Err(e) => Err(e.into()),
        Ok(None) => match store::held_by(db, buyer, campaign_id).await? {
            Some(code) => Ok(code),
            None if store::pool_is_empty(db, campaign_id).await? => Err(ApiError::PromoExhausted),
            // Every free code was locked by others this instant: try again.
            None => Err(ApiError::Busy),
        },
    }
}
