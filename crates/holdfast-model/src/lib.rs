//! The shapes the outside sees (docs/API.md), shared by the REST API, the server
//! functions, the hydrated pages and the booking core: plain data, money and
//! the two languages' messages. No I/O, no SQL (behind `ssr`, only how a
//! value is stored in a column and described in the OpenAPI document), and
//! no framework: it builds for the browser's wasm and for the server alike.

pub mod i18n;

mod booking;
mod booking_history;
mod booking_status;
pub mod console;
mod event;
pub mod geometry;
mod ids;
pub mod money;
pub mod outcome_watch;
mod payment_status;
pub mod percent;
mod queue;
mod refund_part;
mod refund_policy;
pub mod sailing;
mod seat;
pub mod seat_drawing;
mod state_names;

pub use booking::*;
pub use booking_history::{Cause, CauseKind, HistoryEntry};
pub use booking_status::BookingStatus;
pub use event::*;
pub use i18n::format::format_price;
pub use ids::{BookingId, BuyerId, EventId, SeatId};
pub use payment_status::PaymentStatus;
pub use queue::*;
pub use refund_part::{PartRefund, PartRefundRequest, PartRefundState, REASON_MAX_CHARS};
pub use refund_policy::RefundPolicy;
pub use seat::*;
