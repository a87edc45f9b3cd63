//! Idempotency keys after the IETF draft "The Idempotency-Key HTTP Header
//! Field", scoped per buyer. The key row is inserted in the same transaction
//! as the effect and completed with the response there, so a key is either
//! absent (the request had no effect and may be retried) or carries the one
//! answer to replay. Only successful answers are stored: a refused hold
//! changed nothing and may be tried again with the same key.

use crate::platform::clock::At;
use http::HeaderMap;
use sha2::{Digest, Sha256};

use super::db::{Db, Tx};
use crate::ApiError;
use holdfast_model::BuyerId;

pub const HEADER: &str = "idempotency-key";
/// Keys are kept at least this long, then purged by a worker.
pub const RETENTION_MS: i64 = 24 * 60 * 60 * 1000;

/// A parsed key with the fingerprint of the request it came with.
#[derive(Debug, Clone)]
pub struct IdempotencyKey {
    pub key: String,
    pub fingerprint: String,
    /// The buyer was made by this very request, so no earlier request can
    /// have stored an answer under the key (see `of_buyer`).
    pub new_buyer: bool,
}

impl IdempotencyKey {
    /// 1–255 printable ASCII characters (docs/API.md).
    pub fn parse(raw: &str, request_parts: &[&[u8]]) -> Result<Self, ApiError> {
        if raw.is_empty() || raw.len() > 255 || !raw.bytes().all(|b| (0x20..0x7f).contains(&b)) {
            return Err(ApiError::validation(
                "Idempotency-Key must be 1 to 255 printable ASCII characters",
                "Idempotency-Key",
            ));
        }
        let mut h = Sha256::new();
        for part in request_parts {
            h.update((part.len() as u64).to_be_bytes());
            h.update(part);
        }
        Ok(IdempotencyKey {
            key: raw.to_string(),
            fingerprint: hex::encode(h.finalize()),
            new_buyer: false,
        })
    }

    /// The key, saying whether the request made its buyer up
    /// (`buyer::SessionBuyer`): for a new buyer, looking for an earlier
    /// answer is skipped. In an on-sale most refused holds are a new buyer's
    /// first try, refused from the map; this saves each of them its one
    /// query. A key claimed in a transaction is still checked there, as for
    /// anyone.
    pub fn of_buyer(self, new_buyer: bool) -> Self {
        IdempotencyKey { new_buyer, ..self }
    }

    /// The key of a request that must have one: the fingerprint covers the
    /// method, the path and the body — a JSON body as what it says, so
    /// spacing and the order of an object's fields do not make another
    /// request (the compact form with sorted fields, which is what most
    /// clients send, hashes as its own bytes).
    pub fn required(
        headers: &HeaderMap,
        method: &str,
        path: &str,
        body: &[u8],
    ) -> Result<Self, ApiError> {
        let raw = headers
            .get(HEADER)
            .ok_or(ApiError::IdempotencyKeyMissing)?
            .to_str()
            .map_err(|_| {
                ApiError::validation("Idempotency-Key must be printable ASCII", "Idempotency-Key")
            })?;
        let body = canonical_json(body).map_or(std::borrow::Cow::Borrowed(body), |c| c.into());
        Self::parse(raw, &[method.as_bytes(), path.as_bytes(), &body])
    }
}

/// A JSON document written compactly with every object's fields in order
/// (serde_json's map is sorted: its `preserve_order` is off, and the test
/// below fails if it is turned on); `None` when the bytes are not JSON
/// (they are then fingerprinted as sent).
fn canonical_json(body: &[u8]) -> Option<Vec<u8>> {
    let value: serde_json::Value = serde_json::from_slice(body).ok()?;
    serde_json::to_vec(&value).ok()
}

/// A stored answer to replay.
#[derive(Debug)]
pub struct Stored {
    pub status: u16,
    pub body: String,
}

/// How long a request may hold its key without an answer. Only pay holds
/// a key across two transactions (the provider is called in between); a
/// claim older than this belonged to a process that died mid-request, and
/// the retry takes it over — safe, because the provider call is itself
/// idempotent per booking.
pub const IN_FLIGHT_LEASE_MS: i64 = 15_000;

