//! The site's static files (`/pkg`: the page script, the wasm, the CSS).
//! The build names each by a hash of its content (`scripts/build.sh`,
//! `hash.txt`) and stores brotli and gzip copies beside it, so a browser
//! keeps a hashed file for good without asking again, and no request
//! compresses what the build already did. Unhashed names (a development
//! build) are revalidated each time.

use std::path::{Path, PathBuf};

use axum::extract::Request;
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use axum::Router;
use holdfast_core::AppState;
use tower_http::services::ServeDir;

/// `/pkg/*` from `{site_root}/pkg`, the prebuilt `.br`/`.gz` chosen by
/// `Accept-Encoding`.
pub fn routes(site_root: &str) -> Router<AppState> {
    let pkg = ServeDir::new(Path::new(site_root).join("pkg"))
        .precompressed_br()
        .precompressed_gzip();
    Router::new()
        .nest_service("/pkg", pkg)
        .layer(axum::middleware::from_fn(cache_by_name))
}

/// The hash file the build writes, when there is one: Leptos then names
/// the script and the wasm by their hashes.
pub fn hash_file(site_root: &str) -> Option<PathBuf> {
    let path = std::path::absolute(Path::new(site_root).join("hash.txt")).ok()?;
    path.is_file().then_some(path)
}

async fn cache_by_name(req: Request, next: Next) -> Response {
    let forever = is_hashed(req.uri().path());
    let mut response = next.run(req).await;
    let value = if forever {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    response
}

/// `holdfast.3f9a0c1d2e4b5a6c.wasm`: a name with a hex hash before the
/// extension.
fn is_hashed(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let parts: Vec<&str> = name.split('.').collect();
    parts.len() >= 3 && parts[1].len() >= 8 && parts[1].chars().all(|c| c.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_hashed_names_are_kept_for_good() {
        assert!(super::is_hashed("/pkg/holdfast.3f9a0c1d2e4b5a6c.wasm"));
        assert!(super::is_hashed("/holdfast.0123abcd.css"));
        assert!(!super::is_hashed("/pkg/holdfast.wasm"));
        assert!(!super::is_hashed("/pkg/holdfast.css"));
        assert!(!super::is_hashed("/pkg/holdfast.notahash1.js"));
    }
}
