//! Giving a promo use back when a hold ends unpaid.

use crate::core::platform::db::Tx;

/// A hold that ends unpaid — HELD to EXPIRED or CANCELLED, so no checkout
/// was ever opened and no payment can follow — gives its promo use back,
/// in the transaction that ends it: the code may be used again, a capped
/// code counts one use less, and the booking's amount is what it was.
pub async fn give_back(tx: &mut Tx, booking_id: &str) -> Result<(), sqlx::Error> {
    let applied: Option<(String, i64, i64)> = sqlx::query_as(
        "delete from booking_promo where booking_id = $1 returning code, campaign_id, discount_cents",
    )
    .bind(booking_id)
    .fetch_optional(&mut **tx)
    .await?;
    let Some((code, campaign_id, discount_cents)) = applied else {
        return Ok(());
    };
    sqlx::query(
        "update promo_campaign set uses = uses - 1 where id = $1 and kind = 'capped' and uses > 0",
    )
    .bind(campaign_id)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "update promo_code set redeemed_at = null, redeemed_booking = null
         where code = $1 and redeemed_booking = $2",
    )
    .bind(&code)
    .bind(booking_id)
    .execute(&mut **tx)
    .await?;
    crate::core::booking::store::add_to_amount(tx, booking_id, discount_cents).await
}

/// Locks the capped campaigns whose uses these bookings would give back, in
/// ascending id order, before one transaction ends several of them: every
/// such transaction then takes those rows in the same order, and none waits
/// on another in a circle. (SQLite has a single writer: nothing to order.)
pub async fn lock_campaigns_of(tx: &mut Tx, booking_ids: &[String]) -> Result<(), sqlx::Error> {
    if booking_ids.len() < 2 || tx.backend_name().eq_ignore_ascii_case("sqlite") {
        return Ok(());
    }
    let list = (0..booking_ids.len())
        .map(|i| format!("${}", i + 1))
        .collect::<Vec<_>>()
        .join(",");
    let sql = format!(
        "select id from promo_campaign where kind = 'capped' and id in
           (select campaign_id from booking_promo where booking_id in ({list}))
         order by id for update"
    );
    let mut q = sqlx::query_as::<_, (i64,)>(&sql);
    for id in booking_ids {
        q = q.bind(id);
    }
    q.fetch_all(&mut **tx).await?;
    Ok(())
}