/// Looks the key up outside any transaction: `Ok(Some)` replays, `Ok(None)`
/// means "not seen yet" (or abandoned by a dead process: then forgotten),
/// errors are 422 (other request) or 409 (in flight).
pub async fn lookup(
    db: &Db,
    buyer: &BuyerId,
    key: &IdempotencyKey,
    now: At,
) -> Result<Option<Stored>, ApiError> {
    let row: Option<KeyRow> = sqlx::query_as(
        "select fingerprint, status_code, response_body, created_at from idempotency_key where buyer_id = $1 and key = $2",
    )
    .bind(buyer)
    .bind(&key.key)
    .fetch_optional(db.reader())
    .await?;
    match row {
        None => Ok(None),
        Some(r) if r.fingerprint != key.fingerprint => Err(ApiError::IdempotencyKeyReused),
        Some(KeyRow {
            status_code: Some(status),
            response_body: Some(body),
            ..
        }) => Ok(Some(Stored {
            status: status as u16,
            body,
        })),
        Some(KeyRow { created_at, .. }) if created_at <= now - IN_FLIGHT_LEASE_MS => {
            sqlx::query(
                "delete from idempotency_key where buyer_id = $1 and key = $2
                 and status_code is null and created_at = $3",
            )
            .bind(buyer)
            .bind(&key.key)
            .bind(created_at)
            .execute(db.writer())
            .await?;
            Ok(None)
        }
        Some(_) => Err(ApiError::IdempotencyKeyInUse),
    }
}

/// A key as stored: the request's fingerprint, and the answer once there
/// is one (`created_at` is when the request claimed the key).
#[derive(sqlx::FromRow)]
struct KeyRow {
    fingerprint: String,
    status_code: Option<i64>,
    response_body: Option<String>,
    created_at: At,
}

/// Inserts the key inside the effect's transaction. `false`: another request
/// with this key committed first (on Postgres this waits for it), so the
/// caller rolls back and answers with `lookup`.
pub async fn claim(
    tx: &mut Tx,
    buyer: &BuyerId,
    key: &IdempotencyKey,
    now: At,
) -> Result<bool, sqlx::Error> {
    Ok(sqlx::query(
        "insert into idempotency_key (buyer_id, key, fingerprint, created_at) values ($1, $2, $3, $4)
         on conflict (buyer_id, key) do nothing",
    )
    .bind(buyer)
    .bind(&key.key)
    .bind(&key.fingerprint)
    .bind(now)
    .execute(&mut **tx)
    .await?
    .rows_affected()
        == 1)
}

/// Stores the answer, in the transaction of the effect.
pub async fn complete(
    tx: &mut Tx,
    buyer: &BuyerId,
    key: &IdempotencyKey,
    status: u16,
    body: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("update idempotency_key set status_code = $3, response_body = $4 where buyer_id = $1 and key = $2")
        .bind(buyer)
        .bind(&key.key)
        .bind(status as i64)
        .bind(body)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// After losing `claim`: the winner's answer, or the reason there is none.
pub async fn answer_for_loser(
    db: &Db,
    buyer: &BuyerId,
    key: &IdempotencyKey,
    now: At,
) -> Result<Stored, ApiError> {
    lookup(db, buyer, key, now)
        .await?
        .ok_or(ApiError::IdempotencyKeyInUse)
}

/// Forgets a key whose request ended without a stored answer (the provider
/// did not answer), so the client may retry with it.
pub async fn release(db: &Db, buyer: &BuyerId, key: &IdempotencyKey) -> Result<(), sqlx::Error> {
    sqlx::query(
        "delete from idempotency_key where buyer_id = $1 and key = $2 and status_code is null",
    )
    .bind(buyer)
    .bind(&key.key)
    .execute(db.writer())
    .await?;
    Ok(())
}

/// Drops keys older than the retention; returns how many.
/// A transaction of its own, committed through `db::commit`: inside the
/// purge job it writes only while the job's lease holds.
pub async fn purge_expired(db: &Db, now: At) -> Result<u64, sqlx::Error> {
    let mut tx = db.begin().await?;
    let purged = sqlx::query("delete from idempotency_key where created_at < $1")
        .bind(now - RETENTION_MS)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    super::db::commit(tx).await?;
    Ok(purged)
}

#[cfg(test)]
mod tests {
    use super::canonical_json;

    #[test]
    fn the_same_json_said_differently_is_one_request() {
        let compact = br#"{"promoCode":"X","seatIds":[3,1]}"#;
        assert_eq!(canonical_json(compact).as_deref(), Some(&compact[..]));
        let spaced = b"{ \"seatIds\" : [ 3, 1 ],\n \"promoCode\": \"X\" }";
        assert_eq!(canonical_json(spaced), canonical_json(compact));
        // The seats' order is what was asked: another request.
        let other = br#"{"promoCode":"X","seatIds":[1,3]}"#;
        assert_ne!(canonical_json(other), canonical_json(compact));
        assert_eq!(canonical_json(b"not json"), None);
    }
}
