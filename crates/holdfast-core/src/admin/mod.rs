//! The admin side: who is acting (`auth`: the bootstrap credentials, the
//! `team`'s people, API `keys`), what they may do (`access`), what they see (`console`), what
//! they do (`actions`, each written to the `audit` log in the same
//! transaction), how events are set up (`layout` checked, `setup` stored),
//! and the invariant `canary` that watches the database.

pub mod access;
pub mod actions;
pub mod attendees;
pub mod audit;
pub mod audit_detail;
pub mod auth;
pub mod canary;
pub mod console;
pub mod keys;
pub mod layout;
pub mod mailbox;
pub mod run_job;
mod secrets;
pub mod setup;
pub mod team;
pub mod two_factor;
