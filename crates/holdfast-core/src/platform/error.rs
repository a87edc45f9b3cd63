//! The one error type of the core: what was refused and why, in the words
//! of docs/API.md (`{ "error": { "code", "message", ... } }`, its `body`).
//! Which HTTP status carries each is the edge's business (`holdfast-web`);
//! causes such as database messages are logged there, never sent.

use serde::Serialize;

use holdfast_model::SeatId;

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
        kind: Invalid,
        message: String,
        fields: Vec<String>,
    },
    /// Several fields wrong at once (a form): each with its own message.
    #[error("please correct the marked fields ({} to fix)", .0.len())]
    FieldErrors(Vec<FieldError>),
    #[error("{0}")]
    LimitExceeded(String),
    #[error("{0} not found")]
    NotFound(&'static str),
    #[error("{0}")]
    SoldOut(String),
    #[error("this event is not on sale")]
    NotOnSale,
    #[error("the payment provider did not answer; your seats stay reserved while we find out")]
    ProviderUnavailable,
    #[error("admin credentials are needed")]
    Unauthorized,
    #[error("these credentials do not allow this")]
    Forbidden,
    #[error("a request from another site may not change anything here")]
    CrossSite,
    #[error("too many requests; try again in {retry_after_secs} s")]
    RateLimited { retry_after_secs: u64 },
    #[error("the waiting room is open for this event: join the queue and wait to be admitted")]
    AdmissionRequired,
    #[error("no such promo code")]
    PromoUnknown,
    /// Best available found nothing that fits: too few matching seats
    /// (`SOLD_OUT`) or not that many side by side (`NO_BLOCK`), with the
    /// best alternatives (seat-id lists: a block in any category, or the
    /// nearest seats apart).
    #[error("{message}")]
    NothingFits {
        sold_out: bool,
        message: String,
        suggestions: Vec<Vec<SeatId>>,
    },
    #[error("this promo code has been used up")]
    PromoExhausted,
    #[error("a promo code is already applied to this booking")]
    PromoAlreadyApplied,
    /// Every database connection stayed busy for the pool's whole wait:
    /// nothing was done, and the same request (same Idempotency-Key) may
    /// simply be sent again.
    #[error("we are very busy right now; nothing was done, please try again in a moment")]
    Busy,
    /// The database rolled the transaction back for contention (a deadlock,
    /// a serialization failure, a busy file), and so did every retry
    /// (`retry::retried`): nothing was done; the same request may be sent
    /// again.
    #[error("we are very busy right now; nothing was done, please try again in a moment")]
    Contended(super::retry::Contention),
    /// Too many live streams open from this client, or on this instance.
    #[error("too many live updates are open right now; try again in a few seconds")]
    TooManyStreams,
    /// A ticket scanned at the door a second time.
    #[error("this ticket was already used at {} UTC, gate {gate}", time_of_day(at))]
    AlreadyCheckedIn { at: String, gate: String },
    /// A ticket scanned at the door of another event than its own (named).
    #[error("this ticket is not for this event: it is for {0}")]
    WrongEvent(String),
    /// A ticket whose booking is no longer BOOKED (refunded, disputed, …).
    #[error("this ticket is not valid: its booking is {0}")]
    TicketVoid(String),
    #[error("internal error")]
    Internal(#[source] anyhow_lite::Cause),
}

/// `2026-11-30T19:42:07.123Z` → `19:42:07` (what door staff read).
fn time_of_day(rfc3339: &str) -> &str {
    rfc3339.get(11..19).unwrap_or(rfc3339)
}

/// How a request was invalid: each is answered with its own status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Invalid {
    /// It cannot be read as the operation's request (400).
    Unreadable,
    /// It was read, but a value in it cannot be used (422).
    Unusable,
    /// Its body is not in the format the operation takes (415).
    WrongFormat,
    /// Its body is larger than the operation takes (413).
    TooLarge,
}

/// A tiny boxed cause, so `?` works on any error while keeping it out of responses.
pub mod anyhow_lite {
    pub type Cause = Box<dyn std::error::Error + Send + Sync + 'static>;
}

impl ApiError {
    pub fn validation(message: impl Into<String>, field: &str) -> Self {
        ApiError::Validation {
            kind: Invalid::Unreadable,
            message: message.into(),
            fields: vec![field.to_string()],
        }
    }

    pub fn unprocessable(message: impl Into<String>, field: &str) -> Self {
        ApiError::Validation {
            kind: Invalid::Unusable,
            message: message.into(),
            fields: vec![field.to_string()],
        }
    }

