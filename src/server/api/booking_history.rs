//! `GET /api/admin/bookings/{bookingId}/history`: every status a booking
//! took, why (buyer, admin, webhook event, reconciliation, expiry, refund)
//! and when.

use axum::extract::State;
use axum::Json;
use holdfast_core::booking::history;
use holdfast_core::platform::error::ErrorBody;
use holdfast_core::{ApiError, AppState};
use holdfast_model::HistoryEntry;
use holdfast_web::caller::{may, Allowed};
use holdfast_web::HttpError;

use super::extract::BookingPath;

#[utoipa::path(
    get,
    path = "/api/admin/bookings/{bookingId}/history",
    tag = "admin",
    summary = "A booking's history, oldest first",
    params(("bookingId" = String, Path, pattern = "^[0-9a-fA-F-]{36}$", description = "booking id (UUID)")),
    responses((status = 200, body = Vec<HistoryEntry>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = ["bookings"]), ("console_session" = ["bookings"])),
)]
pub async fn show(
    State(state): State<AppState>,
    _admin: Allowed<may::Bookings>,
    BookingPath(id): BookingPath,
) -> Result<Json<Vec<HistoryEntry>>, HttpError> {
    let steps = history::of(&state.db, &id).await?;
    Ok(Json(steps.ok_or(ApiError::NotFound("booking"))?))
}
