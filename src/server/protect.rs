//! Browser-facing protection, in one middleware: no cross-site request may
//! change anything (CSRF), and every answer carries the security headers.
//!
//! A state-changing request (POST, PUT, PATCH, DELETE) is refused with 403
//! when the browser says it comes from another site (`Sec-Fetch-Site:
//! cross-site` / `same-site`) or names an `Origin` other than this server.
//! Clients that are not browsers send neither and pass (integrators, the
//! payment provider); the webhook is guarded by its signature instead.
//! Session cookies are `SameSite=Lax` besides.

use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use holdfast_core::ApiError;
use holdfast_web::HttpError;

/// Paths whose callers are servers, authenticated otherwise.
const EXEMPT: &[&str] = &["/api/payments/webhook"];

/// `public`: `PUBLIC_BASE_URL`, whose host also counts as ours (behind a
/// proxy the Host header may differ from what the browser shows); `hsts`:
/// production, where browsers are told to come back over https only.
pub async fn same_origin_writes(
    public: Option<String>,
    hsts: bool,
    request: Request,
    next: Next,
) -> Response {
    let writes = matches!(
        *request.method(),
        Method::POST | Method::PUT | Method::PATCH | Method::DELETE
    );
    if writes
        && !EXEMPT.contains(&request.uri().path())
        && is_cross_site(request.headers(), public.as_deref())
    {
        tracing::warn!(path = %request.uri().path(), "cross-site write refused");
        return with_security_headers(HttpError(ApiError::CrossSite).into_response(), hsts);
    }
    with_security_headers(next.run(request).await, hsts)
}

fn is_cross_site(headers: &HeaderMap, public: Option<&str>) -> bool {
    let text = |name: HeaderName| headers.get(name).and_then(|v| v.to_str().ok());
    if matches!(
        text(HeaderName::from_static("sec-fetch-site")),
        Some("cross-site" | "same-site")
    ) {
        return true;
    }
    let Some(origin) = text(header::ORIGIN) else {
        return false;
    };
    let authority = authority_of(origin);
    authority.is_none()
        || (authority != text(header::HOST) && authority != public.and_then(authority_of))
}

/// `https://host:port/…` → `host:port`.
fn authority_of(url: &str) -> Option<&str> {
    url.strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .map(|rest| rest.split('/').next().unwrap_or(rest))
}

/// The Content-Security-Policy of the hydrated pages: our own scripts (the
/// hydration bootstrap is inline), WebAssembly, our own styles, streams and
/// calls to ourselves only, never framed. Forms post to ourselves; Stripe
/// Checkout is named in `form-action` too because Chromium applies it to
/// the redirect after a post (the cruise guests' form answers with a
/// redirect to the checkout).
pub const CSP: &str = "default-src 'self'; script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'; \
style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
frame-ancestors 'none'; base-uri 'self'; form-action 'self' https://checkout.stripe.com; object-src 'none'";

/// Adds the security headers a handler did not set itself (one pass, in
/// the same middleware as the cross-site check: every layer costs on the
/// hottest paths).
fn with_security_headers(mut response: Response, hsts: bool) -> Response {
    let headers = response.headers_mut();
    if hsts {
        headers
            .entry(header::STRICT_TRANSPORT_SECURITY)
            .or_insert_with(|| HeaderValue::from_static("max-age=31536000; includeSubDomains"));
    }
    for (name, value) in [
        (header::CONTENT_SECURITY_POLICY, CSP),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "strict-origin-when-cross-origin"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (
            HeaderName::from_static("permissions-policy"),
            "camera=(), microphone=(), geolocation=()",
        ),
    ] {
        headers
            .entry(name)
            .or_insert_with(|| HeaderValue::from_static(value));
    }
    response
}
