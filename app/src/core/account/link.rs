//! Sign-in links: asked for with an address, mailed through the outbox,
//! opened once within `LINK_TTL_MS`. Only a hash of the token is stored, so
//! a copy of the database signs nobody in. The mail lists the address's
//! bookings (finding a booking without an account is asking for a link);
//! the answer on screen is the same whatever the address has.

use std::net::IpAddr;

use sha2::{Digest, Sha256};

use super::EmailAddress;
use crate::core::payments::outbox;
use crate::core::platform::db;
use crate::core::{ApiError, AppState};
use crate::i18n::{Locale, Msg};
use crate::model::{BookingId, BookingStatus};

/// How long a link signs in.
pub const LINK_TTL_MS: i64 = 15 * 60 * 1000;
/// Links sent to one address per window: more are silently not sent (the
/// answer stays 202, so it tells nothing about the address) — and never
/// work, their token having gone nowhere.
pub const LINKS_PER_ADDRESS: i64 = 3;
/// Links one client address may ask for per window (then 429).
pub const LINKS_PER_CLIENT: i64 = 10;
const WINDOW_MS: i64 = 15 * 60 * 1000;

/// Mails a sign-in link to `address` unless it had its share this window.
/// `client`: who asked (the per-client limit); `l`: the mail's language.
pub async fn request(
    state: &AppState,
    address: &EmailAddress,
    client: Option<IpAddr>,
    l: Locale,
) -> Result<(), ApiError> {
    let now = state.clock.now();
    let since = now - WINDOW_MS;
    let client = client.map(|ip| ip.to_string());
    let mut tx = state.db.begin().await?;
    if let Some(client) = &client {
        let (asked,): (i64,) = sqlx::query_as(
            "select count(*) from sign_in_link where requested_from = $1 and created_at > $2",
        )
        .bind(client)
        .bind(since)
        .fetch_one(&mut *tx)
        .await?;
        if asked >= LINKS_PER_CLIENT {
            return Err(ApiError::RateLimited {
                retry_after_secs: (WINDOW_MS / 1000) as u64,
            });
        }
    }
    let (asked_for,): (i64,) =
        sqlx::query_as("select count(*) from sign_in_link where email = $1 and created_at > $2")
            .bind(address.as_str())
            .bind(since)
            .fetch_one(&mut *tx)
            .await?;
    // Every request is written down (the client's limit counts it), but
    // only the first few of a window are mailed.
    let token = new_token();
    let hash = token_hash(&token);
    sqlx::query(
        "insert into sign_in_link (token_hash, email, created_at, expires_at, requested_from)
         values ($1, $2, $3, $4, $5)",
    )
    .bind(&hash)
    .bind(address.as_str())
    .bind(now)
    .bind(now + LINK_TTL_MS)
    .bind(&client)
    .execute(&mut *tx)
    .await?;
    if asked_for >= LINKS_PER_ADDRESS {
        tracing::info!("sign-in link not sent: this address had its share this window");
        db::commit(tx).await?;
        return Ok(());
    }
    let base = state
        .payments
        .settings
        .public_base_url
        .trim_end_matches('/');
    let url = format!("{base}/auth/{token}");
    let mut body = l.fill(Msg::MailSignInBody, &[("url", &url)]);
    let bookings = bookings_of(&mut tx, address).await?;
    if !bookings.is_empty() {
        body.push_str("\n\n");
        body.push_str(l.t(Msg::MailYourBookings));
        for (id, event, status) in bookings {
            body.push_str(&format!(
                "\n- {event}: {} ({base}/bookings/{id})",
                status.words(l)
            ));
        }
    }
    outbox::enqueue_secret_email(
        &mut tx,
        &format!("sign-in-{}", &hash[..32]),
        address.as_str(),
        (l.t(Msg::MailSignInSubject), &body),
        &url,
        now,
    )
    .await?;
    db::commit(tx).await?;
    Ok(())
}

/// Why a link did not sign in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkRefused {
    /// Opened before (links are single-use).
    Used,
    /// Older than `LINK_TTL_MS`.
    Expired,
    /// Never issued (or mistyped).
    Unknown,
}

/// Uses the link: the address it signs in, once, before it expires. One
/// conditional update, so two tabs opening it race for one sign-in.
pub async fn redeem(
    state: &AppState,
    token: &str,
) -> Result<Result<EmailAddress, LinkRefused>, ApiError> {
    let now = state.clock.now();
    let hash = token_hash(token);
    let mut tx = state.db.begin().await?;
    let won: Option<(String,)> = sqlx::query_as(
        "update sign_in_link set used_at = $2
         where token_hash = $1 and used_at is null and expires_at > $2 returning email",
    )
    .bind(&hash)
    .bind(now)
    .fetch_optional(&mut *tx)
    .await?;
    let answer = match won {
        Some((email,)) => Ok(EmailAddress::parse(&email)?),
        None => {
            let row: Option<(Option<i64>,)> =
                sqlx::query_as("select used_at from sign_in_link where token_hash = $1")
                    .bind(&hash)
                    .fetch_optional(&mut *tx)
                    .await?;
            Err(match row {
                Some((Some(_),)) => LinkRefused::Used,
                Some((None,)) => LinkRefused::Expired,
                None => LinkRefused::Unknown,
            })
        }
    };
    db::commit(tx).await?;
    Ok(answer)
}

/// 32 random bytes, hex: what the link carries.
fn new_token() -> String {
    use rand::RngCore;
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// What the database keeps of a token.
fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The bookings an address may see (its account's, and those paid with it)
/// that are worth listing: booked, paying, or money back.
async fn bookings_of(
    tx: &mut db::Tx,
    address: &EmailAddress,
) -> Result<Vec<(BookingId, String, BookingStatus)>, sqlx::Error> {
    let listed = BookingStatus::sql_list(&[
        BookingStatus::Booked,
        BookingStatus::PaymentPending,
        BookingStatus::Refunded,
    ]);
    sqlx::query_as(&format!(
        "select b.id, e.name, b.status from booking b join event e on e.id = b.event_id
         where b.status in {listed}
           and b.id in (select mine.id from booking mine
                         where mine.buyer_id = (select buyer_id from account where email = $1)
                        union select paid.booking_id from payment paid
                         where lower(paid.customer_email) = $1)
         order by b.created_at desc limit 20"
    ))
    .bind(address.as_str())
    .fetch_all(&mut **tx)
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_and_stored_hashed() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert_ne!(token_hash(&a), a);
        assert_eq!(token_hash(&a), token_hash(&a));
    }
}
