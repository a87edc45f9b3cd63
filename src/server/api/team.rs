//! The admin API's team: people invited with a role, their roles changed,
//! people removed; and the API keys integrations use. Only an owner
//! (`may::Team`) reaches any of it.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use holdfast_app::i18n::Locale;
use holdfast_core::admin::{keys, team};
use holdfast_core::platform::error::ErrorBody;
use holdfast_core::{ApiError, AppState};
use holdfast_model::console::team::{
    ApiKeyView, CreatedApiKey, Grant, NewApiKey, NewInvitation, PendingInvitation, Team, TeamMember,
};
use holdfast_web::caller::{may, Allowed};
use holdfast_web::HttpError;

use super::extract::JsonBody;

#[utoipa::path(
    get,
    path = "/api/admin/team",
    tag = "team",
    summary = "The team's people and its open invitations",
    responses((status = 200, body = Team), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)),
    security(("bearer" = ["team"]), ("console_session" = ["team"])),
)]
pub async fn show(
    State(state): State<AppState>,
    _admin: Allowed<may::Team>,
) -> Result<Json<Team>, HttpError> {
    Ok(Json(team::list(&state).await?))
}

#[utoipa::path(
    post,
    path = "/api/admin/team/invitations",
    tag = "team",
    summary = "Invite a person by email with a role, for every event or some: the link is mailed, works once and for 3 days (409 INVALID_STATE for someone already on the team; 403 for a role or events beyond the inviter's own)",
    request_body = NewInvitation,
    responses((status = 201, body = PendingInvitation), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = ["team"]), ("console_session" = ["team"])),
)]
pub async fn invite(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::Team>,
    headers: HeaderMap,
    JsonBody(new): JsonBody<NewInvitation>,
) -> Result<(StatusCode, Json<PendingInvitation>), HttpError> {
    let l = Locale::of_headers(&headers);
    let sent = team::invite(&state, &admin, &new, l).await?;
    Ok((StatusCode::CREATED, Json(sent)))
}

#[utoipa::path(
    put,
    path = "/api/admin/team/{personId}",
    tag = "team",
    summary = "Give a person another role or other events (at once, on every instance); nobody changes their own",
    params(("personId" = i64, Path, description = "the person's id", minimum = 1)),
    request_body = Grant,
    responses((status = 200, body = TeamMember), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = ["team"]), ("console_session" = ["team"])),
)]
pub async fn change(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::Team>,
    Path(person): Path<String>,
    JsonBody(grant): JsonBody<Grant>,
) -> Result<Json<TeamMember>, HttpError> {
    let person = id_in_path(&person, "personId")?;
    Ok(Json(team::change(&state, &admin, person, &grant).await?))
}

#[utoipa::path(
    delete,
    path = "/api/admin/team/{personId}",
    tag = "team",
    summary = "Take a person off the team: their sessions and the keys they made stop at once, on every instance; nobody removes themselves",
    params(("personId" = i64, Path, description = "the person's id", minimum = 1)),
    responses((status = 204, description = "removed"), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = ["team"]), ("console_session" = ["team"])),
)]
pub async fn remove(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::Team>,
    Path(person): Path<String>,
) -> Result<StatusCode, HttpError> {
    let person = id_in_path(&person, "personId")?;
    team::remove(&state, &admin, person).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    get,
    path = "/api/admin/keys",
    tag = "team",
    summary = "The API keys, newest first (never their secrets)",
    responses((status = 200, body = Vec<ApiKeyView>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)),
    security(("bearer" = ["team"]), ("console_session" = ["team"])),
)]
pub async fn list_keys(
    State(state): State<AppState>,
    _admin: Allowed<may::Team>,
) -> Result<Json<Vec<ApiKeyView>>, HttpError> {
    Ok(Json(keys::list(&state.db).await?))
}

#[utoipa::path(
    post,
    path = "/api/admin/keys",
    tag = "team",
    summary = "Make an API key with a role, for every event or some; its secret is in this answer only",
    request_body = NewApiKey,
    responses((status = 201, body = CreatedApiKey), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = ["team"]), ("console_session" = ["team"])),
)]
pub async fn create_key(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::Team>,
    JsonBody(new): JsonBody<NewApiKey>,
) -> Result<(StatusCode, Json<CreatedApiKey>), HttpError> {
    let created = keys::create(&state, &admin, &new).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

#[utoipa::path(
    delete,
    path = "/api/admin/keys/{keyId}",
    tag = "team",
    summary = "Revoke an API key: it stops working at once, on every instance (again: no change)",
    params(("keyId" = i64, Path, description = "the key's id", minimum = 1)),
    responses((status = 200, body = ApiKeyView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = ["team"]), ("console_session" = ["team"])),
)]
pub async fn revoke_key(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::Team>,
    Path(key): Path<String>,
) -> Result<Json<ApiKeyView>, HttpError> {
    let key = id_in_path(&key, "keyId")?;
    Ok(Json(keys::revoke(&state, &admin, key).await?))
}

fn id_in_path(raw: &str, name: &str) -> Result<i64, ApiError> {
    raw.parse::<i64>().ok().filter(|id| *id > 0).ok_or_else(|| {
        ApiError::validation(format!("{name} must be a positive whole number"), name)
    })
}
