//! Completing a sandbox checkout (what the buyer's click on the hosted
//! page does) and the Stripe-shaped events it queues for delivery.

use serde_json::{json, Value};

use super::DELAY_MS;
use super::SESSION_COLUMNS;
use super::{other, session_row, Completed, Delivery, Leased, Sandbox, Sender, SessionRow};
use crate::payments::ProviderError;
use crate::platform::clock::At;
use crate::platform::db;
use crate::platform::db::Tx;

impl Sandbox {
    /// The hosted page's form: the buyer pays or declines, giving an email
    /// address as Stripe Checkout asks for one. Returns where to send the
    /// browser next and, for a `Sender::Caller`, the deliveries its events
    /// were queued as, claimed for it to send at once (`send_leased`; a
    /// worker takes over a claim that lapses); or `None` when the session
    /// cannot be completed.
    pub async fn complete(
        &self,
        session_id: &str,
        paid: bool,
        delivery: Delivery,
        email: Option<&str>,
        sender: Sender,
    ) -> Result<Option<Completed>, ProviderError> {
        let now = self.clock.now();
        // The payment and its events in one transaction: like Stripe, the
        // sandbox never takes money without telling the webhook.
        let mut tx = self.db.begin().await.map_err(other)?;
        let done: Option<Completing> = sqlx::query_as(&format!(
            "update sandbox_session set status = 'complete', payment_status = $2, customer_email = $4
             where id = $1 and status = 'open' and expires_at > $3
             returning {SESSION_COLUMNS}, success_url, cancel_url"
        ))
        .bind(session_id)
        .bind(if paid { "paid" } else { "unpaid" })
        .bind(now)
        .bind(email)
        .fetch_optional(&mut *tx)
        .await
        .map_err(other)?;
        let Some(Completing {
            session: row,
            success_url,
            cancel_url,
        }) = done
        else {
            return Ok(None);
        };
        let object = self.session_object(&row, &row.5.clone());
        let mut deliveries = self
            .enqueue(
                &mut tx,
                "checkout.session.completed",
                object.clone(),
                delivery,
                sender,
            )
            .await?;
        if !paid {
            deliveries.extend(
                self.enqueue(
                    &mut tx,
                    "checkout.session.async_payment_failed",
                    object,
                    delivery,
                    sender,
                )
                .await?,
            );
        }
        db::commit(tx).await.map_err(other)?;
        Ok(Some(Completed {
            next: if paid { success_url } else { cancel_url },
            deliveries,
        }))
    }

    /// A checkout.session object as Stripe shapes it.
    pub(super) fn session_object(&self, row: &SessionRow, status: &str) -> Value {
        let (id, booking, intent, amount, currency, _, payment_status, expires_at, email) = row;
        json!({
            "id": id,
            "object": "checkout.session",
            "amount_subtotal": amount,
            "amount_total": amount,
            "client_reference_id": booking,
            "currency": currency.to_lowercase(),
            "customer_details": email.as_ref().map(|e| json!({ "email": e })),
            "expires_at": expires_at.unix_secs(),
            "livemode": false,
            "metadata": { "booking_id": booking },
            "mode": "payment",
            "payment_intent": intent,
            "payment_status": payment_status,
            "status": status,
            "url": if status == "open" { Value::String(format!("{}/sandbox/checkout/{id}", self.base_url)) } else { Value::Null },
        })
    }

    /// Marks an open session expired — when `lapsed_by` is past its
    /// `expires_at` (`i64::MAX`: whenever) — and says so with a
    /// `checkout.session.expired` event, as Stripe does.
    pub(super) async fn expire_open(
        &self,
        tx: &mut Tx,
        session_id: &str,
        lapsed_by: At,
    ) -> Result<(), ProviderError> {
        let expired = sqlx::query(
            "update sandbox_session set status = 'expired'
             where id = $1 and status = 'open' and expires_at <= $2",
        )
        .bind(session_id)
        .bind(lapsed_by)
        .execute(&mut **tx)
        .await
        .map_err(other)?
        .rows_affected()
            == 1;
        if expired {
            if let Some(row) = session_row(&mut **tx, session_id).await? {
                let object = self.session_object(&row, "expired");
                let worker = Sender::Worker;
                self.enqueue(
                    tx,
                    "checkout.session.expired",
                    object,
                    Delivery::Once,
                    worker,
                )
                .await?;
            }
        }
        Ok(())
    }

    /// Queues an event's deliveries. Those the `Caller` sends itself (due
    /// now, not delayed) are queued already claimed for it, for as long as
    /// a send may take, and come back with their bodies; any other waits
    /// for a delivery worker (which also takes over a claim that lapsed).
    pub(super) async fn enqueue(
        &self,
        tx: &mut Tx,
        kind: &str,
        object: Value,
        delivery: Delivery,
        sender: Sender,
    ) -> Result<Vec<Leased>, ProviderError> {
        let now = self.clock.now();
        let event_id = format!("evt_sb_{}", uuid::Uuid::new_v4().simple());
        let body = json!({
            "id": event_id,
            "object": "event",
            "api_version": "2026-09-30.endive",
            "created": now.unix_secs(),
            "data": { "object": object },
            "livemode": false,
            "pending_webhooks": 1,
            "request": { "id": null, "idempotency_key": null },
            "type": kind,
        })
        .to_string();
        let (copies, at) = match delivery {
            Delivery::Once => (1, now),
            Delivery::Twice => (2, now),
            Delivery::Delayed => (1, now + DELAY_MS),
        };
        let leased = sender == Sender::Caller && at <= now;
        let next_at = if leased { now + Self::SENDING_MS } else { at };
        let mut queued = Vec::with_capacity(copies);
        for _ in 0..copies {
            let (id,): (i64,) = sqlx::query_as(
                "insert into sandbox_delivery (event_id, body, next_at) values ($1, $2, $3) returning id",
            )
            .bind(&event_id)
            .bind(&body)
            .bind(next_at)
            .fetch_one(&mut **tx)
            .await
            .map_err(other)?;
            if leased {
                queued.push(Leased {
                    id,
                    body: body.clone(),
                });
            }
        }
        Ok(queued)
    }
}

/// The columns `complete` reads back from the session it completed.
#[derive(sqlx::FromRow)]
struct Completing {
    #[sqlx(flatten)]
    session: SessionRow,
    success_url: String,
    cancel_url: String,
}
