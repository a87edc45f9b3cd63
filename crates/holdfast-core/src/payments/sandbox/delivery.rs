//! Sending the queued events to the webhook, signed at sending time, with
//! exponential backoff for failed deliveries; and the outage drill.

use std::sync::atomic::Ordering;

use super::{other, Leased, Sandbox};
use crate::payments::{signature, ProviderError};

impl Sandbox {
    /// At most this many events per `deliver_due`.
    pub const BATCH: usize = 50;

    /// Sends due events to the webhook (signed at sending time); failed
    /// deliveries come back with exponential backoff. Returns how many
    /// were accepted.
    pub async fn deliver_due(&self) -> Result<usize, ProviderError> {
        let due: Vec<(i64,)> = sqlx::query_as(
            "select id from sandbox_delivery where delivered_at is null and next_at <= $1 order by id limit $2",
        )
        .bind(self.clock.now())
        .bind(Self::BATCH as i64)
        .fetch_all(self.db.reader())
        .await
        .map_err(other)?;
        let ids: Vec<i64> = due.into_iter().map(|(id,)| id).collect();
        self.deliver(&ids).await
    }

    /// How long a claimed delivery is left to its sender before a worker
    /// takes it over.
    pub const SENDING_MS: i64 = 30_000;

    /// Sends these deliveries, in order, if they are due and not sent yet.
    /// Each is claimed first, in the statement that reads it, so two
    /// workers (on any instance) never send it at the same time. Returns
    /// how many were accepted.
    pub async fn deliver(&self, ids: &[i64]) -> Result<usize, ProviderError> {
        let mut sent = 0;
        for &id in ids {
            let now = self.clock.now();
            let claimed: Option<(String, i64)> = sqlx::query_as(
                "update sandbox_delivery set next_at = $2
                 where id = $1 and next_at <= $3 and delivered_at is null
                 returning body, attempts",
            )
            .bind(id)
            .bind(now + Self::SENDING_MS)
            .bind(now)
            .fetch_all(self.db.writer())
            .await
            .map_err(other)?
            .into_iter()
            .next();
            if let Some((body, attempts)) = claimed {
                sent += usize::from(self.send(id, body, attempts).await?);
            }
        }
        Ok(sent)
    }

    /// Sends what a completed checkout queued, at once, without reading
    /// (and racing every other payer for) the queue: they were queued
    /// claimed for this caller. Returns how many were accepted.
    pub async fn send_leased(&self, leased: Vec<Leased>) -> Result<usize, ProviderError> {
        let mut sent = 0;
        for Leased { id, body } in leased {
            sent += usize::from(self.send(id, body, 0).await?);
        }
        Ok(sent)
    }

    /// One claimed delivery to the webhook, signed now; a failed one comes
    /// back with exponential backoff after its `attempts` before.
    async fn send(&self, id: i64, body: String, attempts: i64) -> Result<bool, ProviderError> {
        let header = signature::sign(&self.secret, body.as_bytes(), self.clock.now().unix_secs());
        let ok = self
            .http
            .post(format!("{}/api/payments/webhook", self.base_url))
            .header("content-type", "application/json")
            .header("Stripe-Signature", header)
            .body(body)
            .send()
            .await
            .is_ok_and(|r| r.status().is_success());
        let now = self.clock.now();
        let (delivered, next) = if ok {
            (Some(now), now)
        } else {
            (None, now + 1000 * 2i64.pow(attempts.clamp(0, 10) as u32))
        };
        sqlx::query("update sandbox_delivery set delivered_at = $2, attempts = attempts + 1, next_at = $3 where id = $1")
            .bind(id)
            .bind(delivered)
            .bind(next)
            .execute(self.db.writer())
            .await
            .map_err(other)?;
        Ok(ok)
    }

    /// Makes the next `n` checkout creations time out after the session was
    /// made (the outcome is unknown to the caller, as with a real outage).
    pub fn lose_next_answers(&self, n: usize) {
        self.lose_answers.store(n, Ordering::SeqCst);
    }
}
