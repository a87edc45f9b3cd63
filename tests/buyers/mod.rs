//! Buyers who come back, and their language.

mod accounts;
mod language;
mod tickets;
