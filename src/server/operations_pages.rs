//! The console's operations pages, served as plain HTML: the Jobs page
//! (`/admin/jobs`: every periodic job, the instance running it, its
//! schedule, next run and last runs, with a Run now form per job) and a
//! booking's history (`/admin/bookings/{bookingId}/history`, linked from
//! the dashboard's rows). They need no live map: rendered here, they add
//! nothing to the wasm every buyer downloads.

use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use holdfast_app::core::admin::auth::Admin;
use holdfast_app::core::booking::history as booking;
use holdfast_app::core::platform::jobs::{self, history};
use holdfast_app::core::{ApiError, AppState};
use holdfast_app::i18n::{Locale, Msg};
use holdfast_app::model::seat_drawing::escape;
use holdfast_app::ui::console::operations_html::{history_list, jobs_table};
use serde::Deserialize;

use super::api::extract::BookingPath;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/admin/jobs", get(page))
        .route("/admin/jobs/{jobName}/run", post(run_now))
        .route("/admin/bookings/history", get(find_booking))
        .route("/admin/bookings/{bookingId}/history", get(booking_history))
}

#[derive(Deserialize)]
struct Lookup {
    booking: Option<String>,
}

/// The lookup form's answer: the history of the one booking whose id is, or
/// starts with, what was typed (the dashboard shows ids' first 8 characters).
async fn find_booking(
    State(state): State<AppState>,
    admin: Result<Admin, ApiError>,
    Query(q): Query<Lookup>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let l = Locale::of_headers(&headers);
    if admin.is_err() {
        return Ok(Html(shell(l, l.t(Msg::ShowHistory), "", &sign_in_first(l))).into_response());
    }
    let typed: String = q
        .booking
        .unwrap_or_default()
        .trim()
        .chars()
        .filter(|c| c.is_ascii_hexdigit() || *c == '-')
        .take(36)
        .collect::<String>()
        .to_lowercase();
    let found = if typed.len() < 4 {
        Vec::new()
    } else {
        booking::starting_with(&state.db, &typed).await?
    };
    let say = match found.as_slice() {
        [one] => return Ok(Redirect::to(&format!("/admin/bookings/{one}/history")).into_response()),
        [] => l.fill(Msg::NoBookingStarts, &[("id", &typed)]),
        _ => l.fill(Msg::SeveralBookingsStart, &[("id", &typed)]),
    };
    let body = format!(
        "<p class=\"notice\" role=\"status\">{}</p>{}",
        escape(&say),
        lookup_form(l)
    );
    Ok(Html(shell(l, l.t(Msg::ShowHistory), "", &body)).into_response())
}

fn lookup_form(l: Locale) -> String {
    format!(
        "<form class=\"history-lookup\" method=\"get\" action=\"/admin/bookings/history\">\
         <label>{} <input name=\"booking\" autocomplete=\"off\" maxlength=\"36\" required></label> \
         <button>{}</button></form>",
        escape(l.t(Msg::HistoryLookup)),
        escape(l.t(Msg::ShowHistory)),
    )
}

#[derive(Deserialize)]
struct Asked {
    /// The job Run now was just asked for (after the redirect).
    asked: Option<String>,
}

async fn page(
    State(state): State<AppState>,
    admin: Result<Admin, ApiError>,
    Query(q): Query<Asked>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let l = Locale::of_headers(&headers);
    let body = if admin.is_err() {
        sign_in_first(l)
    } else {
        let notice = q
            .asked
            .map(|job| {
                format!(
                    "<p class=\"notice\" role=\"status\">{}</p>",
                    escape(&l.fill(Msg::RunAsked, &[("job", &job)]))
                )
            })
            .unwrap_or_default();
        let table = jobs_table(l, &history::jobs(&state.db).await?);
        format!("{notice}{table}{}", lookup_form(l))
    };
    Ok(Html(shell(l, l.t(Msg::JobsHeading), l.t(Msg::JobsIntro), &body)).into_response())
}

