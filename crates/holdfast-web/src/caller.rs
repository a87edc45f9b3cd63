//! Who is asking, as the core knows them: `Allowed<P>` (an admin the core
//! allows permission `P` on what the path names), `Caller<Owner>`,
//! `Caller<SessionBuyer>`, `Caller<Buyer>` and `Caller<MaybeBuyer>`, each
//! read from the request's session (an admin also from a bearer token) by
//! the core's own rules (`holdfast_core::buyer`, `admin::auth`). A route or
//! a server function names the one it needs; the value reads as the core's
//! own type through `Deref`.

use std::ops::Deref;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use std::marker::PhantomData;

use axum::extract::RawPathParams;
use holdfast_core::admin::access::{self, Permission, Target};
use holdfast_core::admin::auth::Admin;
use holdfast_core::buyer::{Buyer, MaybeBuyer, Owner, SessionBuyer};
use holdfast_core::platform::client_addr::ClientAddr;
use holdfast_core::{ApiError, AppState};
use holdfast_model::{BookingId, EventId};
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

/// The request's admin, whatever they may do: for the few routes that
/// only say who is signed in. Routes that act take `Allowed<P>`.
impl FromRequestParts<AppState> for Caller<Admin> {
    type Rejection = HttpError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, HttpError> {
        Ok(Caller(admin_of(parts, state).await?))
    }
}

async fn admin_of(parts: &mut Parts, state: &AppState) -> Result<Admin, HttpError> {
    let authorization = parts
        .headers
        .get(axum::http::header::AUTHORIZATION)
        .cloned();
    let client = parts.extensions.get::<ClientAddr>().copied();
    let session = session_of(parts, state).await?;
    Ok(state
        .admin
        .admin_of(authorization.as_ref(), client, &session, state.clock.now())
        .await?)
}

/// A permission a route's use case needs: `Allowed<may::Refunds>`.
pub trait Needs: Send + Sync {
    const PERMISSION: Permission;
    /// Whether the route answers a list narrowed to the admin's own events
    /// (instead of needing a grant for every event when no event is in its
    /// path).
    const EACH_OWN_EVENT: bool = false;
}

/// The permissions, as types a route names.
pub mod may {
    use super::{Needs, Permission};

    macro_rules! permission {
        ($($name:ident),*) => {$(
            #[derive(Debug, Clone, Copy)]
            pub struct $name;
            impl Needs for $name {
                const PERMISSION: Permission = Permission::$name;
            }
        )*};
    }
    permission!(Team, EventSetup, Refunds, Bookings, CheckIn, Reports, Exports, Operations);

    /// The list of events the console opens on: each admin's own events.
    #[derive(Debug, Clone, Copy)]
    pub struct ListEvents;
    impl Needs for ListEvents {
        const PERMISSION: Permission = Permission::ListEvents;
        const EACH_OWN_EVENT: bool = true;
    }
}

/// An admin allowed `P` on what the request's path names — its event, or
/// the event of its booking, sailing or ticket (`access::authorize`
/// decides); 401 without admin credentials, 403 when not allowed.
#[derive(Debug, Clone)]
pub struct Allowed<P>(pub Admin, pub PhantomData<P>);

impl<P> Deref for Allowed<P> {
    type Target = Admin;

    fn deref(&self) -> &Admin {
        &self.0
    }
}

impl<P: Needs> FromRequestParts<AppState> for Allowed<P> {
    type Rejection = HttpError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, HttpError> {
        let admin = admin_of(parts, state).await?;
        let params = RawPathParams::from_request_parts(parts, state)
            .await
            .map_err(|_| HttpError(ApiError::NotFound("endpoint")))?;
        let named = |name: &str| {
            params
                .iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| value.to_string())
        };
        // An event named in the query (`?eventId=`) narrows a list to it.
        let queried = parts.uri.query().and_then(|q| {
            q.split('&')
                .find_map(|pair| pair.strip_prefix("eventId="))
                .map(str::to_string)
        });
        let event = named("eventId")
            .or_else(|| named("sailingId"))
            .or(queried)
            .map(|id| id.parse::<EventId>());
        let booking = named("bookingId").map(BookingId::from);
        let ticket = named("token");
        let target = match (&event, &booking, &ticket) {
            // An id that is no number reaches no event: the route's own
            // extractor answers it (400), after this refusal or not.
            (Some(Ok(event)), _, _) => Target::Event(*event),
            (Some(Err(_)), _, _) => Target::Event(EventId(-1)),
            (None, Some(booking), _) => Target::Booking(booking),
            (None, None, Some(token)) => Target::Ticket(token),
            _ if P::EACH_OWN_EVENT => Target::EachOwnEvent,
            _ => Target::Everything,
        };
        access::authorize(state, &admin, P::PERMISSION, target).await?;
        Ok(Allowed(admin, PhantomData))
    }
}
