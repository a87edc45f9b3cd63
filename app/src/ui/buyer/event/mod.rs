//! One event's page: `page` (the route, the map component, live updates),
//! `drawing` (fetches the seats' drawing and statuses into the map),
//! `map_view` (gestures; the pure geometry is `model::geometry`), `seats`
//! (selection, and each seat's look and accessible name), `keyboard`
//! (arrow-key navigation), `held_panel` (the countdown and Pay), the
//! accessible `seat_list`, the `standing` areas bought by count, and the `waiting_room` shown instead while the
//! queue is on.

pub mod drawing;
pub mod held_panel;
pub mod keyboard;
pub mod map_view;
pub mod page;
pub mod seat_list;
pub mod seats;
pub mod standing;
pub mod waiting_room;
