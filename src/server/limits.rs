//! Per-address limits on the REST steps that claim seats, start payments,
//! sign in, join a waiting room or use promo codes (the per-buyer limit
//! lives in the use cases). The pages' server functions count their own
//! attempts (`server_fns::count_client_attempt`): their paths follow a build
//! setting, so no URL rule here could be trusted to catch them. Over the
//! limit: 429 with `Retry-After`.

use holdfast_web::HttpError;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use holdfast_core::platform::client_addr::{ClientAddr, TrustedProxies};
use holdfast_core::AppState;

/// The guarded REST steps (all POST): holds (best available too) and pay, the console sign-in,
/// joining a queue, applying and claiming promo codes.
fn guarded(path: &str) -> bool {
    path.starts_with("/api/")
        && ([
            "/hold",
            "/holds",
            "/best-available",
            "/pay",
            "/queue",
            "/promo",
            "/claim",
        ]
        .iter()
        .any(|end| path.ends_with(end))
            || path == "/api/admin/login")
}

pub async fn per_address(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if request.method() == Method::POST && guarded(request.uri().path()) {
        if let Some(client) = request.extensions().get::<ClientAddr>() {
            if let Err(refused) = state.limits.address_attempt(client.limit_key()) {
                return HttpError(refused).into_response();
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

/// The request body limit: the API's (`MAX_BODY_BYTES`) for everything but
/// the payment webhook (`WEBHOOK_MAX_BYTES`, Stripe's events can be large).
/// A declared length over it is answered 413 at once; a body without one
/// is cut off at the limit (reading it fails).
pub async fn body_size(request: Request, next: Next) -> Response {
    let limit = if request.uri().path() == "/api/payments/webhook" {
        super::api::WEBHOOK_MAX_BYTES
    } else {
        super::api::MAX_BODY_BYTES
    };
    let declared = request
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > limit) {
        return axum::http::StatusCode::PAYLOAD_TOO_LARGE.into_response();
    }
    let request =
        request.map(|body| axum::body::Body::new(http_body_util::Limited::new(body, limit)));
    next.run(request).await
}
