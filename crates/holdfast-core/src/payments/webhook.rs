//! `POST /api/payments/webhook`: the signature is checked on the raw bytes
//! before anything is parsed; the event id goes into the inbox in the same
//! transaction as its effect, so a duplicate changes nothing; any order of
//! events works because every effect is conditional on the booking's state.

use serde_json::Value;

use super::effects::{self, MapChanges, Paid};
use super::money_back::{self, MoneyBack};
use super::outbox;
use super::signature;
use crate::platform::db;
use crate::platform::{metrics, retry};
use crate::{ApiError, AppState};
use holdfast_model::{BookingId, Cause};

/// Verifies and applies one delivery; returns the outcome recorded. The
/// application is one transaction, run again whole when the database rolls
/// it back for contention (`retry`).
pub async fn receive(
    state: &AppState,
    header: Option<&str>,
    body: &[u8],
) -> Result<String, ApiError> {
    metrics::webhook_received();
    let event = verified(state, header, body).map_err(|(reason, e)| {
        metrics::webhook_failed(reason);
        e
    })?;
    let applied = retry::retried("webhook", || apply(state, &event)).await;
    if applied.is_err() {
        metrics::webhook_failed("error");
    }
    applied
}

/// The delivery's event, once its signature is good and it reads as one;
/// else why not (`signature` or `invalid`) and the answer.
fn verified(
    state: &AppState,
    header: Option<&str>,
    body: &[u8],
) -> Result<Value, (&'static str, ApiError)> {
    let header = header.ok_or_else(|| {
        let e = ApiError::validation("missing Stripe-Signature header", "Stripe-Signature");
        ("signature", e)
    })?;
    signature::verify(
        &state.payments.settings.webhook_secret,
        header,
        body,
        state.clock.now().unix_secs(),
    )
    .map_err(|e| {
        let e = ApiError::validation(
            format!("webhook signature refused: {e}"),
            "Stripe-Signature",
        );
        ("signature", e)
    })?;
    let event: Value = serde_json::from_slice(body).map_err(|_| {
        (
            "invalid",
            ApiError::validation("webhook body is not JSON", "body"),
        )
    })?;
    if event["id"].as_str().is_none() || event["type"].as_str().is_none() {
        let e = ApiError::validation("webhook event needs an id and a type", "body");
        return Err(("invalid", e));
    }
    Ok(event)
}

/// Applies a verified event in one transaction: the inbox row and its effect.
async fn apply(state: &AppState, event: &Value) -> Result<String, ApiError> {
    let (Some(event_id), Some(kind)) = (event["id"].as_str(), event["type"].as_str()) else {
        return Err(ApiError::validation(
            "webhook event needs an id and a type",
            "body",
        ));
    };
    let now = state.clock.now();
    let by = Cause::Webhook(event_id.to_string());
    let object = &event["data"]["object"];
    let booking_id = match kind {
        "charge.refunded" | "charge.dispute.created" => {
            booking_of_intent(state, object["payment_intent"].as_str()).await?
        }
        _ => object["client_reference_id"]
            .as_str()
            .or(object["metadata"]["booking_id"].as_str())
            .map(BookingId::from),
    };

    let mut tx = state.db.begin().await?;
    let fresh = sqlx::query(
        "insert into webhook_inbox (event_id, type, booking_id, outcome, received_at)
         values ($1, $2, $3, 'received', $4) on conflict (event_id) do nothing",
    )
    .bind(event_id)
    .bind(kind)
    .bind(booking_id.as_ref())
    .bind(now)
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    if !fresh {
        metrics::webhook(kind, "duplicate");
        return Ok("duplicate".into());
    }
    let mut changes = MapChanges::default();
    let outcome = match (kind, booking_id.as_ref()) {
        (_, None) => "no_booking".to_string(),
        ("checkout.session.completed", Some(_)) if object["payment_status"] != "paid" => {
            "awaiting_payment".into()
        }
        ("checkout.session.completed" | "checkout.session.async_payment_succeeded", Some(b)) => {
            let paid = Paid {
                payment_intent: object["payment_intent"].as_str(),
                amount_cents: object["amount_total"].as_i64().unwrap_or(-1),
                currency: object["currency"].as_str().unwrap_or_default(),
                customer_email: object["customer_details"]["email"]
                    .as_str()
                    .or(object["customer_email"].as_str()),
                by: &by,
            };
            let (o, c) = effects::apply_paid(&mut tx, b, paid, now).await?;
            changes = c;
            o.as_str().to_string()
        }
        ("checkout.session.async_payment_failed" | "checkout.session.expired", Some(b)) => {
            let (ended, c) = effects::apply_checkout_ended(&mut tx, b, &by, now).await?;
            changes = c;
            let outcome = if ended {
                "checkout_ended"
            } else {
                "already_settled"
            };
            outcome.to_string()
        }
        // A charge: `amount_refunded` of `amount` went back (our own refund's
        // echo, or one made in Stripe's dashboard).
        ("charge.refunded", Some(b)) => {
            let back = MoneyBack::Refunded {
                refunded_cents: object["amount_refunded"].as_i64().unwrap_or(0),
                charged_cents: object["amount"].as_i64().unwrap_or(i64::MAX),
                refund_id: object["refunds"]["data"][0]["id"].as_str(),
            };
            let (o, c) = money_back::apply_money_back(&mut tx, b, back, &by, now).await?;
            changes = c;
            o.as_str().to_string()
        }
        ("charge.dispute.created", Some(b)) => {
            let (o, c) =
                money_back::apply_money_back(&mut tx, b, MoneyBack::Disputed, &by, now).await?;
            changes = c;
            o.as_str().to_string()
        }
        _ => "ignored".into(),
    };
    sqlx::query("update webhook_inbox set outcome = $2 where event_id = $1")
        .bind(event_id)
        .bind(&outcome)
        .execute(&mut *tx)
        .await?;
    db::commit(tx).await?;
    outbox::publish(state, &changes);
    metrics::webhook(kind, &outcome);
    tracing::info!(event_id, kind, outcome, "webhook applied");
    Ok(outcome)
}

async fn booking_of_intent(
    state: &AppState,
    intent: Option<&str>,
) -> Result<Option<BookingId>, ApiError> {
    match intent {
        Some(intent) => Ok(super::store::booking_of_intent(&state.db, intent).await?),
        None => Ok(None),
    }
}
