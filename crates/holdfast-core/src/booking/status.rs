//! The booking state machine lives with the shared model (the pages show
//! it too); the core names it here.

pub use holdfast_model::BookingStatus;
