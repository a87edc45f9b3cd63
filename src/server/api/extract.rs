//! Parsing at the edge: ids, bodies and keys become typed values or a
//! VALIDATION error in the API's shape.

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use holdfast_core::booking::Idempotent;
use holdfast_core::platform::error::Invalid;
use holdfast_core::platform::idempotency::IdempotencyKey;
use holdfast_core::ApiError;
use holdfast_model::{BookingId, EventId};
use holdfast_web::HttpError;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// A numeric id from the path (`eventId`, `seatId`, …).
pub fn id(raw: &str, field: &str) -> Result<i64, ApiError> {
    raw.parse::<i64>().ok().filter(|v| *v > 0).ok_or_else(|| {
        ApiError::validation(format!("{field} must be a positive whole number"), field)
    })
}

/// An event's id from the path.
pub fn event_id(raw: &str) -> Result<EventId, ApiError> {
    id(raw, "eventId").map(EventId)
}

/// A booking id: a UUID.
pub fn booking_id(raw: &str) -> Result<BookingId, ApiError> {
    uuid::Uuid::parse_str(raw)
        .map(|u| BookingId(u.to_string()))
        .map_err(|_| ApiError::validation("bookingId must be a UUID", "bookingId"))
}

/// The `{eventId}` of a route, parsed.
pub struct EventPath(pub EventId);

impl<S: Send + Sync> FromRequestParts<S> for EventPath {
    type Rejection = HttpError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        event_id(
            PathParams::read(parts, state, "eventId")
                .await?
                .named("eventId")?,
        )
        .map(EventPath)
        .map_err(HttpError)
    }
}

/// The `{bookingId}` of a route, parsed.
pub struct BookingPath(pub BookingId);

impl<S: Send + Sync> FromRequestParts<S> for BookingPath {
    type Rejection = HttpError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let params = PathParams::read(parts, state, "bookingId").await?;
        Ok(BookingPath(booking_id(params.named("bookingId")?)?))
    }
}

/// A route's path parameters by the names the router gives them, which are
/// the API's own (`eventId`, `seatId`, `areaId`, `bookingId`): the one
/// reader of the path behind every extractor of ids.
pub struct PathParams(Vec<(String, String)>);

impl From<Vec<(String, String)>> for PathParams {
    fn from(params: Vec<(String, String)>) -> Self {
        PathParams(params)
    }
}

impl PathParams {
    /// The path's parameters; a path that cannot be read (not UTF-8 once
    /// decoded) is an error on `field`, the id the caller wanted.
    pub async fn read<S: Send + Sync>(
        parts: &mut Parts,
        state: &S,
        field: &str,
    ) -> Result<PathParams, ApiError> {
        axum::extract::Path::<Vec<(String, String)>>::from_request_parts(parts, state)
            .await
            .map(|p| PathParams(p.0))
            .map_err(|_| ApiError::validation(format!("{field} is missing from the path"), field))
    }

    /// The raw text of one parameter.
    pub fn named(&self, name: &str) -> Result<&str, ApiError> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, raw)| raw.as_str())
            .ok_or_else(|| ApiError::validation(format!("{name} is missing from the path"), name))
    }

    /// One parameter as a positive whole number.
    pub fn id(&self, name: &str) -> Result<i64, ApiError> {
        id(self.named(name)?, name)
    }

    /// Every parameter that is an id is a positive whole number.
    pub fn check_ids(&self) -> Result<(), ApiError> {
        self.0
            .iter()
            .try_for_each(|(name, raw)| id(raw, name).map(drop))
    }
}

/// The raw request body, at most `MAX_BODY_BYTES`; anything else is an
/// error in the API's shape.
pub struct RawBody(pub Bytes);

impl<S: Send + Sync> FromRequest<S> for RawBody {
    type Rejection = HttpError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        Bytes::from_request(req, state)
            .await
            .map(RawBody)
            .map_err(|e| ApiError::Validation {
                kind: match e.status() {
                    axum::http::StatusCode::PAYLOAD_TOO_LARGE => Invalid::TooLarge,
                    _ => Invalid::Unreadable,
                },
                message: format!(
                    "the request body could not be read (at most {} bytes)",
                    super::MAX_BODY_BYTES
                ),
                fields: vec!["body".into()],
            })
            .map_err(HttpError)
    }
}

