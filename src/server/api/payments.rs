//! Paying for a booking, and the provider's webhook.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Json;
use holdfast_core::buyer::Buyer;
use holdfast_core::payments::{checkout, webhook};
use holdfast_core::platform::error::ErrorBody;
use holdfast_core::AppState;
use holdfast_model::PayResponse;
use holdfast_web::Caller;
use holdfast_web::HttpError;
use serde_json::{json, Value};

use super::extract::{self, BookingPath, KeyedPost, RawBody};

#[utoipa::path(
    post,
    path = "/api/bookings/{bookingId}/pay",
    tag = "payments",
    summary = "Start the checkout of a HELD booking",
    params(("bookingId" = String, Path, pattern = "^[0-9a-fA-F-]{36}$", description = "booking id (UUID)"), ("Idempotency-Key" = String, Header, description = "1–255 printable ASCII, required")),
    responses((status = 200, body = PayResponse), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 503, body = ErrorBody)),
)]
pub async fn pay(
    State(state): State<AppState>,
    Caller(buyer): Caller<Buyer>,
    BookingPath(id): BookingPath,
    post: KeyedPost,
) -> Result<Response, HttpError> {
    let language = holdfast_app::i18n::Locale::said_in(&post.headers);
    let outcome =
        checkout::start_checkout(&state, &buyer.0, &id, Some(&post.key), language).await?;
    Ok(extract::idempotent_json(outcome))
}

/// Verified on the raw bytes before anything is parsed.
#[utoipa::path(
    post,
    path = "/api/payments/webhook",
    tag = "payments",
    summary = "The payment provider's signed events (Stripe format)",
    params(("Stripe-Signature" = String, Header, description = "t=…,v1=…")),
    request_body = serde_json::Value,
    responses((status = 200, description = "applied, or a duplicate"), (status = 400, body = ErrorBody)),
)]
pub async fn webhook(
    State(state): State<AppState>,
    headers: HeaderMap,
    RawBody(body): RawBody,
) -> Result<Json<Value>, HttpError> {
    let signature = headers
        .get("stripe-signature")
        .and_then(|v| v.to_str().ok());
    let outcome = webhook::receive(&state, signature, &body).await?;
    Ok(Json(json!({ "received": true, "outcome": outcome })))
}
