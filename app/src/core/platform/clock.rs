//! Time, injectable. Every expiry decision reads `Clock::now_ms` and passes
//! that one `now` into SQL, so tests move the clock instead of sleeping and
//! SQLite and Postgres compare times the same way (integers, milliseconds).

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

pub trait Clock: Send + Sync + 'static {
    /// Milliseconds since the Unix epoch.
    fn now_ms(&self) -> i64;
}

pub type SharedClock = Arc<dyn Clock>;

pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        chrono::Utc::now().timestamp_millis()
    }
}

/// A clock tests move by hand: starts at the real time, then only advances
/// when told to.
pub struct ManualClock(AtomicI64);

impl ManualClock {
    pub fn starting_now() -> Arc<Self> {
        Arc::new(ManualClock(AtomicI64::new(SystemClock.now_ms())))
    }

    pub fn advance_ms(&self, ms: i64) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// RFC 3339 UTC with milliseconds, as API.md wants times.
pub fn rfc3339(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}
