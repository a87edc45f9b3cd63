//! Every hold path's gates, in one place and one order: the buyer (a
//! session is made if need be), the path's ids (all positive whole
//! numbers), the waiting room's admission for the path's event, and an
//! Idempotency-Key bound to the request. What is asked (the body) is the
//! handler's to read.

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, OriginalUri, Path, Request};
use axum::http::HeaderMap;
use holdfast_app::core::buyer::Buyer;
use holdfast_app::core::platform::idempotency::IdempotencyKey;
use holdfast_app::core::waiting_room::Admitted;
use holdfast_app::core::{ApiError, AppState};
use holdfast_app::model::EventId;

use super::extract::{self, RawBody};

pub struct HoldAttempt {
    pub admitted: Admitted,
    pub key: IdempotencyKey,
    /// The path's ids by name (`eventId`, `seatId`, `areaId`).
    ids: Vec<(String, i64)>,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl HoldAttempt {
    /// One of the path's ids (the router names each route's parameters).
    pub fn path_id(&self, name: &str) -> Result<i64, ApiError> {
        path_id(&self.ids, name)
    }
}

fn path_id(ids: &[(String, i64)], name: &str) -> Result<i64, ApiError> {
    ids.iter()
        .find(|(n, _)| n == name)
        .map(|(_, id)| *id)
        .ok_or_else(|| ApiError::validation(format!("{name} is missing from the path"), name))
}

/// A route's parameter (`seat_id`) as the API names it (`seatId`).
fn camel_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        match c {
            '_' => upper = true,
            c if upper => {
                out.extend(c.to_uppercase());
                upper = false;
            }
            c => out.push(c),
        }
    }
    out
}

impl FromRequest<AppState> for HoldAttempt {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, ApiError> {
        let (mut parts, body) = req.into_parts();
        let Buyer(buyer) = Buyer::from_request_parts(&mut parts, state).await?;
        let Path(params) = Path::<Vec<(String, String)>>::from_request_parts(&mut parts, state)
            .await
            .map_err(|_| ApiError::validation("the path's ids could not be read", "path"))?;
        let headers = parts.headers.clone();
        let path = match parts.extensions.get::<OriginalUri>() {
            Some(OriginalUri(uri)) => uri.path().to_string(),
            None => parts.uri.path().to_string(),
        };
        let RawBody(body) = RawBody::from_request(Request::from_parts(parts, body), state).await?;
        let ids = params
            .into_iter()
            .map(|(name, raw)| {
                let name = camel_case(&name);
                extract::id(&raw, &name).map(|id| (name, id))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let event_id = EventId(path_id(&ids, "eventId")?);
        let admitted = extract::admit_to_hold(state, &buyer, event_id, &headers).await?;
        let key = IdempotencyKey::required(&headers, "POST", &path, &body)?;
        Ok(HoldAttempt {
            admitted,
            key,
            ids,
            headers,
            body,
        })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn route_parameters_are_named_as_the_api_names_them() {
        assert_eq!(super::camel_case("event_id"), "eventId");
        assert_eq!(super::camel_case("area_id"), "areaId");
        assert_eq!(super::camel_case("token"), "token");
    }
}
