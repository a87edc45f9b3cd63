//! Sending the queued events to the webhook, signed at sending time, with
//! exponential backoff for failed deliveries; and the outage drill.

use std::sync::atomic::Ordering;

use super::{other, Sandbox};
use crate::core::payments::{signature, ProviderError};

impl Sandbox {
    /// At most this many events per `deliver_due`.
    pub const BATCH: usize = 50;

    /// Sends due events to the webhook (signed at sending time); failed
    /// deliveries come back with exponential backoff. Returns how many
    /// were accepted.
    pub async fn deliver_due(&self) -> Result<usize, ProviderError> {
        let now = self.clock.now();
        let due: Vec<(i64, String, i64)> = sqlx::query_as(
            "select id, body, attempts from sandbox_delivery where delivered_at is null and next_at <= $1 order by id limit $2",
        )
        .bind(now)
        .bind(Self::BATCH as i64)
        .fetch_all(self.db.reader())
        .await
        .map_err(other)?;
        let mut sent = 0;
        for (id, body, attempts) in due {
            // Claim the row so two instances never send it at the same time.
            let claimed = sqlx::query("update sandbox_delivery set next_at = $2 where id = $1 and next_at <= $3 and delivered_at is null")
                .bind(id)
                .bind(now + 30_000)
                .bind(now)
                .execute(self.db.writer())
                .await
                .map_err(other)?
                .rows_affected()
                == 1;
            if !claimed {
                continue;
            }
            let header =
                signature::sign(&self.secret, body.as_bytes(), self.clock.now().unix_secs());
            let ok = self
                .http
                .post(format!("{}/api/payments/webhook", self.base_url))
                .header("content-type", "application/json")
                .header("Stripe-Signature", header)
                .body(body)
                .send()
                .await
                .is_ok_and(|r| r.status().is_success());
            let (delivered, next) = if ok {
                (Some(self.clock.now()), now)
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
            sent += usize::from(ok);
        }
        Ok(sent)
    }

    /// Makes the next `n` checkout creations time out after the session was
    /// made (the outcome is unknown to the caller, as with a real outage).
    pub fn lose_next_answers(&self, n: usize) {
        self.lose_answers.store(n, Ordering::SeqCst);
    }
}
