//! Giving a promo use back when a hold ends unpaid.

use super::store;
use crate::platform::db::Tx;
use holdfast_model::BookingId;

/// A hold that ends unpaid — HELD to EXPIRED or CANCELLED, so no checkout
/// was ever opened and no payment can follow — gives its promo use back,
/// in the transaction that ends it: the code may be used again, a capped
/// code counts one use less, and the booking's amount is what it was.
pub async fn give_back(tx: &mut Tx, booking_id: &BookingId) -> Result<(), sqlx::Error> {
    match store::return_use(tx, booking_id).await? {
        Some(used) => {
            crate::booking::store::add_to_amount(tx, booking_id, used.discount_cents).await
        }
        None => Ok(()),
    }
}
