//! A booking as its buyer sees it: seats, amount, status in words, and —
//! while the outcome is open — the status refreshed without a manual reload
//! (the page the checkout returns to): every quarter second in the first
//! seconds back from the checkout, then every second (`outcome_watch`).

use std::time::Duration;

use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

use crate::i18n::{use_locale, Locale, Msg};
use crate::model::outcome_watch::{ask_now, TICK_MS};
use crate::model::BookingId;
use crate::model::{BookingStatus, BookingView, EventKind, PaymentStatus};
use crate::server_fns::buyer::{booking, my_bookings, ticket_codes};
use crate::ui::buyer::countdown::{minutes_seconds, time_left};

mod forms;
use forms::{actions, guests, rebooking};

/// What each status means for the buyer (a concert-goer is wished a good
/// show, a passenger a good voyage).
pub fn explain(l: Locale, b: &BookingView) -> String {
    let farewell = kind_of(b).farewell(l);
    match (b.status, b.payment.as_ref().map(|p| p.status)) {
        (BookingStatus::Booked, _) if partly_refunded(b) => {
            l.fill(Msg::PaidPartlyRefunded, &[("farewell", &farewell)])
        }
        (BookingStatus::Booked, _) => l.fill(Msg::PaidConfirmed, &[("farewell", &farewell)]),
        _ => l.t(explain_status(b)).to_string(),
    }
}

fn kind_of(b: &BookingView) -> EventKind {
    b.event.as_ref().map_or(EventKind::Concert, |e| e.kind)
}

fn explain_status(b: &BookingView) -> Msg {
    let payment = b.payment.as_ref().map(|p| p.status);
    match (b.status, payment) {
        (
            BookingStatus::Expired | BookingStatus::Cancelled,
            Some(PaymentStatus::Paid | PaymentStatus::RefundPending),
        ) => Msg::ExplainLatePayment,
        (BookingStatus::Held, _) => Msg::ExplainHeld,
        (BookingStatus::PaymentPending, _) => Msg::ExplainPending,
        (BookingStatus::Booked, _) => Msg::ExplainBooked,
        (BookingStatus::Expired, _) => Msg::ExplainExpired,
        (BookingStatus::Cancelled, _) => Msg::ExplainCancelled,
        (BookingStatus::Refunded, _) if partly_refunded(b) => Msg::ExplainRefundedPart,
        (BookingStatus::Refunded, _) => Msg::ExplainRefunded,
        (BookingStatus::Disputed, _) => Msg::ExplainDisputed,
    }
}

/// Some of the money went back, not all of it (`refundedCents` counts
/// every refund, a full one included).
fn partly_refunded(b: &BookingView) -> bool {
    b.payment
        .as_ref()
        .is_some_and(|p| p.refunded_cents > 0 && p.refunded_cents < b.amount_cents)
}

/// Whether the booking may still change by itself: a hold or a payment
/// under way, or money in flight for a booking that ended.
fn outcome_open(b: &BookingView) -> bool {
    let money_in_flight = b
        .payment
        .as_ref()
        .is_some_and(|p| matches!(p.status, PaymentStatus::Paid | PaymentStatus::RefundPending));
    matches!(
        b.status,
        BookingStatus::Held | BookingStatus::PaymentPending
    ) || money_in_flight && b.status != BookingStatus::Booked
}

