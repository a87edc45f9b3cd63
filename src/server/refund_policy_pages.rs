//! The console's refund policies, served as plain HTML like the operations
//! pages (nothing added to the buyer's wasm): every event with what its
//! buyers get back when they cancel, and a form per event to change it.
//! The form posts to `/admin/events/{eventId}/refund-policy`, the same
//! use case as the admin API's `PUT`.

use axum::extract::{Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Router};
use holdfast_app::i18n::{Locale, Msg};
use holdfast_core::admin::setup;
use holdfast_core::{ApiError, AppState};
use holdfast_model::seat_drawing::escape;
use holdfast_model::{EventId, RefundPolicy};
use holdfast_web::caller::{may, Allowed};
use holdfast_web::HttpError;
use serde::Deserialize;

use super::api::extract::EventPath;
use super::language::Lang;
use super::operations_layout::{notice, OpsPage};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/admin/refund-policies", get(page))
        .route("/admin/events/{eventId}/refund-policy", post(save))
}

#[derive(Deserialize)]
struct Saved {
    saved: Option<i64>,
}

async fn page(
    State(state): State<AppState>,
    admin: Result<Allowed<may::EventSetup>, HttpError>,
    Query(q): Query<Saved>,
    Lang(l): Lang,
) -> Result<Response, HttpError> {
    page_of(l)
        .for_admin(&admin, async {
            let saved = q.saved.map(|_| notice(l.t(Msg::PolicySaved)));
            let events = setup::refund_policies(&state).await?;
            Ok(format!(
                "{}{}",
                saved.unwrap_or_default(),
                policies(l, &events, None)
            ))
        })
        .await
}

fn page_of(l: Locale) -> OpsPage<'static> {
    OpsPage {
        l,
        title: l.t(Msg::RefundPolicies),
        intro: l.t(Msg::RefundPoliciesIntro),
    }
}

/// The form's fields: empty means none.
#[derive(Deserialize)]
struct PolicyForm {
    #[serde(default)]
    full: String,
    #[serde(default)]
    partial: String,
    #[serde(default)]
    percent: String,
}

async fn save(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::EventSetup>,
    EventPath(event_id): EventPath,
    Lang(l): Lang,
    Form(form): Form<PolicyForm>,
) -> Result<Response, HttpError> {
    let number = |s: &str, field: &str| -> Result<Option<i64>, ApiError> {
        let s = s.trim();
        if s.is_empty() {
            return Ok(None);
        }
        s.parse()
            .map(Some)
            .map_err(|_| ApiError::unprocessable("a whole number", field))
    };
    let policy = number(&form.full, "fullRefundUntilDays").and_then(|full| {
        Ok(RefundPolicy {
            full_refund_until_days: full,
            partial_refund_until_days: number(&form.partial, "partialRefundUntilDays")?,
            partial_refund_percent: number(&form.percent, "partialRefundPercent")?,
        })
    });
    let saved = match policy {
        Ok(policy) => setup::set_refund_policy(&state, &admin, event_id, policy).await,
        Err(e) => Err(e),
    };
    match saved {
        Ok(_) => {
            Ok(Redirect::to(&format!("/admin/refund-policies?saved={event_id}")).into_response())
        }
        Err(e @ ApiError::NotFound(_)) => Err(e.into()),
        Err(e) => {
            let events = setup::refund_policies(&state).await?;
            let why = (event_id, e.for_buyer(l));
            Ok(page_of(l).refused(&e, &policies(l, &events, Some(&why))))
        }
    }
}

/// Every event's policy in words, and its form; `refused`: the event whose
/// form was refused, and why.
fn policies(
    l: Locale,
    events: &[(EventId, String, RefundPolicy)],
    refused: Option<&(EventId, String)>,
) -> String {
    let value = |v: Option<i64>| v.map_or(String::new(), |v| v.to_string());
    events
        .iter()
        .map(|(id, name, policy)| {
            let error = refused
                .filter(|(e, _)| e == id)
                .map_or(String::new(), |(_, why)| {
                    format!("<p class=\"error\" role=\"alert\">{}</p>", escape(why))
                });
            format!(
                "<section class=\"refund-policy\" data-event=\"{id}\"><h2>{name}</h2><p>{said}</p>{error}\
                 <form method=\"post\" action=\"/admin/events/{id}/refund-policy\">\
                 <label>{full_l} <input name=\"full\" inputmode=\"numeric\" size=\"4\" value=\"{full}\"></label> \
                 <label>{partial_l} <input name=\"partial\" inputmode=\"numeric\" size=\"4\" value=\"{partial}\"></label> \
                 <label>{percent_l} <input name=\"percent\" inputmode=\"numeric\" size=\"3\" value=\"{percent}\"></label> \
                 <button>{save}</button></form></section>",
                name = escape(name),
                said = escape(&in_words(l, policy)),
                full_l = escape(l.t(Msg::FullRefundDays)),
                partial_l = escape(l.t(Msg::PartialRefundDays)),
                percent_l = escape(l.t(Msg::PartialRefundPercent)),
                full = value(policy.full_refund_until_days),
                partial = value(policy.partial_refund_until_days),
                percent = value(policy.partial_refund_percent),
                save = escape(l.t(Msg::SavePolicy)),
            )
        })
        .collect()
}

/// A policy as an organizer reads it.
fn in_words(l: Locale, p: &RefundPolicy) -> String {
    let mut said = Vec::new();
    if let Some(days) = p.full_refund_until_days {
        said.push(l.fill(Msg::PolicyFull, &[("days", &days)]));
    }
    if let (Some(days), Some(percent)) = (p.partial_refund_until_days, p.partial_refund_percent) {
        said.push(l.fill(
            Msg::PolicyPartial,
            &[("days", &days), ("percent", &percent)],
        ));
    }
    if said.is_empty() {
        l.t(Msg::PolicyNone).to_string()
    } else {
        said.join("; ")
    }
}
