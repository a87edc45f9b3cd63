//! A queued refund carried out: the provider asked once per booking (its
//! idempotency key), the payment and booking moved when it answers. A part
//! refund an organizer gave goes its own way (`refund_part::send`).

use crate::platform::db;

use super::super::store as payments;
use super::{enqueue_email, refund_key, Refund, RefundReason};
use crate::booking::store;
use crate::{ApiError, AppState};
use holdfast_model::i18n::Msg;
use holdfast_model::money::Money;
use holdfast_model::BookingId;
use holdfast_model::BuyerId;
use holdfast_model::PaymentStatus;

/// Refunds through the provider (its idempotency key makes a repeat the same
/// refund), then records REFUNDED and tells the buyer. A payment that is no
/// longer `refund_pending` needs nothing more: refunded already (our refund's
/// echo came first, or it was refunded in Stripe's dashboard) or disputed
/// (the bank took the money back; a refund would be refused).
pub(super) async fn refund(
    state: &AppState,
    booking_id: &BookingId,
    payload: &str,
) -> Result<(), ApiError> {
    // Rows queued before reasons were recorded are late payments.
    let Refund {
        reason,
        cents,
        part,
    } = serde_json::from_str::<Refund>(payload).unwrap_or(Refund {
        reason: RefundReason::LatePayment,
        cents: None,
        part: None,
    });
    if let Some(part) = part {
        return crate::payments::refund_part::send(state, booking_id, &part).await;
    }
    let Some(target) = payments::refund_target(&state.db, booking_id).await? else {
        return Err(ApiError::InvalidState(format!(
            "no payment to refund for {booking_id}"
        )));
    };
    let amount = match cents {
        Some(cents) => Money::new(cents.clamp(0, target.left.minor()), target.left.currency()),
        None => target.left,
    };
    let mut refund_id = None;
    if target.status == Some(PaymentStatus::RefundPending) && amount.minor() == 0 {
        // Nothing due under the policy: no call, the payment still settles.
        refund_id = Some("none".to_string());
    } else if target.status == Some(PaymentStatus::RefundPending) {
        let Some(intent) = target.payment_intent else {
            return Err(ApiError::InvalidState(format!(
                "no payment intent to refund for {booking_id}"
            )));
        };
        let id = state
            .payments
            .provider
            .refund(&intent, amount, &refund_key(booking_id))
            .await
            .map_err(ApiError::internal)?;
        refund_id = Some(id);
    }
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    // The booking's row first, as every verdict takes it (no deadlock).
    store::lock(&mut tx, booking_id).await?;
    if let Some(id) = &refund_id {
        if payments::complete_refund(&mut tx, booking_id, id, now).await? {
            crate::platform::metrics::payment("refunded");
            // What went back; after a cancellation under a policy that
            // kept some, the rest stays refundable in part.
            payments::add_refunded(&mut tx, booking_id, amount.minor(), now).await?;
        }
    }
    // Only a refunded payment ends its booking as REFUNDED.
    if payments::status(&mut tx, booking_id).await? == Some(PaymentStatus::Refunded) {
        store::mark_refunded(&mut tx, booking_id, now).await?;
        let buyer: (BuyerId,) = sqlx::query_as("select buyer_id from booking where id = $1")
            .bind(booking_id)
            .fetch_one(&mut *tx)
            .await?;
        let l = crate::buyer_language::of_booking(&mut tx, booking_id).await?;
        let why = match reason {
            RefundReason::LatePayment => l.t(Msg::MailLatePaymentRefunded).to_string(),
            RefundReason::Admin => l.t(Msg::MailOrganizerRefunded).to_string(),
            RefundReason::BuyerCancelled => {
                let amount = l.price(amount.minor(), amount.currency().code());
                l.fill(Msg::MailBuyerCancelled, &[("amount", &amount)])
            }
            RefundReason::SailingCancelled => {
                let amount = l.price(amount.minor(), amount.currency().code());
                l.fill(Msg::MailSailingRefunded, &[("amount", &amount)])
            }
        };
        enqueue_email(
            &mut tx,
            booking_id,
            &format!("refunded-{booking_id}"),
            &format!("buyer:{}", buyer.0),
            l.t(Msg::MailRefundedSubject),
            &why,
            now,
        )
        .await?;
    }
    db::commit(tx).await?;
    Ok(())
}
