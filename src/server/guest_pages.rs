//! The manifest at checkout, as a page that works without the app's
//! script: every guest of every cabin (and seat) of a cruise booking, by
//! name and date of birth. Saving a held booking's guests goes on to pay
//! (303 to the checkout); a booked one's guests can be corrected until
//! departure. The rules are `core::sailing::manifest`'s; a refusal shows
//! the form again with what was typed and why. The booking page's answer
//! to a move off a cancelled sailing is posted here too.

use axum::extract::State;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Router};
use holdfast_app::i18n::{Locale, Msg};
use holdfast_core::booking::query;
use holdfast_core::buyer::Owner;
use holdfast_core::payments::checkout;
use holdfast_core::sailing::{manifest, rebooking};
use holdfast_core::{ApiError, AppState};
use holdfast_model::sailing::Guest;
use holdfast_model::seat_drawing::escape as html_escape;
use holdfast_model::{BookingId, BookingStatus, BookingView, EventKind};
use holdfast_web::status_of;
use holdfast_web::Caller;

use super::account_pages::{self, back_to_booking, shell};
use crate::server::api::extract::BookingPath;
use crate::server::api::rebooking::read_answer;
use crate::server::language::Lang;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/bookings/{bookingId}/guests",
            get(guests_page).post(save_guests),
        )
        .route("/bookings/{bookingId}/rebooking", post(answer_rebooking))
}

/// The booking page's answer to a move off a cancelled sailing.
#[derive(serde::Deserialize)]
struct AnswerForm {
    choice: String,
    #[serde(default)]
    sailing_id: Option<String>,
}

/// Keep, another sailing, or a refund (`core::sailing::rebooking::answer`),
/// answered with a redirect back to the booking's page.
async fn answer_rebooking(
    State(state): State<AppState>,
    Caller(owner): Caller<Owner>,
    Lang(l): Lang,
    BookingPath(id): BookingPath,
    Form(form): Form<AnswerForm>,
) -> Response {
    let sailing = form.sailing_id.map(serde_json::Value::String);
    let answered = match read_answer(&form.choice, sailing.as_ref()) {
        Ok(answer) => rebooking::answer::answer(&state, &owner, &id, answer).await,
        Err(e) => Err(e),
    };
    back_to_booking(l, &id, answered)
}

async fn guests_page(
    State(state): State<AppState>,
    Caller(owner): Caller<Owner>,
    Lang(l): Lang,
    BookingPath(id): BookingPath,
) -> Response {
    match query::booking_of_buyer(&state, &owner, &id, l).await {
        Ok(booking) => Html(form(l, &booking, &booking.guests, None)).into_response(),
        Err(e) => refused(l, &e, &id),
    }
}

async fn save_guests(
    State(state): State<AppState>,
    Caller(owner): Caller<Owner>,
    Lang(l): Lang,
    BookingPath(id): BookingPath,
    Form(fields): Form<Vec<(String, String)>>,
) -> Response {
    let booking = match query::booking_of_buyer(&state, &owner, &id, l).await {
        Ok(booking) => booking,
        Err(e) => return refused(l, &e, &id),
    };
    let typed = guests_in(&booking, &fields);
    if let Err(e) = manifest::set(&state, &owner, &id, typed.clone()).await {
        let page = form(l, &booking, &typed, Some(&e.for_buyer(l)));
        return (status_of(&e), Html(page)).into_response();
    }
    if booking.status != BookingStatus::Held {
        return Redirect::to(&format!("/bookings/{id}")).into_response();
    }
    match checkout::start_checkout(&state, &owner.buyer, &id, None, Some(l)).await {
        Ok(holdfast_core::booking::Idempotent::Fresh(pay)) => {
            Redirect::to(&pay.checkout_url).into_response()
        }
        Ok(_) => Redirect::to(&format!("/bookings/{id}")).into_response(),
        Err(e) => refused(l, &e, &id),
    }
}

