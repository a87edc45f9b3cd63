//! A buyer's place in an event's waiting room.

use serde::{Deserialize, Serialize};

/// A buyer's place in an event's waiting room (`/api/events/{id}/queue`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct QueueStatus {
    /// Places until admission (1: next); 0 once admitted or not queued.
    pub position: i64,
    pub estimated_wait_ms: i64,
    pub admitted: bool,
    /// Signed, bound to this session, with an expiry; also set as a cookie.
    pub admission_token: Option<String>,
    /// No place is free now (seats held by others may still come back).
    pub sold_out: bool,
    /// Whether the waiting room is on for this event at all.
    pub room_open: bool,
    /// The admission was let lapse: joining again queues at the back.
    pub admission_expired: bool,
    /// The signed place in the queue (also set as a cookie): lets any
    /// instance answer without a database read.
    pub queue_token: Option<String>,
}
