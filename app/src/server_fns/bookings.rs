//! Server functions for a buyer's bookings: the pay step, a booking as its
//! buyer sees it, their list, and a booked booking's ticket code.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use super::{counted_buyer, server_error};
use crate::model::BookingId;

/// What the page gets back from the pay step.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum PayOutcome {
    /// Go to the provider's checkout page.
    Checkout(String),
    Refused(String),
}

#[server]
pub async fn pay_booking(
    booking_id: BookingId,
    idempotency_key: String,
) -> Result<PayOutcome, ServerFnError> {
    use crate::core::booking::Idempotent;
    use crate::core::payments::checkout::start_checkout;
    use crate::core::platform::idempotency::IdempotencyKey;
    use crate::core::ApiError;

    let state = expect_context::<crate::core::AppState>();
    let buyer = match counted_buyer(&state).await {
        Ok(buyer) => buyer,
        Err(e @ ApiError::Internal(_)) => return Err(server_error(e)),
        Err(e) => return Ok(PayOutcome::Refused(e.for_buyer(crate::i18n::page_locale()))),
    };
    let key = IdempotencyKey::parse(&idempotency_key, &[b"pay_booking", booking_id.as_bytes()])
        .map_err(server_error)?;
    Ok(
        match start_checkout(
            &state,
            &buyer,
            &booking_id,
            Some(&key),
            Some(crate::i18n::page_locale()),
        )
        .await
        {
            Ok(Idempotent::Fresh(r)) => PayOutcome::Checkout(r.checkout_url),
            Ok(Idempotent::Replay { body, .. }) => {
                let r: crate::model::PayResponse =
                    serde_json::from_str(&body).map_err(|e| ServerFnError::new(e.to_string()))?;
                PayOutcome::Checkout(r.checkout_url)
            }
            Err(e @ ApiError::Internal(_)) => return Err(server_error(e)),
            Err(e) => PayOutcome::Refused(e.for_buyer(crate::i18n::page_locale())),
        },
    )
}

#[server]
pub async fn booking(
    booking_id: BookingId,
) -> Result<Option<crate::model::BookingView>, ServerFnError> {
    use crate::core::ApiError;
    let state = expect_context::<crate::core::AppState>();
    let holdfast_web::Caller(owner): holdfast_web::Caller<crate::core::buyer::Owner> =
        leptos_axum::extract().await?;
    match crate::core::booking::query::booking_of_buyer(
        &state,
        &owner,
        &booking_id,
        crate::i18n::page_locale(),
    )
    .await
    {
        Ok(b) => Ok(Some(b)),
        Err(ApiError::NotFound(_)) => Ok(None),
        Err(e) => Err(server_error(e)),
    }
}

#[server]
pub async fn my_bookings() -> Result<Vec<crate::model::BookingView>, ServerFnError> {
    let state = expect_context::<crate::core::AppState>();
    let holdfast_web::Caller(owner): holdfast_web::Caller<crate::core::buyer::Owner> =
        leptos_axum::extract().await?;
    crate::core::booking::query::bookings_of_buyer(&state, &owner, crate::i18n::page_locale())
        .await
        .map_err(server_error)
}

/// One ticket on the booking page: the place it admits and its code.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TicketCode {
    pub name: String,
    /// The QR code (SVG) of the ticket's own token.
    pub svg: String,
}

/// The tickets of the buyer's own BOOKED booking, one a seat or standing
/// place, each with its own code: friends arriving apart each show theirs,
/// and the door admits each once. Empty for any other booking.
#[server]
pub async fn ticket_codes(booking_id: BookingId) -> Result<Vec<TicketCode>, ServerFnError> {
    use crate::core::ApiError;
    let state = expect_context::<crate::core::AppState>();
    let holdfast_web::Caller(owner): holdfast_web::Caller<crate::core::buyer::Owner> =
        leptos_axum::extract().await?;
    let l = crate::i18n::page_locale();
    let booking =
        match crate::core::booking::query::booking_of_buyer(&state, &owner, &booking_id, l).await {
            Ok(b) => b,
            Err(ApiError::NotFound(_)) => return Ok(Vec::new()),
            Err(e) => return Err(server_error(e)),
        };
    Ok(booking
        .tickets
        .into_iter()
        .filter_map(|t| {
            Some(TicketCode {
                svg: crate::core::ticket::image::qr_svg(&t.token)?,
                name: t.name,
            })
        })
        .collect())
}

/// The address this browser is signed in to, if any: the header shows it
/// once the page is hydrated (never in the render, which the page cache
/// keeps for every buyer).
#[server]
pub async fn signed_in_email() -> Result<Option<String>, ServerFnError> {
    let session: tower_sessions::Session = leptos_axum::extract().await?;
    crate::core::account::session::signed_in_as(&session)
        .await
        .map_err(server_error)
}

/// The buyer's running hold on this event (held, or its checkout begun and
/// not ended), for the event page to show after a reload, Back from the
/// checkout, or on another device of the account. Read after the page is
/// hydrated, never in its render: the rendered page is the same for every
/// buyer (`holdfast::server::page_cache` keeps it).
#[server]
pub async fn my_hold(
    event_id: crate::model::EventId,
) -> Result<Option<crate::model::HoldResponse>, ServerFnError> {
    let state = expect_context::<crate::core::AppState>();
    let holdfast_web::Caller(crate::core::buyer::MaybeBuyer(buyer)) =
        leptos_axum::extract().await?;
    let Some(buyer) = buyer else {
        return Ok(None);
    };
    crate::core::booking::running::running_hold(&state, &buyer, event_id)
        .await
        .map_err(server_error)
}

/// Lets the buyer's running hold go (HELD → CANCELLED): its places are on
/// sale again at once. The refusal, if any, in the buyer's words.
#[server]
pub async fn release_hold(booking_id: BookingId) -> Result<Option<String>, ServerFnError> {
    use crate::core::ApiError;
    let state = expect_context::<crate::core::AppState>();
    let buyer = match counted_buyer(&state).await {
        Ok(buyer) => buyer,
        Err(e @ ApiError::Internal(_)) => return Err(server_error(e)),
        Err(e) => return Ok(Some(e.for_buyer(crate::i18n::page_locale()))),
    };
    match crate::core::booking::release::cancel_hold(&state, &buyer, &booking_id).await {
        Ok(_) => Ok(None),
        Err(e @ ApiError::Internal(_)) => Err(server_error(e)),
        Err(e) => Ok(Some(e.for_buyer(crate::i18n::page_locale()))),
    }
}
