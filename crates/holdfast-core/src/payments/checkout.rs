//! `start_checkout` (POST /api/bookings/{id}/pay): HELD → PAYMENT_PENDING in
//! one short transaction, then — outside any transaction — the provider's
//! checkout session. If the provider does not answer, the booking stays
//! PAYMENT_PENDING ("unknown", not "failed"): a retry of pay or the
//! reconciliation worker asks again with the same idempotency key.

use crate::platform::clock::At;
use crate::platform::db;
use std::time::Duration;

use super::store as payments;
use super::{deadline, effects, outbox, CheckoutRequest, CheckoutSession};
use crate::booking::{begin_with_key, earlier_answer, store, Began, Idempotent};
use crate::platform::db::Tx;
use crate::platform::idempotency::{self, IdempotencyKey};
use crate::seat_map::Occupancy;
use crate::{ApiError, AppState};
use holdfast_model::i18n::Locale;
use holdfast_model::money::Money;
use holdfast_model::SeatId;
use holdfast_model::{BookingId, BuyerId, Cause};
use holdfast_model::{BookingStatus, PayResponse, PaymentStatus};

/// How long the pay step waits for the provider.
pub const PROVIDER_TIMEOUT: Duration = Duration::from_secs(10);

/// `language`: the one the buyer is paying in, if they said (their mail
/// is written in it).
pub async fn start_checkout(
    state: &AppState,
    buyer: &BuyerId,
    booking_id: &BookingId,
    key: Option<&IdempotencyKey>,
    language: Option<Locale>,
) -> Result<Idempotent<PayResponse>, ApiError> {
    state.limits.buyer_attempt(buyer)?;
    if let Some(l) = language {
        crate::buyer_language::remember(state, buyer, l).await?;
    }
    if let Some(answer) = earlier_answer(state, buyer, key).await? {
        return Ok(answer);
    }
    let now = state.clock.now();
    let deadline = deadline::for_pay(state, buyer, booking_id, now).await?;
    let mut tx = match begin_with_key(state, buyer, key, now).await? {
        Began::Work(tx) => tx,
        Began::Answered(answer) => return Ok(answer),
    };
    let moved = store::begin_payment(&mut tx, booking_id, buyer, now, deadline).await?;
    let (request, pending) = match moved {
        Some(hold) => {
            let provider = state.payments.provider.name();
            payments::insert_creating(&mut tx, booking_id, provider, now).await?;
            let charge = ToCharge {
                price: hold.price,
                held_until: deadline,
                ga_quantity: hold.ga_quantity,
                began: Some(now),
            };
            let lines = lines(&mut tx, booking_id).await?;
            let pending = (hold.event_id, seats_in_checkout(&lines));
            (request_for(state, booking_id, charge, lines), Some(pending))
        }
        None => match payable_again(&mut tx, booking_id, buyer, now).await? {
            Again::Retry => (checkout_request(&mut tx, state, booking_id).await?, None),
            Again::Open(open) => {
                // Back from the provider's page: the same checkout goes on.
                // A second session for one booking could be paid twice.
                let response = open.answer(booking_id, now);
                let body = serde_json::to_string(&response).map_err(ApiError::internal)?;
                if let Some(key) = key {
                    idempotency::complete(&mut tx, buyer, key, 200, &body).await?;
                }
                db::commit(tx).await?;
                return Ok(Idempotent::Fresh(response));
            }
        },
    };
    if !can_still_create(state, &request, now) {
        // The first try never reached the provider and the deadline is now
        // too close for a new session: the booking ends, its seats go back.
        // (Only a retry gets here, which changed nothing: rolling back
        // leaves no Idempotency-Key in flight.)
        tx.rollback().await?;
        give_up(state, booking_id, &Cause::Buyer).await?;
        return Err(ApiError::HoldExpired);
    }
    db::commit(tx).await?;
    if let Some((event_id, seats)) = pending {
        state.seat_maps.publish(event_id, &seats, now);
    }

    let session = match tokio::time::timeout(
        PROVIDER_TIMEOUT,
        state.payments.provider.create_checkout(&request),
    )
    .await
    {
        Ok(Ok(session)) => session,
        outcome => {
            let why = match outcome {
                Ok(Err(e)) => e.to_string(),
                _ => "timeout".to_string(),
            };
            tracing::warn!(
                %booking_id,
                why,
                "checkout session not created; booking stays PAYMENT_PENDING"
            );
            if let Some(key) = key {
                idempotency::release(&state.db, buyer, key).await?;
            }
            return Err(ApiError::ProviderUnavailable);
        }
    };
    let now = state.clock.now();
    let response = PayResponse {
        booking_id: booking_id.clone(),
        status: BookingStatus::PaymentPending,
        checkout_url: session.url.clone(),
        checkout_session_id: session.id.clone(),
        expires_in_ms: (request.deadline_ms.min(session.expires_at_ms) - now).max(0),
    };
    let body = serde_json::to_string(&response).map_err(ApiError::internal)?;
    let mut tx = state.db.begin().await?;
    record_session(&mut tx, booking_id, &session, now).await?;
    if let Some(key) = key {
        idempotency::complete(&mut tx, buyer, key, 200, &body).await?;
    }
    db::commit(tx).await?;
    crate::platform::metrics::payment("started");
    Ok(Idempotent::Fresh(response))
}

