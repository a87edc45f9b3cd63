//! The organizer's side: the admin API, layouts, reports, the door, cruises and rebooking.

mod admin;
mod door;
mod layouts;
mod rebooking;
mod reports;
mod sailings;
mod team;
mod two_factor;
