//! Time, injectable. Every expiry decision reads `Clock::now` and passes
//! that one `now` into SQL, so tests move the clock instead of sleeping and
//! SQLite and Postgres compare times the same way (integers, milliseconds).

use std::ops::{Add, Sub};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

/// An instant as Holdfast keeps it everywhere (the tables, SQL, the
/// clock): milliseconds since the Unix epoch, UTC. Typed, so an instant is
/// never taken for a duration or an amount: adding or taking away a
/// duration (in milliseconds) gives an instant, two instants apart give
/// the milliseconds between them.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    sqlx::Type,
    serde::Serialize,
    serde::Deserialize,
)]
#[sqlx(transparent)]
#[serde(transparent)]
pub struct At(i64);

impl At {
    pub const fn from_ms(ms: i64) -> At {
        At(ms)
    }

    /// Milliseconds since the Unix epoch.
    pub const fn ms(self) -> i64 {
        self.0
    }

    /// Whole seconds since the Unix epoch (Stripe's timestamps).
    pub const fn unix_secs(self) -> i64 {
        self.0.div_euclid(1000)
    }

    /// The instant of a Unix timestamp in whole seconds.
    pub const fn from_unix_secs(secs: i64) -> At {
        At(secs.saturating_mul(1000))
    }
}

impl Add<i64> for At {
    type Output = At;
    fn add(self, ms: i64) -> At {
        At(self.0.saturating_add(ms))
    }
}

impl Sub<i64> for At {
    type Output = At;
    fn sub(self, ms: i64) -> At {
        At(self.0.saturating_sub(ms))
    }
}

impl Sub for At {
    type Output = i64;
    fn sub(self, earlier: At) -> i64 {
        self.0.saturating_sub(earlier.0)
    }
}

pub trait Clock: Send + Sync + 'static {
    fn now(&self) -> At;
}

pub type SharedClock = Arc<dyn Clock>;

pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> At {
        At(chrono::Utc::now().timestamp_millis())
    }
}

/// A clock tests move by hand: starts at the real time, then only advances
/// when told to.
pub struct ManualClock(AtomicI64);

impl ManualClock {
    pub fn starting_now() -> Arc<Self> {
        Arc::new(ManualClock(AtomicI64::new(SystemClock.now().ms())))
    }

    pub fn advance_ms(&self, ms: i64) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> At {
        At(self.0.load(Ordering::SeqCst))
    }
}

/// RFC 3339 UTC with milliseconds, as docs/API.md wants times.
pub fn rfc3339(at: At) -> String {
    chrono::DateTime::from_timestamp_millis(at.ms())
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}
