//! Cruises as they are sold. A ship has a plan: its places deck by deck
//! (`plan`). A route is sailed by one ship; a sailing is one voyage of it,
//! and an event: its seat map, holds, payments, promo codes and waiting
//! room are the event's, through the same booking core (`schedule` makes
//! one from the plan). `catalog` lists sailings and their fares;
//! `manifest` keeps the guests of every booked cabin; `fleet` is the demo
//! line (a cruise ship sailing weekly, a ferry sailing daily). When the
//! line cancels a sailing, `rebooking` moves its bookings to the route's
//! next sailing by the rules of `placement`.

pub mod catalog;
pub mod fleet;
pub mod manifest;
pub mod placement;
pub mod plan;
pub mod rebooking;
pub mod schedule;
