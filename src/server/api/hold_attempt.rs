//! Every hold path's gates, in one place and one order: the buyer (a
//! session is made if need be), the path's ids (all positive whole
//! numbers), the waiting room's admission for the path's event, and an
//! Idempotency-Key bound to the request. What is asked (the body) is the
//! handler's to read.

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, OriginalUri, Request};
use axum::http::HeaderMap;
use holdfast_app::core::buyer::SessionBuyer;
use holdfast_app::core::platform::idempotency::IdempotencyKey;
use holdfast_app::core::waiting_room::Admitted;
use holdfast_app::core::{ApiError, AppState};
use holdfast_app::model::EventId;

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
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, ApiError> {
        let (mut parts, body) = req.into_parts();
        let SessionBuyer {
            id: buyer,
            new: new_buyer,
        } = SessionBuyer::from_request_parts(&mut parts, state).await?;
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
        let admitted = extract::admit_to_hold(state, &buyer, event_id, &headers).await?;
        let key = IdempotencyKey::required(&headers, "POST", &path, &body)?;
        let key = key.of_buyer(new_buyer);
        Ok(HoldAttempt {
            admitted,
            key,
            params,
            headers,
            body,
        })
    }
}
