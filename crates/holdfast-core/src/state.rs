//! The state every handler, server function and worker shares: the
//! plumbing (`platform`) and the domain's parts, assembled here at the top
//! of the core so that the plumbing never reaches up into the domain.

use std::sync::Arc;
use std::time::Duration;

use crate::admin::auth::AdminAuth;
use crate::admin::canary::LastReport;
use crate::booking::store::ClaimQueue;
use crate::payments::mail::Mailer;
use crate::payments::sandbox::Sandbox;
use crate::payments::{PaymentProvider, PaymentSettings};
use crate::platform::clock::SharedClock;
use crate::platform::db::Db;
use crate::platform::rate_limit::RateLimits;
use crate::platform::stream_slots::StreamSlots;
use crate::seat_map::SeatMaps;
use crate::ticket::TicketSigner;
use crate::waiting_room::WaitingRooms;

/// The session keys that make a session signed in (an admin's grant, a
/// buyer's account): such sessions are read from the database on every
/// request (`platform::session_store`), so a sign-out reaches every
/// instance at once.
pub const SIGNED_IN_KEYS: &[&str] = &[crate::admin::auth::SESSION_KEY, crate::buyer::ACCOUNT_KEY];

/// The state, behind one `Arc`. The web framework clones the state for every extractor
/// and middleware of every request: a clone is one reference count, where
/// cloning the parts themselves would be a dozen (and as many to drop), a
/// cost every request would pay, a refused hold as much as a page. Read the
/// parts through it (`state.db`); [`StateParts`] is what it is made of.
#[derive(Clone)]
pub struct AppState(Arc<StateParts>);

impl AppState {
    pub fn new(parts: StateParts) -> AppState {
        AppState(Arc::new(parts))
    }

    /// The same state read through another clock (tests: two instances
    /// moved by one clock).
    pub fn with_clock(&self, clock: SharedClock) -> AppState {
        AppState::new(StateParts {
            clock,
            ..(*self.0).clone()
        })
    }
}

impl std::ops::Deref for AppState {
    type Target = StateParts;

    fn deref(&self) -> &StateParts {
        &self.0
    }
}

#[derive(Clone)]
pub struct StateParts {
    /// The database: the single authority on who holds what.
    pub db: Db,
    /// Where holds queue to be committed together (group commit).
    pub claims: ClaimQueue,
    /// Where every expiry decision reads the time.
    pub clock: SharedClock,
    /// The in-memory, versioned seat maps and their change stream.
    pub seat_maps: Arc<SeatMaps>,
    /// The booking rules from the configuration.
    pub rules: Arc<Rules>,
    /// Signs and checks ticket tokens.
    pub tickets: Arc<TicketSigner>,
    /// The payment provider and its settings.
    pub payments: Arc<Payments>,
    /// The waiting rooms as this instance last saw them, and their signer.
    pub waiting_rooms: Arc<WaitingRooms>,
    /// Attempts a minute per buyer and per client address.
    pub limits: Arc<RateLimits>,
    /// Live streams open per client and on this instance.
    pub streams: Arc<StreamSlots>,
    /// Admin credentials and sign-in throttling.
    pub admin: Arc<AdminAuth>,
    /// The invariant canary's last report.
    pub canary: Arc<LastReport>,
    /// Set when the instance begins to stop: streams end, leases go.
    pub stopping: crate::platform::stopping::Stopping,
}

/// The payment side of the state.
pub struct Payments {
    pub provider: Arc<dyn PaymentProvider>,
    /// The built-in sandbox when it is the provider (its pages and deliveries).
    pub sandbox: Option<Arc<Sandbox>>,
    pub settings: PaymentSettings,
    /// How the outbox's notifications leave (SMTP or the local mailbox).
    pub mailer: Mailer,
}

/// Booking rules, from the environment (see the configuration table in docs/OPERATIONS.md).
#[derive(Debug, Clone)]
pub struct Rules {
    /// How long a hold lasts (`HOLD_TTL_SECONDS`).
    pub hold_ttl_ms: i64,
    /// Seats in one booking (`MAX_SEATS_PER_BOOKING`).
    pub max_seats_per_booking: usize,
    /// Seats and standing places one buyer may hold or own per event
    /// (`MAX_PLACES_PER_BUYER`).
    pub max_places_per_buyer: i64,
    /// How stale `GET …/seats` may be while changes pour in.
    pub seat_map_staleness: Duration,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            hold_ttl_ms: 300_000,
            max_seats_per_booking: 10,
            max_places_per_buyer: 10,
            seat_map_staleness: Duration::from_millis(250),
        }
    }
}
