//! The admission gate of the seat-map and hold endpoints: while an event's
//! waiting room is on, only a genuine, unexpired admission token of this
//! very buyer for this very event lets the request through. It reads only
//! the instance's room picture and checks an HMAC: no database read.

use http::HeaderMap;

use crate::{ApiError, AppState};
use holdfast_model::BuyerId;
use holdfast_model::{EventId, QueueStatus};

pub const ADMISSION_HEADER: &str = "admission-token";

/// The cookie the queue sets for one event.
pub fn admission_cookie(event_id: EventId) -> String {
    format!("holdfast_admission_{event_id}")
}

pub fn queue_cookie(event_id: EventId) -> String {
    format!("holdfast_queue_{event_id}")
}

/// The `Admission-Token` header, else the event's admission cookie.
pub fn admission_token_in(headers: &HeaderMap, event_id: EventId) -> Option<String> {
    headers
        .get(ADMISSION_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
        .or_else(|| cookie(headers, &admission_cookie(event_id)))
}

pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
}

/// `Ok` when the room is off or the token admits this buyer now.
pub async fn require_admission(
    state: &AppState,
    buyer: Option<&str>,
    event_id: EventId,
    token: Option<&str>,
) -> Result<(), ApiError> {
    let now = state.clock.now();
    let Some(room) = state
        .waiting_rooms
        .view(&state.db, &state.seat_maps, event_id, now)
        .await?
    else {
        return Ok(()); // no such event: the endpoint answers 404 itself
    };
    if !room.enabled {
        return Ok(());
    }
    let admitted = token
        .and_then(|t| state.waiting_rooms.signer.read_admission_token(t))
        .is_some_and(|t| {
            t.event_id == event_id && Some(t.buyer.as_str()) == buyer && t.number > now.ms()
        });
    if admitted {
        Ok(())
    } else {
        crate::platform::metrics::admission_refused();
        Err(ApiError::AdmissionRequired)
    }
}

/// Proof that the gate let a buyer through to hold places on an event (or
/// that the event has no waiting room on). Only [`admit`] makes one, and the
/// hold use cases take one: no caller can forget the gate.
#[derive(Debug)]
pub struct Admitted {
    buyer: BuyerId,
    event_id: EventId,
}

impl Admitted {
    pub fn buyer(&self) -> &BuyerId {
        &self.buyer
    }

    pub fn event_id(&self) -> EventId {
        self.event_id
    }
}

/// The gate for holds: `ADMISSION_REQUIRED` unless the buyer's admission
/// (`token`) is genuine, theirs, for this event and unexpired — or the
/// event has no waiting room on.
pub async fn admit(
    state: &AppState,
    buyer: &BuyerId,
    event_id: EventId,
    token: Option<&str>,
) -> Result<Admitted, ApiError> {
    require_admission(state, Some(buyer), event_id, token).await?;
    Ok(Admitted {
        buyer: buyer.clone(),
        event_id,
    })
}

/// `Set-Cookie` values carrying a status's signed place and admission, so a
/// browser brings them to the seat map and holds by itself.
pub fn status_cookies(state: &AppState, event_id: EventId, status: &QueueStatus) -> Vec<String> {
    let secure = if state.waiting_rooms.secure_cookies {
        "; Secure"
    } else {
        ""
    };
    let mut cookies = Vec::new();
    if let Some(t) = &status.queue_token {
        cookies.push(format!(
            "{}={t}; Path=/; HttpOnly; SameSite=Lax; Max-Age=86400{secure}",
            queue_cookie(event_id)
        ));
    }
    if let Some(t) = &status.admission_token {
        let ttl = state.waiting_rooms.admission_ttl_ms / 1000;
        cookies.push(format!(
            "{}={t}; Path=/; HttpOnly; SameSite=Lax; Max-Age={ttl}{secure}",
            admission_cookie(event_id)
        ));
    }
    cookies
}
