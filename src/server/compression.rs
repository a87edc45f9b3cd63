//! Every text answer compressed as the client asks (`Accept-Encoding`),
//! with `Vary: Accept-Encoding`: gzip per request (cheap on a few
//! kilobytes), brotli for what is compressed once. Bodies compressed
//! once for everyone (`Compressed`) or by the build (`/pkg`) arrive with
//! their `Content-Encoding` and pass through; so do live streams, which
//! must not be held back, and bodies too large to hold in memory.
//!
//! Ours rather than tower-http's layer: that one chooses brotli for every
//! answer, which costs a page more than its rendering does (`holdfast-bench
//! pages` compares them).

use axum::body::{to_bytes, Body};
use axum::extract::Request;
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use holdfast_core::platform::compressed::{encode, Effort, Encoding};

/// Smaller bodies are not worth the header.
const MIN_BYTES: usize = 512;
/// Larger ones pass uncompressed (nothing of ours is dynamic and that big).
const MAX_BYTES: usize = 16 * 1024 * 1024;

pub async fn compress(request: Request, next: Next) -> Response {
    let encoding = Encoding::per_request(
        request
            .headers()
            .get(header::ACCEPT_ENCODING)
            .and_then(|v| v.to_str().ok()),
    );
    let response = next.run(request).await;
    if !compressible(&response) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    add_vary(&mut parts.headers);
    if encoding == Encoding::Identity {
        return Response::from_parts(parts, body);
    }
    let Ok(raw) = to_bytes(body, MAX_BYTES).await else {
        // The body failed or outgrew the bound while being read: what was
        // read is gone, so the answer can only be an error now.
        return axum::http::StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    if raw.len() < MIN_BYTES {
        return Response::from_parts(parts, Body::from(raw));
    }
    // A page deflates in a fraction of a millisecond: not worth a
    // blocking-pool hop.
    let packed = encode(&raw, encoding, Effort::Fast);
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.remove(header::ACCEPT_RANGES);
    if let Some(name) = encoding.header() {
        parts
            .headers
            .insert(header::CONTENT_ENCODING, HeaderValue::from_static(name));
    }
    Response::from_parts(parts, Body::from(packed))
}

/// Text of ours, not already encoded, not a stream, not a range.
fn compressible(response: &Response) -> bool {
    let headers = response.headers();
    if headers.contains_key(header::CONTENT_ENCODING) || headers.contains_key(header::CONTENT_RANGE)
    {
        return false;
    }
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > MAX_BYTES) {
        return false;
    }
    let kind = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let kind = kind.split(';').next().unwrap_or("").trim();
    kind != "text/event-stream"
        && (kind.starts_with("text/")
            || kind == "application/json"
            || kind == "application/javascript"
            || kind == "application/wasm"
            || kind == "image/svg+xml"
            // An icon is a bitmap: it shrinks as text does.
            || kind == "image/x-icon"
            || kind == "image/vnd.microsoft.icon"
            || kind.ends_with("+json"))
}

/// Adds Accept-Encoding to the answer's one `Vary` (pages already vary
/// by language): one header, as every cache reads it.
pub(crate) fn add_vary(headers: &mut axum::http::HeaderMap) {
    let said: Vec<String> = headers
        .get_all(header::VARY)
        .iter()
        .filter_map(|v| v.to_str().ok().map(str::to_string))
        .collect();
    if said
        .iter()
        .any(|v| v.to_ascii_lowercase().contains("accept-encoding"))
    {
        return;
    }
    let value = said
        .into_iter()
        .chain(["Accept-Encoding".to_string()])
        .collect::<Vec<_>>()
        .join(", ");
    if let Ok(v) = HeaderValue::from_str(&value) {
        headers.insert(header::VARY, v);
    }
}
