//! Every integration test, in one binary: each file below is a module, so the
//! test command links one executable instead of one per file (each a large
//! binary with its own link). Run one file with
//! `cargo test --features holdfast/ssr,holdfast-app/ssr --test integration holds::`.
//!
//! The servers these tests start share the process, and so its metrics
//! recorder: a test reads a counter's change, never its absolute value.

#[macro_use]
mod common;

mod abuse;
mod accounts;
mod admin;
mod best;
mod catalog;
mod claims;
mod come_back;
mod commit_lost;
mod door;
mod faults;
mod history;
mod holds;
mod jobs;
mod language;
mod layouts;
mod limits;
mod live;
mod mail;
mod migrations;
mod model;
mod money;
mod on_sale;
mod openapi;
mod payments;
mod pool;
mod posture;
mod promos;
mod protect;
mod queue;
mod rebooking;
mod refunds;
mod reports;
mod retries;
mod sailings;
mod startup;
mod stripe;
mod verdicts;
mod when;
mod wire;
