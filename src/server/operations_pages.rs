//! The console's operations pages, served as plain HTML: the Jobs page
//! (`/admin/jobs`: every periodic job, the instance running it, its
//! schedule, next run and last runs, with a Run now form per job) and a
//! booking's history (`/admin/bookings/{bookingId}/history`, linked from
//! the dashboard's rows). They need no live map: rendered here, they add
//! nothing to the wasm every buyer downloads.

use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use holdfast_app::i18n::{Locale, Msg};
use holdfast_app::ui::console::operations_html::{history_list, jobs_table};
use holdfast_core::booking::history as booking;
use holdfast_core::platform::jobs::history;
use holdfast_core::{ApiError, AppState};
use holdfast_model::seat_drawing::escape;
use holdfast_web::caller::{may, Allowed};
use holdfast_web::HttpError;
use serde::Deserialize;

use super::language::Lang;
use super::operations_layout::{notice, OpsPage};

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
    admin: Result<Allowed<may::Bookings>, HttpError>,
    Query(q): Query<Lookup>,
    Lang(l): Lang,
) -> Result<Response, HttpError> {
    // Opened from the console's links: the form alone.
    let asked = q.booking.is_some();
    let typed: String = q
        .booking
        .unwrap_or_default()
        .trim()
        .chars()
        .filter(|c| c.is_ascii_hexdigit() || *c == '-')
        .take(36)
        .collect::<String>()
        .to_lowercase();
    let found = match &admin {
        Ok(_) if typed.len() >= 4 => booking::starting_with(&state.db, &typed).await?,
        _ => Vec::new(),
    };
    if let ([one], Ok(_)) = (found.as_slice(), &admin) {
        return Ok(Redirect::to(&format!("/admin/bookings/{one}/history")).into_response());
    }
    let page = OpsPage {
        l,
        title: l.t(Msg::ShowHistory),
        intro: "",
    };
    page.for_admin(&admin, async {
        if !asked {
            return Ok(lookup_form(l));
        }
        let say = if found.is_empty() {
            l.fill(Msg::NoBookingStarts, &[("id", &typed)])
        } else {
            l.fill(Msg::SeveralBookingsStart, &[("id", &typed)])
        };
        Ok(format!("{}{}", notice(&say), lookup_form(l)))
    })
    .await
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
    admin: Result<Allowed<may::Operations>, HttpError>,
    Query(q): Query<Asked>,
    Lang(l): Lang,
) -> Result<Response, HttpError> {
    let page = OpsPage {
        l,
        title: l.t(Msg::JobsHeading),
        intro: l.t(Msg::JobsIntro),
    };
    page.for_admin(&admin, async {
        let asked = q
            .asked
            .map(|job| notice(&l.fill(Msg::RunAsked, &[("job", &job)])));
        let table = jobs_table(l, &history::jobs(&state.db).await?);
        Ok(format!(
            "{}{table}{}",
            asked.unwrap_or_default(),
            lookup_form(l)
        ))
    })
    .await
}

/// A booking's history: every status it took, why, by whom, when.
async fn booking_history(
    State(state): State<AppState>,
    admin: Result<Allowed<may::Bookings>, HttpError>,
    BookingPath(id): BookingPath,
    Lang(l): Lang,
) -> Result<Response, HttpError> {
    let page = OpsPage {
        l,
        title: l.t(Msg::ShowHistory),
        intro: "",
    };
    page.for_admin(&admin, async {
        let steps = booking::of(&state.db, &id)
            .await?
            .ok_or(ApiError::NotFound("booking"))?;
        Ok(format!(
            "<section class=\"booking-history\">{}</section>",
            history_list(l, &id, &steps)
        ))
    })
    .await
}

/// Run now, from the page's form: due now, then back to the page.
async fn run_now(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::Operations>,
    Path(name): Path<String>,
) -> Result<Response, HttpError> {
    holdfast_core::admin::run_job::run_now(&state, &admin, &name).await?;
    let back = format!(
        "/admin/jobs?asked={}",
        holdfast_model::percent::encode(&name)
    );
    Ok(Redirect::to(&back).into_response())
}
