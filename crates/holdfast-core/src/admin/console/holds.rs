//! The holds and pending payments running now, in the order they were
//! made: a row stays where it is when its hold is extended.

use crate::platform::clock::At;
use std::collections::HashMap;

use crate::{ApiError, AppState};
use holdfast_model::console::LiveHold;
use holdfast_model::money::Money;
use holdfast_model::{BookingId, BookingStatus, BuyerId, EventId, SeatId};

/// A running booking as read.
#[derive(sqlx::FromRow)]
struct HoldRow {
    id: BookingId,
    event_id: EventId,
    buyer_id: BuyerId,
    status: BookingStatus,
    held_until: At,
    #[sqlx(flatten)]
    price: Money,
    /// Standing places.
    ga_quantity: i64,
    /// The checkout's address, else the signed-in buyer's account.
    buyer_email: Option<String>,
}

/// Live holds and pending payments (all events when `event_id` is `None`),
/// oldest first.
pub async fn live_holds(
    state: &AppState,
    event_id: Option<EventId>,
) -> Result<Vec<LiveHold>, ApiError> {
    let now = state.clock.now();
    let running = format!(
        "(b.status = {} or (b.status = {} and b.held_until > $1))",
        BookingStatus::PaymentPending.sql(),
        BookingStatus::Held.sql()
    );
    let sql = format!(
        "select b.id, b.event_id, b.buyer_id, b.status, b.held_until, b.amount_cents, b.currency,
                b.ga_quantity, coalesce(p.customer_email, a.email) as buyer_email
         from booking b
         left join payment p on p.booking_id = b.id
         left join account a on a.buyer_id = b.buyer_id
         where {running} and ($2 is null or b.event_id = $2)
         order by b.created_at, b.id limit 500"
    );
    let rows: Vec<HoldRow> = sqlx::query_as(&sql)
        .bind(now)
        .bind(event_id)
        .fetch_all(state.db.reader())
        .await?;
    // The seats of all of them in one query (the dashboard asks every
    // second), grouped by booking.
    let sql = format!(
        "select bs.booking_id, s.id, s.label
         from booking_seat bs join seat s on s.id = bs.seat_id join booking b on b.id = bs.booking_id
         where {running} and ($2 is null or b.event_id = $2)
         order by s.id"
    );
    let seat_rows: Vec<(BookingId, SeatId, String)> = sqlx::query_as(&sql)
        .bind(now)
        .bind(event_id)
        .fetch_all(state.db.reader())
        .await?;
    let mut seats_of: HashMap<BookingId, Vec<(SeatId, String)>> = HashMap::new();
    for (booking, id, label) in seat_rows {
        seats_of.entry(booking).or_default().push((id, label));
    }
    Ok(rows
        .into_iter()
        .map(|row| {
            let seats = seats_of.remove(&row.id).unwrap_or_default();
            LiveHold {
                booking_id: row.id,
                event_id: row.event_id,
                buyer_id: row.buyer_id,
                buyer_email: row.buyer_email,
                seat_ids: seats.iter().map(|s| s.0).collect(),
                seat_labels: seats.into_iter().map(|s| s.1).collect(),
                places: row.ga_quantity,
                stage: row.status,
                expires_in_ms: (row.held_until - now).max(0),
                amount_cents: row.price.minor(),
                currency: row.price.currency().code().to_string(),
            }
        })
        .collect())
}
