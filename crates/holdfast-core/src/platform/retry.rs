//! Transactions that lost a race the database could not order: Postgres's
//! serialization failure (`40001`) and deadlock victim (`40P01`), SQLite's
//! `SQLITE_BUSY` (another process held the file past the busy timeout).
//! The transaction was rolled back whole, so the use case that ran it is run
//! again whole, up to `TRIES` times with full-jitter backoff; after that the
//! client hears 503 `SERVICE_BUSY` (nothing was done; send it again).

use std::future::Future;
use std::time::Duration;

use rand::Rng;

use super::error::ApiError;

/// Attempts in all, the first included.
pub const TRIES: u32 = 4;
/// The first backoff's ceiling; each retry doubles it.
const BASE: Duration = Duration::from_millis(10);
const CAP: Duration = Duration::from_millis(400);

/// Why a transaction was rolled back by the database's concurrency control.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contention {
    /// Postgres `40001`.
    Serialization,
    /// Postgres `40P01`.
    Deadlock,
    /// SQLite `SQLITE_BUSY` / `SQLITE_LOCKED` (and their extended codes).
    Busy,
}

/// `SQLITE_BUSY`, `_RECOVERY`, `_SNAPSHOT`, `_TIMEOUT`; `SQLITE_LOCKED`,
/// `_SHAREDCACHE`, `_VTAB`.
const SQLITE_BUSY_CODES: &[&str] = &["5", "261", "517", "773", "6", "262", "518"];

/// Whether the error is the database going away under the request: the
/// connection broke (I/O, TLS, a protocol error mid-message, the driver's
/// worker gone), Postgres is shutting down or starting up (`57P01`–`57P03`),
/// the connection failed (class `08`), or the node is no longer the
/// primary (`25006`: a demoted primary, or a standby, refuses writes). The
/// transaction was rolled back with the connection — unless only its
/// commit's answer was lost, which a retry with the same Idempotency-Key
/// finds — so the client hears 503 `SERVICE_BUSY` and asks again, by which
/// time the pool has connected to whichever node is the primary now.
pub fn is_connection_lost(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(d) => d.code().is_some_and(|c| {
            c.starts_with("08") || matches!(c.as_ref(), "57P01" | "57P02" | "57P03" | "25006")
        }),
        _ => false,
    }
}

/// Whether a database error code is SQLite's BUSY or LOCKED.
pub fn is_sqlite_busy_code(code: &str) -> bool {
    SQLITE_BUSY_CODES.contains(&code)
}

impl Contention {
    pub fn of(e: &sqlx::Error) -> Option<Contention> {
        let sqlx::Error::Database(d) = e else {
            return None;
        };
        let code = d.code()?;
        match code.as_ref() {
            "40001" => Some(Contention::Serialization),
            "40P01" => Some(Contention::Deadlock),
            // SQLite's BUSY (5) and LOCKED (6) with their extended forms,
            // named one by one: a Postgres SQLSTATE is all digits too
            // (`22021`, a NUL byte in text, has 5 as its low byte) and is
            // never contention.
            c if is_sqlite_busy_code(c) => Some(Contention::Busy),
            _ => None,
        }
    }

    pub const fn as_str(self) -> &'static str {
        match self {
            Contention::Serialization => "serialization",
            Contention::Deadlock => "deadlock",
            Contention::Busy => "busy",
        }
    }
}

/// Runs `attempt` (one whole use case: its transaction and what it
/// decides) again while it fails with contention, up to `TRIES` times.
pub async fn retried<T, F, Fut>(what: &'static str, mut attempt: F) -> Result<T, ApiError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, ApiError>>,
{
    let mut tried = 1;
    loop {
        match attempt().await {
            Err(ApiError::Contended(why)) if tried < TRIES => {
                super::metrics::db_retry(why);
                tracing::debug!(what, cause = why.as_str(), tried, "transaction retried");
                tokio::time::sleep(backoff(tried)).await;
                tried += 1;
            }
            Err(ApiError::Contended(why)) => {
                super::metrics::db_retries_exhausted(why);
                tracing::warn!(
                    what,
                    cause = why.as_str(),
                    tried,
                    "transaction kept losing; answered 503"
                );
                return Err(ApiError::Contended(why));
            }
            outcome => return outcome,
        }
    }
}

/// Full jitter: anywhere between nothing and the doubled ceiling, so
/// retries that collided do not collide again in step.
fn backoff(tried: u32) -> Duration {
    let ceiling = BASE.saturating_mul(1 << tried.min(16)).min(CAP);
    rand::thread_rng().gen_range(Duration::ZERO..=ceiling)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lost_connection_is_told_from_a_refused_statement() {
        let io = sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::ConnectionReset));
        assert!(is_connection_lost(&io));
        assert!(is_connection_lost(&sqlx::Error::WorkerCrashed));
        assert!(!is_connection_lost(&sqlx::Error::RowNotFound));
        assert!(!is_connection_lost(&sqlx::Error::PoolTimedOut));
    }

    #[test]
    fn backoff_stays_under_its_doubling_ceiling() {
        for tried in 1..10 {
            let ceiling = BASE.saturating_mul(1 << tried).min(CAP);
            for _ in 0..50 {
                assert!(backoff(tried) <= ceiling);
            }
        }
    }
}