/// Whether a session may still be opened: the booking still waits, and the
/// provider would take the session's end (Stripe wants `expires_at` at
/// least 30 minutes ahead).
pub fn can_still_create(state: &AppState, request: &CheckoutRequest, now: At) -> bool {
    let min = state.payments.provider.min_checkout_lifetime_ms().max(1);
    request.deadline_ms > now && request.expires_at_ms - now >= min
}

/// Ends a booking whose checkout can no longer be created (the pay step's
/// retry, or reconciliation): nobody can have paid a session that never
/// reached the buyer. Answers whether it ended it.
pub async fn give_up(
    state: &AppState,
    booking_id: &BookingId,
    by: &Cause,
) -> Result<bool, ApiError> {
    let mut tx = state.db.begin().await?;
    let (ended, changes) =
        effects::apply_checkout_ended(&mut tx, booking_id, by, state.clock.now()).await?;
    db::commit(tx).await?;
    outbox::publish(state, &changes);
    Ok(ended)
}

/// A booking already past HELD, asked to pay again: a checkout whose
/// first try never reached the provider is tried again; one whose session
/// is open and running goes on with it; anything else is refused.
enum Again {
    Retry,
    Open(OpenCheckout),
}

/// A checkout session the buyer left (Back, a closed tab) and may go on with.
struct OpenCheckout {
    checkout_session_id: String,
    checkout_url: String,
    held_until: At,
}

impl OpenCheckout {
    fn answer(self, booking_id: &BookingId, now: At) -> PayResponse {
        PayResponse {
            booking_id: booking_id.clone(),
            status: BookingStatus::PaymentPending,
            checkout_url: self.checkout_url,
            checkout_session_id: self.checkout_session_id,
            expires_in_ms: (self.held_until - now).max(0),
        }
    }
}

async fn payable_again(
    tx: &mut Tx,
    booking_id: &BookingId,
    buyer: &BuyerId,
    now: At,
) -> Result<Again, ApiError> {
    #[derive(sqlx::FromRow)]
    struct Row {
        status: BookingStatus,
        held_until: At,
        payment_status: Option<PaymentStatus>,
        checkout_session_id: Option<String>,
        checkout_url: Option<String>,
    }
    let rows: Vec<Row> = sqlx::query_as(
        "select b.status, b.held_until, p.status as payment_status, p.checkout_session_id,
                p.checkout_url
         from booking b left join payment p on p.booking_id = b.id where b.id = $1 and b.buyer_id = $2",
    )
    .bind(booking_id)
    .bind(buyer)
    .fetch_all(&mut **tx)
    .await?;
    let Some(row) = rows.into_iter().next() else {
        return Err(ApiError::NotFound("booking"));
    };
    let status = row.status;
    match (status, row.checkout_session_id, row.checkout_url) {
        (BookingStatus::Held, _, _) if row.held_until <= now => Err(ApiError::HoldExpired),
        (BookingStatus::PaymentPending, None, _) => Ok(Again::Retry),
        (BookingStatus::PaymentPending, Some(session), Some(url))
            if row.held_until > now && row.payment_status == Some(PaymentStatus::Open) =>
        {
            Ok(Again::Open(OpenCheckout {
                checkout_session_id: session,
                checkout_url: url,
                held_until: row.held_until,
            }))
        }
        (BookingStatus::PaymentPending, Some(_), _) if row.held_until <= now => {
            Err(ApiError::HoldExpired)
        }
        _ => Err(ApiError::InvalidState(format!(
            "a {status} booking cannot be paid"
        ))),
    }
}

