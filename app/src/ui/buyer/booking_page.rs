//! A booking as its buyer sees it: seats, amount, status in words, and —
//! while the outcome is open — the status refreshed every second without a
//! manual reload (the page the checkout returns to).

use std::time::Duration;

use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

use crate::model::{format_price, BookingStatus, BookingView, EventKind, PaymentStatus};
use crate::server_fns::buyer::{booking, my_bookings, ticket_qr};

/// What each status means for the buyer (a concert-goer is wished a good
/// show, a passenger a good voyage).
pub fn explain(b: &BookingView) -> String {
    let farewell = kind_of(b).farewell();
    match (b.status, b.payment.as_ref().map(|p| p.status)) {
        (BookingStatus::Booked, _) if partly_refunded(b) => format!(
            "Paid and confirmed; part of your payment was refunded. Your tickets stay valid. {farewell}"
        ),
        (BookingStatus::Booked, _) => format!("Paid and confirmed. {farewell}"),
        _ => explain_status(b).to_string(),
    }
}

fn kind_of(b: &BookingView) -> EventKind {
    b.event.as_ref().map_or(EventKind::Concert, |e| e.kind)
}

fn explain_status(b: &BookingView) -> &'static str {
    let payment = b.payment.as_ref().map(|p| p.status);
    match (b.status, payment) {
        (BookingStatus::Expired | BookingStatus::Cancelled, Some(PaymentStatus::Paid | PaymentStatus::RefundPending)) => {
            "Your payment arrived after your hold had ended, and the seats had gone to someone else. It is being refunded in full."
        }
        (BookingStatus::Held, _) => "Your seats are held for you. Pay before the time runs out.",
        (BookingStatus::PaymentPending, _) => "We are waiting for the payment provider to confirm your payment.",
        (BookingStatus::Booked, _) => "Paid and confirmed.",
        (BookingStatus::Expired, _) => "The hold ended before a payment arrived; the seats went back on sale. Nothing was charged.",
        (BookingStatus::Cancelled, _) => "This hold was released and the seats went back on sale. Nothing was charged.",
        (BookingStatus::Refunded, _) => "Your payment was refunded in full and the tickets are no longer valid: it arrived after the hold had ended and the seats had gone to someone else, or the booking was cancelled and refunded by the organizer.",
        (BookingStatus::Disputed, _) => "Your bank disputed this payment, so the tickets are no longer valid and the seats went back on sale. If this is a mistake, please contact the organizer.",
    }
}

fn partly_refunded(b: &BookingView) -> bool {
    b.payment.as_ref().is_some_and(|p| p.refunded_cents > 0)
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

/// A status as words on the page ("PAYMENT PENDING").
fn status_words(status: BookingStatus) -> String {
    status.as_str().replace('_', " ")
}

#[component]
pub fn BookingPage() -> impl IntoView {
    let params = use_params_map();
    let query = leptos_router::hooks::use_query_map();
    let id = move || params.read().get("id").unwrap_or_default();
    let data = Resource::new(id, booking);
    // Back from a checkout: a payment may still be on its way even for a
    // booking that ended meanwhile, so watch for a minute whatever it says.
    let checking = RwSignal::new(query.read_untracked().get("checkout").is_some());
    // While the outcome is open, ask again every second.
    Effect::new(move |_| {
        let started = js_sys::Date::now();
        if let Ok(handle) = set_interval_with_handle(
            move || {
                if checking.get_untracked() && js_sys::Date::now() - started > 60_000.0 {
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
                if open {
                    data.refetch();
                }
            },
            Duration::from_millis(1000),
        ) {
            on_cleanup(move || handle.clear());
        }
    });
    view! {
        <Transition fallback=|| view! { <p>"Loading your booking…"</p> }>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(Some(b)) => view! { <BookingCard b checking=checking.get_untracked()/> }.into_any(),
                    Ok(None) => view! { <p class="notice">"There is no such booking in this browser session."</p> }.into_any(),
                    Err(_) => view! { <p class="error" role="alert">"Your booking could not be loaded. Please try again in a moment."</p> }.into_any(),
                }
            })}
        </Transition>
    }
}

