//! The sandbox's hosted checkout page (what Stripe Checkout is in
//! production): the amount, and Pay / Decline with a delivery mode for the
//! events that follow.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Router};
use holdfast_app::i18n::{Locale, Msg};
use holdfast_core::payments::sandbox::{Delivery, Sandbox, Sender};
use holdfast_core::payments::SessionState;
use holdfast_core::AppState;
use serde::Deserialize;
use std::sync::Arc;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/sandbox/checkout/{session_id}", get(page))
        .route("/sandbox/checkout/{session_id}/complete", post(complete))
}

fn sandbox(state: &AppState) -> Option<Arc<Sandbox>> {
    state.payments.sandbox.clone()
}

async fn page(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let l = Locale::of_headers(&headers);
    let Some(sandbox) = sandbox(&state) else {
        return (StatusCode::NOT_FOUND, "no sandbox here").into_response();
    };
    let session = match sandbox.page_data(&id).await {
        Ok(Some(s)) => s,
        Ok(None) => {
            return (
                StatusCode::NOT_FOUND,
                Html(shell(
                    l,
                    l.t(Msg::UnknownCheckout),
                    &format!("<p>{}</p>", l.t(Msg::CheckoutMissing)),
                )),
            )
                .into_response()
        }
        Err(e) => {
            tracing::warn!(error = %e, "sandbox page failed");
            return unavailable(l);
        }
    };
    let amount = l.price(session.amount_cents, &session.currency);
    let body = match session.state {
        SessionState::Open => format!(
            r#"<p class="amount">{due}<strong>{amount}</strong></p>
<form method="post" action="/sandbox/checkout/{id}/complete">
  <label>{email}
    <input type="email" name="email" autocomplete="email" placeholder="you@example.com" required>
  </label>
  <label>{delivery}
    <select name="delivery">
      <option value="once">{once}</option>
      <option value="twice">{twice}</option>
      <option value="delayed">{delayed}</option>
    </select>
  </label>
  <button name="outcome" value="paid" class="pay">{pay}</button>
  <button name="outcome" value="declined" class="decline" formnovalidate>{decline}</button>
</form>"#,
            id = html_escape(&session.id),
            due = l.t(Msg::AmountDue),
            email = l.t(Msg::EmailForConfirmation),
            delivery = l.t(Msg::WebhookDelivery),
            once = l.t(Msg::DeliveryOnce),
            twice = l.t(Msg::DeliveryTwice),
            delayed = l.t(Msg::DeliveryDelayed),
            pay = l.fill(Msg::PayAmount, &[("amount", &amount)]),
            decline = l.t(Msg::Decline),
        ),
        SessionState::Paid => format!(
            "<p>{}</p>",
            l.fill(Msg::CheckoutPaid, &[("amount", &amount)])
        ),
        SessionState::Ended => format!("<p>{}</p>", l.t(Msg::CheckoutEnded)),
    };
    Html(shell(l, l.t(Msg::SandboxTitle), &body)).into_response()
}

#[derive(Deserialize)]
struct Completion {
    outcome: String,
    #[serde(default)]
    delivery: Option<String>,
    #[serde(default)]
    email: Option<String>,
}

async fn complete(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Form(form): Form<Completion>,
) -> Response {
    let l = Locale::of_headers(&headers);
    let Some(sandbox) = sandbox(&state) else {
        return (StatusCode::NOT_FOUND, "no sandbox here").into_response();
    };
    let delivery = match form.delivery.as_deref() {
        None | Some("once") => Delivery::Once,
        Some("twice") => Delivery::Twice,
        Some("delayed") => Delivery::Delayed,
        // Not silently once: a test that asked for something else would
        // believe it had it.
        Some(_) => {
            return (StatusCode::BAD_REQUEST, Html(sorry(l, Msg::ChooseDelivery))).into_response()
        }
    };
    let paid = match form.outcome.as_str() {
        "paid" => true,
        "declined" => false,
        _ => {
            return (
                StatusCode::BAD_REQUEST,
                Html(sorry(l, Msg::ChoosePayOrDecline)),
            )
                .into_response()
        }
    };
    let email = form
        .email
        .as_deref()
        .map(str::trim)
        .filter(|e| e.contains('@') && e.len() <= 254);
    match sandbox
        .complete(&id, paid, delivery, email, Sender::Caller)
        .await
    {
        Ok(Some(done)) => {
            // This checkout's events now rather than at the next worker tick.
            tokio::spawn(async move {
                let _ = sandbox.send_leased(done.deliveries).await;
            });
            Redirect::to(&done.next).into_response()
        }
        Ok(None) => (
            StatusCode::CONFLICT,
            Html(shell(
                l,
                l.t(Msg::CheckoutEndedTitle),
                &format!("<p>{}</p>", l.t(Msg::CheckoutCannotComplete)),
            )),
        )
            .into_response(),
        Err(e) => {
            tracing::warn!(error = %e, "sandbox completion failed");
            unavailable(l)
        }
    }
}

fn shell(l: Locale, title: &str, body: &str) -> String {
    format!(
        r#"<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title><link rel="stylesheet" href="/pkg/holdfast.css"></head>
<body><header class="topbar"><span class="brand">Holdfast</span><span class="tagline">{tagline}</span></header>
<main class="sandbox"><h1>{title}</h1>{body}</main></body></html>"#,
        lang = l.tag(),
        tagline = l.t(Msg::SandboxTagline),
    )
}

/// The stand-in provider could not read or write its checkout (its store
/// is Holdfast's database: a failover, a restart): 503 with a retry hint,
/// as a provider's page briefly down answers. Nothing was paid.
fn unavailable(l: Locale) -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(axum::http::header::RETRY_AFTER, "1")],
        Html(sorry(l, Msg::WentWrong)),
    )
        .into_response()
}

fn sorry(l: Locale, what: Msg) -> String {
    shell(l, l.t(Msg::Sorry), &format!("<p>{}</p>", l.t(what)))
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
