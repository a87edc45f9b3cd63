//! The Jobs view of the admin API: every periodic job with its holder and
//! last runs, and "Run now".

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use holdfast_core::admin::run_job;
use holdfast_core::platform::error::ErrorBody;
use holdfast_core::platform::jobs::history;
use holdfast_core::AppState;
use holdfast_model::console::{JobView, RunRequested};
use holdfast_web::caller::{may, Allowed};
use holdfast_web::HttpError;

/// `GET /api/admin/jobs`.
#[utoipa::path(
    get,
    path = "/api/admin/jobs",
    tag = "admin",
    summary = "Periodic jobs: holder, next run, last runs",
    responses((status = 200, body = Vec<JobView>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)),
    security(("bearer" = ["operations"]), ("console_session" = ["operations"])),
)]
pub async fn list(
    State(state): State<AppState>,
    _admin: Allowed<may::Operations>,
) -> Result<Json<Vec<JobView>>, HttpError> {
    Ok(Json(history::jobs(&state.db).await?))
}

/// `POST /api/admin/jobs/{jobName}/run`: due now; the next poll of any
/// instance runs it (after the run under way, if one is).
#[utoipa::path(
    post,
    path = "/api/admin/jobs/{jobName}/run",
    tag = "admin",
    summary = "Run a job now",
    params(("jobName" = String, Path, description = "a job's name, as listed")),
    responses((status = 202, body = RunRequested), (status = 404, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)),
    security(("bearer" = ["operations"]), ("console_session" = ["operations"])),
)]
pub async fn run_now(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::Operations>,
    Path(name): Path<String>,
) -> Result<(StatusCode, Json<RunRequested>), HttpError> {
    run_job::run_now(&state, &admin, &name).await?;
    Ok((StatusCode::ACCEPTED, Json(RunRequested { name })))
}
