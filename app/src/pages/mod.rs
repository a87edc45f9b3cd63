//! One module per page.

pub mod event_list;
pub mod event_page;
