//! The API's error shape for answers made outside its handlers. Layers and
//! the router answer on their own — a bare 405 for a method a route does
//! not have, a bare 500 from the session layer when the database is
//! unreachable, a 408 from the timeout — and such answers would leave
//! `/api` without `{ "error": … }`. This middleware, outside every other
//! layer, gives any `/api` error that is not JSON a body in the shape,
//! keeping its status and headers (`Allow`, `Retry-After`). A page's
//! server function whose arguments do not read (a field missing or
//! malformed) answers 500 from Leptos; that is the caller's mistake, so it
//! becomes a 400 here.

use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use holdfast_core::platform::error::{ErrorBody, ErrorDetail};
use leptos::server_fn::error::SERVER_FN_ERROR_HEADER;

pub async fn api_errors(request: Request, next: Next) -> Response {
    let api = request.uri().path().starts_with("/api/");
    let response = next.run(request).await;
    let mut status = response.status();
    if !api || status.as_u16() < 400 || is_json(&response) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    if parts.headers.contains_key(SERVER_FN_ERROR_HEADER) && arguments_unread(body).await {
        status = StatusCode::BAD_REQUEST;
        parts.status = status;
    }
    if status.is_server_error() {
        tracing::error!(
            status = status.as_u16(),
            "a layer answered an API request without a body"
        );
    }
    let (code, message) = describe(status);
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    let body = ErrorBody {
        error: ErrorDetail {
            code,
            message: message.into(),
            seat_ids: None,
            suggestions: None,
            fields: None,
            field_errors: None,
            checked_in_at: None,
            gate: None,
        },
    };
    let fresh = axum::Json(body).into_response();
    Response::from_parts(parts, fresh.into_body())
}

/// Whether a server function's error body says its arguments did not read
/// (`Args|…`, `MissingArg|…`, `Deserialization|…`).
async fn arguments_unread(body: axum::body::Body) -> bool {
    let Ok(bytes) = axum::body::to_bytes(body, 16 * 1024).await else {
        return false;
    };
    ["Args|", "MissingArg|", "Deserialization|"]
        .iter()
        .any(|kind| bytes.starts_with(kind.as_bytes()))
}

fn describe(status: StatusCode) -> (&'static str, &'static str) {
    match status.as_u16() {
        404 => ("NOT_FOUND", "No such resource"),
        405 => (
            "METHOD_NOT_ALLOWED",
            "This method is not allowed here (see the Allow header)",
        ),
        408 => ("TIMEOUT", "The request took too long"),
        413 => ("VALIDATION", "The request body is too large"),
        415 => (
            "VALIDATION",
            "The request body must be JSON (Content-Type: application/json)",
        ),
        429 => (
            "RATE_LIMITED",
            "Too many requests; try again after Retry-After seconds",
        ),
        400 => (
            "VALIDATION",
            "A field the request needs is missing or not in its form",
        ),
        401 => ("UNAUTHORIZED", "admin credentials are needed"),
        403 => ("FORBIDDEN", "these credentials do not allow this"),
        402..=499 => ("VALIDATION", "The request is not valid"),
        _ => (
            "INTERNAL",
            "Something went wrong on our side; try again with the same Idempotency-Key",
        ),
    }
}

fn is_json(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"))
}
