//! Event pages kept rendered. An event page is a function of its data (the
//! event, its map's frame, the waiting room's answer for this buyer: one
//! `EventPageData`), its language and its path. So the data is read first,
//! and when the page last rendered for this event and language had exactly
//! this data, its bytes (gzipped once) are the answer; otherwise the page
//! is rendered, from this very data (handed to the render in the request's
//! extensions, so the render cannot read a newer one), and kept.
//!
//! At an on-sale's first second every arriving browser asks for the same
//! page: one render serves them all, where each would otherwise cost a
//! Leptos render and a deflate (`holdfast-bench pages`,
//! docs/BENCHMARKS.md). A hold changes the event's counts, so the next
//! request renders again: never a stale page. Only the plain page
//! (`GET /events/{id}`, no query: the language switch repeats the query)
//! is kept; one page per event and language.
//!
//! The page's inline scripts carry a nonce Leptos draws per render. Our
//! Content-Security-Policy does not use nonces (`protect.rs`), so a kept
//! page's nonce is as good as a fresh one.

use holdfast_web::Caller;
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use axum::body::{to_bytes, Body};
use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use holdfast_app::i18n::Locale;
use holdfast_app::server_fns::buyer::{event_page_data, EventPageData, PageDataOfRequest};
use holdfast_core::buyer::MaybeBuyer;
use holdfast_core::platform::compressed::{Compressed, Effort, Encoding};
use holdfast_core::AppState;
use holdfast_model::EventId;

/// A rendered page is a few dozen kilobytes; anything past this is not one.
const MAX_PAGE_BYTES: usize = 4 * 1024 * 1024;

/// The kept pages and the state their data is read from.
#[derive(Clone)]
pub struct EventPages {
    state: AppState,
    kept: Arc<RwLock<HashMap<PageKey, Arc<Kept>>>>,
}

/// One kept page per event and language.
type PageKey = (EventId, Locale);

/// One rendered page: the data it shows (as JSON, compared whole), the
/// render's headers and its body with its gzip made once.
struct Kept {
    data: Vec<u8>,
    headers: HeaderMap,
    body: Compressed,
}

impl EventPages {
    pub fn new(state: AppState) -> EventPages {
        EventPages {
            state,
            kept: Arc::default(),
        }
    }

    fn kept(&self, key: PageKey, data: &[u8]) -> Option<Arc<Kept>> {
        let kept = self.kept.read().ok()?;
        kept.get(&key).filter(|k| k.data == data).cloned()
    }

    fn keep(&self, key: PageKey, page: Arc<Kept>) {
        if let Ok(mut kept) = self.kept.write() {
            kept.insert(key, page);
        }
    }
}

/// The middleware: the kept page when its data is this request's, else a
/// render (kept when it is a plain 200 page).
pub async fn serve(State(pages): State<EventPages>, request: Request, next: Next) -> Response {
    let Some(event_id) = plain_event_page(&request) else {
        return next.run(request).await;
    };
    let (mut parts, body) = request.into_parts();
    // No such event, or a failure: the render answers it, as before.
    let Some((data, json)) = data_of(&pages.state, event_id, &mut parts).await else {
        return next.run(Request::from_parts(parts, body)).await;
    };
    let key = (event_id, Locale::of_headers(&parts.headers));
    let encoding = Encoding::per_request(
        parts
            .headers
            .get(header::ACCEPT_ENCODING)
            .and_then(|v| v.to_str().ok()),
    );
    if let Some(page) = pages.kept(key, &json) {
        return page.answer(encoding);
    }
    parts.extensions.insert(PageDataOfRequest {
        event_id,
        data: Arc::new(data),
    });
    let response = next.run(Request::from_parts(parts, body)).await;
    if !keepable(&response) {
        return response;
    }
    let (mut head, body) = response.into_parts();
    let Ok(raw) = to_bytes(body, MAX_PAGE_BYTES).await else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    head.headers.remove(header::CONTENT_LENGTH);
    head.headers.remove(header::TRANSFER_ENCODING);
    let page = Arc::new(Kept {
        data: json,
        headers: head.headers,
        body: Compressed::new(raw, Effort::Fast),
    });
    pages.keep(key, page.clone());
    page.answer(encoding)
}

/// What this request's page shows, and that as JSON (the kept page's key).
async fn data_of(
    state: &AppState,
    event_id: EventId,
    parts: &mut Parts,
) -> Option<(EventPageData, Vec<u8>)> {
    let Caller(MaybeBuyer(buyer)) = Caller::<MaybeBuyer>::from_request_parts(parts, &())
        .await
        .ok()?;
    let data = event_page_data(state, event_id, &parts.headers, buyer.as_ref())
        .await
        .ok()??;
    let json = serde_json::to_vec(&data).ok()?;
    Some((data, json))
}

/// `GET /events/{id}`, nothing more: the page kept pages are made of.
fn plain_event_page(request: &Request) -> Option<EventId> {
    if request.method() != Method::GET
        || request.uri().query().is_some()
        || request.headers().contains_key(header::RANGE)
    {
        return None;
    }
    let id = request.uri().path().strip_prefix("/events/")?;
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    id.parse().ok()
}

/// A plain page: 200, HTML, not encoded, setting no cookie.
fn keepable(response: &Response) -> bool {
    let headers = response.headers();
    response.status() == StatusCode::OK
        && !headers.contains_key(header::SET_COOKIE)
        && !headers.contains_key(header::CONTENT_ENCODING)
        && headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| t.starts_with("text/html"))
}

impl Kept {
    fn answer(&self, encoding: Encoding) -> Response {
        let mut response = Response::new(Body::from(self.body.encoded(encoding)));
        *response.headers_mut() = self.headers.clone();
        if let Some(name) = encoding.header() {
            let headers = response.headers_mut();
            headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(name));
            super::compression::add_vary(headers);
        }
        response
    }
}
