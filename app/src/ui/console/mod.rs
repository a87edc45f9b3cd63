//! The organizer's console: events and their dashboards (`admin_console`),
//! the on-sale day panel (waiting room, promo codes), the door scanner.

pub mod admin_console;
pub mod door_scanner;
pub mod on_sale_panel;
