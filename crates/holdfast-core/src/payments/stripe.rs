//! `PAYMENT_PROVIDER=stripe`: Stripe itself, through async-stripe 1.0.
//!
//! - A Checkout Session in payment mode, one line item per seat (or the
//!   standing places), `client_reference_id` and `metadata.booking_id` =
//!   the booking, success/cancel URLs on `PUBLIC_BASE_URL`, `expires_at` =
//!   the booking's payment deadline, and the booking's idempotency key — so
//!   asking twice (after a timeout) yields the same session.
//! - Look-ups and expiry (`/v1/checkout/sessions/{id}/expire`) for
//!   reconciliation; refunds of the payment intent with the booking's
//!   refund key, so a refund is never made twice.
//!
//! No answer, a connection failure, a 429 or a 5xx mean "unknown"
//! (`Timeout`/`Other`): the caller keeps the booking PAYMENT_PENDING and
//! asks again later. Other 4xx are refusals.

use crate::platform::clock::At;
use holdfast_model::money::Money;
use std::collections::HashMap;
use std::time::Duration;

use async_trait::async_trait;
use stripe::{Client, ClientBuilder, IdempotencyKey, RequestStrategy, StripeError, StripeRequest};
use stripe_checkout::checkout_session::{
    CreateCheckoutSession, CreateCheckoutSessionLineItems, CreateCheckoutSessionLineItemsPriceData,
    ExpireCheckoutSession, ProductData, RetrieveCheckoutSession,
};
use stripe_checkout::{CheckoutSessionMode, CheckoutSessionPaymentStatus, CheckoutSessionStatus};
use stripe_core::refund::CreateRefund;
use stripe_types::Currency;

use super::{CheckoutRequest, CheckoutSession, PaymentProvider, ProviderError, SessionState};

/// Stripe accepts `expires_at` from 30 minutes to 24 hours ahead; the
/// configuration keeps the checkout deadline inside (with a minute spare).
pub const MIN_CHECKOUT: Duration = Duration::from_secs(31 * 60);
pub const MAX_CHECKOUT: Duration = Duration::from_secs(24 * 3600);
/// Stripe's own lower bound for `expires_at`.
pub const STRIPE_MIN_EXPIRES_AHEAD: Duration = Duration::from_secs(30 * 60);

pub struct Stripe {
    client: Client,
}

impl Stripe {
    /// `api_base`: Stripe's API (`None`) or a stand-in at another address
    /// (tests).
    pub fn new(secret_key: &str, api_base: Option<&str>) -> Result<Stripe, String> {
        let mut builder = ClientBuilder::new(secret_key).timeout(Duration::from_secs(10));
        if let Some(url) = api_base {
            builder = builder.url(url);
        }
        let client = builder.build().map_err(|e| format!("Stripe client: {e}"))?;
        Ok(Stripe { client })
    }

    /// Stripe's word on a session. An `open` session counts as open even
    /// past its `expires_at` (Stripe closes it a little later): the caller
    /// then expires it explicitly before releasing any seat.
    fn view(&self, s: stripe_checkout::CheckoutSession) -> CheckoutSession {
        let expires_at_ms = At::from_unix_secs(s.expires_at);
        let state = match (s.status.as_ref(), &s.payment_status) {
            (_, CheckoutSessionPaymentStatus::Paid) => SessionState::Paid,
            (Some(CheckoutSessionStatus::Open), _) => SessionState::Open,
            // Complete but unpaid: a delayed payment method is still
            // settling; its async_payment_* event decides.
            (Some(CheckoutSessionStatus::Complete), CheckoutSessionPaymentStatus::Unpaid) => {
                SessionState::Open
            }
            _ => SessionState::Ended,
        };
        CheckoutSession {
            id: s.id.as_str().to_string(),
            amount_cents: s.amount_total.unwrap_or_default(),
            currency: s
                .currency
                .map(|c| c.to_string().to_uppercase())
                .unwrap_or_default(),
            url: s.url.unwrap_or_default(),
            payment_intent_id: s
                .payment_intent
                .as_ref()
                .map(|p| p.id().as_str().to_string()),
            expires_at_ms,
            state,
            customer_email: s.customer_details.and_then(|d| d.email),
        }
    }
}

