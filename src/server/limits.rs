//! Per-address limits on the steps that claim seats, start payments or
//! sign in (the per-buyer limit lives in the use cases, so the pages'
//! server functions count too). Over the limit: 429 with `Retry-After`.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use holdfast_app::core::AppState;

/// The guarded steps: REST holds and pay, the console sign-in, and the
/// pages' server functions for the same steps.
fn guarded(path: &str) -> bool {
    path.ends_with("/hold")
        || path.ends_with("/holds")
        || path.ends_with("/pay")
        || path == "/api/admin/login"
        || ["/api/hold_seats", "/api/pay_booking", "/api/admin_sign_in"]
            .iter()
            .any(|p| path.starts_with(p))
}

pub async fn per_address(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if request.method() == Method::POST && guarded(request.uri().path()) {
        let address = request
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip());
        if let Some(address) = address {
            if let Err(refused) = state.limits.address_attempt(address) {
                return refused.into_response();
            }
        }
    }
    next.run(request).await
}
