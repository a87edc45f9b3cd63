//! A core refusal as an HTTP answer: its status, the API's error shape as
//! the body (docs/API.md), `Retry-After` where trying again helps. The
//! cause of an internal error is logged here and never sent.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use holdfast_core::platform::error::Invalid;
use holdfast_core::ApiError;

/// What a route answers when the core refused: `?` turns an `ApiError`
/// into one.
#[derive(Debug)]
pub struct HttpError(pub ApiError);

impl From<ApiError> for HttpError {
    fn from(e: ApiError) -> Self {
        HttpError(e)
    }
}

/// A database error, read the way the core reads it (busy, contended, a
/// value the database refuses, or internal).
impl From<sqlx::Error> for HttpError {
    fn from(e: sqlx::Error) -> Self {
        HttpError(ApiError::from(e))
    }
}

impl std::fmt::Display for HttpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// The status each refusal is answered with.
pub fn status_of(e: &ApiError) -> StatusCode {
    match e {
        ApiError::SeatTaken { .. }
        | ApiError::HoldExpired
        | ApiError::InvalidState(_)
        | ApiError::IdempotencyKeyInUse
        | ApiError::SoldOut(_)
        | ApiError::NothingFits { .. }
        | ApiError::NotOnSale => StatusCode::CONFLICT,
        ApiError::IdempotencyKeyReused | ApiError::LimitExceeded(_) | ApiError::FieldErrors(_) => {
            StatusCode::UNPROCESSABLE_ENTITY
        }
        ApiError::IdempotencyKeyMissing => StatusCode::BAD_REQUEST,
        ApiError::Validation { kind, .. } => match kind {
            Invalid::Unreadable => StatusCode::BAD_REQUEST,
            Invalid::Unusable => StatusCode::UNPROCESSABLE_ENTITY,
            Invalid::WrongFormat => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Invalid::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        },
        ApiError::NotFound(_) => StatusCode::NOT_FOUND,
        ApiError::ProviderUnavailable
        | ApiError::Busy
        | ApiError::Contended(_)
        | ApiError::TooManyStreams => StatusCode::SERVICE_UNAVAILABLE,
        ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
        ApiError::Forbidden | ApiError::CrossSite | ApiError::AdmissionRequired => {
            StatusCode::FORBIDDEN
        }
        ApiError::PromoUnknown => StatusCode::NOT_FOUND,
        ApiError::PromoExhausted
        | ApiError::PromoAlreadyApplied
        | ApiError::AlreadyCheckedIn { .. }
        | ApiError::WrongEvent(_)
        | ApiError::TicketVoid(_) => StatusCode::CONFLICT,
        ApiError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
        ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl IntoResponse for HttpError {
    fn into_response(self) -> Response {
        let HttpError(e) = self;
        if let ApiError::Internal(cause) = &e {
            tracing::error!(error = %cause, "request failed");
        }
        let mut response = (status_of(&e), axum::Json(e.body())).into_response();
        let retry_after_secs = match e {
            ApiError::RateLimited { retry_after_secs } => Some(retry_after_secs),
            ApiError::Busy | ApiError::Contended(_) => Some(1),
            ApiError::TooManyStreams => Some(5),
            _ => None,
        };
        if let Some(secs) = retry_after_secs {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(secs),
            );
        }
        response
    }
}
