//! Buyers who come back. An account is an email address and the one buyer
//! id every session signed in to it shares, so whatever is keyed by buyer —
//! bookings, the per-event limit and its lock, idempotency keys — follows
//! the person from phone to laptop without a second code path. Signing in
//! is passwordless: a single-use link, mailed through the outbox
//! (`link`), opened on any device (`session`). A booking paid with an
//! address is that address's too (`crate::buyer::Owner`).

pub mod address;
pub mod link;
pub mod session;

pub use address::EmailAddress;