#[component]
pub fn BookingPage() -> impl IntoView {
    let l = use_locale();
    let params = use_params_map();
    let query = leptos_router::hooks::use_query_map();
    let id = move || BookingId::from(params.read().get("id").unwrap_or_default());
    let data = Resource::new(id, booking);
    // Back from a checkout: a payment may still be on its way even for a
    // booking that ended meanwhile, so watch for a minute whatever it says.
    let checking = RwSignal::new(query.read_untracked().get("checkout").is_some());
    // While the outcome is open, ask again (`outcome_watch`).
    Effect::new(move |_| {
        let started = js_sys::Date::now();
        let asked = StoredValue::new(started);
        if let Ok(handle) = set_interval_with_handle(
            move || {
                let now = js_sys::Date::now();
                if checking.get_untracked() && now - started > 60_000.0 {
                    checking.set(false);
                }
                let watching = checking.get_untracked();
                let open = data
                    .get_untracked()
                    .and_then(|r| r.ok())
                    .flatten()
                    .is_some_and(|b| {
                        outcome_open(&b)
                            || (watching
                                && !matches!(
                                    b.status,
                                    BookingStatus::Booked
                                        | BookingStatus::Refunded
                                        | BookingStatus::Disputed
                                ))
                    });
                let since_return = watching.then_some(now - started);
                if open && ask_now(since_return, now - asked.get_value()) {
                    asked.set_value(now);
                    data.refetch();
                }
            },
            Duration::from_millis(TICK_MS),
        ) {
            on_cleanup(move || handle.clear());
        }
    });
    view! {
        <Transition fallback=move || view! { <p>{l.t(Msg::LoadingBooking)}</p> }>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(Some(b)) => view! { <BookingCard b checking=checking.get_untracked()/> }.into_any(),
                    Ok(None) => view! { <p class="notice">{l.t(Msg::NoSuchBooking)}</p> }.into_any(),
                    Err(_) => view! { <p class="error" role="alert">{l.t(Msg::BookingFailed)}</p> }.into_any(),
                }
            })}
        </Transition>
    }
}

#[component]
fn BookingCard(b: BookingView, checking: bool) -> impl IntoView {
    let l = use_locale();
    let ended = matches!(b.status, BookingStatus::Expired | BookingStatus::Cancelled);
    let explanation = if checking && ended {
        l.t(Msg::ConfirmingPayment).to_string()
    } else {
        explain(l, &b)
    };
    let cruise = b
        .event
        .as_ref()
        .is_some_and(|e| e.kind == crate::model::EventKind::Cruise);
    let places = b
        .general_admission
        .as_ref()
        .map(|g| l.plural(g.quantity, Msg::StandingOne, Msg::StandingMany));
    view! {
        <article class="booking" data-status=b.status.as_str()>
            <h1>{l.t(Msg::BookingHeading)} <code>{b.id.chars().take(8).collect::<String>()}</code></h1>
            <p class=format!("status status-{}", b.status.as_str().to_lowercase()) data-testid="booking-status">{b.status.words(l)}</p>
            <p class="explain">{explanation}</p>
            <div class="booking-rebooking" inner_html=rebooking(l, &b)></div>
            {b.event.as_ref().map(|e| view! {
                <p class="booking-event" data-testid="booking-event">
                    <strong>{e.name.clone()}</strong><br/>
                    {e.venue.clone()} " · " <time datetime=e.starts_at.clone()>{e.when(l)}</time>
                </p>
            })}
            <ul class="booking-seats">
                {b.seats.iter().map(|s| {
                    let mut name = if s.name.is_empty() { s.label.clone() } else { s.name.clone() };
                    if cruise {
                        name = format!("{name} · {}", l.plural(s.guests, Msg::GuestOne, Msg::GuestMany));
                    }
                    view! { <li>{name} " · " {l.price(s.price_cents, &b.currency)}</li> }
                }).collect_view()}
                {places.map(|p| view! { <li>{p}</li> })}
            </ul>
            <p class="total">{l.t(Msg::TotalLabel)} <strong>{l.price(b.amount_cents, &b.currency)}</strong></p>
            {b.payment.as_ref().filter(|p| p.refunded_cents > 0).map(|p| view! {
                <p class="refunded-part" data-testid="refunded-part">{l.t(Msg::RefundedLabel)} {l.price(p.refunded_cents, &b.currency)}</p>
            })}
            {(b.status == BookingStatus::Booked).then(|| view! { <Ticket id=b.id.clone()/> })}
            {b.expires_in_ms.filter(|ms| matches!(b.status, BookingStatus::Held | BookingStatus::PaymentPending) && *ms > 0)
                .map(|ms| view! { <HoldCountdown expires_in_ms=ms/> })}
            <div class="booking-guests" inner_html=guests(l, &b)></div>
            <div class="booking-actions" inner_html=actions(l, &b)></div>
            <p><a href="/bookings">{l.t(Msg::AllMyBookings)}</a></p>
        </article>
    }
}

