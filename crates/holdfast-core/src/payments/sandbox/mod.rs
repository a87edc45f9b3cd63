//! The built-in stand-in for Stripe (`PAYMENT_PROVIDER=sandbox`, the
//! default). It keeps its sessions and refunds in its own tables (so every
//! instance sees them), serves a hosted checkout page, and sends
//! Stripe-shaped events, signed with the webhook secret, over real HTTP to
//! the webhook — once, twice, or delayed — retrying failed deliveries with
//! backoff. The webhook path that handles them is the production one.
//!
//! Here: the provider (sessions, refunds) and what the hosted page reads;
//! `events` completes a session and queues its Stripe-shaped events;
//! `delivery` sends them.

mod delivery;
mod events;

use crate::platform::clock::At;
use crate::platform::db;
use holdfast_model::money::Money;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use async_trait::async_trait;
use serde_json::json;

use super::{CheckoutRequest, CheckoutSession, PaymentProvider, ProviderError, SessionState};
use crate::platform::clock::SharedClock;
use crate::platform::db::Db;

pub struct Sandbox {
    db: Db,
    clock: SharedClock,
    base_url: String,
    secret: String,
    http: reqwest::Client,
    /// Outage drill: this many coming checkouts are created but their answer
    /// is "lost" (a timeout), as when the network drops the response.
    lose_answers: AtomicUsize,
}

/// How the sandbox delivers the events of one checkout completion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    Once,
    Twice,
    /// After `DELAY_MS`.
    Delayed,
}

pub const DELAY_MS: i64 = 5_000;

/// Who sends the events of a checkout completion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sender {
    /// The request that completed it, right after its commit (the hosted
    /// page).
    Caller,
    /// A delivery worker, at its next tick.
    Worker,
}

/// A checkout the buyer completed on the hosted page.
#[derive(Debug)]
pub struct Completed {
    /// Where the browser goes next (the success or the cancel URL).
    pub next: String,
    /// The deliveries its events were queued as, claimed for the caller:
    /// `Sandbox::send_leased` sends them at once instead of at a worker's
    /// next tick (a delayed one is left to the worker).
    pub deliveries: Vec<Leased>,
}

/// A delivery queued already claimed by the request that queued it.
#[derive(Debug)]
pub struct Leased {
    id: i64,
    body: String,
}

/// id, booking, payment intent, amount, currency, status, payment status,
/// expires at, customer email.
type SessionRow = (
    String,
    String,
    String,
    i64,
    String,
    String,
    String,
    At,
    Option<String>,
);

/// A [`SessionRow`] in a statement.
const SESSION_COLUMNS: &str = "id, booking_id, payment_intent_id, amount_cents, currency, status,
    payment_status, expires_at, customer_email";

impl Sandbox {
    pub fn new(db: Db, clock: SharedClock, base_url: &str, secret: &str) -> Arc<Self> {
        Arc::new(Sandbox {
            db,
            clock,
            base_url: base_url.trim_end_matches('/').to_string(),
            secret: secret.to_string(),
            lose_answers: AtomicUsize::new(0),
            http: reqwest::Client::builder()
                .timeout(std::time::Duration::from_secs(10))
                .build()
                .unwrap_or_default(),
        })
    }

    async fn session(&self, id: &str) -> Result<Option<SessionRow>, ProviderError> {
        session_row(self.db.reader(), id).await
    }

    fn view(&self, row: SessionRow) -> CheckoutSession {
        let (id, _, intent, amount, currency, status, payment_status, expires_at, email) = row;
        let state = match (status.as_str(), payment_status.as_str()) {
            (_, "paid") => SessionState::Paid,
            ("open", _) if expires_at > self.clock.now() => SessionState::Open,
            _ => SessionState::Ended,
        };
        CheckoutSession {
            url: format!("{}/sandbox/checkout/{id}", self.base_url),
            id,
            amount_cents: amount,
            currency,
            payment_intent_id: Some(intent),
            expires_at_ms: expires_at,
            state,
            customer_email: email,
        }
    }

    /// Amount, currency and state of a session, for the hosted page.
    pub async fn page_data(
        &self,
        session_id: &str,
    ) -> Result<Option<CheckoutSession>, ProviderError> {
        Ok(self.session(session_id).await?.map(|r| self.view(r)))
    }
}

pub(super) fn other(e: impl std::fmt::Display) -> ProviderError {
    ProviderError::Other(e.to_string())
}

