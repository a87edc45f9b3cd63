//! Handing out pooled codes: each buyer gets at most one code of a
//! campaign, and concurrent buyers never get the same one. Only a buyer
//! with a live hold on the campaign's event is handed one (fresh sessions
//! cannot drain a pool); to anybody else an existing campaign looks like a
//! missing one.

use crate::core::platform::db::is_unique_violation;
use crate::core::{ApiError, AppState};
use crate::model::BookingStatus;

/// The buyer's code from a pooled campaign (the same one when asked again).
pub async fn code_for_buyer(
    state: &AppState,
    buyer: &str,
    campaign_id: i64,
) -> Result<String, ApiError> {
    state.limits.buyer_attempt(buyer)?;
    let entitled: Option<(i64,)> = sqlx::query_as(&format!(
        "select c.id from promo_campaign c
         where c.id = $1 and c.kind = 'pooled'
           and exists (select 1 from booking b
                       where b.buyer_id = $2 and b.status = {} and b.held_until > $3
                         and (c.event_id is null or b.event_id = c.event_id))",
        BookingStatus::Held.sql()
    ))
    .bind(campaign_id)
    .bind(buyer)
    .bind(state.clock.now_ms())
    .fetch_optional(state.db.reader())
    .await?;
    if entitled.is_none() {
        return Err(ApiError::NotFound("promo campaign"));
    }
    if let Some(code) = held_by(state, buyer, campaign_id).await? {
        return Ok(code);
    }
    let now = state.clock.now_ms();
    // Any free code will do: on Postgres `skip locked` lets concurrent
    // buyers take different ones instead of queueing on the first.
    let handed: Result<Option<(String,)>, sqlx::Error> = sqlx::query_as(&format!(
        "update promo_code set holder = $2, handed_at = $3
         where code = (select code from promo_code where campaign_id = $1 and holder is null
                       order by code limit 1{})
           and holder is null
         returning code",
        state.db.skip_locked()
    ))
    .bind(campaign_id)
    .bind(buyer)
    .bind(now)
    .fetch_optional(state.db.writer())
    .await;
    match handed {
        Ok(Some((code,))) => {
            crate::core::platform::metrics::promo("handed_out");
            Ok(code)
        }
        // The same buyer asked twice at once and the other request won.
        Err(e) if is_unique_violation(&e) => held_by(state, buyer, campaign_id)
            .await?
            .ok_or(ApiError::PromoExhausted),
        Err(e) => Err(e.into()),
        Ok(None) => match held_by(state, buyer, campaign_id).await? {
            Some(code) => Ok(code),
            None if pool_is_empty(state, campaign_id).await? => Err(ApiError::PromoExhausted),
            // Every free code was locked by others this instant: try again.
            None => Err(ApiError::Busy),
        },
    }
}

async fn held_by(
    state: &AppState,
    buyer: &str,
    campaign_id: i64,
) -> Result<Option<String>, ApiError> {
    let row: Option<(String,)> =
        sqlx::query_as("select code from promo_code where campaign_id = $1 and holder = $2")
            .bind(campaign_id)
            .bind(buyer)
            .fetch_optional(state.db.writer())
            .await?;
    Ok(row.map(|r| r.0))
}

async fn pool_is_empty(state: &AppState, campaign_id: i64) -> Result<bool, ApiError> {
    let (free,): (i64,) =
        sqlx::query_as("select count(*) from promo_code where campaign_id = $1 and holder is null")
            .bind(campaign_id)
            .fetch_one(state.db.writer())
            .await?;
    Ok(free == 0)
}
