//! The buyer's choice of language: `GET /lang?to=vi&back=/events/3`
//! remembers it in a cookie for a year and sends the buyer back to the
//! page they were on (only a path of this site: never elsewhere). Pages
//! differ by that cookie and by `Accept-Language`, and say so (`Vary`).

use axum::extract::{Query, Request};
use axum::http::header::{CONTENT_TYPE, LOCATION, SET_COOKIE, VARY};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use holdfast_app::i18n::{Locale, COOKIE};
use holdfast_core::{ApiError, AppState};
use holdfast_web::HttpError;
use serde::Deserialize;

pub fn routes() -> Router<AppState> {
    Router::new().route("/lang", get(switch))
}

#[derive(Deserialize)]
struct Switch {
    to: Option<String>,
    back: Option<String>,
}

async fn switch(Query(q): Query<Switch>) -> Response {
    let Some(locale) = q.to.as_deref().and_then(Locale::parse) else {
        return HttpError(ApiError::validation(
            "to: a language Holdfast speaks (en or vi)",
            "to",
        ))
        .into_response();
    };
    let back = q
        .back
        .filter(|b| is_own_path(b))
        .unwrap_or_else(|| "/".to_string());
    let cookie = format!(
        "{COOKIE}={}; Path=/; Max-Age=31536000; SameSite=Lax",
        locale.tag()
    );
    (
        StatusCode::SEE_OTHER,
        [(LOCATION, back), (SET_COOKIE, cookie)],
    )
        .into_response()
}

/// A path on this site: not another host (`//evil.example`, `/\evil`),
/// not a scheme, no control characters.
fn is_own_path(p: &str) -> bool {
    p.starts_with('/')
        && !p.starts_with("//")
        && !p.starts_with("/\\")
        && !p.chars().any(|c| c.is_control())
}

/// Pages are written in the request's language: caches must keep them
/// apart by what chose it.
pub async fn vary_by_language(req: Request, next: Next) -> Response {
    let mut response = next.run(req).await;
    let is_page = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("text/html"));
    if is_page {
        response
            .headers_mut()
            .append(VARY, HeaderValue::from_static("Cookie, Accept-Language"));
    }
    response
}

/// The language a page is written in, from the request (cookie, then
/// `Accept-Language`): `Lang(l): Lang` in a page handler's arguments.
pub struct Lang(pub Locale);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Lang {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Self, Self::Rejection> {
        Ok(Lang(Locale::of_headers(&parts.headers)))
    }
}

#[cfg(test)]
mod tests {
    use super::is_own_path;

    #[test]
    fn only_paths_of_this_site_are_gone_back_to() {
        assert!(is_own_path("/events/3?x=1"));
        assert!(is_own_path("/"));
        assert!(!is_own_path("//evil.example/"));
        assert!(!is_own_path("/\\evil.example"));
        assert!(!is_own_path("https://evil.example/"));
        assert!(!is_own_path("/a\r\nSet-Cookie: x=1"));
        assert!(!is_own_path(""));
    }
}
