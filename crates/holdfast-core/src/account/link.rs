//! Sign-in links: asked for with an address, mailed through the outbox,
//! opened once within `LINK_TTL_MS`. Only a hash of the token is stored, so
//! a copy of the database signs nobody in. The mail lists the address's
//! bookings (finding a booking without an account is asking for a link);
//! the answer on screen is the same whatever the address has.

use std::net::IpAddr;

use sha2::{Digest, Sha256};

use super::EmailAddress;
use crate::payments::outbox;
use crate::platform::clock::At;
use crate::platform::db;
use crate::{ApiError, AppState};
use holdfast_model::i18n::{Locale, Msg};
use holdfast_model::{BookingId, BookingStatus};

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
/// `client`: who asked (the per-client limit); `asked_by`: the asking
/// browser's mark (`session::browser_mark`), kept hashed; `l`: the mail's
/// language.
pub async fn request(
    state: &AppState,
    address: &EmailAddress,
    client: Option<IpAddr>,
    asked_by: Option<&str>,
    l: Locale,
) -> Result<(), ApiError> {
    let now = state.clock.now();
    let client = client.map(|ip| ip.to_string());
    let mut tx = state.db.begin().await?;
    // The client's row first, then the address's: every ask takes the two
    // row locks in the same order.
    if let Some(client) = &client {
        let asked = count_ask(&mut tx, &format!("client:{client}"), now).await?;
        if asked > LINKS_PER_CLIENT {
            // Rolled back: a refused ask is not counted.
            return Err(ApiError::RateLimited {
                retry_after_secs: (WINDOW_MS / 1000) as u64,
            });
        }
    }
    let asked_for = count_ask(&mut tx, &format!("email:{}", address.as_str()), now).await?;
    // Every request is written down (the client's limit counts it), but
    // only the first few of a window are mailed.
    let token = new_token();
    let hash = token_hash(&token);
    sqlx::query(
        "insert into sign_in_link (token_hash, email, created_at, expires_at, requested_from, asked_by)
         values ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&hash)
    .bind(address.as_str())
    .bind(now)
    .bind(now + LINK_TTL_MS)
    .bind(&client)
    .bind(asked_by.map(token_hash))
    .execute(&mut *tx)
    .await?;
    if asked_for > LINKS_PER_ADDRESS {
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

/// A link that may still sign in: the address, and whether `browser`
/// (the opening session's mark) is the one that asked for it.
#[derive(Debug, Clone)]
pub struct OpenLink {
    pub address: EmailAddress,
    pub same_browser: bool,
}

/// Reads the link without using it: what the confirmation page shows.
/// Opening a link (a GET: a mail scanner, a prefetch, a page another site
/// sent the browser to) never signs anybody in.
pub async fn peek(
    state: &AppState,
    token: &str,
    browser: Option<&str>,
) -> Result<Result<OpenLink, LinkRefused>, ApiError> {
    let row: Option<(String, At, Option<At>, Option<String>)> = sqlx::query_as(
        "select email, expires_at, used_at, asked_by from sign_in_link where token_hash = $1",
    )
    .bind(token_hash(token))
    .fetch_optional(state.db.reader())
    .await?;
    Ok(match row {
        None => Err(LinkRefused::Unknown),
        Some((_, _, Some(_), _)) => Err(LinkRefused::Used),
        Some((_, expires_at, None, _)) if expires_at <= state.clock.now() => {
            Err(LinkRefused::Expired)
        }
        Some((email, _, None, asked_by)) => Ok(OpenLink {
            address: EmailAddress::parse(&email)?,
            same_browser: same_browser(asked_by.as_deref(), browser),
        }),
    })
}

/// Uses the link: the address it signs in, once, before it expires. One
/// conditional update, so two tabs confirming it race for one sign-in.
pub async fn redeem(
    state: &AppState,
    token: &str,
    browser: Option<&str>,
) -> Result<Result<OpenLink, LinkRefused>, ApiError> {
    let now = state.clock.now();
    let hash = token_hash(token);
    let mut tx = state.db.begin().await?;
    let won: Option<(String, Option<String>)> = sqlx::query_as(
        "update sign_in_link set used_at = $2
         where token_hash = $1 and used_at is null and expires_at > $2 returning email, asked_by",
    )
    .bind(&hash)
    .bind(now)
    .fetch_optional(&mut *tx)
    .await?;
    let answer = match won {
        Some((email, asked_by)) => Ok(OpenLink {
            address: EmailAddress::parse(&email)?,
            same_browser: same_browser(asked_by.as_deref(), browser),
        }),
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

/// Deletes links (with the address and client they name) a day after they
/// stopped working, and quota rows whose window has passed; how many.
pub async fn purge_expired(db: &db::Db, now: At) -> Result<u64, sqlx::Error> {
    let mut tx = db.begin().await?;
    let links = sqlx::query("delete from sign_in_link where expires_at < $1")
        .bind(now - KEEP_AFTER_EXPIRY_MS)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    let quotas = sqlx::query("delete from sign_in_quota where window_start < $1")
        .bind(now - WINDOW_MS)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    db::commit(tx).await?;
    Ok(links + quotas)
}

/// How long a dead link's row is kept (a "this link was already used"
/// answer instead of "not valid" for a day).
const KEEP_AFTER_EXPIRY_MS: i64 = 24 * 60 * 60 * 1000;

/// Counts one ask in `scope`'s window (a fixed window opened by its first
/// ask); the count with this one. The row's lock orders parallel asks.
pub(crate) async fn count_ask(tx: &mut db::Tx, scope: &str, now: At) -> Result<i64, sqlx::Error> {
    let (asked,): (i64,) = sqlx::query_as(
        "insert into sign_in_quota (scope, window_start, asked) values ($1, $2, 1)
         on conflict (scope) do update set
           asked = case when sign_in_quota.window_start <= $3 then 1 else sign_in_quota.asked + 1 end,
           window_start = case when sign_in_quota.window_start <= $3 then $2 else sign_in_quota.window_start end
         returning asked",
    )
    .bind(scope)
    .bind(now)
    .bind(now - WINDOW_MS)
    .fetch_one(&mut **tx)
    .await?;
    Ok(asked)
}

/// Whether the browser opening a link is the one that asked for it.
fn same_browser(asked_by: Option<&str>, browser: Option<&str>) -> bool {
    match (asked_by, browser) {
        (Some(asked_by), Some(browser)) => asked_by == token_hash(browser),
        _ => false,
    }
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
