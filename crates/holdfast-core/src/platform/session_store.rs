//! tower-sessions records in our own database, through the same pool as
//! everything else (one store for both backends, so no typed-store enum).
//!
//! Loaded records are also kept in memory: a buyer's session is written once
//! (when the buyer id is given) and then only read, so serving it from memory
//! saves a query on every request. Every save or delete goes to the database
//! and refreshes this instance's copy; the copy is only ever a cache.
//!
//! Except for signed-in sessions: a record holding one of the keys it was
//! given (an admin grant, a buyer's account: `state::SIGNED_IN_KEYS`) is read from the database on every request, so a
//! sign-out on one instance is a sign-out on all of them at once. Guests
//! (the crowd of an on-sale) are served from memory: nothing signs a guest
//! out. The copy of a signed-in record still spares the write of a save
//! that changes nothing.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use tower_sessions_core::session::{Id, Record};
use tower_sessions_core::session_store::{Error, Result};
use tower_sessions_core::SessionStore;

use super::db::Db;

#[derive(Clone)]
pub struct DbSessionStore {
    db: Db,
    cache: Arc<Mutex<HashMap<Id, Record>>>,
    /// Keys whose presence makes a record signed in.
    signed_in_keys: &'static [&'static str],
}

/// Entries kept before the cache starts over.
const CACHE_CAPACITY: usize = 200_000;

impl std::fmt::Debug for DbSessionStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DbSessionStore")
    }
}

impl DbSessionStore {
    /// A record of a signed-in admin or buyer: read from the database on
    /// every request.
    fn signed_in(&self, record: &Record) -> bool {
        self.signed_in_keys
            .iter()
            .any(|key| record.data.contains_key(*key))
    }

    pub fn new(db: Db, signed_in_keys: &'static [&'static str]) -> Self {
        DbSessionStore {
            db,
            cache: Arc::default(),
            signed_in_keys,
        }
    }

    /// Deletes sessions past their expiry; returns how many. Committed
    /// through `db::commit` (fenced inside the purge job).
    pub async fn delete_expired(&self) -> std::result::Result<u64, sqlx::Error> {
        let mut tx = self.db.begin().await?;
        let deleted = sqlx::query("delete from session where expiry_ms < $1")
            .bind(chrono::Utc::now().timestamp_millis())
            .execute(&mut *tx)
            .await?
            .rows_affected();
        super::db::commit(tx).await?;
        Ok(deleted)
    }
}

impl DbSessionStore {
    /// The record to serve without the database: a guest's.
    fn served_from_memory(&self, id: &Id) -> Option<Record> {
        self.cached(id).filter(|r| !self.signed_in(r))
    }

    fn cached(&self, id: &Id) -> Option<Record> {
        let cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        cache
            .get(id)
            .filter(|r| r.expiry_date > time::OffsetDateTime::now_utc())
            .cloned()
    }

    fn remember(&self, record: &Record) {
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        if cache.len() >= CACHE_CAPACITY {
            cache.clear();
        }
        cache.insert(record.id, record.clone());
    }

    /// The same data as stored, and an expiry less than an hour apart: the
    /// write would change nothing that matters.
    fn unchanged(&self, record: &Record) -> bool {
        self.cached(&record.id).is_some_and(|c| {
            c.data == record.data
                && (c.expiry_date - record.expiry_date).abs() < time::Duration::hours(1)
        })
    }

    fn forget(&self, id: &Id) {
        self.cache
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(id);
    }
}

/// Said of a store error whose database went away (a failover, a
/// restart): `buyer::session_error` answers those 503, not 500.
pub const CONNECTION_LOST: &str = "database connection lost";

fn backend(e: sqlx::Error) -> Error {
    if super::retry::is_connection_lost(&e) {
        Error::Backend(format!("{CONNECTION_LOST}: {e}"))
    } else {
        Error::Backend(e.to_string())
    }
}

fn expiry_ms(record: &Record) -> i64 {
    (record.expiry_date.unix_timestamp_nanos() / 1_000_000) as i64
}

#[async_trait]
impl SessionStore for DbSessionStore {
    async fn create(&self, record: &mut Record) -> Result<()> {
        loop {
            let data = serde_json::to_vec(&record).map_err(|e| Error::Encode(e.to_string()))?;
            let inserted = sqlx::query(
                "insert into session (id, data, expiry_ms) values ($1, $2, $3) on conflict (id) do nothing",
            )
            .bind(record.id.to_string())
            .bind(data)
            .bind(expiry_ms(record))
            .execute(self.db.writer())
            .await
            .map_err(backend)?
            .rows_affected();
            if inserted == 1 {
                self.remember(record);
                return Ok(());
            }
            record.id = Id::default();
        }
    }

    async fn save(&self, record: &Record) -> Result<()> {
        if self.unchanged(record) {
            return Ok(());
        }
        let data = serde_json::to_vec(&record).map_err(|e| Error::Encode(e.to_string()))?;
        sqlx::query(
            "insert into session (id, data, expiry_ms) values ($1, $2, $3)
             on conflict (id) do update set data = excluded.data, expiry_ms = excluded.expiry_ms",
        )
        .bind(record.id.to_string())
        .bind(data)
        .bind(expiry_ms(record))
        .execute(self.db.writer())
        .await
        .map_err(backend)?;
        self.remember(record);
        Ok(())
    }

    async fn load(&self, id: &Id) -> Result<Option<Record>> {
        if let Some(record) = self.served_from_memory(id) {
            return Ok(Some(record));
        }
        let row: Option<(Vec<u8>,)> =
            sqlx::query_as("select data from session where id = $1 and expiry_ms > $2")
                .bind(id.to_string())
                .bind(chrono::Utc::now().timestamp_millis())
                .fetch_optional(self.db.reader())
                .await
                .map_err(backend)?;
        let record: Option<Record> = row
            .map(|(data,)| serde_json::from_slice(&data).map_err(|e| Error::Decode(e.to_string())))
            .transpose()?;
        match &record {
            Some(r) => self.remember(r),
            // Deleted elsewhere (a sign-out on another instance).
            None => self.forget(id),
        }
        Ok(record)
    }

    async fn delete(&self, id: &Id) -> Result<()> {
        self.forget(id);
        sqlx::query("delete from session where id = $1")
            .bind(id.to_string())
            .execute(self.db.writer())
            .await
            .map_err(backend)?;
        Ok(())
    }
}
