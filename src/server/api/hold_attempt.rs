//! Every hold path's gates, in one place and one order: the buyer (a
//! session is made if need be), the path's ids (all positive whole
//! numbers), then the core's hold gate (`booking::hold_gate`: the waiting
//! room's admission for the path's event, and an Idempotency-Key bound to
//! the request), the same the pages' server functions pass. What is asked
//! (the body) is the handler's to read.

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, OriginalUri, Request};
use axum::http::HeaderMap;
use holdfast_core::booking::hold_gate::{self, HoldPass};
use holdfast_core::buyer::SessionBuyer;
use holdfast_core::platform::idempotency::IdempotencyKey;
use holdfast_core::waiting_room::Admitted;
use holdfast_core::{ApiError, AppState};
use holdfast_model::EventId;
use holdfast_web::{Caller, HttpError};

use super::extract::{self, PathParams, RawBody};

pub struct HoldAttempt {
    pub admitted: Admitted,
    pub key: IdempotencyKey,
    /// The path's ids by name (`eventId`, `seatId`, `areaId`).
    params: PathParams,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl HoldAttempt {
    /// One of the path's ids (checked to be positive whole numbers).
    pub fn path_id(&self, name: &str) -> Result<i64, ApiError> {
        self.params.id(name)
    }

    /// What is asked: the JSON body.
    pub fn json<T: serde::de::DeserializeOwned>(&self) -> Result<T, ApiError> {
        extract::json(&self.headers, &self.body)
    }
}

impl FromRequest<AppState> for HoldAttempt {
    type Rejection = HttpError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, HttpError> {
        let (mut parts, body) = req.into_parts();
        let Caller(buyer) = Caller::<SessionBuyer>::from_request_parts(&mut parts, state).await?;
        let params =
            axum::extract::Path::<Vec<(String, String)>>::from_request_parts(&mut parts, state)
                .await
                .map(|p| PathParams::from(p.0))
                .map_err(|_| ApiError::validation("the path's ids could not be read", "path"))?;
        let headers = parts.headers.clone();
        let path = match parts.extensions.get::<OriginalUri>() {
            Some(OriginalUri(uri)) => uri.path().to_string(),
            None => parts.uri.path().to_string(),
        };
        let RawBody(body) = RawBody::from_request(Request::from_parts(parts, body), state).await?;
        params.check_ids()?;
        let event_id = EventId(params.id("eventId")?);
        let HoldPass { admitted, key } = hold_gate::pass(state, &buyer, event_id, &headers, || {
            IdempotencyKey::required(&headers, "POST", &path, &body)
        })
        .await?;
        Ok(HoldAttempt {
            admitted,
            key,
            params,
            headers,
            body,
        })
    }
}
