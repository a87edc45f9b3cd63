//! Bookings: the state machine (`status`), the only SQL that moves them
//! (`store`), and one use-case function per step, each one transaction,
//! called alike by REST handlers, server functions and workers.

pub mod best;
pub mod blocks;
mod claim_flow;
pub mod ga;
pub mod history;
pub mod hold;
pub mod hold_gate;
mod idempotent;
pub mod query;
pub mod release;
pub mod running;
pub mod status;
pub mod store;
pub mod suggest;

pub use status::BookingStatus;

pub use idempotent::Idempotent;
pub(crate) use idempotent::{begin_with_key, earlier_answer, Began};
