//! `GET /api/admin/bookings/{bookingId}/history`: every status a booking
//! took, why (buyer, admin, webhook event, reconciliation, expiry, refund)
//! and when.

use axum::extract::State;
use axum::Json;
use holdfast_app::core::admin::auth::Admin;
use holdfast_app::core::booking::history;
use holdfast_app::core::platform::error::ErrorBody;
use holdfast_app::core::{ApiError, AppState};
use holdfast_app::model::HistoryEntry;

use super::extract::BookingPath;

#[utoipa::path(
    get,
    path = "/api/admin/bookings/{bookingId}/history",
    tag = "admin",
    summary = "A booking's history, oldest first",
    params(("bookingId" = String, Path, pattern = "^[0-9a-fA-F-]{36}$", description = "booking id (UUID)")),
    responses((status = 200, body = Vec<HistoryEntry>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = []), ("console_session" = [])),
)]
pub async fn show(
    State(state): State<AppState>,
    _admin: Admin,
    BookingPath(id): BookingPath,
) -> Result<Json<Vec<HistoryEntry>>, ApiError> {
    let steps = history::of(&state.db, &id).await?;
    Ok(Json(steps.ok_or(ApiError::NotFound("booking"))?))
}