#[async_trait]
impl PaymentProvider for Sandbox {
    fn name(&self) -> &'static str {
        "sandbox"
    }

    async fn create_checkout(
        &self,
        req: &CheckoutRequest,
    ) -> Result<CheckoutSession, ProviderError> {
        let id = format!("cs_sb_{}", uuid::Uuid::new_v4().simple());
        let intent = format!("pi_sb_{}", uuid::Uuid::new_v4().simple());
        // A retry with the same idempotency key gets the session it made.
        let made: Option<SessionRow> = sqlx::query_as(&format!(
            "insert into sandbox_session (id, idempotency_key, booking_id, payment_intent_id, amount_cents, currency,
                                          status, payment_status, expires_at, success_url, cancel_url, created_at)
             values ($1, $2, $3, $4, $5, $6, 'open', 'unpaid', $7, $8, $9, $10)
             on conflict (idempotency_key) do nothing
             returning {SESSION_COLUMNS}"
        ))
        .bind(&id)
        .bind(&req.idempotency_key)
        .bind(&req.booking_id)
        .bind(&intent)
        .bind(req.price.minor())
        .bind(req.price.currency())
        .bind(req.expires_at_ms)
        .bind(&req.success_url)
        .bind(&req.cancel_url)
        .bind(self.clock.now())
        .fetch_all(self.db.writer())
        .await
        .map_err(other)?
        .into_iter()
        .next();
        let row = match made {
            Some(row) => row,
            None => sqlx::query_as(&format!(
                "select {SESSION_COLUMNS} from sandbox_session where idempotency_key = $1"
            ))
            .bind(&req.idempotency_key)
            .fetch_one(self.db.writer())
            .await
            .map_err(other)?,
        };
        let lose = self
            .lose_answers
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok();
        if lose {
            return Err(ProviderError::Timeout);
        }
        Ok(self.view(row))
    }

    async fn lookup_checkout(&self, session_id: &str) -> Result<CheckoutSession, ProviderError> {
        // Like Stripe, a session past its `expires_at` is expired (and says so
        // with an event) the next time anyone looks.
        let mut tx = self.db.begin().await.map_err(other)?;
        self.expire_open(&mut tx, session_id, self.clock.now())
            .await?;
        db::commit(tx).await.map_err(other)?;
        let row = self
            .session(session_id)
            .await?
            .ok_or_else(|| ProviderError::Refused("no such session".into()))?;
        Ok(self.view(row))
    }

    async fn expire_checkout(&self, session_id: &str) -> Result<CheckoutSession, ProviderError> {
        let mut tx = self.db.begin().await.map_err(other)?;
        self.expire_open(&mut tx, session_id, At::from_ms(i64::MAX))
            .await?;
        let row = session_row(&mut *tx, session_id)
            .await?
            .ok_or_else(|| ProviderError::Refused("no such session".into()))?;
        db::commit(tx).await.map_err(other)?;
        Ok(self.view(row))
    }

    /// Refunds like Stripe: any number of refunds on one charge, each under
    /// its own idempotency key (a repeat answers the first), together never
    /// above what was charged. The charge's row is locked while deciding,
    /// so parallel refunds of one charge are counted one after the other.
    async fn refund(
        &self,
        payment_intent_id: &str,
        amount: Money,
        idempotency_key: &str,
    ) -> Result<String, ProviderError> {
        let mut tx = self.db.begin().await.map_err(other)?;
        // A no-op update takes the charge's row lock (SQLite: the writer).
        let paid = sqlx::query(
            "update sandbox_session set payment_status = payment_status
             where payment_intent_id = $1 and payment_status = 'paid'",
        )
        .bind(payment_intent_id)
        .execute(&mut *tx)
        .await
        .map_err(other)?
        .rows_affected();
        let charged: Option<(i64,)> = sqlx::query_as(
            "select amount_cents from sandbox_session where payment_intent_id = $1 and payment_status = 'paid'",
        )
        .bind(payment_intent_id)
        .fetch_optional(&mut *tx)
        .await
        .map_err(other)?;
        let (Some((charged_cents,)), true) = (charged, paid > 0) else {
            return Err(ProviderError::Refused(
                "nothing was paid on this payment intent".into(),
            ));
        };
        let earlier: Option<(String,)> =
            sqlx::query_as("select id from sandbox_refund where idempotency_key = $1")
                .bind(idempotency_key)
                .fetch_optional(&mut *tx)
                .await
                .map_err(other)?;
        if let Some((refund_id,)) = earlier {
            return Ok(refund_id);
        }
        let (before,): (i64,) = sqlx::query_as(
            "select cast(coalesce(sum(amount_cents), 0) as bigint) from sandbox_refund
             where payment_intent_id = $1",
        )
        .bind(payment_intent_id)
        .fetch_one(&mut *tx)
        .await
        .map_err(other)?;
        let unrefunded = charged_cents - before;
        if amount.minor() <= 0 || amount.minor() > unrefunded {
            return Err(ProviderError::Refused(format!(
                "a refund must be between 1 and the {unrefunded} not refunded of the {charged_cents} charged"
            )));
        }
        let amount_cents = amount.minor();
        let refund_id = format!("re_sb_{}", uuid::Uuid::new_v4().simple());
        sqlx::query(
            "insert into sandbox_refund (id, idempotency_key, payment_intent_id, amount_cents, created_at)
             values ($1, $2, $3, $4, $5)",
        )
        .bind(&refund_id)
        .bind(idempotency_key)
        .bind(payment_intent_id)
        .bind(amount_cents)
        .bind(self.clock.now())
        .execute(&mut *tx)
        .await
        .map_err(other)?;
        let total = before + amount_cents;
        let charge = json!({
            "id": format!("ch_sb_{}", &payment_intent_id.trim_start_matches("pi_sb_")),
            "object": "charge",
            "amount": charged_cents,
            "amount_refunded": total,
            "payment_intent": payment_intent_id,
            "refunded": total == charged_cents,
            "refunds": { "object": "list", "data": [{ "id": refund_id, "object": "refund", "amount": amount_cents }] },
        });
        let worker = Sender::Worker;
        self.enqueue(&mut tx, "charge.refunded", charge, Delivery::Once, worker)
            .await?;
        db::commit(tx).await.map_err(other)?;
        Ok(refund_id)
    }
}

async fn session_row<'e, E>(db: E, id: &str) -> Result<Option<SessionRow>, ProviderError>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    sqlx::query_as(&format!(
        "select {SESSION_COLUMNS} from sandbox_session where id = $1"
    ))
    .bind(id)
    .fetch_optional(db)
    .await
    .map_err(other)
}
