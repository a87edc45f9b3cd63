//! Signing a session in to an account and out again. A guest's bookings
//! move into the account only when the person asked for it: the link was
//! asked for in this very browser, or they ticked the box on the
//! confirmation page. Otherwise a link someone else asked for (sent to the
//! victim's browser by another site) would sign the victim in to the
//! sender's account and hand it the victim's tickets. The session gets a
//! new id either way, so a fixated one is worth nothing.

use tower_sessions_core::Session;

use super::EmailAddress;
use crate::booking::store;
use crate::buyer::{
    self, session_error, ACCOUNT_KEY, BUYER_KEY, SIGNED_IN_UNTIL_KEY, SIGN_IN_LASTS_MS,
};
use crate::platform::db;
use crate::{ApiError, AppState};
use holdfast_model::BuyerId;

/// The session key of the browser's mark: a random value a sign-in link
/// asked for here is bound to.
const MARK_KEY: &str = "sign_in_mark";

/// This browser's mark (made on first ask and kept in its session).
pub async fn browser_mark(session: &Session) -> Result<String, ApiError> {
    if let Some(mark) = session
        .get::<String>(MARK_KEY)
        .await
        .map_err(session_error)?
    {
        return Ok(mark);
    }
    let mark = uuid::Uuid::new_v4().simple().to_string();
    session
        .insert(MARK_KEY, &mark)
        .await
        .map_err(session_error)?;
    Ok(mark)
}

/// The address this browser last asked a sign-in link for, to say where
/// the link went (kept in the session, not in the page's address).
const SENT_TO_KEY: &str = "sign_in_sent_to";

pub async fn remember_link_sent_to(session: &Session, to: &EmailAddress) -> Result<(), ApiError> {
    session
        .insert(SENT_TO_KEY, to.as_str())
        .await
        .map_err(session_error)
}

pub async fn link_sent_to(session: &Session) -> Result<Option<String>, ApiError> {
    session.get(SENT_TO_KEY).await.map_err(session_error)
}

/// This browser's mark if it ever asked for a link (never makes one).
pub async fn existing_mark(session: &Session) -> Result<Option<String>, ApiError> {
    session.get(MARK_KEY).await.map_err(session_error)
}

/// How many bookings this session made as a guest (what signing in could
/// bring along).
pub async fn guest_bookings(state: &AppState, session: &Session) -> Result<i64, ApiError> {
    let signed_in: Option<String> = session.get(ACCOUNT_KEY).await.map_err(session_error)?;
    let Some(guest) = session
        .get::<BuyerId>(BUYER_KEY)
        .await
        .map_err(session_error)?
        .filter(|_| signed_in.is_none())
    else {
        return Ok(0);
    };
    let (n,): (i64,) = sqlx::query_as("select count(*) from booking where buyer_id = $1")
        .bind(&guest)
        .fetch_one(state.db.reader())
        .await?;
    Ok(n)
}

/// Signs the session in to `address`'s account (made on first use);
/// answers the account's buyer id. `bring_guest_bookings`: the person
/// asked for this browser's guest bookings to move into the account.
pub async fn sign_in(
    state: &AppState,
    session: &Session,
    address: &EmailAddress,
    bring_guest_bookings: bool,
) -> Result<BuyerId, ApiError> {
    let current: Option<BuyerId> = session.get(BUYER_KEY).await.map_err(session_error)?;
    let signed_in: Option<String> = session.get(ACCOUNT_KEY).await.map_err(session_error)?;
    // A guest's id may become the account's; a signed-in session's is
    // already another account's. Without the person's word the guest's id
    // stays out of the account altogether (a new account gets a new id).
    let guest = current.filter(|_| signed_in.is_none() && bring_guest_bookings);
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
    // However active, the sign-in ends after its time (`buyer::buyer_of`).
    let until = chrono::Utc::now().timestamp_millis() + SIGN_IN_LASTS_MS;
    session
        .insert(SIGNED_IN_UNTIL_KEY, until)
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
    session
        .remove_value(SIGNED_IN_UNTIL_KEY)
        .await
        .map_err(session_error)?;
    session.cycle_id().await.map_err(session_error)?;
    Ok(())
}

/// The address the session is signed in to, if any (none once the
/// sign-in has lasted its time).
pub async fn signed_in_as(session: &Session) -> Result<Option<String>, ApiError> {
    if buyer::buyer_of(session).await?.is_none() {
        return Ok(None);
    }
    session.get(ACCOUNT_KEY).await.map_err(session_error)
}
