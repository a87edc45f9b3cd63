//! Holding seats and standing places. Each handler needs an
//! Idempotency-Key, fingerprints the request, and calls one use case.

use super::openapi::{HoldPlacesRequest, HoldSeatsRequest};
use axum::extract::State;
use axum::response::Response;
use holdfast_core::booking::{ga, hold};
use holdfast_core::platform::error::ErrorBody;
use holdfast_core::{ApiError, AppState};
use holdfast_model::HoldResponse;
use holdfast_web::HttpError;
use serde::Deserialize;
use std::collections::HashMap;

use super::extract;
use super::hold_attempt::HoldAttempt;
use holdfast_model::SeatId;

#[utoipa::path(
    post,
    path = "/api/events/{eventId}/seats/{seatId}/hold",
    tag = "holds",
    summary = "Hold one seat",
    params(("eventId" = i64, Path, description = "event id", example = 1, minimum = 1), ("seatId" = i64, Path, description = "seat id", example = 1, minimum = 1), ("Idempotency-Key" = String, Header, description = "1–255 printable ASCII, required")),
    responses((status = 200, body = HoldResponse), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)),
)]
pub async fn hold_one(
    State(state): State<AppState>,
    hold: HoldAttempt,
) -> Result<Response, HttpError> {
    let seat_id = SeatId(hold.path_id("seatId")?);
    let outcome = hold::hold_seats(&state, &hold.admitted, &[seat_id], Some(&hold.key)).await?;
    Ok(extract::idempotent_json(outcome))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HoldMany {
    seat_ids: Vec<serde_json::Value>,
    #[serde(default)]
    guests: Vec<Party>,
}

/// A cabin's party: `{ seatId, count }`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Party {
    seat_id: serde_json::Value,
    count: serde_json::Value,
}

#[utoipa::path(
    post,
    path = "/api/events/{eventId}/holds",
    tag = "holds",
    summary = "Hold several seats, all or nothing",
    params(("eventId" = i64, Path, description = "event id", example = 1, minimum = 1), ("Idempotency-Key" = String, Header, description = "1–255 printable ASCII, required")),
    request_body = HoldSeatsRequest,
    responses((status = 200, body = HoldResponse), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)),
)]
pub async fn hold_many(
    State(state): State<AppState>,
    hold: HoldAttempt,
) -> Result<Response, HttpError> {
    let req: HoldMany = hold.json()?;
    let seat_ids = req
        .seat_ids
        .iter()
        .map(|v| v.as_i64().filter(|id| *id > 0).map(SeatId))
        .collect::<Option<Vec<SeatId>>>()
        .ok_or_else(|| {
            ApiError::unprocessable("seatIds must be positive whole numbers", "seatIds")
        })?;
    let guests = parties(&req.guests)?;
    let (admitted, key) = (&hold.admitted, Some(&hold.key));
    let outcome = hold::hold_parties(&state, admitted, &seat_ids, &guests, key).await?;
    Ok(extract::idempotent_json(outcome))
}

/// Each cabin's party, once per cabin.
fn parties(given: &[Party]) -> Result<HashMap<SeatId, i64>, ApiError> {
    let mut guests = HashMap::new();
    for party in given {
        let seat = party.seat_id.as_i64().filter(|id| *id > 0).map(SeatId);
        let count = party.count.as_i64().filter(|n| (1..=12).contains(n));
        let (Some(seat), Some(count)) = (seat, count) else {
            return Err(ApiError::unprocessable(
                "guests must be [{ seatId, count }] with a count from 1 to 12",
                "guests",
            ));
        };
        if guests.insert(seat, count).is_some() {
            return Err(ApiError::unprocessable(
                format!("guests names seat {seat} twice"),
                "guests",
            ));
        }
    }
    Ok(guests)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HoldPlaces {
    quantity: i64,
}

#[utoipa::path(
    post,
    path = "/api/events/{eventId}/general-admission/{areaId}/hold",
    tag = "holds",
    summary = "Hold standing places",
    params(("eventId" = i64, Path, description = "event id", example = 1, minimum = 1), ("areaId" = i64, Path, description = "standing area id", example = 1, minimum = 1), ("Idempotency-Key" = String, Header, description = "1–255 printable ASCII, required")),
    request_body = HoldPlacesRequest,
    responses((status = 200, body = HoldResponse), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)),
)]
pub async fn hold_general_admission(
    State(state): State<AppState>,
    hold: HoldAttempt,
) -> Result<Response, HttpError> {
    let area_id = hold.path_id("areaId")?;
    let req: HoldPlaces = hold.json()?;
    let (admitted, key) = (&hold.admitted, Some(&hold.key));
    let outcome = ga::hold_general_admission(&state, admitted, area_id, req.quantity, key).await?;
    Ok(extract::idempotent_json(outcome))
}
