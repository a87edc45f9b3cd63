//! What people see: the buyer's pages and the organizer's console, each a
//! folder of pages and the components only they use.

pub mod buyer;
pub mod console;
pub mod language;
pub mod live;
