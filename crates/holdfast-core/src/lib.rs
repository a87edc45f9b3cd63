//! The booking core: the use cases, their SQL and the jobs, shared by the
//! pages' server functions, the REST handlers, the webhook and the workers.
//! No web framework here: who is asking arrives as plain values (`Admin`,
//! `Owner`, a session), and a refusal is an `ApiError` the HTTP edge
//! (`holdfast-web`) turns into an answer.
//!
//! - `state`: `AppState`, what every use case is given, assembled from the
//!   domain's parts below;
//! - `booking` owns the state machine and the use cases that move bookings;
//! - `platform` is the plumbing every use case stands on (database, clock,
//!   errors, the shared state, sessions, limits, metrics, secrets); its `db`
//!   is the only place that knows SQLite from Postgres;
//! - `seat_map` keeps the live, versioned seat-map snapshot in memory;
//! - `catalog` reads events, categories and seats; `event_time` shows a
//!   start in its place's time zone; `seed` loads the demo data.

pub mod account;
pub mod admin;
pub mod booking;
pub mod buyer;
pub mod buyer_language;
pub mod catalog;
pub mod event_time;
pub mod invariants;
pub mod payments;
pub mod platform;
pub mod promo;
pub mod sailing;
pub mod seat_map;
pub mod seed;
pub mod state;
pub mod ticket;
pub mod waiting_room;

pub use platform::error::ApiError;
pub use state::{AppState, StateParts};
