//! One event's page: `page` (the route and the map component),
//! `seat_stream` (live updates from every buyer),
//! `drawing` (fetches the seats' drawing and statuses into the map),
//! `map_view` (gestures; the pure geometry is `model::geometry`), `seats`
//! (selection, and each seat's look and accessible name), `keyboard`
//! (arrow-key navigation), `holding` (the hold request and its answer),
//! `held_panel` (the countdown and Pay), the
//! accessible `seat_list`, the `standing` areas bought by count, `best`
//! (the server chooses), the `waiting_room` shown instead while the
//! queue is on, and on a sailing its `voyage` (ports, other dates, each
//! cabin's party).

use leptos::prelude::*;

use crate::model::HoldResponse;
use crate::model::SeatId;
use seats::Picked;

pub mod best;
pub mod colours;
pub mod drawing;
pub mod held_panel;
pub mod holding;
pub mod keyboard;
pub mod map_view;
pub mod page;
pub mod seat_list;
pub mod seat_stream;
pub mod seats;
pub mod standing;
pub mod tooltip;
pub mod voyage;
pub mod waiting_room;

/// What the panel beside the map shows, shared with what changes it (the
/// buyer's clicks, the answers, the live stream).
#[derive(Clone, Copy)]
pub struct SeatPanel {
    /// The selection, not yet held.
    pub picked: RwSignal<Vec<Picked>>,
    /// The running hold.
    pub hold: RwSignal<Option<HoldResponse>>,
    /// What the buyer is told (a refusal, a lost seat).
    pub message: RwSignal<Option<String>>,
    /// A selected seat someone else just took: offered "nearby" in one tap.
    pub lost: RwSignal<Option<Lost>>,
    /// Seats offered instead after a refusal, each list taken in one tap.
    pub offers: RwSignal<Vec<Vec<SeatId>>>,
    /// Seats a request of this buyer's is about to hold: the stream may
    /// report them held before the answer arrives, and they are not lost.
    pub holding: RwSignal<Vec<SeatId>>,
    /// The most seats one booking may have.
    pub limit: usize,
}

/// A seat that left the selection because someone else took it, and how
/// many seats the selection had with it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lost {
    pub seat: SeatId,
    pub quantity: usize,
}
