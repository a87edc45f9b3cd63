//! Liveness and readiness.

use axum::extract::State;
use axum::Json;
use holdfast_app::core::{ApiError, AppState};
use serde_json::{json, Value};

pub async fn healthz() -> Json<Value> {
    Json(json!({ "status": "ok" }))
}

/// Ready when the database answers and the migrations are applied.
pub async fn readyz(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    if !state.db.migrations_applied().await? {
        return Err(ApiError::InvalidState("migrations not applied".into()));
    }
    Ok(Json(
        json!({ "status": "ready", "database": format!("{:?}", state.db.backend).to_lowercase() }),
    ))
}