#[component]
fn BookingCard(b: BookingView, checking: bool) -> impl IntoView {
    let ended = matches!(b.status, BookingStatus::Expired | BookingStatus::Cancelled);
    let explanation = if checking && ended {
        "We are confirming your payment with the payment provider; this page updates by itself."
            .to_string()
    } else {
        explain(&b)
    };
    let places = b.general_admission.as_ref().map(|g| match g.quantity {
        1 => "1 standing place".to_string(),
        n => format!("{n} standing places"),
    });
    view! {
        <article class="booking" data-status=b.status.as_str()>
            <h1>"Booking " <code>{b.id.chars().take(8).collect::<String>()}</code></h1>
            <p class=format!("status status-{}", b.status.as_str().to_lowercase()) data-testid="booking-status">{status_words(b.status)}</p>
            <p class="explain">{explanation}</p>
            {b.event.as_ref().map(|e| view! {
                <p class="booking-event" data-testid="booking-event">
                    <strong>{e.name.clone()}</strong><br/>
                    {e.venue.clone()} " · " <time datetime=e.starts_at.clone()>{e.when()}</time>
                </p>
            })}
            <ul class="booking-seats">
                {b.seats.iter().map(|s| {
                    let name = if s.name.is_empty() { s.label.clone() } else { s.name.clone() };
                    view! { <li>{name} " · " {format_price(s.price_cents, &b.currency)}</li> }
                }).collect_view()}
                {places.map(|p| view! { <li>{p}</li> })}
            </ul>
            <p class="total">"Total: " <strong>{format_price(b.amount_cents, &b.currency)}</strong></p>
            {b.payment.as_ref().filter(|p| p.refunded_cents > 0).map(|p| view! {
                <p class="refunded-part" data-testid="refunded-part">"Refunded: " {format_price(p.refunded_cents, &b.currency)}</p>
            })}
            {(b.status == BookingStatus::Booked).then(|| view! { <Ticket id=b.id.clone()/> })}
            <p><a href="/bookings">"All my bookings"</a></p>
        </article>
    }
}

#[component]
pub fn MyBookings() -> impl IntoView {
    let list = Resource::new(|| (), |_| my_bookings());
    view! {
        <h1>"My bookings"</h1>
        <Suspense fallback=|| view! { <p>"Loading…"</p> }>
            {move || Suspend::new(async move {
                match list.await {
                    Ok(items) if items.is_empty() => view! { <p class="notice">"No bookings yet in this browser."</p> }.into_any(),
                    Ok(items) => view! {
                        <ul class="event-list">
                            {items.into_iter().map(|b| {
                                let what = match (b.seats.len(), &b.general_admission) {
                                    (0, Some(g)) if g.quantity == 1 => "1 standing place".to_string(),
                                    (0, Some(g)) => format!("{} standing places", g.quantity),
                                    (n, _) => kind_of(&b).places(n),
                                };
                                let title = match &b.event {
                                    Some(e) => format!("{} — {what}", e.name),
                                    None => what,
                                };
                                view! {
                                    <li class="event-card">
                                        <span class="kind">{status_words(b.status)}</span>
                                        <a href=format!("/bookings/{}", b.id)>{title}</a>
                                        <span class="availability">{format_price(b.amount_cents, &b.currency)}</span>
                                        {b.event.as_ref().map(|e| view! {
                                            <span class="venue">{e.venue.clone()} " · " <time datetime=e.starts_at.clone()>{e.when()}</time></span>
                                        })}
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                    }.into_any(),
                    Err(_) => view! { <p class="error" role="alert">"Your bookings could not be loaded."</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

/// The QR code to show at the door.
#[component]
fn Ticket(id: String) -> impl IntoView {
    let qr = Resource::new(move || id.clone(), ticket_qr);
    view! {
        <Suspense fallback=|| view! { <p>"Preparing your ticket…"</p> }>
            {move || Suspend::new(async move {
                match qr.await {
                    Ok(Some(svg)) => view! {
                        <figure class="ticket" data-testid="ticket">
                            <div class="qr" role="img" aria-label="Ticket QR code" inner_html=svg></div>
                            <figcaption>"Show this code at the entrance."</figcaption>
                        </figure>
                    }.into_any(),
                    _ => view! { <p class="notice">"Your ticket is not available yet."</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}
