//! Liveness and readiness.

use axum::extract::State;
use axum::Json;
use holdfast_core::{ApiError, AppState};
use holdfast_web::HttpError;
use serde_json::{json, Value};

pub async fn healthz() -> Json<Value> {
    Json(json!({ "status": "ok" }))
}

/// Ready when the database answers and the migrations are applied.
pub async fn readyz(State(state): State<AppState>) -> Result<Json<Value>, HttpError> {
    if !state.db.migrations_applied().await? {
        return Err(ApiError::InvalidState("migrations not applied".into()).into());
    }
    Ok(Json(
        json!({ "status": "ready", "database": format!("{:?}", state.db.backend).to_lowercase() }),
    ))
}
