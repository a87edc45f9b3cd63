//! Holding the chosen seats: the request, then the map and the panel
//! told how it went — the seats marked the buyer's own, or the ones taken
//! meanwhile flashed and dropped from the selection, with seats offered
//! instead.

use leptos::prelude::*;

use crate::i18n::{Locale, Msg};
use crate::model::{EventId, SeatId};
use crate::server_fns::buyer::{hold_seats, HoldOutcome};
use crate::ui::buyer::event::held_panel::{failure, new_idempotency_key};
use crate::ui::buyer::event::seats::{flash, mark_seats, Look};
use crate::ui::buyer::event::SeatPanel;

/// Holds these seats for the buyer (nothing when there are none), cabins
/// for the parties `guests` names.
pub fn hold_these(
    event_id: EventId,
    panel: SeatPanel,
    l: Locale,
    ids: Vec<SeatId>,
    guests: Vec<(SeatId, i64)>,
) {
    if ids.is_empty() {
        return;
    }
    panel.message.set(None);
    panel.lost.set(None);
    panel.offers.set(Vec::new());
    let key = new_idempotency_key();
    // The stream may report these held before the answer arrives: they
    // are this buyer's own, not taken by someone else.
    panel.holding.set(ids.clone());
    leptos::task::spawn_local(async move {
        let guests = guests
            .iter()
            .map(|(seat, n)| format!("{seat}:{n}"))
            .collect::<Vec<_>>()
            .join(",");
        let outcome = hold_seats(event_id, ids, guests, key).await;
        panel.holding.set(Vec::new());
        match outcome {
            Ok(HoldOutcome::Held(r)) => {
                mark_seats(&r.seat_ids, Look::Yours);
                panel.picked.set(Vec::new());
                panel.hold.set(Some(r));
            }
            Ok(HoldOutcome::Refused {
                message: m,
                seat_ids,
                suggestions: offered,
                ..
            }) => {
                mark_seats(&seat_ids, Look::Held);
                flash(&seat_ids);
                panel
                    .picked
                    .update(|p| p.retain(|s| !seat_ids.contains(&s.id)));
                panel.message.set(Some(m));
                panel.offers.set(offered);
            }
            Err(e) => panel.message.set(Some(failure(l, &e, Msg::SeatsNotHeld))),
        }
    });
}
