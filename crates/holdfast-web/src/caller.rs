//! Who is asking, as the core knows them: `Caller<Admin>`, `Caller<Owner>`,
//! `Caller<SessionBuyer>`, `Caller<Buyer>` and `Caller<MaybeBuyer>`, each
//! read from the request's session (an admin also from a bearer token) by
//! the core's own rules (`holdfast_core::buyer`, `admin::auth`). A route or
//! a server function names the one it needs; the value reads as the core's
//! own type through `Deref`.

use std::ops::Deref;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use holdfast_core::admin::auth::Admin;
use holdfast_core::buyer::{Buyer, MaybeBuyer, Owner, SessionBuyer};
use holdfast_core::platform::client_addr::ClientAddr;
use holdfast_core::{ApiError, AppState};
use tower_sessions::Session;

use crate::answer::HttpError;

/// The request's caller, as `T`.
#[derive(Debug, Clone)]
pub struct Caller<T>(pub T);

impl<T> Deref for Caller<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

/// The request's session (the session layer put it there).
async fn session_of<S: Send + Sync>(parts: &mut Parts, state: &S) -> Result<Session, HttpError> {
    Session::from_request_parts(parts, state)
        .await
        .map_err(|(_, msg)| HttpError(ApiError::Internal(msg.into())))
}

/// `Caller<T>` for a `T` the core reads from the session alone.
macro_rules! from_session {
    ($t:ty, $read:expr) => {
        impl<S: Send + Sync> FromRequestParts<S> for Caller<$t> {
            type Rejection = HttpError;

            async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, HttpError> {
                let session = session_of(parts, state).await?;
                Ok(Caller($read(&session).await?))
            }
        }
    };
}

from_session!(SessionBuyer, SessionBuyer::of);
from_session!(MaybeBuyer, MaybeBuyer::of);
from_session!(Owner, Owner::of);
from_session!(Buyer, buyer_of_session);

/// The session's buyer, made up when it has none.
async fn buyer_of_session(session: &Session) -> Result<Buyer, ApiError> {
    Ok(Buyer(SessionBuyer::of(session).await?.id))
}

impl FromRequestParts<AppState> for Caller<Admin> {
    type Rejection = HttpError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, HttpError> {
        let authorization = parts
            .headers
            .get(axum::http::header::AUTHORIZATION)
            .cloned();
        let client = parts.extensions.get::<ClientAddr>().copied();
        let session = session_of(parts, state).await?;
        let admin = state
            .admin
            .admin_of(authorization.as_ref(), client, &session, state.clock.now())
            .await?;
        Ok(Caller(admin))
    }
}
