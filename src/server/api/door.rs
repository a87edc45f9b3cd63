//! `POST /api/admin/tickets/{token}/check-in`: staff at the door scan a
//! ticket; the first scan lets its holder in, a second says when and where
//! it was used.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use holdfast_app::core::admin::auth::Admin;
use holdfast_app::core::door::{self, CheckedIn};
use holdfast_app::core::platform::error::ErrorBody;
use holdfast_app::core::{ApiError, AppState};
use serde::Deserialize;

use super::extract::{self, RawBody};

/// Where the scan happened (optional; "main" when absent).
#[derive(Deserialize, Default, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckInRequest {
    gate: Option<String>,
}

#[utoipa::path(
    post,
    path = "/api/admin/tickets/{token}/check-in",
    tag = "admin",
    summary = "Check a ticket in at the door (once); 409 ALREADY_CHECKED_IN says when and at which gate it was used, 409 TICKET_VOID refuses a refunded or disputed booking's ticket",
    params(("token" = String, Path, description = "a booking's ticket (the whole party) or one seat's")),
    request_body(content = Option<CheckInRequest>, content_type = "application/json"),
    responses((status = 200, body = CheckedIn), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = []), ("console_session" = [])),
)]
pub async fn check_in(
    State(state): State<AppState>,
    admin: Admin,
    Path(token): Path<String>,
    headers: HeaderMap,
    RawBody(body): RawBody,
) -> Result<Json<CheckedIn>, ApiError> {
    let request: CheckInRequest = if body.is_empty() {
        CheckInRequest::default()
    } else {
        extract::json(&headers, &body)?
    };
    let done = door::check_in(&state, &admin, &token, request.gate.as_deref()).await?;
    Ok(Json(done))
}
