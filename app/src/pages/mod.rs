//! One module per page.

pub mod admin_console;
pub mod booking_page;
pub mod door_scanner;
pub mod event_list;
pub mod event_page;
pub mod map_view;
pub mod on_sale_panel;
pub mod promo_form;
pub mod seat_list;
pub mod waiting_room;
