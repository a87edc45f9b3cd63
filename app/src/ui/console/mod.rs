//! The organizer's console: `home` (sign-in, events, the new-event form),
//! `dashboard` (one event, live), the on-sale day panel (waiting room,
//! promo codes), the door scanner, the Jobs page; `words`: the dashboard's codes and
//! times in the organizer's language.

pub mod dashboard;
pub mod door_scanner;
pub mod home;
pub mod jobs_page;
pub mod on_sale_panel;
pub mod words;
