//! The organizer's console: `home` (sign-in, events), `event_setup` (an
//! event's layout with its preview; its state in `setup_form`),
//! `dashboard` (one event, live: `sales_view`, `logs_view`; destructive
//! actions ask through `confirm`; a refund in part through `part_refund`), the on-sale day panel (waiting room,
//! promo codes), the door scanner; `operations_html`: the Jobs page's table
//! and a booking's history, rendered on the server; `words`: the dashboard's codes and
//! times in the organizer's language.

pub mod confirm;
pub mod dashboard;
pub mod door_scanner;
pub mod event_setup;
pub mod home;
pub mod logs_view;
pub mod on_sale_panel;
#[cfg(feature = "ssr")]
pub mod operations_html;
pub mod part_refund;
pub mod sales_view;
pub mod setup_form;
pub mod words;