    pub fn internal(cause: impl std::error::Error + Send + Sync + 'static) -> Self {
        ApiError::Internal(Box::new(cause))
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::SeatTaken { .. } => "SEAT_TAKEN",
            ApiError::HoldExpired => "HOLD_EXPIRED",
            ApiError::InvalidState(_) => "INVALID_STATE",
            ApiError::IdempotencyKeyInUse => "IDEMPOTENCY_KEY_IN_USE",
            ApiError::IdempotencyKeyReused => "IDEMPOTENCY_KEY_REUSED",
            ApiError::IdempotencyKeyMissing => "IDEMPOTENCY_KEY_MISSING",
            ApiError::Validation { .. } | ApiError::FieldErrors(_) => "VALIDATION",
            ApiError::LimitExceeded(_) => "LIMIT_EXCEEDED",
            ApiError::NotFound(_) => "NOT_FOUND",
            ApiError::SoldOut(_) => "SOLD_OUT",
            ApiError::NothingFits { sold_out: true, .. } => "SOLD_OUT",
            ApiError::NothingFits { .. } => "NO_BLOCK",
            ApiError::NotOnSale => "NOT_ON_SALE",
            ApiError::ProviderUnavailable => "PAYMENT_PROVIDER_UNAVAILABLE",
            ApiError::Unauthorized => "UNAUTHORIZED",
            ApiError::Forbidden | ApiError::CrossSite => "FORBIDDEN",
            ApiError::RateLimited { .. } => "RATE_LIMITED",
            ApiError::Busy | ApiError::Contended(_) => "SERVICE_BUSY",
            ApiError::TooManyStreams => "TOO_MANY_STREAMS",
            ApiError::AdmissionRequired => "ADMISSION_REQUIRED",
            ApiError::PromoUnknown => "PROMO_UNKNOWN",
            ApiError::PromoExhausted => "PROMO_EXHAUSTED",
            ApiError::PromoAlreadyApplied => "PROMO_ALREADY_APPLIED",
            ApiError::AlreadyCheckedIn { .. } => "ALREADY_CHECKED_IN",
            ApiError::TicketVoid(_) => "TICKET_VOID",
            ApiError::WrongEvent(_) => "WRONG_EVENT",
            ApiError::Internal(_) => "INTERNAL",
        }
    }

    /// The body as docs/API.md shapes it.
    pub fn body(&self) -> ErrorBody {
        let (seat_ids, suggestions, fields) = match self {
            ApiError::SeatTaken {
                seat_ids,
                suggestions,
                ..
            } => (Some(seat_ids.clone()), Some(suggestions.clone()), None),
            ApiError::NothingFits { suggestions, .. } => (None, Some(suggestions.clone()), None),
            ApiError::Validation { fields, .. } => (None, None, Some(fields.clone())),
            ApiError::FieldErrors(errors) => (
                None,
                None,
                Some(errors.iter().map(|e| e.field.clone()).collect()),
            ),
            _ => (None, None, None),
        };
        let field_errors = match self {
            ApiError::FieldErrors(errors) => Some(errors.clone()),
            _ => None,
        };
        let (checked_in_at, gate) = match self {
            ApiError::AlreadyCheckedIn { at, gate } => (Some(at.clone()), Some(gate.clone())),
            _ => (None, None),
        };
        ErrorBody {
            error: ErrorDetail {
                code: self.code(),
                message: self.to_string(),
                seat_ids,
                suggestions,
                fields,
                field_errors,
                checked_in_at,
                gate,
            },
        }
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
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
    /// With `VALIDATION` from a form: a message per field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field_errors: Option<Vec<FieldError>>,
    /// With `ALREADY_CHECKED_IN`: when and where the ticket was first used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checked_in_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gate: Option<String>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        match e {
            sqlx::Error::PoolTimedOut => {
                tracing::warn!("no database connection within the pool's wait; answered 503");
                ApiError::Busy
            }
            e if super::retry::is_connection_lost(&e) => {
                tracing::warn!(
                    "the database connection was lost (a failover or a restart); answered 503"
                );
                ApiError::Busy
            }
            e => match super::retry::Contention::of(&e) {
                Some(why) => ApiError::Contended(why),
                None if is_data_exception(&e) => {
                    tracing::info!("a value the database cannot take; answered 422");
                    ApiError::unprocessable(
                        "a value in this request cannot be used (a control character, or out of range)",
                        "request",
                    )
                }
                None => ApiError::internal(e),
            },
        }
    }
}

/// Postgres' class 22 ("data exception": a NUL byte in text, a number out
/// of range): the request's own value, refused whatever the load, so the
/// client hears 422, not "busy" and not a server fault.
fn is_data_exception(e: &sqlx::Error) -> bool {
    let sqlx::Error::Database(d) = e else {
        return false;
    };
    d.code()
        .is_some_and(|c| c.len() == 5 && c.starts_with("22"))
}
