//! The server-side core: everything the pages, the REST handlers, the webhook
//! and the workers share. Compiled only with the `ssr` feature.
//!
//! - `booking` owns the state machine and the use cases that move bookings;
//! - `db` is the only place that knows SQLite from Postgres;
//! - `seat_map` keeps the live, versioned seat-map snapshot in memory;
//! - `catalog` reads events, categories and seats; `seed` loads the demo data.

pub mod admin;
pub mod booking;
pub mod buyer;
pub mod catalog;
pub mod client_addr;
pub mod clock;
pub mod db;
pub mod door;
pub mod error;
pub mod fanout;
pub mod idempotency;
pub mod invariants;
pub mod metrics;
pub mod payments;
pub mod promo;
pub mod rate_limit;
pub mod seat_map;
pub mod secrets;
pub mod seed;
pub mod session_store;
pub mod state;
pub mod stream_slots;
pub mod ticket;
pub mod waiting_room;

pub use error::ApiError;
pub use state::AppState;
