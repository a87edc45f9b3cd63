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
        .map_err(|e| crate::core::ApiError::Internal(e.to_string().into()))?;
    match parts.extensions.get::<ClientAddr>() {
        Some(client) => state.limits.address_attempt(client.limit_key()),
        None => Ok(()),
    }
}

/// The caller's buyer, after counting the attempt against the caller's
/// address (a refused stranger gets no session). The inner `Err` is a
/// refusal to show.
#[cfg(feature = "ssr")]
pub(crate) async fn counted_buyer(
    state: &crate::core::AppState,
) -> Result<Result<crate::model::BuyerId, crate::core::ApiError>, leptos::prelude::ServerFnError> {
    Ok(counted_session_buyer(state).await?.map(|b| b.id))
}

/// `counted_buyer`, saying whether this request made the buyer up.
#[cfg(feature = "ssr")]
async fn counted_session_buyer(
    state: &crate::core::AppState,
) -> Result<
    Result<crate::core::buyer::SessionBuyer, crate::core::ApiError>,
    leptos::prelude::ServerFnError,
> {
    use crate::core::buyer::SessionBuyer;
    if let Err(e) = count_client_attempt(state).await {
        return Ok(Err(e));
    }
    Ok(Ok(leptos_axum::extract::<SessionBuyer>().await?))
}

/// The gate of the page's hold calls: the buyer (`counted_buyer`), their
/// admission from the waiting room, and the request's Idempotency-Key
/// bound to what it asks (`fingerprint`). The inner `Err` is a refusal to
/// show; a malformed key is the page's own error.
#[cfg(feature = "ssr")]
pub(crate) async fn admit_to_hold(
    state: &crate::core::AppState,
    event_id: crate::model::EventId,
    idempotency_key: &str,
    fingerprint: &[&[u8]],
) -> Result<
    Result<
        (
            crate::core::waiting_room::Admitted,
            crate::core::platform::idempotency::IdempotencyKey,
        ),
        crate::core::ApiError,
    >,
    leptos::prelude::ServerFnError,
> {
    use crate::core::platform::idempotency::IdempotencyKey;
    use crate::core::waiting_room::{admit, gate};
    let (buyer, new_buyer) = match counted_session_buyer(state).await? {
        Ok(buyer) => (buyer.id, buyer.new),
        Err(e) => return Ok(Err(e)),
    };
    let headers: axum::http::HeaderMap = leptos_axum::extract().await?;
    let token = gate::admission_token_in(&headers, event_id);
    let admitted = match admit(state, &buyer, event_id, token.as_deref()).await {
        Ok(admitted) => admitted,
        Err(e) => return Ok(Err(e)),
    };
    let key = IdempotencyKey::parse(idempotency_key, fingerprint).map_err(server_error)?;
    let key = key.of_buyer(new_buyer);
    Ok(Ok((admitted, key)))
}

#[cfg(feature = "ssr")]
pub(crate) fn server_error(e: crate::core::ApiError) -> leptos::prelude::ServerFnError {
    if let crate::core::ApiError::Internal(cause) = &e {
        tracing::error!(error = %cause, "server function failed");
    }
    leptos::prelude::ServerFnError::new(e.to_string())
}
