//! One event's page: `page` (the route, the map component, live updates),
//! `geometry` (the layout and the view box, pure), `map_view` (gestures), `markup` (the server-drawn
//! SVG), `seats` (selection and status classes), `keyboard` (arrow-key
//! navigation), `held_panel` (the countdown and Pay), the accessible
//! `seat_list`, and the `waiting_room` shown instead while the queue is on.

pub mod geometry;
pub mod held_panel;
pub mod keyboard;
pub mod map_view;
pub mod markup;
pub mod page;
pub mod seat_list;
pub mod seats;
pub mod waiting_room;
