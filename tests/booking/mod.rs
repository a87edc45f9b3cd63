//! Holding seats and standing places, the waiting room, the live map, what a booking says.

mod best;
mod catalog;
mod claims;
mod come_back;
mod history;
mod holds;
mod live;
mod on_sale;
mod queue;
mod when;
