//! Bookings: the state machine (`status`), the only SQL that moves them
//! (`store`), and one use-case function per step, each one transaction,
//! called alike by REST handlers, server functions and workers.

pub mod ga;
pub mod hold;
pub mod query;
pub mod release;
pub mod status;
pub mod store;
pub mod suggest;

pub use status::BookingStatus;

/// The result of a step that takes an Idempotency-Key: either freshly done,
/// or the stored answer of the first request with that key.
#[derive(Debug)]
pub enum Idempotent<T> {
    Fresh(T),
    Replay { status: u16, body: String },
}