#[component]
pub fn MyBookings() -> impl IntoView {
    let l = use_locale();
    let list = Resource::new(|| (), |_| my_bookings());
    view! {
        <h1>{l.t(Msg::NavMyBookings)}</h1>
        <Suspense fallback=move || view! { <p>{l.t(Msg::Loading)}</p> }>
            {move || Suspend::new(async move {
                match list.await {
                    Ok(items) if items.is_empty() => view! { <p class="notice">{l.t(Msg::NoBookingsYet)}</p> }.into_any(),
                    Ok(items) => view! {
                        <ul class="event-list">
                            {items.into_iter().map(|b| {
                                let what = match (b.seats.len(), &b.general_admission) {
                                    (0, Some(g)) => l.plural(g.quantity, Msg::StandingOne, Msg::StandingMany),
                                    (n, _) => kind_of(&b).places(l, n),
                                };
                                let title = match &b.event {
                                    Some(e) => format!("{} — {what}", e.name),
                                    None => what,
                                };
                                view! {
                                    <li class="event-card">
                                        <span class="kind">{b.status.words(l)}</span>
                                        <a href=format!("/bookings/{}", b.id)>{title}</a>
                                        <span class="availability">{l.price(b.amount_cents, &b.currency)}</span>
                                        {b.event.as_ref().map(|e| view! {
                                            <span class="venue">{e.venue.clone()} " · " <time datetime=e.starts_at.clone()>{e.when(l)}</time></span>
                                        })}
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                    }.into_any(),
                    Err(_) => view! { <p class="error" role="alert">{l.t(Msg::BookingsFailed)}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

/// The time a running hold has left (`countdown`), amber in its last
/// minute.
#[component]
fn HoldCountdown(expires_in_ms: i64) -> impl IntoView {
    let l = use_locale();
    let left_ms = time_left(expires_in_ms, || {});
    let soon = move || left_ms.get() <= 60_000;
    view! {
        <p class="countdown" class:soon=soon data-testid="countdown" role="timer">
            {l.t(Msg::TimeLeft)}
            <strong>{move || minutes_seconds(left_ms.get())}</strong>
        </p>
    }
}

/// The tickets to show at the door: one a seat or place, each with its
/// own code, side by side (swiped through on a phone).
#[component]
fn Ticket(id: BookingId) -> impl IntoView {
    let l = use_locale();
    let codes = Resource::new(move || id.clone(), ticket_codes);
    view! {
        <Suspense fallback=move || view! { <p>{l.t(Msg::PreparingTicket)}</p> }>
            {move || Suspend::new(async move {
                match codes.await {
                    Ok(list) if !list.is_empty() => {
                        let count = list.len();
                        view! {
                            <p class="tickets-note">{l.t(Msg::EachTicketOnce)}</p>
                            <div class="tickets">
                                {list.into_iter().enumerate().map(|(i, t)| {
                                    let label = format!("{} · {}", l.t(Msg::TicketQr), t.name);
                                    let of = l.fill(Msg::TicketOf, &[("n", &(i + 1)), ("count", &count)]);
                                    view! {
                                        <figure class="ticket" data-testid="ticket">
                                            <div class="qr" role="img" aria-label=label inner_html=t.svg></div>
                                            <figcaption><strong>{t.name}</strong><br/>{of}</figcaption>
                                        </figure>
                                    }
                                }).collect_view()}
                            </div>
                        }.into_any()
                    }
                    _ => view! { <p class="notice">{l.t(Msg::TicketNotYet)}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}
