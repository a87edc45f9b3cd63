//! The plumbing under the booking domain: no rule about seats, money or
//! buyers lives here.
//!
//! - `db`: the pools, transactions and the SQL differences of SQLite and Postgres;
//! - `clock`: the one source of "now" (moved by hand in tests);
//! - `compressed`: bodies the same for everyone, compressed once per encoding;
//! - `error`: `ApiError`, the one error type, and the API's error shape;
//! - `session_store`: tower-sessions records in our database;
//! - `idempotency`: `Idempotency-Key` records and replays;
//! - `rate_limit`, `stream_slots`, `client_addr`: who the client is, and how
//!   much it may do and hold open;
//! - `metrics`: the Prometheus series;
//! - `secrets`: the deployment's root secret and the keys derived from it;
//! - `retry`: a use case run again whole when the database rolled it back
//!   for contention (then 503 `SERVICE_BUSY`);
//! - `jobs`: the one runner of every periodic job (leases, fencing, runs).

pub mod backup;
pub mod client_addr;
pub mod clock;
pub mod compressed;
pub mod db;
pub mod error;
mod error_words;
pub mod idempotency;
pub mod jobs;
pub mod metrics;
pub mod rate_limit;
pub mod retry;
pub mod secrets;
pub mod session_store;
pub mod stopping;
pub mod stream_slots;
