//! Per-address limits on the steps that claim seats, start payments or
//! sign in (the per-buyer limit lives in the use cases, so the pages'
//! server functions count too). Over the limit: 429 with `Retry-After`.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use holdfast_app::core::client_addr::{ClientAddr, TrustedProxies};
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
        if let Some(client) = request.extensions().get::<ClientAddr>() {
            if let Err(refused) = state.limits.address_attempt(client.limit_key()) {
                return refused.into_response();
            }
        }
    }
    next.run(request).await
}

/// Outermost: says who the client is (`ClientAddr`) for everything inside —
/// the peer, or what a trusted proxy forwarded (`TRUSTED_PROXIES`).
pub async fn identify_client(
    trusted: Arc<TrustedProxies>,
    mut request: Request,
    next: Next,
) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    if let Some(peer) = peer {
        let client = trusted.client(peer, request.headers());
        request.extensions_mut().insert(client);
    }
    next.run(request).await
}
