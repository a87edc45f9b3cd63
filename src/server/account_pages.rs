//! The buyer's pages that work without the app's script: asking for a
//! sign-in link (which is also how a booking is found without an account),
//! opening it, signing out, and the booking page's three forms — cancel a
//! booked booking under its refund policy, pay for a running hold (its
//! checkout: a hold is the buyer's wherever they come back to it), release
//! it. Each form answers with a redirect (303), or a page saying why not.

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Extension, Form, Router};
use holdfast_app::i18n::{Locale, Msg};
use holdfast_core::account::link::{self, LinkRefused};
use holdfast_core::account::{session, EmailAddress};
use holdfast_core::booking::release;
use holdfast_core::booking::{query, Idempotent};
use holdfast_core::buyer::Owner;
use holdfast_core::payments::{cancellation, checkout};
use holdfast_core::platform::client_addr::ClientAddr;
use holdfast_core::{ApiError, AppState};
use holdfast_web::status_of;
use holdfast_web::Caller;
use serde::Deserialize;
use tower_sessions::Session;

use crate::server::api::extract::BookingPath;
use crate::server::language::Lang;
use holdfast_model::seat_drawing::escape as html_escape;
use holdfast_model::{BookingId, BookingStatus, EventKind};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/sign-in", get(sign_in_page).post(ask_for_link))
        .route("/sign-out", post(sign_out))
        .route("/auth/{token}", get(confirm_link).post(open_link))
        .route("/bookings/{bookingId}/cancel", post(cancel))
        .route("/bookings/{bookingId}/release", post(release_hold))
        .route("/bookings/{bookingId}/pay", post(pay_hold))
}

#[derive(Deserialize, Default)]
struct Said {
    #[serde(default)]
    sent: Option<String>,
    #[serde(default)]
    out: Option<String>,
}

async fn sign_in_page(session: Session, headers: HeaderMap, Query(said): Query<Said>) -> Response {
    let l = Locale::of_headers(&headers);
    let notice = if said.sent.is_some() {
        Some(match session::link_sent_to(&session).await {
            Ok(Some(to)) => l.fill(Msg::SignInSentTo, &[("email", &to)]),
            _ => l.t(Msg::SignInSent).to_string(),
        })
    } else if said.out.is_some() {
        Some(l.t(Msg::SignedOut).to_string())
    } else {
        None
    };
    match session::signed_in_as(&session).await {
        Ok(email) => Html(page(l, email.as_deref(), notice.as_deref(), None, "")).into_response(),
        Err(e) => sorry(l, &e),
    }
}

#[derive(Deserialize)]
struct LinkForm {
    email: String,
}

async fn ask_for_link(
    State(state): State<AppState>,
    client: Option<Extension<ClientAddr>>,
    session: Session,
    Lang(l): Lang,
    Form(form): Form<LinkForm>,
) -> Response {
    let asked = match EmailAddress::parse(&form.email) {
        Ok(address) => match session::browser_mark(&session).await {
            Ok(mark) => {
                let client = client.map(|Extension(c)| c.limit_key());
                match link::request(&state, &address, client, Some(&mark), l).await {
                    Ok(()) => session::remember_link_sent_to(&session, &address).await,
                    Err(e) => Err(e),
                }
            }
            Err(e) => Err(e),
        },
        Err(e) => Err(e),
    };
    match asked {
        Ok(()) => Redirect::to("/sign-in?sent=1").into_response(),
        Err(e) => (
            status_of(&e),
            Html(page(l, None, None, Some(&e.for_buyer(l)), &form.email)),
        )
            .into_response(),
    }
}

async fn sign_out(session: Session, headers: HeaderMap) -> Response {
    match session::sign_out(&session).await {
        Ok(()) => Redirect::to("/sign-in?out=1").into_response(),
        Err(e) => sorry(Locale::of_headers(&headers), &e),
    }
}