/// Unknown outcomes (no answer, 429, 5xx) versus refusals (other 4xx).
fn provider_error(e: StripeError) -> ProviderError {
    match e {
        StripeError::Timeout | StripeError::ClientError(_) => ProviderError::Timeout,
        StripeError::Stripe(err, status) if status == 429 || status >= 500 => {
            ProviderError::Other(format!("Stripe answered {status}: {:?}", err.message))
        }
        StripeError::Stripe(err, status) => ProviderError::Refused(format!(
            "Stripe refused ({status}): {}",
            err.message.unwrap_or_default()
        )),
        StripeError::JSONDeserialize(m) => ProviderError::Other(format!("Stripe's answer: {m}")),
        StripeError::ConfigError(m) => ProviderError::Other(m),
    }
}

fn key(k: &str) -> Result<RequestStrategy, ProviderError> {
    IdempotencyKey::new(k)
        .map(RequestStrategy::Idempotent)
        .map_err(|e| ProviderError::Other(format!("idempotency key: {e}")))
}

/// Stripe's body for a checkout: one line per seat, quantity one, each
/// amount in the currency's minor unit — which is Stripe's "smallest
/// currency unit" for every currency Holdfast sells in (whole đồng and yen,
/// fils in tens). A currency Stripe does not know is refused, never
/// charged in another.
pub fn checkout_params(req: &CheckoutRequest) -> Result<CreateCheckoutSession, ProviderError> {
    let code = req.price.currency().code();
    let currency: Currency = code.to_ascii_lowercase().parse().map_err(|_| {
        ProviderError::Refused(format!("Stripe does not know the currency {code:?}"))
    })?;
    let line_items = req
        .lines
        .iter()
        .map(|(label, cents)| {
            let mut price = CreateCheckoutSessionLineItemsPriceData::new(currency.clone());
            price.unit_amount = Some(*cents);
            price.product_data = Some(ProductData::new(label.clone()));
            let mut line = CreateCheckoutSessionLineItems::new();
            line.price_data = Some(price);
            line.quantity = Some(1);
            line
        })
        .collect::<Vec<_>>();
    Ok(CreateCheckoutSession::new()
        .mode(CheckoutSessionMode::Payment)
        .line_items(line_items)
        .client_reference_id(req.booking_id.as_str())
        .metadata(HashMap::from([(
            "booking_id".to_string(),
            req.booking_id.to_string(),
        )]))
        .success_url(req.success_url.as_str())
        .cancel_url(req.cancel_url.as_str())
        .expires_at(req.expires_at_ms.unix_secs()))
}

#[async_trait]
impl PaymentProvider for Stripe {
    fn name(&self) -> &'static str {
        "stripe"
    }

    fn min_checkout_lifetime_ms(&self) -> i64 {
        STRIPE_MIN_EXPIRES_AHEAD.as_millis() as i64
    }

    async fn create_checkout(
        &self,
        req: &CheckoutRequest,
    ) -> Result<CheckoutSession, ProviderError> {
        let session = checkout_params(req)?
            .customize()
            .request_strategy(key(&req.idempotency_key)?)
            .send(&self.client)
            .await
            .map_err(provider_error)?;
        Ok(self.view(session))
    }

    async fn lookup_checkout(&self, session_id: &str) -> Result<CheckoutSession, ProviderError> {
        let session = RetrieveCheckoutSession::new(session_id)
            .send(&self.client)
            .await
            .map_err(provider_error)?;
        Ok(self.view(session))
    }

    async fn expire_checkout(&self, session_id: &str) -> Result<CheckoutSession, ProviderError> {
        match ExpireCheckoutSession::new(session_id)
            .send(&self.client)
            .await
        {
            Ok(session) => Ok(self.view(session)),
            // Stripe refuses to expire a session that is no longer open
            // (paid a moment ago, or already expired): say how it ended.
            Err(StripeError::Stripe(_, 400)) => self.lookup_checkout(session_id).await,
            Err(e) => Err(provider_error(e)),
        }
    }

    async fn refund(
        &self,
        payment_intent_id: &str,
        amount: Money,
        idempotency_key: &str,
    ) -> Result<String, ProviderError> {
        let refund = CreateRefund::new()
            .payment_intent(payment_intent_id)
            .amount(amount.minor())
            .customize()
            .request_strategy(key(idempotency_key)?)
            .send(&self.client)
            .await
            .map_err(provider_error)?;
        Ok(refund.id.as_str().to_string())
    }
}
