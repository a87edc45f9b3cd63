//! The console's sign-in, sign-out and "am I signed in" (the admin API
//! proper is in `admin`).

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use holdfast_core::admin::auth;
use holdfast_core::platform::client_addr::ClientAddr;
use holdfast_core::platform::error::ErrorBody;
use holdfast_core::{ApiError, AppState};
use holdfast_web::HttpError;
use serde::Deserialize;
use serde_json::{json, Value};
use tower_sessions::Session;

use super::extract;

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SignIn {
    password: String,
}

/// `POST /api/admin/login` `{ password }` → the session becomes an admin's.
#[utoipa::path(
    post,
    path = "/api/admin/login",
    tag = "admin",
    summary = "Console sign-in",
    request_body = SignIn,
    responses((status = 200, description = "`{ admin: true }`"), (status = 403, body = ErrorBody), (status = 429, body = ErrorBody)),
)]
pub async fn login(
    State(state): State<AppState>,
    session: Session,
    headers: HeaderMap,
    request: axum::extract::Request,
) -> Result<Json<Value>, HttpError> {
    let client = request
        .extensions()
        .get::<ClientAddr>()
        .map(|c| c.limit_key());
    let body = axum::body::to_bytes(request.into_body(), super::MAX_BODY_BYTES)
        .await
        .map_err(|_| ApiError::validation("the request body could not be read", "body"))?;
    let form: SignIn = extract::json(&headers, &body)?;
    state.admin.check_password(client, &form.password).await?;
    state.admin.sign_in(&session, state.clock.now()).await?;
    Ok(Json(json!({ "admin": true })))
}

/// `POST /api/admin/logout`.
#[utoipa::path(
    post,
    path = "/api/admin/logout",
    tag = "admin",
    summary = "Console sign-out",
    responses((status = 204, description = "signed out")),
)]
pub async fn logout(session: Session) -> Result<StatusCode, HttpError> {
    auth::sign_out(&session).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /api/admin/session` → `{ admin }`: is this session signed in?
#[utoipa::path(
    get,
    path = "/api/admin/session",
    tag = "admin",
    summary = "Is this session signed in as admin?",
    responses((status = 200, description = "`{ admin }`")),
)]
pub async fn whoami(State(state): State<AppState>, session: Session) -> Json<Value> {
    let admin = state
        .admin
        .session_is_admin(&session, state.clock.now())
        .await;
    Json(json!({ "admin": admin }))
}
