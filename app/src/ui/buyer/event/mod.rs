//! One event's page: `page` (route, held panel, live updates), the seat map
//! (`map_view` geometry and gestures, `markup` the server-drawn SVG), the
//! accessible `seat_list`, and the `waiting_room` shown instead while the
//! queue is on.

pub mod map_view;
pub mod markup;
pub mod page;
pub mod seat_list;
pub mod waiting_room;
