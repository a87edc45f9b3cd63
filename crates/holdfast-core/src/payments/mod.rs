//! Payments: the provider behind a trait (the built-in sandbox, Stripe),
//! the pay step, the webhook with its inbox, reconciliation of
//! payments whose outcome is unknown, and the outbox of side effects.
//!
//! Rules (docs/ARCHITECTURE.md): no transaction is held across a provider call; a
//! provider timeout is "unknown", never "failed"; every provider event is
//! applied once (inbox); every side effect leaves through the outbox with an
//! idempotency key.

pub mod cancellation;
pub mod checkout;
pub mod confirmation;
pub mod deadline;
pub mod effects;
pub mod mail;
pub mod money_back;
pub mod outbox;
pub mod reconcile;
pub mod refund_part;
pub mod sandbox;
pub mod signature;
pub mod store;
pub mod stripe;
pub mod webhook;

use crate::platform::clock::At;
use async_trait::async_trait;
use holdfast_model::money::Money;
use holdfast_model::BookingId;

/// What the pay step asks the provider for.
#[derive(Debug, Clone)]
pub struct CheckoutRequest {
    pub booking_id: BookingId,
    pub price: Money,
    /// One line per seat (label, price).
    pub lines: Vec<(String, i64)>,
    /// When the provider's session ends (at least its minimum lifetime
    /// after the checkout began; it may outlive the booking's deadline).
    pub expires_at_ms: At,
    /// When the booking stops waiting for this payment.
    pub deadline_ms: At,
    pub success_url: String,
    pub cancel_url: String,
    /// Derived from the booking, so asking twice yields the same session.
    pub idempotency_key: String,
}

/// A checkout session as the provider reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckoutSession {
    pub id: String,
    pub amount_cents: i64,
    pub currency: String,
    pub url: String,
    pub payment_intent_id: Option<String>,
    pub expires_at_ms: At,
    pub state: SessionState,
    /// The address the buyer gave at checkout, once they gave one.
    pub customer_email: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionState {
    Open,
    Paid,
    /// Completed without money (a declined or failed payment) or expired.
    Ended,
}

#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    /// No answer in time: the outcome is unknown.
    #[error("the payment provider did not answer in time")]
    Timeout,
    #[error("the payment provider refused: {0}")]
    Refused(String),
    #[error("payment provider error: {0}")]
    Other(String),
}

#[async_trait]
pub trait PaymentProvider: Send + Sync + 'static {
    fn name(&self) -> &'static str;
    /// How far ahead a new session's `expires_at` must be (Stripe refuses
    /// one under 30 minutes ahead); a checkout that cannot be created any
    /// more ends its booking instead.
    fn min_checkout_lifetime_ms(&self) -> i64 {
        1
    }
    async fn create_checkout(
        &self,
        req: &CheckoutRequest,
    ) -> Result<CheckoutSession, ProviderError>;
    async fn lookup_checkout(&self, session_id: &str) -> Result<CheckoutSession, ProviderError>;
    /// Ends an open session so it can no longer be paid; answers its state
    /// afterwards (it may have been paid just before).
    async fn expire_checkout(&self, session_id: &str) -> Result<CheckoutSession, ProviderError>;
    /// Refunds a payment in full; the same key always means the same refund.
    async fn refund(
        &self,
        payment_intent_id: &str,
        amount: Money,
        idempotency_key: &str,
    ) -> Result<String, ProviderError>;
}

/// Payment settings from the configuration.
#[derive(Debug, Clone)]
pub struct PaymentSettings {
    pub public_base_url: String,
    pub webhook_secret: String,
    pub checkout_ttl_ms: i64,
    /// How long after its hold a checkout may last while the event sells
    /// fast (`deadline`).
    pub checkout_grace_ms: i64,
    /// Below this share of free places (percent) an event sells fast.
    pub fast_sale_free_percent: i64,
    /// Unpaid checkouts a buyer may leave in an hour (0: no limit).
    pub abandoned_checkouts_per_hour: i64,
}
