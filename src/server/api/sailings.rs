//! Sailings (each also an event: its seat map, holds and payments are at
//! `/api/events/{sailingId}/…`) and the guests of a booking on one.

use axum::extract::rejection::QueryRejection;
use axum::extract::{FromRequestParts, Query, State};
use axum::http::request::Parts;
use axum::Json;
use holdfast_core::buyer::Owner;
use holdfast_core::platform::error::ErrorBody;
use holdfast_core::sailing::{catalog, manifest};
use holdfast_core::{ApiError, AppState};
use holdfast_model::sailing::{Guest, Manifest, SailingDetail, SailingSummary};
use holdfast_model::{EventId, SeatId};
use holdfast_web::Caller;
use holdfast_web::HttpError;
use serde::Deserialize;

use super::extract::{BookingPath, JsonBody, PathParams};

#[utoipa::path(
    get,
    path = "/api/sailings",
    tag = "sailings",
    summary = "Sailings in departure order, with fares from and places free",
    params(("route" = Option<String>, Query, description = "one route's sailings (its code, e.g. NORWAY-7N)")),
    responses((status = 200, body = Vec<SailingSummary>), (status = 422, body = ErrorBody)),
)]
pub async fn list(
    State(state): State<AppState>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Json<Vec<SailingSummary>>, HttpError> {
    // Any query string gets an answer in the API's shape.
    let Query(pairs) = query
        .map_err(|_| ApiError::unprocessable("the query string could not be read", "route"))?;
    let route = pairs
        .into_iter()
        .find(|(k, _)| k == "route")
        .map(|(_, v)| v);
    Ok(Json(catalog::list(&state, route.as_deref()).await?))
}

#[utoipa::path(
    get,
    path = "/api/sailings/{sailingId}",
    tag = "sailings",
    summary = "One sailing with its itinerary and fares",
    params(("sailingId" = i64, Path, description = "sailing id (its event id)", example = 2, minimum = 1)),
    responses((status = 200, body = SailingDetail), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)),
)]
pub async fn detail(
    State(state): State<AppState>,
    SailingPath(id): SailingPath,
) -> Result<Json<SailingDetail>, HttpError> {
    Ok(Json(catalog::detail(&state, id).await?))
}

/// The `{sailingId}` of a route, parsed (a sailing's id is its event's).
pub struct SailingPath(pub EventId);

impl<S: Send + Sync> FromRequestParts<S> for SailingPath {
    type Rejection = HttpError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let params = PathParams::read(parts, state, "sailingId").await?;
        Ok(SailingPath(EventId(params.id("sailingId")?)))
    }
}

/// `PUT /api/bookings/{bookingId}/guests` body.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GuestsBody {
    guests: Vec<GuestBody>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GuestBody {
    seat_id: serde_json::Value,
    full_name: String,
    birth_date: String,
}

#[utoipa::path(
    put,
    path = "/api/bookings/{bookingId}/guests",
    tag = "bookings",
    summary = "Name every guest of your cruise booking (the manifest), replacing any named before",
    params(("bookingId" = String, Path, pattern = "^[0-9a-fA-F-]{36}$", description = "booking id (UUID)")),
    request_body = super::openapi::GuestsRequest,
    responses((status = 200, body = Manifest), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 415, body = ErrorBody), (status = 422, body = ErrorBody)),
)]
pub async fn set_guests(
    State(state): State<AppState>,
    Caller(owner): Caller<Owner>,
    BookingPath(id): BookingPath,
    JsonBody(req): JsonBody<GuestsBody>,
) -> Result<Json<Manifest>, HttpError> {
    let guests = req
        .guests
        .into_iter()
        .enumerate()
        .map(|(i, g)| {
            let seat_id = g.seat_id.as_i64().filter(|id| *id > 0).ok_or_else(|| {
                ApiError::unprocessable(
                    "seatId must be a positive whole number",
                    &format!("guests[{i}].seatId"),
                )
            })?;
            Ok(Guest {
                seat_id: SeatId(seat_id),
                full_name: g.full_name,
                birth_date: g.birth_date,
            })
        })
        .collect::<Result<Vec<_>, HttpError>>()?;
    Ok(Json(manifest::set(&state, &owner, &id, guests).await?))
}
