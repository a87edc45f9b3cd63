//! Paying for a booking, and the provider's webhook.

use axum::extract::{OriginalUri, Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Json;
use holdfast_app::core::buyer::Buyer;
use holdfast_app::core::idempotency::IdempotencyKey;
use holdfast_app::core::payments::{checkout, webhook};
use holdfast_app::core::{ApiError, AppState};
use serde_json::{json, Value};

use super::extract::{self, RawBody};

pub async fn pay(
    State(state): State<AppState>,
    buyer: Buyer,
    Path(id): Path<String>,
    OriginalUri(uri): OriginalUri,
    headers: HeaderMap,
    RawBody(body): RawBody,
) -> Result<Response, ApiError> {
    let id = extract::booking_id(&id)?;
    let key = IdempotencyKey::required(&headers, "POST", uri.path(), &body)?;
    let outcome = checkout::start_checkout(&state, &buyer.0, &id, Some(&key)).await?;
    Ok(extract::idempotent_json(outcome))
}

/// Verified on the raw bytes before anything is parsed.
pub async fn webhook(
    State(state): State<AppState>,
    headers: HeaderMap,
    RawBody(body): RawBody,
) -> Result<Json<Value>, ApiError> {
    let signature = headers
        .get("stripe-signature")
        .and_then(|v| v.to_str().ok());
    let outcome = webhook::receive(&state, signature, &body).await?;
    Ok(Json(json!({ "received": true, "outcome": outcome })))
}
