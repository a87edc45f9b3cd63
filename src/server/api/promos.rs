//! Promo codes: a buyer applies one to a held booking, or takes one from a
//! pooled campaign.

use axum::extract::{Path, State};
use axum::Json;
use holdfast_core::buyer::Buyer;
use holdfast_core::platform::error::ErrorBody;
use holdfast_core::promo::{apply, pool};
use holdfast_core::AppState;
use holdfast_model::PromoApplied;
use holdfast_web::Caller;
use holdfast_web::HttpError;
use serde::{Deserialize, Serialize};

use super::extract::{self, BookingPath, JsonBody};

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PromoRequest {
    /// The code as the buyer typed it (case and spaces do not matter).
    #[schema(example = "SUMMER-10")]
    code: String,
}

#[utoipa::path(
    post,
    path = "/api/bookings/{bookingId}/promo",
    tag = "promos",
    summary = "Apply a promo code to your held booking",
    params(("bookingId" = String, Path, description = "booking id (UUID)", format = "uuid")),
    request_body = PromoRequest,
    responses((status = 200, body = PromoApplied), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody, description = "NOT_FOUND or PROMO_UNKNOWN"), (status = 409, body = ErrorBody, description = "PROMO_EXHAUSTED, PROMO_ALREADY_APPLIED, HOLD_EXPIRED, INVALID_STATE")),
)]
pub async fn apply_promo(
    State(state): State<AppState>,
    Caller(buyer): Caller<Buyer>,
    BookingPath(booking_id): BookingPath,
    JsonBody(req): JsonBody<PromoRequest>,
) -> Result<Json<PromoApplied>, HttpError> {
    Ok(Json(
        apply::apply_promo(&state, &buyer.0, &booking_id, &req.code).await?,
    ))
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct PooledCode {
    code: String,
}

#[utoipa::path(
    post,
    path = "/api/promos/{campaignId}/claim",
    tag = "promos",
    summary = "Take your code from a pooled campaign (one per buyer; the same one when asked again)",
    params(("campaignId" = i64, Path, description = "campaign id", example = 1, minimum = 1)),
    responses((status = 200, body = PooledCode), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "PROMO_EXHAUSTED")),
)]
pub async fn claim_pooled(
    State(state): State<AppState>,
    Caller(buyer): Caller<Buyer>,
    Path(campaign_id): Path<String>,
) -> Result<Json<PooledCode>, HttpError> {
    let campaign_id = extract::id(&campaign_id, "campaignId")?;
    let code = pool::code_for_buyer(&state, &buyer.0, campaign_id).await?;
    Ok(Json(PooledCode { code }))
}
