//! A buyer's own bookings.

use axum::extract::{Path, State};
use axum::Json;
use holdfast_app::core::booking::{query, release};
use holdfast_app::core::buyer::Buyer;
use holdfast_app::core::{ApiError, AppState};
use holdfast_app::model::BookingView;
use serde_json::{json, Value};

use super::extract;

pub async fn show(
    State(state): State<AppState>,
    buyer: Buyer,
    Path(id): Path<String>,
) -> Result<Json<BookingView>, ApiError> {
    let id = extract::booking_id(&id)?;
    Ok(Json(query::booking_of_buyer(&state, &buyer.0, &id).await?))
}

pub async fn mine(
    State(state): State<AppState>,
    buyer: Buyer,
) -> Result<Json<Vec<BookingView>>, ApiError> {
    Ok(Json(query::bookings_of_buyer(&state, &buyer.0).await?))
}

/// The owner releases a HELD booking.
pub async fn release(
    State(state): State<AppState>,
    buyer: Buyer,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let id = extract::booking_id(&id)?;
    let status = release::cancel_hold(&state, &buyer.0, &id).await?;
    Ok(Json(json!({ "status": status.as_str() })))
}

/// For door scanners: is this a genuine ticket, and is its booking BOOKED?
pub async fn check_ticket(
    State(state): State<AppState>,
    Path(token): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let booking_id = state
        .tickets
        .verify(&token)
        .ok_or(ApiError::NotFound("ticket"))?;
    let row: Option<(String, i64)> =
        sqlx::query_as("select status, event_id from booking where id = $1")
            .bind(&booking_id)
            .fetch_optional(state.db.reader())
            .await?;
    let (status, event_id) = row.ok_or(ApiError::NotFound("ticket"))?;
    Ok(Json(
        json!({ "bookingId": booking_id, "eventId": event_id, "valid": status == "BOOKED", "status": status }),
    ))
}
