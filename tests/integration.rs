//! Every integration test, in one binary: each folder below is a feature and each file in it a module, so the
//! test command links one executable instead of one per file (each a large
//! binary with its own link). Run one file with
//! `cargo test --features holdfast/ssr,holdfast-app/ssr --test integration booking::holds::`.
//!
//! The servers these tests start share the process, and so its metrics
//! recorder: a test reads a counter's change, never its absolute value.

#[macro_use]
mod common;

mod booking;
mod buyers;
mod console;
mod payments;
mod platform;
