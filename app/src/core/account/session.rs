//! Signing a session in to an account and out again. The account's buyer
//! id is the first signed-in session's (a guest keeps what it held); every
//! later session takes it over, bringing its guest bookings along. The
//! session gets a new id either way, so a fixated one is worth nothing.

use tower_sessions::Session;

use super::EmailAddress;
use crate::core::booking::store;
use crate::core::buyer::{session_error, ACCOUNT_KEY, BUYER_KEY};
use crate::core::platform::db;
use crate::core::{ApiError, AppState};
use crate::model::BuyerId;

/// Signs the session in to `address`'s account (made on first use);
/// answers the account's buyer id.
pub async fn sign_in(
    state: &AppState,
    session: &Session,
    address: &EmailAddress,
) -> Result<BuyerId, ApiError> {
    let current: Option<BuyerId> = session.get(BUYER_KEY).await.map_err(session_error)?;
    let signed_in: Option<String> = session.get(ACCOUNT_KEY).await.map_err(session_error)?;
    // A guest's id may become the account's; a signed-in session's is
    // already another account's.
    let guest = current.filter(|_| signed_in.is_none());
    let candidate = guest.clone().unwrap_or_else(BuyerId::random);
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    sqlx::query(
        "insert into account (email, buyer_id, created_at) values ($1, $2, $3)
         on conflict (email) do nothing",
    )
    .bind(address.as_str())
    .bind(&candidate)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    let (buyer,): (BuyerId,) = sqlx::query_as("select buyer_id from account where email = $1")
        .bind(address.as_str())
        .fetch_one(&mut *tx)
        .await?;
    if let Some(guest) = guest.filter(|g| *g != buyer) {
        // What this device booked as a guest follows the buyer.
        store::adopt_guest_bookings(&mut tx, &buyer, &guest).await?;
    }
    db::commit(tx).await?;
    session.cycle_id().await.map_err(session_error)?;
    session
        .insert(BUYER_KEY, &buyer)
        .await
        .map_err(session_error)?;
    session
        .insert(ACCOUNT_KEY, address.as_str())
        .await
        .map_err(session_error)?;
    session.save().await.map_err(session_error)?;
    Ok(buyer)
}

/// The session forgets its buyer (the next request is a new guest); an
/// admin signed in on the same session stays signed in.
pub async fn sign_out(session: &Session) -> Result<(), ApiError> {
    session
        .remove::<BuyerId>(BUYER_KEY)
        .await
        .map_err(session_error)?;
    session
        .remove::<String>(ACCOUNT_KEY)
        .await
        .map_err(session_error)?;
    session.cycle_id().await.map_err(session_error)?;
    Ok(())
}

/// The address the session is signed in to, if any.
pub async fn signed_in_as(session: &Session) -> Result<Option<String>, ApiError> {
    session.get(ACCOUNT_KEY).await.map_err(session_error)
}