/// What the provider is asked to charge, from the booking's row.
#[derive(sqlx::FromRow)]
struct ToCharge {
    #[sqlx(flatten)]
    price: Money,
    held_until: At,
    ga_quantity: i64,
    /// When the checkout began (its payment row was made).
    began: Option<At>,
}

/// A seat of the booking on the provider's page: its label and price, and
/// whether it is still the booking's.
#[derive(sqlx::FromRow)]
struct Line {
    label: String,
    price_cents: i64,
    seat_id: SeatId,
    /// 1 while the seat is the booking's (`booking_seat.live`).
    live: i32,
}

/// The provider request for a booking: always the same for the same booking.
pub async fn checkout_request(
    tx: &mut Tx,
    state: &AppState,
    booking_id: &BookingId,
) -> Result<CheckoutRequest, ApiError> {
    let charge: ToCharge = sqlx::query_as(
        "select b.amount_cents, b.currency, b.held_until, b.ga_quantity, p.created_at as began
         from booking b left join payment p on p.booking_id = b.id where b.id = $1",
    )
    .bind(booking_id)
    .fetch_one(&mut **tx)
    .await?;
    let lines = lines(tx, booking_id).await?;
    Ok(request_for(state, booking_id, charge, lines))
}

async fn lines(tx: &mut Tx, booking_id: &BookingId) -> Result<Vec<Line>, sqlx::Error> {
    sqlx::query_as(
        "select s.label, bs.price_cents, bs.seat_id, bs.live
         from booking_seat bs join seat s on s.id = bs.seat_id
         where bs.booking_id = $1 order by s.id",
    )
    .bind(booking_id)
    .fetch_all(&mut **tx)
    .await
}

fn request_for(
    state: &AppState,
    booking_id: &BookingId,
    charge: ToCharge,
    lines: Vec<Line>,
) -> CheckoutRequest {
    let ToCharge {
        price,
        held_until,
        ga_quantity: ga_qty,
        began,
    } = charge;
    // The session lasts the full checkout time from when the checkout
    // began (stable across retries, as the provider's idempotency wants),
    // even when the booking's own deadline is shorter.
    let session_end = began.map_or(held_until, |b| b + state.payments.settings.checkout_ttl_ms);
    let mut lines: Vec<(String, i64)> = lines
        .into_iter()
        .map(|l| (l.label, l.price_cents))
        .collect();
    let amount = price.minor();
    if ga_qty > 0 {
        lines.push((format!("Standing × {ga_qty}"), amount));
    }
    // A promo code lowered the amount: the provider charges exactly that,
    // as one line naming the seats (a line per seat would charge the full
    // prices and the webhook would then refuse the mismatched amount).
    if lines.iter().map(|l| l.1).sum::<i64>() != amount {
        let seats: Vec<String> = lines.into_iter().map(|l| l.0).collect();
        lines = vec![(format!("{} (promo applied)", seats.join(", ")), amount)];
    }
    let base = &state.payments.settings.public_base_url;
    CheckoutRequest {
        booking_id: booking_id.clone(),
        price,
        lines,
        expires_at_ms: held_until.max(session_end),
        deadline_ms: held_until,
        // The return page watches a little longer after a checkout: a
        // payment may still be on its way for a booking that has ended.
        success_url: format!("{base}/bookings/{booking_id}?checkout=done"),
        cancel_url: format!("{base}/bookings/{booking_id}"),
        idempotency_key: format!("checkout-{booking_id}"),
    }
}

/// Stores the provider's session; the payment deadline is its end at the
/// latest.
pub async fn record_session(
    tx: &mut Tx,
    booking_id: &BookingId,
    session: &CheckoutSession,
    now: At,
) -> Result<(), sqlx::Error> {
    payments::record_session(tx, booking_id, session, now).await?;
    store::move_payment_deadline(tx, booking_id, session.expires_at_ms).await
}

/// The seats the checkout keeps, as the live map shows them.
fn seats_in_checkout(lines: &[Line]) -> Vec<(SeatId, Occupancy)> {
    lines
        .iter()
        .filter(|l| l.live == 1)
        .map(|l| (l.seat_id, Occupancy::Pending))
        .collect()
}
