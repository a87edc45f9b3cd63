//! The buyer's pages: the event list, a route's sailings, an event (map,
//! list, waiting room), the bookings with their payment and promo box.

pub mod booking_page;
pub mod countdown;
pub mod event;
pub mod event_list;
pub mod promo_form;
pub mod sailings;
