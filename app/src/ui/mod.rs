//! What people see: the buyer's pages and the organizer's console, each a
//! folder of pages and the components only they use.

pub mod account_nav;
pub mod buyer;
#[cfg(any(feature = "ssr", feature = "console"))]
pub mod console;
#[cfg(not(any(feature = "ssr", feature = "console")))]
pub mod console_elsewhere;
pub mod language;
pub mod live;
