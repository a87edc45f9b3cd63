//! The one error type of the HTTP boundary. Every failure leaves the server in
//! the shape of API.md (`{ "error": { "code", "message", ... } }`); causes
//! such as database messages are logged, never sent.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::model::SeatId;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{message}")]
    SeatTaken {
        message: String,
        seat_ids: Vec<SeatId>,
        suggestions: Vec<Vec<SeatId>>,
    },
    #[error("the hold has expired")]
    HoldExpired,
    #[error("{0}")]
    InvalidState(String),
    #[error("this Idempotency-Key is still being processed")]
    IdempotencyKeyInUse,
    #[error("this Idempotency-Key was used with a different request")]
    IdempotencyKeyReused,
    #[error("this request needs an Idempotency-Key header")]
    IdempotencyKeyMissing,
    #[error("{message}")]
    Validation {
        status: StatusCode,
        message: String,
        fields: Vec<String>,
    },
    #[error("{0}")]
    LimitExceeded(String),
    #[error("{0} not found")]
    NotFound(&'static str),
    #[error("{0}")]
    SoldOut(String),
    #[error("the payment provider did not answer; your seats stay reserved while we find out")]
    ProviderUnavailable,
    #[error("internal error")]
    Internal(#[source] anyhow_lite::Cause),
}

/// A tiny boxed cause, so `?` works on any error while keeping it out of responses.
pub mod anyhow_lite {
    pub type Cause = Box<dyn std::error::Error + Send + Sync + 'static>;
}

impl ApiError {
    pub fn validation(message: impl Into<String>, field: &str) -> Self {
        ApiError::Validation {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
            fields: vec![field.to_string()],
        }
    }

    pub fn unprocessable(message: impl Into<String>, field: &str) -> Self {
        ApiError::Validation {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message: message.into(),
            fields: vec![field.to_string()],
        }
    }

    pub fn internal(cause: impl std::error::Error + Send + Sync + 'static) -> Self {
        ApiError::Internal(Box::new(cause))
    }

    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::SeatTaken { .. }
            | ApiError::HoldExpired
            | ApiError::InvalidState(_)
            | ApiError::IdempotencyKeyInUse
            | ApiError::SoldOut(_) => StatusCode::CONFLICT,
            ApiError::IdempotencyKeyReused | ApiError::LimitExceeded(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            ApiError::IdempotencyKeyMissing => StatusCode::BAD_REQUEST,
            ApiError::Validation { status, .. } => *status,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::ProviderUnavailable => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::SeatTaken { .. } => "SEAT_TAKEN",
            ApiError::HoldExpired => "HOLD_EXPIRED",
            ApiError::InvalidState(_) => "INVALID_STATE",
            ApiError::IdempotencyKeyInUse => "IDEMPOTENCY_KEY_IN_USE",
            ApiError::IdempotencyKeyReused => "IDEMPOTENCY_KEY_REUSED",
            ApiError::IdempotencyKeyMissing => "IDEMPOTENCY_KEY_MISSING",
            ApiError::Validation { .. } => "VALIDATION",
            ApiError::LimitExceeded(_) => "LIMIT_EXCEEDED",
            ApiError::NotFound(_) => "NOT_FOUND",
            ApiError::SoldOut(_) => "SOLD_OUT",
            ApiError::ProviderUnavailable => "PAYMENT_PROVIDER_UNAVAILABLE",
            ApiError::Internal(_) => "INTERNAL",
        }
    }

    /// The body as API.md shapes it.
    pub fn body(&self) -> ErrorBody {
        let (seat_ids, suggestions, fields) = match self {
            ApiError::SeatTaken {
                seat_ids,
                suggestions,
                ..
            } => (Some(seat_ids.clone()), Some(suggestions.clone()), None),
            ApiError::Validation { fields, .. } => (None, None, Some(fields.clone())),
            _ => (None, None, None),
        };
        ErrorBody {
            error: ErrorDetail {
                code: self.code(),
                message: self.to_string(),
                seat_ids,
                suggestions,
                fields,
            },
        }
    }
}

#[derive(Debug, Serialize)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorDetail {
    pub code: &'static str,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat_ids: Option<Vec<SeatId>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestions: Option<Vec<Vec<SeatId>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fields: Option<Vec<String>>,
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        ApiError::internal(e)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(cause) = &self {
            tracing::error!(error = %cause, "request failed");
        }
        (self.status(), axum::Json(self.body())).into_response()
    }
}
