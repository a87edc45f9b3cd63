//! `POST /api/events/{eventId}/best-available`: the server picks the best
//! seats for a quantity and holds them in one request (`booking::best`).

use axum::extract::State;
use axum::response::Response;
use holdfast_core::booking::best::{hold_best, BestRequest};
use holdfast_core::platform::error::ErrorBody;
use holdfast_core::{ApiError, AppState};
use holdfast_model::HoldResponse;
use holdfast_web::HttpError;
use serde::Deserialize;

use super::extract;
use super::hold_attempt::HoldAttempt;
use holdfast_model::SeatId;

/// How many seats, and which may do.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BestAvailableRequest {
    /// From 1 to the per-booking limit.
    #[schema(example = 2)]
    quantity: i64,
    /// Category codes to choose from (none: any).
    #[serde(default)]
    categories: Vec<String>,
    /// The most one seat may cost, in cents.
    max_price_cents: Option<i64>,
    /// Side by side in one row (default `true`); `false` takes the nearest
    /// seats when no such block is left.
    together: Option<bool>,
    /// Best means nearest this seat instead of the stage (for a buyer who
    /// lost a seat and wants others nearby); a seat of another event is
    /// ignored.
    #[schema(example = json!(null))]
    near_seat_id: Option<SeatId>,
}

#[utoipa::path(
    post,
    path = "/api/events/{eventId}/best-available",
    tag = "holds",
    summary = "Hold the best seats for a quantity: side by side in one row, nearest the stage",
    params(("eventId" = i64, Path, description = "event id", example = 1, minimum = 1), ("Idempotency-Key" = String, Header, description = "1–255 printable ASCII, required")),
    request_body = BestAvailableRequest,
    responses((status = 200, body = HoldResponse), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "SOLD_OUT, NO_BLOCK, or SEAT_TAKEN after every try lost a race"), (status = 422, body = ErrorBody)),
)]
pub async fn best_available(
    State(state): State<AppState>,
    hold: HoldAttempt,
) -> Result<Response, HttpError> {
    let req: BestAvailableRequest = hold.json()?;
    if req.max_price_cents.is_some_and(|p| p < 0) {
        return Err(
            ApiError::unprocessable("maxPriceCents cannot be negative", "maxPriceCents").into(),
        );
    }
    let request = BestRequest {
        quantity: usize::try_from(req.quantity).unwrap_or(0),
        categories: req.categories,
        max_price_cents: req.max_price_cents,
        together: req.together.unwrap_or(true),
        near: req.near_seat_id,
    };
    let outcome = hold_best(&state, &hold.admitted, &request, Some(&hold.key)).await?;
    Ok(extract::idempotent_json(outcome))
}