/// The guests the form sent, place by place in the booking's order
/// (`guest-{seatId}-{n}-name`, `…-born`); blanks stay blank for the rules
/// to refuse.
fn guests_in(booking: &BookingView, fields: &[(String, String)]) -> Vec<Guest> {
    let field = |name: String| {
        fields
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    booking
        .seats
        .iter()
        .flat_map(|seat| (1..=seat.guests).map(move |n| (seat.id, n)))
        .map(|(seat, n)| Guest {
            seat_id: seat,
            full_name: field(format!("guest-{seat}-{n}-name")),
            birth_date: field(format!("guest-{seat}-{n}-born")),
        })
        .collect()
}

/// One fieldset per place, one row per guest, filled with what is known.
fn form(l: Locale, booking: &BookingView, known: &[Guest], error: Option<&str>) -> String {
    let cruise = booking
        .event
        .as_ref()
        .is_some_and(|e| e.kind == EventKind::Cruise);
    if !cruise {
        let e = ApiError::InvalidState(l.t(Msg::GuestsExplain).into());
        return shell(l, l.t(Msg::GuestsTitle), &html_escape(&e.to_string()));
    }
    let id = &booking.id;
    let mut places = String::new();
    for seat in &booking.seats {
        let mut rows = String::new();
        let named: Vec<&Guest> = known.iter().filter(|g| g.seat_id == seat.id).collect();
        for n in 1..=seat.guests {
            let guest = named.get(n as usize - 1);
            rows.push_str(&format!(
                r#"<div class="guest"><span class="guest-number">{number}</span>
<label>{name_label} <input name="guest-{seat}-{n}-name" required maxlength="100" autocomplete="off" value="{name}"></label>
<label>{born_label} <input type="date" name="guest-{seat}-{n}-born" required min="1900-01-01" value="{born}"></label></div>"#,
                number = l.fill(Msg::GuestNumber, &[("n", &n)]),
                name_label = l.t(Msg::GuestName),
                born_label = l.t(Msg::GuestBorn),
                seat = seat.id,
                name = html_escape(guest.map_or("", |g| g.full_name.as_str())),
                born = html_escape(guest.map_or("", |g| g.birth_date.as_str())),
            ));
        }
        places.push_str(&format!(
            r#"<fieldset class="place"><legend>{name} · {guests}</legend>{rows}</fieldset>"#,
            name = html_escape(&seat.name),
            guests = l.plural(seat.guests, Msg::GuestOne, Msg::GuestMany),
        ));
    }
    let error = error.map_or(String::new(), |e| {
        format!(r#"<p class="error" role="alert">{}</p>"#, html_escape(e))
    });
    let what = booking.event.as_ref().map_or(String::new(), |e| {
        format!("<p><strong>{}</strong></p>", html_escape(&e.name))
    });
    let submit = if booking.status == BookingStatus::Held {
        l.t(Msg::SaveGuestsAndPay)
    } else {
        l.t(Msg::SaveGuests)
    };
    // A hold keeps running while the guests are named: say for how long.
    let left = booking
        .expires_in_ms
        .filter(|_| booking.status == BookingStatus::Held)
        .map_or(String::new(), |ms| {
            let minutes = (ms + 59_999) / 60_000;
            format!(
                r#"<p class="warning" data-testid="hold-left">{}</p>"#,
                html_escape(&l.fill(Msg::HeldMinutesLeft, &[("minutes", &minutes)]))
            )
        });
    let body = format!(
        r#"{what}{left}<p>{explain}</p>{error}
<form method="post" action="/bookings/{id}/guests" class="guests" data-testid="guests-form">{places}
<button type="submit" class="hold pay">{submit}</button></form>
<p><a href="/bookings/{id}">{back}</a></p>"#,
        explain = l.t(Msg::GuestsExplain),
        back = l.t(Msg::BackToBooking),
    );
    shell(l, l.t(Msg::GuestsTitle), &body)
}

fn refused(l: Locale, e: &ApiError, id: &BookingId) -> Response {
    account_pages::refused(l, e, &format!("/bookings/{id}"))
}
