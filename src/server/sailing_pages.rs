//! The console's sailings, served as plain HTML like the operations pages
//! (nothing added to either wasm): every ship's sailings with how full they
//! are, a Cancel form per sailing (a reason and a confirmation, the same
//! use case as `POST /api/admin/sailings/{sailingId}/cancel`), and a
//! cancelled sailing's rebooking as it goes, pushed by the progress stream.

use axum::extract::State;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Router};
use holdfast_app::i18n::{Locale, Msg};
use holdfast_core::sailing::catalog;
use holdfast_core::sailing::rebooking::{self, cancel};
use holdfast_core::{ApiError, AppState};
use holdfast_model::sailing::{SailingStatus, SailingSummary};
use holdfast_model::seat_drawing::escape;
use holdfast_web::caller::{may, Allowed};
use holdfast_web::HttpError;
use serde::Deserialize;

use super::api::sailings::SailingPath;
use super::language::Lang;
use super::operations_layout::OpsPage;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/admin/sailings", get(page))
        .route("/admin/sailings/{sailingId}/cancel", post(cancel_sailing))
        .route("/admin/sailings/{sailingId}/rebooking", get(progress_page))
}

async fn page(
    State(state): State<AppState>,
    admin: Result<Allowed<may::EventSetup>, HttpError>,
    Lang(l): Lang,
) -> Result<Response, HttpError> {
    page_of(l)
        .for_admin(&admin, async {
            Ok(fleet(l, &catalog::list(&state, None).await?, None))
        })
        .await
}

fn page_of(l: Locale) -> OpsPage<'static> {
    OpsPage {
        l,
        title: l.t(Msg::SailingsConsoleTitle),
        intro: l.t(Msg::SailingsConsoleIntro),
    }
}

#[derive(Deserialize)]
struct CancelForm {
    #[serde(default)]
    reason: String,
}

async fn cancel_sailing(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::EventSetup>,
    SailingPath(id): SailingPath,
    Lang(l): Lang,
    Form(form): Form<CancelForm>,
) -> Result<Response, HttpError> {
    match cancel::cancel(&state, id, &form.reason, &admin).await {
        Ok(_) => Ok(Redirect::to(&format!("/admin/sailings/{}/rebooking", id.0)).into_response()),
        Err(e @ ApiError::NotFound(_)) => Err(e.into()),
        Err(e) => {
            let why = (id.0, e.for_buyer(l));
            let body = fleet(l, &catalog::list(&state, None).await?, Some(&why));
            Ok(page_of(l).refused(&e, &body))
        }
    }
}

/// Every ship's sailings: route, departure, fill, status, and the cancel
/// form (or the rebooking's page); `refused`: the sailing whose
/// cancellation was refused, and why.
fn fleet(l: Locale, sailings: &[SailingSummary], refused: Option<&(i64, String)>) -> String {
    let mut ships: Vec<&str> = sailings.iter().map(|s| s.ship.as_str()).collect();
    ships.dedup();
    ships.sort_unstable();
    ships.dedup();
    let mut out = String::new();
    for ship in ships {
        out.push_str(&format!(
            "<section class=\"ship\"><h2>{}</h2><table class=\"job-list sailing-list\"><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th></th></tr></thead><tbody>",
            escape(ship),
            escape(l.t(Msg::ColSailing)),
            escape(l.t(Msg::ColDeparts)),
            escape(l.t(Msg::ColFill)),
            escape(l.t(Msg::ColStatus)),
        ));
        for s in sailings.iter().filter(|s| s.ship == ship) {
            out.push_str(&row(l, s, refused));
        }
        out.push_str("</tbody></table></section>");
    }
    out
}

