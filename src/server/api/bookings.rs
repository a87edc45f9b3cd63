//! A buyer's own bookings.

use axum::extract::{Path, State};
use axum::response::Response;
use axum::Json;
use holdfast_app::i18n::Locale;
use holdfast_core::booking::{query, release};
use holdfast_core::buyer::{Buyer, Owner};
use holdfast_core::payments::cancellation;
use holdfast_core::platform::error::ErrorBody;
use holdfast_core::ticket::door::{self, TicketStatus};
use holdfast_core::AppState;
use holdfast_model::{BookingView, CancelResponse};
use holdfast_web::Caller;
use holdfast_web::HttpError;
use serde_json::{json, Value};

use super::extract::{self, BookingPath, KeyedPost};

#[utoipa::path(
    get,
    path = "/api/bookings/{bookingId}",
    tag = "bookings",
    summary = "One of your bookings (others: 404)",
    params(("bookingId" = String, Path, pattern = "^[0-9a-fA-F-]{36}$", description = "booking id (UUID)")),
    responses((status = 200, body = BookingView), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)),
)]
pub async fn show(
    State(state): State<AppState>,
    Caller(owner): Caller<Owner>,
    BookingPath(id): BookingPath,
) -> Result<Json<BookingView>, HttpError> {
    Ok(Json(
        query::booking_of_buyer(&state, &owner, &id, Locale::En).await?,
    ))
}

#[utoipa::path(
    get,
    path = "/api/bookings",
    tag = "bookings",
    summary = "The session buyer's bookings (signed in: the account's, and those paid with its address)",
    responses((status = 200, body = Vec<BookingView>)),
)]
pub async fn mine(
    State(state): State<AppState>,
    Caller(owner): Caller<Owner>,
) -> Result<Json<Vec<BookingView>>, HttpError> {
    Ok(Json(
        query::bookings_of_buyer(&state, &owner, Locale::En).await?,
    ))
}

/// The owner cancels a BOOKED booking under the event's refund policy.
#[utoipa::path(
    post,
    path = "/api/bookings/{bookingId}/cancel",
    tag = "bookings",
    summary = "Cancel your booked booking; the answer states the refund",
    params(("bookingId" = String, Path, pattern = "^[0-9a-fA-F-]{36}$", description = "booking id (UUID)"), ("Idempotency-Key" = String, Header, description = "1–255 printable ASCII, required")),
    responses((status = 200, body = CancelResponse), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)),
)]
pub async fn cancel(
    State(state): State<AppState>,
    Caller(owner): Caller<Owner>,
    BookingPath(id): BookingPath,
    post: KeyedPost,
) -> Result<Response, HttpError> {
    let outcome = cancellation::cancel(&state, &owner, &id, Some(&post.key)).await?;
    Ok(extract::idempotent_json(outcome))
}

/// The owner releases a HELD booking.
#[utoipa::path(
    delete,
    path = "/api/bookings/{bookingId}",
    tag = "bookings",
    summary = "Release your running hold",
    params(("bookingId" = String, Path, pattern = "^[0-9a-fA-F-]{36}$", description = "booking id (UUID)")),
    responses((status = 200, description = "`{ status: \"CANCELLED\" }`"), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)),
)]
pub async fn release(
    State(state): State<AppState>,
    Caller(buyer): Caller<Buyer>,
    BookingPath(id): BookingPath,
) -> Result<Json<Value>, HttpError> {
    let status = release::cancel_hold(&state, &buyer.0, &id).await?;
    Ok(Json(json!({ "status": status.as_str() })))
}

/// For door scanners: is this a genuine ticket, and is its booking BOOKED?
#[utoipa::path(
    get,
    path = "/api/tickets/{token}",
    tag = "bookings",
    summary = "Door check: is this ticket genuine and its booking BOOKED?",
    params(("token" = String, Path, description = "the signed ticket token")),
    responses((status = 200, description = "`{ bookingId, eventId, valid, status }`"), (status = 404, body = ErrorBody)),
)]
pub async fn check_ticket(
    State(state): State<AppState>,
    Path(token): Path<String>,
) -> Result<Json<TicketStatus>, HttpError> {
    Ok(Json(door::ticket_status(&state, &token).await?))
}
