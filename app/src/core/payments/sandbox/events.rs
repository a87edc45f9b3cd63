//! Completing a sandbox checkout (what the buyer's click on the hosted
//! page does) and the Stripe-shaped events it queues for delivery.

use serde_json::{json, Value};

use super::{other, session_row, Completed, Delivery, Sandbox, SessionRow, DELAY_MS};
use crate::core::payments::ProviderError;
use crate::core::platform::clock::At;
use crate::core::platform::db;
use crate::core::platform::db::Tx;

impl Sandbox {
    /// The page's form: the buyer pays or declines, giving an email address
    /// as Stripe Checkout asks for one. Returns where to send the browser
    /// next and the deliveries its events were queued as, or `None` when
    /// the session cannot be completed.
    pub async fn complete(
        &self,
        session_id: &str,
        paid: bool,
        delivery: Delivery,
        email: Option<&str>,
    ) -> Result<Option<Completed>, ProviderError> {
        let now = self.clock.now();
        // The payment and its events in one transaction: like Stripe, the
        // sandbox never takes money without telling the webhook.
        let mut tx = self.db.begin().await.map_err(other)?;
        let done = sqlx::query(
            "update sandbox_session set status = 'complete', payment_status = $2, customer_email = $4
             where id = $1 and status = 'open' and expires_at > $3",
        )
        .bind(session_id)
        .bind(if paid { "paid" } else { "unpaid" })
        .bind(now)
        .bind(email)
        .execute(&mut *tx)
        .await
        .map_err(other)?
        .rows_affected()
            == 1;
        if !done {
            return Ok(None);
        }
        let row = session_row(&mut *tx, session_id)
            .await?
            .ok_or_else(|| other("session vanished"))?;
        let object = self.session_object(&row, &row.5.clone());
        let mut deliveries = self
            .enqueue(
                &mut tx,
                "checkout.session.completed",
                object.clone(),
                delivery,
            )
            .await?;
        if !paid {
            deliveries.extend(
                self.enqueue(
                    &mut tx,
                    "checkout.session.async_payment_failed",
                    object,
                    delivery,
                )
                .await?,
            );
        }
        db::commit(tx).await.map_err(other)?;
        let urls: (String, String) =
            sqlx::query_as("select success_url, cancel_url from sandbox_session where id = $1")
                .bind(session_id)
                .fetch_one(self.db.reader())
                .await
                .map_err(other)?;
        Ok(Some(Completed {
            next: if paid { urls.0 } else { urls.1 },
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
                self.enqueue(tx, "checkout.session.expired", object, Delivery::Once)
                    .await?;
            }
        }
        Ok(())
    }

    pub(super) async fn enqueue(
        &self,
        tx: &mut Tx,
        kind: &str,
        object: Value,
        delivery: Delivery,
    ) -> Result<Vec<i64>, ProviderError> {
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
        let mut ids = Vec::with_capacity(copies);
        for _ in 0..copies {
            let (id,): (i64,) = sqlx::query_as(
                "insert into sandbox_delivery (event_id, body, next_at) values ($1, $2, $3) returning id",
            )
            .bind(&event_id)
            .bind(&body)
            .bind(at)
            .fetch_one(&mut **tx)
            .await
            .map_err(other)?;
            ids.push(id);
        }
        Ok(ids)
    }
}