/// Opening the mailed link (a GET: a click in the mail, but also a mail
/// scanner, a prefetch, or a page of another site sending the browser
/// here) only asks: "Sign in as m•••@…?". Nothing is used or changed.
async fn confirm_link(
    State(state): State<AppState>,
    session: Session,
    Lang(l): Lang,
    Path(token): Path<String>,
) -> Response {
    let asked = async {
        let mark = session::existing_mark(&session).await?;
        let open = link::peek(&state, &token, mark.as_deref()).await?;
        let guests = session::guest_bookings(&state, &session).await?;
        Ok::<_, ApiError>((open, guests))
    };
    match asked.await {
        Ok((Ok(open), guests)) => Html(confirm_page(l, &token, &open, guests)).into_response(),
        Ok((Err(refused), _)) => link_refused(l, refused),
        Err(e) => sorry(l, &e),
    }
}

#[derive(Deserialize, Default)]
struct ConfirmForm {
    /// "1": the guest bookings of this browser move into the account.
    #[serde(default)]
    bring: Option<String>,
}

/// The person confirmed (a same-origin POST: a cross-site form is refused
/// before it gets here): the link is used and this session signed in.
/// Guest bookings come along when this browser asked for the link, or
/// when the person ticked the box.
async fn open_link(
    State(state): State<AppState>,
    session: Session,
    Lang(l): Lang,
    Path(token): Path<String>,
    Form(form): Form<ConfirmForm>,
) -> Response {
    let signed_in = async {
        let mark = session::existing_mark(&session).await?;
        match link::redeem(&state, &token, mark.as_deref()).await? {
            Ok(open) => {
                let bring = open.same_browser || form.bring.as_deref() == Some("1");
                session::sign_in(&state, &session, &open.address, bring).await?;
                Ok(Ok(()))
            }
            Err(refused) => Ok(Err(refused)),
        }
    };
    match signed_in.await {
        Ok(Ok(())) => Redirect::to("/bookings").into_response(),
        Ok(Err(refused)) => link_refused(l, refused),
        Err(e) => sorry(l, &e),
    }
}

/// 410: the link was used, has expired, or never was.
fn link_refused(l: Locale, refused: LinkRefused) -> Response {
    let why = match refused {
        LinkRefused::Used => Msg::LinkUsed,
        LinkRefused::Expired => Msg::LinkExpired,
        LinkRefused::Unknown => Msg::LinkUnknown,
    };
    (
        StatusCode::GONE,
        Html(page(l, None, None, Some(l.t(why)), "")),
    )
        .into_response()
}

/// "Sign in as m•••@example.com?", and whether the guest bookings come.
fn confirm_page(l: Locale, token: &str, open: &link::OpenLink, guests: i64) -> String {
    let bring = match (guests, open.same_browser) {
        (0, _) => String::new(),
        (_, true) => format!("<p>{}</p>", html_escape(l.t(Msg::GuestBookingsCome))),
        (n, false) => format!(
            r#"<p><label><input type="checkbox" name="bring" value="1"> {}</label></p>"#,
            html_escape(&l.fill(Msg::BringGuestBookings, &[("n", &n)]))
        ),
    };
    let body = format!(
        r#"<p data-testid="confirm-sign-in">{ask}</p>
<p class="notice">{warn}</p>
<form method="post" action="/auth/{token}" class="sign-in">{bring}
  <button type="submit">{button}</button>
</form>"#,
        ask = html_escape(&l.fill(Msg::ConfirmSignInAs, &[("email", &open.address.masked())])),
        warn = html_escape(l.t(Msg::ConfirmSignInWarn)),
        token = html_escape(token),
        button = l.t(Msg::ConfirmSignInButton),
    );
    shell(l, l.t(Msg::ConfirmSignInTitle), &body)
}

async fn cancel(
    State(state): State<AppState>,
    Caller(owner): Caller<Owner>,
    Lang(l): Lang,
    BookingPath(id): BookingPath,
) -> Response {
    back_to_booking(
        l,
        &id,
        cancellation::cancel(&state, &owner, &id, None).await,
    )
}

async fn release_hold(
    State(state): State<AppState>,
    Caller(owner): Caller<Owner>,
    Lang(l): Lang,
    BookingPath(id): BookingPath,
) -> Response {
    back_to_booking(
        l,
        &id,
        release::cancel_hold(&state, &owner.buyer, &id).await,
    )
}

