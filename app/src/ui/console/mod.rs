//! The organizer's console: `home` (sign-in, events, the new-event form),
//! `dashboard` (one event, live), the on-sale day panel (waiting room,
//! promo codes), the door scanner; `operations_html`: the Jobs page's table
//! and a booking's history, rendered on the server; `words`: the dashboard's codes and
//! times in the organizer's language.

pub mod dashboard;
pub mod door_scanner;
pub mod home;
pub mod on_sale_panel;
#[cfg(feature = "ssr")]
pub mod operations_html;
pub mod words;