/// A booking's history: every status it took, why, by whom, when.
async fn booking_history(
    State(state): State<AppState>,
    admin: Result<Admin, ApiError>,
    BookingPath(id): BookingPath,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let l = Locale::of_headers(&headers);
    let body = if admin.is_err() {
        sign_in_first(l)
    } else {
        let steps = booking::of(&state.db, &id)
            .await?
            .ok_or(ApiError::NotFound("booking"))?;
        format!(
            "<section class=\"booking-history\">{}</section>",
            history_list(l, &id, &steps)
        )
    };
    Ok(Html(shell(l, l.t(Msg::ShowHistory), "", &body)).into_response())
}

pub(crate) fn sign_in_first(l: Locale) -> String {
    format!(
        "<p class=\"notice\">{}<a href=\"/admin\">{}</a></p>",
        escape(l.t(Msg::SignInConsoleFirst)),
        escape(l.t(Msg::SignInLink))
    )
}

/// Run now, from the page's form: due now, then back to the page.
async fn run_now(
    State(state): State<AppState>,
    _admin: Admin,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    if !jobs::run_now(&state, &name).await? {
        return Err(ApiError::NotFound("no such job"));
    }
    let back = format!(
        "/admin/jobs?asked={}",
        holdfast_app::model::percent::encode(&name)
    );
    Ok(Redirect::to(&back).into_response())
}

/// The operations pages' own layout, inline: the buyer's stylesheet does not
/// carry it. On a phone each job is a card whose cells name their column.
const STYLE: &str = "main.operations{max-width:72rem;margin:0 auto;padding:1rem}\
table.job-list{border-collapse:collapse;width:100%}\
table.job-list th,table.job-list td{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}\
ol.runs{margin:0;padding-left:1.4rem;font-size:.9rem}\
li.run.failed,li.run.abandoned{color:#a40000}\
form.history-lookup{margin-top:1.5rem}dl.rebooking-progress{display:flex;flex-wrap:wrap;gap:1rem}dl.rebooking-progress div{background:#fff;border:1px solid #ddd;border-radius:8px;padding:.75rem 1rem;min-width:9rem}dl.rebooking-progress dd{margin:0;font-size:2rem;font-weight:700}details.cancel-sailing summary{cursor:pointer;color:#8a1c1c;font-weight:600;white-space:nowrap}table.sailing-list td:nth-child(3){white-space:nowrap}details.cancel-sailing form{display:flex;flex-direction:column;gap:.5rem;margin-top:.5rem;max-width:24rem}button.danger{background:#b42318;color:#fff;border:0;border-radius:6px;padding:.6rem 1rem;min-height:44px}section.refund-policy{border-bottom:1px solid #ddd;padding:.5rem 0 1rem}section.refund-policy label{display:inline-block;margin:.3rem .8rem .3rem 0}form.history-lookup input{min-width:12rem}\
@media (max-width:700px){table.job-list thead{display:none}\
table.job-list tr{display:grid;grid-template-columns:1fr 1fr;gap:.2rem .6rem;border-bottom:1px solid #ccc;padding:.6rem 0}\
table.job-list th,table.job-list td{display:block;border:0;padding:0}\
table.job-list td[data-label]::before{content:attr(data-label) \": \";color:#555}\
table.job-list td:nth-child(5){grid-column:1/-1}\
ol.runs li:nth-child(n+4){display:none}button.run-now{min-height:44px}}";

pub(crate) fn shell(l: Locale, title: &str, intro: &str, body: &str) -> String {
    let intro = if intro.is_empty() {
        String::new()
    } else {
        format!("<p>{}</p>", escape(intro))
    };
    format!(
        r#"<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · Holdfast</title><link rel="stylesheet" href="/pkg/holdfast.css"><link rel="icon" href="/favicon.ico"><style>{STYLE}</style></head>
<body><main class="operations"><p><a href="/admin">← Console</a> · <a href="/admin/jobs">{jobs}</a> · <a href="/admin/refund-policies">{policies}</a> · <a href="/admin/sailings">{sailings}</a></p><h1>{title}</h1>{intro}{body}</main></body></html>"#,
        lang = l.tag(),
        title = escape(title),
        jobs = escape(l.t(Msg::JobsHeading)),
        policies = escape(l.t(Msg::RefundPolicies)),
        sailings = escape(l.t(Msg::SailingsConsoleTitle)),
    )
}
