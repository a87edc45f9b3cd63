//! The language a buyer reads Holdfast in: remembered when they start
//! paying (the page's language, or the API call's `Accept-Language`), read
//! when their mail is written. A buyer who never said is written to in
//! English.

use crate::platform::db::{Db, Tx};
use crate::{ApiError, AppState};
use holdfast_model::i18n::Locale;
use holdfast_model::{BookingId, BuyerId};

/// Remembers `l` for this buyer (a write only when it changed).
pub async fn remember(state: &AppState, buyer: &BuyerId, l: Locale) -> Result<(), ApiError> {
    sqlx::query(
        "insert into buyer_language (buyer_id, language, updated_at) values ($1, $2, $3)
         on conflict (buyer_id) do update set language = excluded.language, updated_at = excluded.updated_at
         where buyer_language.language <> excluded.language",
    )
    .bind(buyer)
    .bind(l.tag())
    .bind(state.clock.now())
    .execute(state.db.writer())
    .await?;
    Ok(())
}

const OF_BOOKING: &str =
    "select l.language from booking b join buyer_language l on l.buyer_id = b.buyer_id
     where b.id = $1";

/// The language of the buyer of this booking.
pub async fn of_booking(tx: &mut Tx, booking_id: &BookingId) -> Result<Locale, sqlx::Error> {
    let row: Option<(String,)> = sqlx::query_as(OF_BOOKING)
        .bind(booking_id)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(said(row))
}

/// The same, outside a transaction (a mail on its way out).
pub async fn of_booking_now(db: &Db, booking_id: &BookingId) -> Result<Locale, sqlx::Error> {
    let row: Option<(String,)> = sqlx::query_as(OF_BOOKING)
        .bind(booking_id)
        .fetch_optional(db.reader())
        .await?;
    Ok(said(row))
}

/// The language a stored tag names (English when none, or unknown).
fn said(row: Option<(String,)>) -> Locale {
    row.and_then(|(tag,)| Locale::parse(&tag))
        .unwrap_or_default()
}
