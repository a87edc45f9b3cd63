//! tower-sessions records in our own database, through the same pool as
//! everything else (one store for both backends, so no typed-store enum).

use async_trait::async_trait;
use tower_sessions::session::{Id, Record};
use tower_sessions::session_store::{Error, Result};
use tower_sessions::SessionStore;

use super::db::Db;

#[derive(Clone)]
pub struct DbSessionStore {
    db: Db,
}

impl std::fmt::Debug for DbSessionStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DbSessionStore")
    }
}

impl DbSessionStore {
    pub fn new(db: Db) -> Self {
        DbSessionStore { db }
    }

    /// Deletes sessions past their expiry; returns how many.
    pub async fn delete_expired(&self) -> std::result::Result<u64, sqlx::Error> {
        Ok(sqlx::query("delete from session where expiry_ms < $1")
            .bind(chrono::Utc::now().timestamp_millis())
            .execute(self.db.writer())
            .await?
            .rows_affected())
    }
}

fn backend(e: sqlx::Error) -> Error {
    Error::Backend(e.to_string())
}

fn expiry_ms(record: &Record) -> i64 {
    (record.expiry_date.unix_timestamp_nanos() / 1_000_000) as i64
}

#[async_trait]
impl SessionStore for DbSessionStore {
    async fn create(&self, record: &mut Record) -> Result<()> {
        let data = serde_json::to_vec(&record).map_err(|e| Error::Encode(e.to_string()))?;
        loop {
            let inserted = sqlx::query(
                "insert into session (id, data, expiry_ms) values ($1, $2, $3) on conflict (id) do nothing",
            )
            .bind(record.id.to_string())
            .bind(data.clone())
            .bind(expiry_ms(record))
            .execute(self.db.writer())
            .await
            .map_err(backend)?
            .rows_affected();
            if inserted == 1 {
                return Ok(());
            }
            record.id = Id::default();
        }
    }

    async fn save(&self, record: &Record) -> Result<()> {
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
        Ok(())
    }

    async fn load(&self, id: &Id) -> Result<Option<Record>> {
        let row: Option<(Vec<u8>,)> =
            sqlx::query_as("select data from session where id = $1 and expiry_ms > $2")
                .bind(id.to_string())
                .bind(chrono::Utc::now().timestamp_millis())
                .fetch_optional(self.db.reader())
                .await
                .map_err(backend)?;
        row.map(|(data,)| serde_json::from_slice(&data).map_err(|e| Error::Decode(e.to_string())))
            .transpose()
    }

    async fn delete(&self, id: &Id) -> Result<()> {
        sqlx::query("delete from session where id = $1")
            .bind(id.to_string())
            .execute(self.db.writer())
            .await
            .map_err(backend)?;
        Ok(())
    }
}