/// A request's JSON body, read and parsed: 415 unless it is sent as JSON,
/// a VALIDATION error when it does not parse as `T`.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = HttpError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let headers = req.headers().clone();
        let RawBody(body) = RawBody::from_request(req, state).await?;
        Ok(JsonBody(json(&headers, &body)?))
    }
}

/// A JSON body (already length-limited by the router).
pub fn json<T: DeserializeOwned>(headers: &HeaderMap, body: &Bytes) -> Result<T, ApiError> {
    let is_json = headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !is_json {
        return Err(ApiError::Validation {
            kind: Invalid::WrongFormat,
            message: "send the body as application/json".into(),
            fields: vec!["Content-Type".into()],
        });
    }
    serde_json::from_slice(body).map_err(|e| body_error(&e))
}

/// A body that is not JSON is 400 on `body`; one carrying a field the
/// operation does not take is 400 naming that field; JSON missing a
/// required field is 422 naming it (what the contract promises for each
/// required field).
fn body_error(e: &serde_json::Error) -> ApiError {
    let said = e.to_string();
    let named = |prefix: &str| {
        said.strip_prefix(prefix)
            .and_then(|rest| rest.split('`').next())
            .map(str::to_string)
    };
    if e.is_data() {
        if let Some(field) = named("missing field `") {
            return ApiError::unprocessable(format!("{field} is required"), &field);
        }
        if let Some(field) = named("unknown field `") {
            // Named back only when it reads as a field name: the client's
            // own text is not echoed.
            let plain = !field.is_empty()
                && field.len() <= 64
                && field.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            return if plain {
                ApiError::validation(format!("{field} is not a field of this request"), &field)
            } else {
                ApiError::validation("the body has a field this request does not take", "body")
            };
        }
    }
    ApiError::validation(format!("invalid JSON body: {e}"), "body")
}

/// A POST whose Idempotency-Key is required, bound to the request it came
/// with (method, path and body); its headers for what else they say.
pub struct KeyedPost {
    pub key: IdempotencyKey,
    pub headers: HeaderMap,
}

impl<S: Send + Sync> FromRequest<S> for KeyedPost {
    type Rejection = HttpError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let headers = req.headers().clone();
        let path = match req.extensions().get::<axum::extract::OriginalUri>() {
            Some(axum::extract::OriginalUri(uri)) => uri.path().to_string(),
            None => req.uri().path().to_string(),
        };
        let RawBody(body) = RawBody::from_request(req, state).await?;
        let key = IdempotencyKey::required(&headers, "POST", &path, &body)?;
        Ok(KeyedPost { key, headers })
    }
}

/// A fresh answer as JSON, or the stored answer replayed byte for byte.
pub fn idempotent_json<T: Serialize>(outcome: Idempotent<T>) -> Response {
    match outcome {
        Idempotent::Fresh(value) => axum::Json(value).into_response(),
        Idempotent::Replay { status, body } => (
            StatusCode::from_u16(status).unwrap_or(StatusCode::OK),
            [(axum::http::header::CONTENT_TYPE, "application/json")],
            body,
        )
            .into_response(),
    }
}

/// The waiting room's gate for a read (the seat map, its stream): the
/// buyer's admission when the event's room is on (header or cookie token).
pub async fn admitted(
    state: &holdfast_core::AppState,
    buyer: Option<&str>,
    event_id: EventId,
    headers: &HeaderMap,
) -> Result<(), ApiError> {
    use holdfast_core::waiting_room::gate;
    let token = gate::admission_token_in(headers, event_id);
    gate::require_admission(state, buyer, event_id, token.as_deref()).await
}

/// The organizer's tools (the admin API token) may read the seat map while
/// the waiting room is on; buyers may not. A wrong token counts against
/// the client like any other (`AdminAuth::check_token`).
pub fn is_staff(
    state: &holdfast_core::AppState,
    client: Option<&holdfast_core::platform::client_addr::ClientAddr>,
    headers: &HeaderMap,
) -> bool {
    headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(holdfast_core::admin::auth::bearer_token)
        .is_some_and(|t| {
            state
                .admin
                .check_token(client.map(|c| c.limit_key()), t.trim())
                .is_ok()
        })
}