fn row(l: Locale, s: &SailingSummary, refused: Option<&(i64, String)>) -> String {
    let id = s.id.0;
    let sold = s.place_count - s.available_count;
    let percent = if s.place_count > 0 {
        sold * 100 / s.place_count
    } else {
        0
    };
    let fill = l.fill(
        Msg::SailingFill,
        &[
            ("sold", &sold),
            ("places", &s.place_count),
            ("percent", &percent),
        ],
    );
    let status = match s.status {
        SailingStatus::Scheduled => l.t(Msg::SailingScheduled).to_string(),
        SailingStatus::Cancelled | SailingStatus::Departed => s.refusal(l).unwrap_or_default(),
    };
    let error = refused
        .filter(|(r, _)| *r == id)
        .map_or(String::new(), |(_, why)| {
            format!("<p class=\"error\" role=\"alert\">{}</p>", escape(why))
        });
    let action = match s.status {
        SailingStatus::Scheduled => format!(
            "<details class=\"cancel-sailing\"{open}><summary>{summary}</summary>{error}\
             <form method=\"post\" action=\"/admin/sailings/{id}/cancel\">\
             <label>{reason_l} <input name=\"reason\" required maxlength=\"{max}\" size=\"30\"></label>\
             <label><input type=\"checkbox\" required> {confirm}</label>\
             <button type=\"submit\" class=\"danger\">{button}</button></form></details>",
            open = if error.is_empty() { "" } else { " open" },
            summary = escape(l.t(Msg::CancelSailing)),
            reason_l = escape(l.t(Msg::CancelSailingReason)),
            max = cancel::MAX_REASON,
            confirm = escape(l.t(Msg::CancelSailingConfirm)),
            button = escape(l.t(Msg::CancelSailingButton)),
        ),
        SailingStatus::Cancelled => format!(
            "<a href=\"/admin/sailings/{id}/rebooking\">{}</a>",
            escape(l.t(Msg::RebookingProgressLink))
        ),
        SailingStatus::Departed => String::new(),
    };
    format!(
        "<tr data-sailing=\"{id}\"><td data-label=\"{}\">{} <small>{}</small></td><td data-label=\"{}\">{}</td><td data-label=\"{}\">{}</td><td data-label=\"{}\">{}</td><td>{action}</td></tr>",
        escape(l.t(Msg::ColSailing)),
        escape(&s.name),
        escape(&s.route.code),
        escape(l.t(Msg::ColDeparts)),
        escape(&s.when(l)),
        escape(l.t(Msg::ColFill)),
        escape(&fill),
        escape(l.t(Msg::ColStatus)),
        escape(&status),
    )
}

/// A cancelled sailing's rebooking: the counts, kept current by the
/// progress stream (server-sent events) while the page is open.
async fn progress_page(
    State(state): State<AppState>,
    admin: Result<Allowed<may::Reports>, HttpError>,
    SailingPath(id): SailingPath,
    Lang(l): Lang,
) -> Result<Response, HttpError> {
    let Ok(admin) = admin else {
        let page = OpsPage {
            intro: "",
            ..page_of(l)
        };
        return Ok(page.sign_in());
    };
    let sailing = catalog::detail(&state, id).await?.summary;
    let p = rebooking::progress(&state, id).await?;
    let goes_to = match p.to_sailing_id {
        Some(to) => {
            let to = catalog::detail(&state, to).await?.summary;
            format!(
                "<p data-testid=\"rebooking-to\">{}</p>",
                escape(&l.fill(
                    Msg::RebookingGoesTo,
                    &[("sailing", &to.name), ("when", &to.when(l))]
                ))
            )
        }
        None => String::new(),
    };
    let count = |key: &str, label: Msg, n: i64| {
        format!(
            "<div><dt>{}</dt><dd data-count=\"{key}\" data-testid=\"progress-{key}\">{n}</dd></div>",
            escape(l.t(label))
        )
    };
    let body = format!(
        "<p>{why}</p>{goes_to}<dl class=\"rebooking-progress\">{}{}{}{}</dl>\
         <p><a href=\"/admin/sailings\">{back}</a></p>\
         <script>(function(){{var s=new EventSource('/api/admin/sailings/{id}/rebooking/stream');\
         s.addEventListener('progress',function(e){{var p=JSON.parse(e.data);\
         ['moved','refundOffered','answered','left'].forEach(function(k){{\
         var el=document.querySelector('[data-count=\"'+k+'\"]');if(el)el.textContent=p[k];}});}});}})();</script>",
        count("moved", Msg::ProgressMoved, p.moved),
        count("refundOffered", Msg::ProgressRefundOffered, p.refund_offered),
        count("answered", Msg::ProgressAnswered, p.answered),
        count("left", Msg::ProgressLeft, p.left),
        why = escape(&sailing.refusal(l).unwrap_or_default()),
        back = escape(l.t(Msg::SailingsConsoleTitle)),
        id = id.0,
    );
    let title = l.fill(Msg::RebookingTitle, &[("sailing", &sailing.name)]);
    let when = sailing.when(l);
    let page = OpsPage {
        l,
        title: &title,
        intro: &when,
    };
    Ok(page.html_for(&admin, &body).into_response())
}
