//! The buyer is the session: the first request that needs an identity gets
//! a fresh buyer id stored in its (database-backed) session, so any instance
//! serves any buyer. A session signed in to an account carries the
//! account's buyer id instead (`core::account`), and its address: an
//! `Owner` sees the bookings paid with it too.

use tower_sessions_core::Session;

use super::ApiError;
use holdfast_model::BuyerId;

/// The session's buyer id.
pub const BUYER_KEY: &str = "buyer_id";
/// The address of the account the session is signed in to.
pub const ACCOUNT_KEY: &str = "account_email";
/// When the sign-in ends however active the session is (ms, wall clock
/// like the session's own expiry): a stolen cookie does not live for ever
/// by being used.
pub const SIGNED_IN_UNTIL_KEY: &str = "signed_in_until";
/// How long a sign-in lasts.
pub const SIGN_IN_LASTS_MS: i64 = 30 * 24 * 60 * 60 * 1000;

/// The session's buyer id, if any; a sign-in past its end is forgotten
/// here (the session becomes a stranger), so every reader agrees.
pub async fn buyer_of(session: &Session) -> Result<Option<BuyerId>, ApiError> {
    let until: Option<i64> = session
        .get(SIGNED_IN_UNTIL_KEY)
        .await
        .map_err(session_error)?;
    if until.is_some_and(|until| until <= chrono::Utc::now().timestamp_millis()) {
        for key in [BUYER_KEY, ACCOUNT_KEY, SIGNED_IN_UNTIL_KEY] {
            session.remove_value(key).await.map_err(session_error)?;
        }
        session.cycle_id().await.map_err(session_error)?;
        return Ok(None);
    }
    session.get(BUYER_KEY).await.map_err(session_error)
}

#[derive(Debug, Clone)]
pub struct Buyer(pub BuyerId);

/// The session's buyer, and whether this request made it up: then nothing
/// can have been done in its name before (no Idempotency-Key, no booking),
/// so what would look for that need not.
#[derive(Debug, Clone)]
pub struct SessionBuyer {
    pub id: BuyerId,
    pub new: bool,
}

impl SessionBuyer {
    /// The session's buyer, made up (and stored at once) when it has none.
    pub async fn of(session: &Session) -> Result<SessionBuyer, ApiError> {
        if let Some(id) = buyer_of(session).await? {
            return Ok(SessionBuyer { id, new: false });
        }
        let id = BuyerId::random();
        session
            .insert(BUYER_KEY, &id)
            .await
            .map_err(session_error)?;
        // Stored now, before anything is done in this buyer's name: were it
        // left to the session layer after the answer, a database hiccup
        // there would turn a committed hold into a bare 500 without the
        // cookie, and the buyer's retry would come as a stranger. (The
        // layer's own save then finds the record unchanged and skips.)
        session.save().await.map_err(session_error)?;
        Ok(SessionBuyer { id, new: true })
    }
}

/// The session's buyer if there is one, without making one up (reads that
/// must not create sessions, like the seat map).
#[derive(Debug, Clone)]
pub struct MaybeBuyer(pub Option<BuyerId>);

impl MaybeBuyer {
    pub async fn of(session: &Session) -> Result<MaybeBuyer, ApiError> {
        Ok(MaybeBuyer(buyer_of(session).await?))
    }
}

/// Whose bookings a request may read or change: its buyer's, and — signed
/// in — those paid with the account's address wherever they were booked.
#[derive(Debug, Clone)]
pub struct Owner {
    pub buyer: BuyerId,
    /// The signed-in account's address (lower case).
    pub email: Option<String>,
}

impl Owner {
    /// The session's owner. Never makes a session up: a session without a
    /// buyer owns nothing (an id no booking has stands in), so anonymous
    /// reads cost no row.
    pub async fn of(session: &Session) -> Result<Owner, ApiError> {
        let Some(buyer) = buyer_of(session).await? else {
            return Ok(Owner {
                buyer: BuyerId::random(),
                email: None,
            });
        };
        let email = session
            .get::<String>(ACCOUNT_KEY)
            .await
            .map_err(session_error)?;
        Ok(Owner { buyer, email })
    }

    /// The SQL condition on `booking` (aliased `alias`) that keeps to this
    /// owner's bookings, with the buyer bound at `$buyer` and the address at
    /// `$email`. A union of two index lookups (`booking_by_buyer`,
    /// `payment_by_email`): written as `buyer_id = … or id in (…)`, Postgres
    /// scans every booking to list one buyer's.
    pub fn condition(alias: &str, buyer: u8, email: u8) -> String {
        format!(
            "{alias}.id in (select mine.id from booking mine where mine.buyer_id = ${buyer}
              union select paid.booking_id from payment paid where lower(paid.customer_email) = ${email})"
        )
    }

    /// Whether the booking is the owner's (theirs, or paid with their
    /// address), read in the caller's transaction (or on any connection).
    pub async fn owns<'e, E>(
        &self,
        db: E,
        booking_id: &holdfast_model::BookingId,
    ) -> Result<bool, sqlx::Error>
    where
        E: sqlx::Executor<'e, Database = sqlx::Any>,
    {
        let row: Option<(i64,)> = sqlx::query_as(&format!(
            "select 1 from booking where id = $1 and {}",
            Owner::condition("booking", 2, 3)
        ))
        .bind(booking_id)
        .bind(&self.buyer)
        .bind(self.email.as_deref())
        .fetch_optional(db)
        .await?;
        Ok(row.is_some())
    }
}

/// A session store that could not get a database connection in time is
/// busy (503, nothing done, try again), not broken.
pub fn session_error(e: tower_sessions_core::session::Error) -> ApiError {
    let said = e.to_string();
    if said.contains("pool timed out")
        || said.contains(crate::platform::session_store::CONNECTION_LOST)
    {
        tracing::warn!("session store busy: no database connection in time; answered 503");
        ApiError::Busy
    } else {
        ApiError::internal(e)
    }
}
