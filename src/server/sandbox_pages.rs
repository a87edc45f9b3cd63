//! The sandbox's hosted checkout page (what Stripe Checkout is in
//! production): the amount, and Pay / Decline with a delivery mode for the
//! events that follow.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Router};
use holdfast_app::core::payments::sandbox::{Delivery, Sandbox};
use holdfast_app::core::payments::SessionState;
use holdfast_app::core::AppState;
use holdfast_app::model::format_price;
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

async fn page(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let Some(sandbox) = sandbox(&state) else {
        return (StatusCode::NOT_FOUND, "no sandbox here").into_response();
    };
    let session = match sandbox.page_data(&id).await {
        Ok(Some(s)) => s,
        Ok(None) => {
            return (
                StatusCode::NOT_FOUND,
                Html(shell(
                    "Unknown checkout",
                    "<p>This checkout does not exist.</p>",
                )),
            )
                .into_response()
        }
        Err(e) => {
            tracing::error!(error = %e, "sandbox page failed");
            return (
                StatusCode::INTERNAL_SERVER_ERROR,
                Html(shell("Sorry", "<p>Something went wrong.</p>")),
            )
                .into_response();
        }
    };
    let amount = format_price(session.amount_cents, &session.currency);
    let body = match session.state {
        SessionState::Open => format!(
            r#"<p class="amount">Amount due: <strong>{amount}</strong></p>
<form method="post" action="/sandbox/checkout/{id}/complete">
  <label>Email for the confirmation
    <input type="email" name="email" autocomplete="email" placeholder="you@example.com">
  </label>
  <label>Webhook delivery
    <select name="delivery">
      <option value="once">once</option>
      <option value="twice">twice</option>
      <option value="delayed">delayed</option>
    </select>
  </label>
  <button name="outcome" value="paid" class="pay">Pay {amount}</button>
  <button name="outcome" value="declined" class="decline">Decline</button>
</form>"#,
            id = html_escape(&session.id)
        ),
        SessionState::Paid => format!("<p>This checkout is paid ({amount}).</p>"),
        SessionState::Ended => {
            "<p>This checkout has ended; nothing can be paid here any more.</p>".to_string()
        }
    };
    Html(shell("Holdfast sandbox checkout", &body)).into_response()
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
    Form(form): Form<Completion>,
) -> Response {
    let Some(sandbox) = sandbox(&state) else {
        return (StatusCode::NOT_FOUND, "no sandbox here").into_response();
    };
    let delivery = match form.delivery.as_deref() {
        Some("twice") => Delivery::Twice,
        Some("delayed") => Delivery::Delayed,
        _ => Delivery::Once,
    };
    let paid = match form.outcome.as_str() {
        "paid" => true,
        "declined" => false,
        _ => {
            return (
                StatusCode::BAD_REQUEST,
                Html(shell("Sorry", "<p>Choose Pay or Decline.</p>")),
            )
                .into_response()
        }
    };
    let email = form
        .email
        .as_deref()
        .map(str::trim)
        .filter(|e| e.contains('@') && e.len() <= 254);
    match sandbox.complete(&id, paid, delivery, email).await {
        Ok(Some(next)) => {
            // Send the events now rather than at the next worker tick.
            tokio::spawn(async move {
                let _ = sandbox.deliver_due().await;
            });
            Redirect::to(&next).into_response()
        }
        Ok(None) => (
            StatusCode::CONFLICT,
            Html(shell(
                "Checkout ended",
                "<p>This checkout can no longer be completed.</p>",
            )),
        )
            .into_response(),
        Err(e) => {
            tracing::error!(error = %e, "sandbox completion failed");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                Html(shell("Sorry", "<p>Something went wrong.</p>")),
            )
                .into_response()
        }
    }
}

fn shell(title: &str, body: &str) -> String {
    format!(
        r#"<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title><link rel="stylesheet" href="/pkg/holdfast.css"></head>
<body><header class="topbar"><span class="brand">Holdfast</span><span class="tagline">Sandbox payment provider — no real money moves</span></header>
<main class="sandbox"><h1>{title}</h1>{body}</main></body></html>"#
    )
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
