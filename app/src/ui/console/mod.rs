//! The organizer's console: `home` (sign-in, events, the new-event form),
//! `dashboard` (one event, live), the on-sale day panel (waiting room,
//! promo codes), the door scanner.

pub mod dashboard;
pub mod door_scanner;
pub mod home;
pub mod on_sale_panel;
