//! The pages' calls to the server (Leptos server functions): thin wrappers
//! over `core`'s use cases, for the buyer's pages and for the console.

pub mod best;
pub mod bookings;
pub mod buyer;
pub mod console;
#[cfg(feature = "ssr")]
pub mod console_refusal;
pub mod sailings;

/// Counts one attempt against the caller's address (`RATE_LIMIT_IP_PER_MINUTE`),
/// as the REST middleware does for the same steps.
#[cfg(feature = "ssr")]
pub(crate) async fn count_client_attempt(
    state: &crate::core::AppState,
) -> Result<(), crate::core::ApiError> {
    use crate::core::platform::client_addr::ClientAddr;
    let parts: axum::http::request::Parts = leptos_axum::extract()
        .await
        .map_err(crate::core::ApiError::internal)?;
    match parts.extensions.get::<ClientAddr>() {
        Some(client) => state.limits.address_attempt(client.limit_key()),
        None => Ok(()),
    }
}

/// The caller's buyer, after counting the attempt against the caller's
/// address (a refused stranger gets no session).
#[cfg(feature = "ssr")]
pub(crate) async fn counted_buyer(
    state: &crate::core::AppState,
) -> Result<crate::model::BuyerId, crate::core::ApiError> {
    Ok(counted_session_buyer(state).await?.id)
}

/// `counted_buyer`, saying whether this request made the buyer up.
#[cfg(feature = "ssr")]
async fn counted_session_buyer(
    state: &crate::core::AppState,
) -> Result<crate::core::buyer::SessionBuyer, crate::core::ApiError> {
    use crate::core::buyer::SessionBuyer;
    count_client_attempt(state).await?;
    let holdfast_web::Caller(buyer) = leptos_axum::extract::<holdfast_web::Caller<SessionBuyer>>()
        .await
        .map_err(crate::core::ApiError::internal)?;
    Ok(buyer)
}

/// The page's hold calls through the core's hold gate (the same the REST
/// API's holds pass): the buyer (`counted_buyer`), their admission from
/// the waiting room, and the request's Idempotency-Key bound to what it
/// asks (`fingerprint`).
#[cfg(feature = "ssr")]
pub(crate) async fn admit_to_hold(
    state: &crate::core::AppState,
    event_id: crate::model::EventId,
    idempotency_key: &str,
    fingerprint: &[&[u8]],
) -> Result<crate::core::booking::hold_gate::HoldPass, crate::core::ApiError> {
    use crate::core::booking::hold_gate;
    use crate::core::platform::idempotency::IdempotencyKey;
    let buyer = counted_session_buyer(state).await?;
    let headers: axum::http::HeaderMap = leptos_axum::extract()
        .await
        .map_err(crate::core::ApiError::internal)?;
    hold_gate::pass(state, &buyer, event_id, &headers, || {
        IdempotencyKey::parse(idempotency_key, fingerprint)
    })
    .await
}

#[cfg(feature = "ssr")]
pub(crate) fn server_error(e: crate::core::ApiError) -> leptos::prelude::ServerFnError {
    if let crate::core::ApiError::Internal(cause) = &e {
        tracing::error!(error = %cause, "server function failed");
    }
    leptos::prelude::ServerFnError::new(e.to_string())
}
