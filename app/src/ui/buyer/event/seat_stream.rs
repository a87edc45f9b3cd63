//! The event's live seat stream on the page: every change from any buyer
//! gives its seat a new look; a seat of the selection that someone else
//! took leaves the selection, with the buyer told which; the seat's
//! details, when shown, say its new status; standing places left follow
//! too.

use leptos::prelude::*;
use leptos::web_sys;

use crate::i18n::{Locale, Msg};
use crate::model::{AreaLeft, EventId, SeatChange, SeatStreamMessage};
use crate::ui::buyer::event::seats::{mark_seats, seat_element, Look};
use crate::ui::buyer::event::tooltip::{self, Tip};
use crate::ui::buyer::event::{Lost, SeatPanel};
use crate::ui::live::use_event_stream;

/// What the live stream updates besides the map.
#[derive(Clone, Copy)]
pub struct Watched {
    pub panel: SeatPanel,
    pub live: RwSignal<bool>,
    /// Places left per standing area, as the stream last said.
    pub standing: RwSignal<Vec<AreaLeft>>,
    /// The seat details shown beside a seat: they follow its status.
    pub tip: RwSignal<Option<Tip>>,
    pub locale: Locale,
}

/// Follows the seat stream: every change from any buyer gives the seat its
/// new look (this buyer's own hold shows as theirs); a seat in the selection
/// that someone else took leaves the selection, and the buyer is told which;
/// a `reset` (too much missed) reloads the page.
pub fn connect_live(event_id: EventId, since: u64, w: Watched) {
    let url = format!("/api/events/{event_id}/seats/stream?since={since}");
    let on_message = move |message: SeatStreamMessage| match message {
        SeatStreamMessage::Seats(batch) => {
            for change in batch.changes {
                seat_changed(w, change);
            }
        }
        SeatStreamMessage::Standing(left) => w.standing.set(left.standing),
    };
    let reload = Box::new(|| {
        if let Some(w) = web_sys::window() {
            let _ = w.location().reload();
        }
    });
    use_event_stream(
        &url,
        &["seats", "standing"],
        w.live,
        on_message,
        Some(reload),
    );
}

/// One seat's new status from any buyer: its look on the map; a seat of
/// the selection someone else took leaves it, and the buyer is told.
fn seat_changed(w: Watched, change: SeatChange) {
    let p = w.panel;
    let yours = p
        .hold
        .read_untracked()
        .as_ref()
        .is_some_and(|h| h.seat_ids.contains(&change.id));
    let look = Look::of(change.status, yours);
    let l = w.locale;
    let own_request = p.holding.read_untracked().contains(&change.id);
    if look != Look::Available && !own_request {
        let before = p.picked.with_untracked(|s| s.len());
        let lost = p
            .picked
            .read_untracked()
            .iter()
            .find(|s| s.id == change.id)
            .map(|s| {
                s.name
                    .splitn(4, ", ")
                    .take(3)
                    .collect::<Vec<_>>()
                    .join(", ")
            });
        if let Some(name) = lost {
            p.picked.update(|s| s.retain(|s| s.id != change.id));
            p.message.set(Some(
                l.fill(Msg::SeatTakenFromSelection, &[("name", &name)]),
            ));
            // A second loss keeps the count the buyer first wanted.
            let quantity = p
                .lost
                .get_untracked()
                .map_or(before, |l| l.quantity.max(before));
            p.lost.set(Some(Lost {
                seat: change.id,
                quantity,
            }));
        }
    }
    mark_seats(&[change.id], look);
    if let Some(seat) = seat_element(change.id) {
        tooltip::refresh(w.tip, &seat);
    }
}
