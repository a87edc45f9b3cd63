//! A destructive action asks first: one sentence saying exactly what will
//! happen ("Refund €170.00 to ann@example.com and release 2 seats (…)?"),
//! a red button naming the action, and a way back (the button, or Escape).
//! The box sits at the bottom of the screen, where a phone's thumb is,
//! and takes the focus so a keyboard user answers it first.

use leptos::prelude::*;

use crate::i18n::{fill, t, use_locale, Msg};
use crate::model::console::{BookingAction, BookingActivity, LiveHold};
use crate::model::{BookingId, EventKind};

/// What was asked, and what to do on yes.
#[derive(Debug, Clone, PartialEq)]
pub struct Asked {
    pub sentence: String,
    pub button: String,
    pub then: Then,
}

/// The action a yes runs.
#[derive(Debug, Clone, PartialEq)]
pub enum Then {
    Booking(BookingId, BookingAction),
    Withdraw(crate::model::EventId),
}

/// "ann@example.com", or "buyer 1a2b3c4d" when no email is known.
fn who(email: &Option<String>, buyer: &str) -> String {
    match email {
        Some(e) => e.clone(),
        None => fill(
            Msg::SomeBuyer,
            &[("id", &buyer.chars().take(8).collect::<String>())],
        ),
    }
}

/// "2 seats (A-1-1, A-1-2)", or "3 places" standing.
fn places(kind: EventKind, labels: &[String], standing: i64) -> String {
    let l = use_locale();
    if labels.is_empty() {
        return l.plural(standing, Msg::PlaceOne, Msg::PlaceMany);
    }
    format!("{} ({})", kind.places(l, labels.len()), labels.join(", "))
}

/// Releasing a hold.
pub fn release(h: &LiveHold, kind: EventKind) -> Asked {
    Asked {
        sentence: fill(
            Msg::ConfirmRelease,
            &[
                ("buyer", &who(&h.buyer_email, &h.buyer_id)),
                ("places", &places(kind, &h.seat_labels, h.places)),
            ],
        ),
        button: t(Msg::ConfirmReleaseButton).to_string(),
        then: Then::Booking(h.booking_id.clone(), BookingAction::Release),
    }
}

/// Refunding a booking in full.
pub fn refund(b: &BookingActivity, kind: EventKind) -> Asked {
    let amount = use_locale().price(b.amount_cents, &b.currency);
    let mut sentence = fill(
        Msg::ConfirmRefund,
        &[
            ("amount", &amount),
            ("buyer", &who(&b.buyer_email, &b.booking_id)),
            ("places", &places(kind, &b.seat_labels, b.places)),
        ],
    );
    if b.checked_in > 0 {
        // Whoever refunds should know the holder already went in.
        sentence.push(' ');
        sentence.push_str(&fill(Msg::RefundAfterCheckIn, &[("n", &b.checked_in)]));
    }
    Asked {
        sentence,
        button: fill(Msg::ConfirmRefundButton, &[("amount", &amount)]),
        then: Then::Booking(b.booking_id.clone(), BookingAction::Refund),
    }
}

/// Taking an event off sale.
pub fn withdraw(event: crate::model::EventId, name: &str) -> Asked {
    Asked {
        sentence: fill(Msg::ConfirmWithdraw, &[("name", &name)]),
        button: t(Msg::ConfirmWithdrawButton).to_string(),
        then: Then::Withdraw(event),
    }
}

/// The question, while one is asked; a yes runs `on_yes`.
#[component]
pub fn ConfirmBox(asked: RwSignal<Option<Asked>>, on_yes: Callback<Then>) -> impl IntoView {
    let yes = NodeRef::<leptos::html::Button>::new();
    Effect::new(move |_| {
        if let Some(b) = yes.get() {
            let _ = b.focus();
        }
    });
    move || {
        asked.get().map(|a| {
            let then = a.then.clone();
            view! {
                <div class="confirm" role="alertdialog" aria-modal="false" aria-labelledby="confirm-sentence"
                    on:keydown=move |ev: leptos::ev::KeyboardEvent| if ev.key() == "Escape" { asked.set(None) }>
                    <p id="confirm-sentence">{a.sentence.clone()}</p>
                    <div class="confirm-actions">
                        <button class="danger" node_ref=yes
                            on:click=move |_| { asked.set(None); on_yes.run(then.clone()); }>{a.button.clone()}</button>
                        <button class="keep" on:click=move |_| asked.set(None)>{t(Msg::KeepAsIs)}</button>
                    </div>
                </div>
            }
        })
    }
}