/// Pay for a running hold from its booking page: to the provider's
/// checkout. A ship's guests are named first, on their own page (which
/// then pays); a booking no longer held goes back to its page, which says
/// what it is now.
async fn pay_hold(
    State(state): State<AppState>,
    Caller(owner): Caller<Owner>,
    Lang(l): Lang,
    BookingPath(id): BookingPath,
) -> Response {
    let booking = match query::booking_of_buyer(&state, &owner, &id, l).await {
        Ok(booking) => booking,
        Err(e) => return refused(l, &e, &format!("/bookings/{id}")),
    };
    if booking.event.as_ref().map(|e| e.kind) == Some(EventKind::Cruise) {
        return Redirect::to(&format!("/bookings/{id}/guests")).into_response();
    }
    // A checkout begun and left goes on (`start_checkout` answers with it).
    if !matches!(
        booking.status,
        BookingStatus::Held | BookingStatus::PaymentPending
    ) {
        return Redirect::to(&format!("/bookings/{id}")).into_response();
    }
    match checkout::start_checkout(&state, &owner.buyer, &id, None, Some(l)).await {
        Ok(Idempotent::Fresh(pay)) => Redirect::to(&pay.checkout_url).into_response(),
        Ok(Idempotent::Replay { .. }) => Redirect::to(&format!("/bookings/{id}")).into_response(),
        Err(e) => refused(l, &e, &format!("/bookings/{id}")),
    }
}

/// The sign-in page: who is signed in (and a way out), or the form.
fn page(
    l: Locale,
    email: Option<&str>,
    notice: Option<&str>,
    error: Option<&str>,
    typed: &str,
) -> String {
    let notice = notice.map_or(String::new(), |n| {
        format!(r#"<p class="notice" role="status">{}</p>"#, html_escape(n))
    });
    let error = error.map_or(String::new(), |e| {
        format!(r#"<p class="error" role="alert">{}</p>"#, html_escape(e))
    });
    let body = match email {
        Some(email) => format!(
            r#"{notice}<p data-testid="signed-in-as">{who}</p>
<p><a href="/bookings">{mine}</a></p>
<form method="post" action="/sign-out"><button type="submit">{out}</button></form>"#,
            who = html_escape(&l.fill(Msg::SignedInAs, &[("email", &email)])),
            mine = l.t(Msg::NavMyBookings),
            out = l.t(Msg::SignOut),
        ),
        None => format!(
            r#"{notice}{error}<p>{explain}</p>
<form method="post" action="/sign-in" class="sign-in">
  <label>{label}
    <input type="email" name="email" required autocomplete="email" placeholder="you@example.com" value="{typed}">
  </label>
  <button type="submit">{send}</button>
</form>"#,
            explain = l.t(Msg::SignInExplain),
            label = l.t(Msg::SignInEmail),
            send = l.t(Msg::SignInSend),
            typed = html_escape(typed),
        ),
    };
    shell(l, l.t(Msg::SignInTitle), &body)
}

/// A form that could not be carried out: why, and the way back.
pub(crate) fn refused(l: Locale, e: &ApiError, back: &str) -> Response {
    let body = format!(
        r#"<p class="error" role="alert">{}</p><p><a href="{}">{}</a></p>"#,
        html_escape(&e.for_buyer(l)),
        html_escape(back),
        l.t(Msg::BackToBooking),
    );
    (status_of(e), Html(shell(l, l.t(Msg::Sorry), &body))).into_response()
}

/// A booking page's form answered: back to the booking (303), or a page
/// saying why not.
pub(crate) fn back_to_booking<T>(l: Locale, id: &BookingId, done: Result<T, ApiError>) -> Response {
    match done {
        Ok(_) => Redirect::to(&format!("/bookings/{id}")).into_response(),
        Err(e) => refused(l, &e, &format!("/bookings/{id}")),
    }
}

fn sorry(l: Locale, e: &ApiError) -> Response {
    refused(l, e, "/sign-in")
}

pub(crate) fn shell(l: Locale, title: &str, body: &str) -> String {
    format!(
        r#"<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · Holdfast</title><link rel="stylesheet" href="/pkg/holdfast.css"></head>
<body><header class="topbar"><a class="brand" href="/">Holdfast</a><span class="tagline">{tagline}</span><a class="nav" href="/bookings">{mine}</a></header>
<main class="account"><h1>{title}</h1>{body}</main></body></html>"#,
        lang = l.tag(),
        tagline = l.t(Msg::Tagline),
        mine = l.t(Msg::NavMyBookings),
    )
}
