//! `/api/admin/bookings/{bookingId}/refunds`: an organizer gives back part
//! of what a booking paid (POST), and reads what went back so (GET).

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use holdfast_core::payments::refund_part;
use holdfast_core::platform::error::ErrorBody;
use holdfast_core::{ApiError, AppState};
use holdfast_model::{PartRefund, PartRefundRequest};
use holdfast_web::caller::{may, Allowed};
use holdfast_web::HttpError;

use super::extract::{self, BookingPath, RawBody};

/// Gives back `amountCents` of the booking's payment, with a reason, the
/// buyer told if `notifyBuyer`. While the tickets stand, part of the
/// payment must stay (refund the booking to give back all of it); after a
/// cancellation that kept part of the money, the rest may go back. Parts
/// together never go above what was paid, however many are asked at once.
#[utoipa::path(
    post,
    path = "/api/admin/bookings/{bookingId}/refunds",
    tag = "admin",
    summary = "Refund part of a booking's payment, with a reason",
    params(("bookingId" = String, Path, pattern = "^[0-9a-fA-F-]{36}$", description = "booking id (UUID)")),
    request_body = PartRefundRequest,
    responses((status = 201, body = PartRefund), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = ["refunds"]), ("console_session" = ["refunds"])),
)]
pub async fn give(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::Refunds>,
    BookingPath(id): BookingPath,
    headers: HeaderMap,
    RawBody(body): RawBody,
) -> Result<(StatusCode, Json<PartRefund>), HttpError> {
    let ask: PartRefundRequest = extract::json(&headers, &body)?;
    let given = refund_part::give(&state, &admin, &id, &ask).await?;
    Ok((StatusCode::CREATED, Json(given)))
}

/// The booking's part refunds, oldest first.
#[utoipa::path(
    get,
    path = "/api/admin/bookings/{bookingId}/refunds",
    tag = "admin",
    summary = "A booking's part refunds, oldest first",
    params(("bookingId" = String, Path, pattern = "^[0-9a-fA-F-]{36}$", description = "booking id (UUID)")),
    responses((status = 200, body = Vec<PartRefund>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = ["bookings"]), ("console_session" = ["bookings"])),
)]
pub async fn list(
    State(state): State<AppState>,
    _admin: Allowed<may::Bookings>,
    BookingPath(id): BookingPath,
) -> Result<Json<Vec<PartRefund>>, HttpError> {
    if holdfast_core::booking::history::of(&state.db, &id)
        .await?
        .is_none()
    {
        return Err(ApiError::NotFound("booking").into());
    }
    Ok(Json(refund_part::of_booking(&state.db, &id).await?))
}
