//! The running hold beside the map: which seats are the buyer's, the
//! countdown (amber in its last minute), the promo box and Pay; once it ran
//! out, "Hold these seats again" or back to choosing. And the words a buyer
//! reads when a step could not be answered at all.

use leptos::prelude::*;

use crate::i18n::{use_locale, Locale, Msg};
use crate::model::SeatId;
use crate::model::{BookingStatus, EventKind, HoldResponse};
use crate::server_fns::bookings::release_hold;
use crate::server_fns::buyer::{pay_booking, PayOutcome};
use crate::ui::buyer::countdown::{minutes_seconds, time_left};
use crate::ui::buyer::event::seats::{mark_seats, seat_name, Look};
use crate::ui::buyer::promo_form::PromoForm;

pub fn new_idempotency_key() -> String {
    format!(
        "ui-{}-{}",
        js_sys::Date::now() as u64,
        (js_sys::Math::random() * 1e12) as u64
    )
}

/// The last minute of a hold is shown in amber, with a warning.
const WARN_MS: i64 = 60_000;

/// The running hold: a countdown from the server's `expiresInMs` (counted
/// from when the answer arrived, so the buyer's clock never matters) and Pay.
/// `again` holds the same seats anew after expiry; `done` goes back to
/// choosing seats.
#[component]
pub fn HeldPanel(
    h: HoldResponse,
    kind: EventKind,
    /// The event's refund policy in a sentence, said before Pay.
    terms: String,
    again: Callback<Vec<SeatId>>,
    done: Callback<()>,
) -> impl IntoView {
    let l = use_locale();
    let seat_ids = h.seat_ids.clone();
    let left_ms = time_left(h.expires_in_ms, move || {
        mark_seats(&seat_ids, Look::Available)
    });
    let error: RwSignal<Option<String>> = RwSignal::new(None);
    let booking_id = h.booking_id.clone();
    let pay = move |_| {
        let booking_id = booking_id.clone();
        let key = new_idempotency_key();
        leptos::task::spawn_local(async move {
            match pay_booking(booking_id, key).await {
                Ok(PayOutcome::Checkout(url)) => {
                    if let Some(w) = web_sys::window() {
                        let _ = w.location().set_href(&url);
                    }
                }
                Ok(PayOutcome::Refused(m)) => error.set(Some(m)),
                Err(e) => error.set(Some(failure(l, &e, Msg::PaymentNotStarted))),
            }
        });
    };
    // Let go of a hold not yet paying: its places go back on sale at once.
    let release_id = h.booking_id.clone();
    let release_seats = h.seat_ids.clone();
    let release = Callback::new(move |_: ()| {
        let (id, seats) = (release_id.clone(), release_seats.clone());
        leptos::task::spawn_local(async move {
            match release_hold(id).await {
                Ok(None) => {
                    mark_seats(&seats, Look::Available);
                    done.run(());
                }
                Ok(Some(m)) => error.set(Some(m)),
                Err(e) => error.set(Some(failure(l, &e, Msg::HoldNotReleased))),
            }
        });
    });
    let releasable = h.status == BookingStatus::Held;
    let running = move || left_ms.get() > 0;
    let amount = RwSignal::new(h.amount_cents);
    let seats = h.seat_ids.len();
    let currency = h.currency.clone();
    let places = h.general_admission.as_ref().map_or(0, |g| g.quantity);
    let summary = move || {
        let what = match (seats, places) {
            (0, n) => l.plural(n, Msg::StandingOne, Msg::StandingMany),
            (n, _) => kind.places(l, n),
        };
        let amount = l.price(amount.get(), &currency);
        l.fill(Msg::HeldFor, &[("what", &what), ("amount", &amount)])
    };
    let names: Vec<String> = h.seat_ids.iter().map(|id| seat_name(*id)).collect();
    let bar_currency = h.currency.clone();
    let bar_summary = move || {
        let what = match (seats, places) {
            (0, n) => l.plural(n, Msg::PlaceOne, Msg::PlaceMany),
            (n, _) => kind.places(l, n),
        };
        format!("{what} · {} · ", l.price(amount.get(), &bar_currency))
    };
    let again_ids = h.seat_ids.clone();
    let soon = move || left_ms.get() > 0 && left_ms.get() <= WARN_MS;
    let promo_booking = h.booking_id.clone();
    let guests_booking = h.booking_id.clone();
    let promo_currency = h.currency.clone();
    // A ship's places are cabins: the wording follows the event's kind.
    let cruise = kind == EventKind::Cruise;
    view! {
        <div class="held-note" role="status">
            <p>{summary}</p>
            <ul class="yours" data-testid="held-seats">
                {names.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}
            </ul>
            <Show
                when=running
                fallback=move || {
                    let ids = again_ids.clone();
                    let has_seats = !ids.is_empty();
                    view! {
                        <p class="expired" data-testid="hold-expired">{l.t(Msg::HoldExpired)}</p>
                        <Show when=move || has_seats>
                            <button class="hold again" data-testid="hold-again"
                                on:click={let ids = ids.clone(); move |_| again.run(ids.clone())}>
                                {l.t(if cruise { Msg::HoldTheseCabinsAgain } else { Msg::HoldTheseAgain })}
                            </button>
                        </Show>
                        <button class="link" on:click=move |_| done.run(())>{l.t(if cruise { Msg::ChooseOtherCabins } else { Msg::ChooseOtherSeats })}</button>
                    }
                }
            >
                <Show when=soon>
                    <p class="warning" role="alert">{l.t(Msg::LastMinute)}</p>
                </Show>
                <PromoForm booking_id=promo_booking.clone() amount currency=promo_currency.clone()/>
                <p class="refund-terms">{terms.clone()}</p>
                <Show when=move || releasable>
                    <button class="link release" on:click=move |_| release.run(())>{l.t(Msg::ReleaseHold)}</button>
                </Show>
                // On a phone: count, total, countdown and Pay stay at the bottom of the screen.
                <div class="action-bar active" data-testid="pay-bar">
                    <p class="countdown" class:soon=soon data-testid="countdown">
                        <span class="bar-summary">{bar_summary.clone()}</span>
                        {l.t(Msg::TimeLeft)}
                        <strong>{move || minutes_seconds(left_ms.get())}</strong>
                    </p>
                    // A cruise's guests are named at checkout (the manifest),
                    // on their own page, which then pays.
                    {if kind == EventKind::Cruise {
                        view! {
                            <a class="hold pay" href=format!("/bookings/{}/guests", guests_booking) rel="external">
                                {l.t(Msg::NameGuestsAndPay)}
                            </a>
                        }.into_any()
                    } else {
                        view! { <button class="hold pay" on:click=pay.clone()>{l.t(Msg::PayNow)}</button> }.into_any()
                    }}
                </div>
            </Show>
            <Show when=move || error.get().is_some()>
                <p class="error" role="alert">{move || error.get()}</p>
            </Show>
        </div>
    }
}

/// What the buyer reads when a step could not even be answered: whether
/// the network or the server failed, and what did not happen.
pub fn failure(l: Locale, e: &ServerFnError, what_not: Msg) -> String {
    let text = e.to_string();
    let m = if text.contains("429") || text.contains("RATE_LIMITED") || text.contains("Too many") {
        Msg::TooManyAttempts
    } else if matches!(e, ServerFnError::Request(_)) {
        Msg::Unreachable
    } else {
        Msg::OurSide
    };
    l.fill(m, &[("what", &l.t(what_not))])
}
