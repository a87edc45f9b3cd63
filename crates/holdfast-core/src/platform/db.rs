//! Persistence plumbing: the one place that knows SQLite from Postgres.
//!
//! Both backends run the same SQL through sqlx's `Any` driver (`$1`
//! placeholders, `RETURNING`, partial unique indexes, `ON CONFLICT`), with
//! times as integer milliseconds. The differences are named here once:
//! SQLite gets a single writer connection (WAL lets readers go on), Postgres a
//! pool and `FOR UPDATE SKIP LOCKED` for workers.
//!
//! **A write outside a transaction that returns rows is read with
//! `fetch_all`**, never `fetch_one` or `fetch_optional`. On Postgres, sqlx's
//! `Any` driver hands those two the first row as soon as it arrives and
//! leaves the rest of the answer unread, and Postgres commits such a
//! statement only after sending its rows. They normally wait in its output
//! buffer until the commit is confirmed, but a notice sent during the
//! commit (a synchronous standby's wait cut short: the backend terminated,
//! or its server shutting down in a failover) flushes them out first, and
//! the caller would act on a commit nobody confirmed — one a promoted
//! standby may not have. `fetch_all` reads to the end of the answer: the
//! commit's confirmation, or the connection's loss.

use std::str::FromStr;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Executor};

use super::jobs::fence::{self, Fence};

/// The tables whose rows an on-sale multiplies (`refresh_statistics`).
const BUSY_TABLES: [&str; 5] = [
    "booking",
    "booking_seat",
    "idempotency_key",
    "buyer_event",
    "session",
];

/// The refresh's sample: 3,000 rows a table (a statistics target of 10),
/// not Postgres' default 30,000. The claims' plans hang on row counts and
/// a handful of statuses, which the small sample gives as well; the large
/// one would read every sampled key's stored answer every few seconds of an
/// on-sale, taking from the claims the cores they need.
const REFRESH_SAMPLE: &str = "set local default_statistics_target = 10";

/// Connections of the claims' writers on Postgres.
const POSTGRES_CLAIM_WRITERS: u32 = 4;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Clone)]
pub struct Db {
    pub backend: Backend,
    /// Reads (and, on Postgres, writes too).
    read: AnyPool,
    /// Writes. On SQLite a pool of exactly one connection: SQLite allows one
    /// writer at a time, and queueing here is cheaper and fairer than
    /// `SQLITE_BUSY` retries.
    write: AnyPool,
    /// The claims' writers (`booking::store::group_commit`): on Postgres
    /// connections of their own, so a crowd's reads queueing for the pool
    /// never hold up the commit their holds wait for; on SQLite the writer.
    claims: AnyPool,
    /// Which pool `write` is, in the pool-wait histogram.
    write_label: &'static str,
}

pub type Tx = sqlx::Transaction<'static, sqlx::Any>;

impl Db {
    pub async fn connect(url: &str, max_connections: u32) -> Result<Db, sqlx::Error> {
        sqlx::any::install_default_drivers();
        if url.starts_with("sqlite:") {
            ensure_sqlite_dir(url);
            let opts = AnyConnectOptions::from_str(&with_create_mode(url))?;
            let read = sqlite_pool(max_connections.max(2), Checkpoints::Elsewhere)
                .connect_with(opts.clone())
                .await?;
            let write = sqlite_pool(1, Checkpoints::Elsewhere)
                .connect_with(opts.clone())
                .await?;
            let checkpointer = sqlite_pool(1, Checkpoints::Here).connect_with(opts).await?;
            spawn_checkpointer(checkpointer, write.clone());
            Ok(Db {
                backend: Backend::Sqlite,
                read,
                claims: write.clone(),
                write,
                write_label: "write",
            })
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            let pool = postgres_pool(max_connections).connect(url).await?;
            let claims = postgres_pool(POSTGRES_CLAIM_WRITERS).connect(url).await?;
            Ok(Db {
                backend: Backend::Postgres,
                read: pool.clone(),
                write: pool,
                claims,
                write_label: "write",
            })
        } else {
            Err(sqlx::Error::Configuration(
                "DATABASE_URL must start with sqlite: or postgres:".into(),
            ))
        }
    }

    pub async fn migrate(&self) -> Result<(), sqlx::migrate::MigrateError> {
        match self.backend {
            Backend::Sqlite => {
                sqlx::migrate!("../../migrations/sqlite")
                    .run(&self.write)
                    .await
            }
            Backend::Postgres => {
                sqlx::migrate!("../../migrations/postgres")
                    .run(&self.write)
                    .await
            }
        }
    }

    pub fn reader(&self) -> &AnyPool {
        &self.read
    }

    pub fn writer(&self) -> &AnyPool {
        &self.write
    }

    /// How many batches of claims may commit at once: one on SQLite (one
    /// writer), a few on Postgres (the server runs them side by side).
    pub fn claim_writers(&self) -> u32 {
        match self.backend {
            Backend::Sqlite => 1,
            Backend::Postgres => POSTGRES_CLAIM_WRITERS,
        }
    }

    /// The same database, writing through the claims' own connections.
    pub fn for_claims(&self) -> Db {
        Db {
            write: self.claims.clone(),
            write_label: "claims",
            ..self.clone()
        }
    }

    /// A write transaction. On SQLite it takes the write lock at once
    /// (`BEGIN IMMEDIATE`): a transaction that read first and wrote later
    /// would otherwise fail with `SQLITE_BUSY`, without waiting, when
    /// another process wrote in between (two instances on one file).
    /// The wait is measured (`holdfast_db_pool_wait_seconds`): a
    /// connection from the pool, then the `BEGIN` (one local round trip).
    pub async fn begin(&self) -> Result<Tx, sqlx::Error> {
        self.begin_then("").await
    }

    /// A write transaction that, on Postgres, first runs `postgres` (`set
    /// local …`, a savepoint), in the same round trip as its `BEGIN`.
    pub async fn begin_then(&self, postgres: &str) -> Result<Tx, sqlx::Error> {
        let asked = std::time::Instant::now();
        let tx = match self.backend {
            Backend::Sqlite => self.write.begin_with("BEGIN IMMEDIATE").await,
            Backend::Postgres if postgres.is_empty() => self.write.begin().await,
            Backend::Postgres => self.write.begin_with(format!("BEGIN; {postgres}")).await,
        };
        super::metrics::pool_wait(self.write_label, asked.elapsed());
        tx
    }

    /// A connection of the write pool, for a statement that is a
    /// transaction of its own (Postgres commits it when it ends); its wait
    /// is measured as `begin`'s.
    pub async fn write_connection(
        &self,
    ) -> Result<sqlx::pool::PoolConnection<sqlx::Any>, sqlx::Error> {
        let asked = std::time::Instant::now();
        let connection = self.write.acquire().await;
        super::metrics::pool_wait(self.write_label, asked.elapsed());
        connection
    }

    /// Sessions of this database waiting on a lock right now (Postgres;
    /// SQLite's single writer queues in the pool instead: 0).
    pub async fn lock_waiters(&self) -> Result<i64, sqlx::Error> {
        match self.backend {
            Backend::Sqlite => Ok(0),
            Backend::Postgres => {
                sqlx::query_scalar(
                    "select count(*) from pg_stat_activity
                     where wait_event_type = 'Lock' and datname = current_database()",
                )
                .fetch_one(&self.read)
                .await
            }
        }
    }

    /// Row locking for queue-like claims by workers running on every
    /// instance. SQLite has a single writer, so it needs none.
    pub fn skip_locked(&self) -> &'static str {
        match self.backend {
            Backend::Sqlite => "",
            Backend::Postgres => " for update skip locked",
        }
    }

    /// Locks the selected row until the transaction ends (Postgres); SQLite's
    /// single writer serialises the whole transaction anyway.
    pub fn lock_row(&self) -> &'static str {
        match self.backend {
            Backend::Sqlite => "",
            Backend::Postgres => " for update",
        }
    }

    pub async fn close(&self) {
        self.read.close().await;
        self.write.close().await;
        self.claims.close().await;
    }

    /// Postgres: analyzes the tables an on-sale fills within seconds, when
    /// more than a tenth of a table (and at least 1,000 rows) changed since
    /// its statistics were taken. Autovacuum looks only once a minute;
    /// between its looks the planner would judge thousands of live holds by
    /// the statistics of an empty table, and its plans would slow every
    /// claim. Returns the tables analyzed.
    pub async fn refresh_statistics(&self) -> Result<Vec<&'static str>, sqlx::Error> {
        if self.backend != Backend::Postgres {
            return Ok(Vec::new());
        }
        let stale: Vec<(String,)> = sqlx::query_as(
            "select cast(relname as text) from pg_stat_user_tables
             where schemaname = current_schema()
               and n_mod_since_analyze > greatest(1000, n_live_tup / 10)",
        )
        .fetch_all(&self.read)
        .await?;
        let mut analyzed = Vec::new();
        for table in BUSY_TABLES {
            if stale.iter().any(|s| s.0 == table) {
                let mut tx = self.write.begin().await?;
                sqlx::query(REFRESH_SAMPLE).execute(&mut *tx).await?;
                sqlx::query(&format!("analyze {table}"))
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                analyzed.push(table);
            }
        }
        Ok(analyzed)
    }

    /// Readiness: have the migrations been applied? (`success` is a boolean
    /// on Postgres and an integer on SQLite.)
    pub async fn migrations_applied(&self) -> Result<bool, sqlx::Error> {
        let sql = match self.backend {
            Backend::Sqlite => "select count(*) from _sqlx_migrations where success = 1",
            Backend::Postgres => "select count(*) from _sqlx_migrations where success = true",
        };
        let (n,): (i64,) = sqlx::query_as(sql).fetch_one(&self.read).await?;
        Ok(n > 0)
    }
}

/// Which connection copies SQLite's write-ahead log back into the
/// database file.
#[derive(Clone, Copy, PartialEq)]
enum Checkpoints {
    /// This one, on its own clock (`spawn_checkpointer`).
    Here,
    /// Not this one: a commit never stops to checkpoint.
    Elsewhere,
}

/// How often the checkpointer looks at the log.
const CHECKPOINT_INTERVAL: Duration = Duration::from_millis(100);

/// A connection idle longer than this is pinged before it is handed out.
pub const PING_AFTER_IDLE: Duration = Duration::from_secs(1);

/// A pool of Postgres connections. sqlx 0.8 pings a connection (a round
/// trip) when it comes back to the pool and, by default, again before
/// handing it out: two trips around every statement outside a transaction.
/// Neither is made for a connection in steady use. Our patched sqlx-core
/// (`vendor/README.md`) flushes a returning connection instead of pinging
/// it: a trip only when an answer is still due or a dropped transaction's
/// ROLLBACK is queued. The ping before handing out is kept for a
/// connection idle longer than [`PING_AFTER_IDLE`], so a server that went
/// away while connections sat idle is still found out (a failed ping
/// discards the connection and the pool takes or opens another).
fn postgres_pool(max: u32) -> AnyPoolOptions {
    AnyPoolOptions::new()
        .max_connections(max)
        .acquire_timeout(Duration::from_secs(10))
        .test_before_acquire(false)
        .before_acquire(|conn, meta| {
            Box::pin(async move {
                if meta.idle_for > PING_AFTER_IDLE {
                    sqlx::Connection::ping(conn).await?;
                }
                Ok(true)
            })
        })
}

fn sqlite_pool(max: u32, checkpoints: Checkpoints) -> AnyPoolOptions {
    AnyPoolOptions::new()
        .max_connections(max)
        // A file does not hang up: no ping through the connection's thread
        // before every use (the single writer's every transaction waited
        // for one). A connection coming back is flushed, not pinged (our
        // patched sqlx-core): a no-op on SQLite, whose commands, a dropped
        // transaction's ROLLBACK included, run in order on its thread.
        .test_before_acquire(false)
        .acquire_timeout(Duration::from_secs(30))
        .after_connect(move |conn, _| {
            Box::pin(async move {
                // WAL: readers never block the writer. synchronous=NORMAL in
                // WAL mode survives a process crash (not a power cut).
                // Temporary files in memory: a batch of claims keeps its
                // savepoints' journal there, not in writes to a file.
                conn.execute(
                    "pragma journal_mode = wal; pragma synchronous = normal; \
                     pragma busy_timeout = 10000; pragma foreign_keys = on; \
                     pragma temp_store = memory;",
                )
                .await?;
                // By default the commit that grows the log past 1,000 pages
                // copies it back and syncs the file while the writer waits
                // (and every claim behind it). Here a connection of its own
                // does that beside the writer.
                if checkpoints == Checkpoints::Elsewhere {
                    conn.execute("pragma wal_autocheckpoint = 0").await?;
                }
                Ok(())
            })
        })
}

/// Copies the log back into the database file every `CHECKPOINT_INTERVAL`,
/// passively (it never waits for, nor stops, the writer or a reader), until
/// the writer's pool is closed.
fn spawn_checkpointer(checkpointer: AnyPool, writer: AnyPool) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(CHECKPOINT_INTERVAL);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        while !writer.is_closed() {
            tick.tick().await;
            if let Err(e) = sqlx::query("pragma wal_checkpoint(passive)")
                .execute(&checkpointer)
                .await
            {
                tracing::warn!(error = %e, "SQLite checkpoint failed");
            }
        }
        checkpointer.close().await;
    });
}

fn with_create_mode(url: &str) -> String {
    if url.contains("mode=") {
        url.to_string()
    } else if url.contains('?') {
        format!("{url}&mode=rwc")
    } else {
        format!("{url}?mode=rwc")
    }
}

/// `sqlite://data/holdfast.db` → make sure `data/` exists before SQLite opens it.
fn ensure_sqlite_dir(url: &str) {
    let path = url
        .trim_start_matches("sqlite://")
        .trim_start_matches("sqlite:")
        .split('?')
        .next()
        .unwrap_or_default();
    if let Some(dir) = std::path::Path::new(path).parent() {
        if !dir.as_os_str().is_empty() {
            let _ = std::fs::create_dir_all(dir);
        }
    }
}

/// True when a statement failed on a unique constraint (SQLite gives no
/// constraint name, so the kind is all we match on).
/// `$from,…,$(from + n - 1)`: the placeholders of a list bound one value
/// each (`id in (…)`), the same on both backends.
pub fn placeholders(from: usize, n: usize) -> String {
    (from..from + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// Commits `tx`. Every transaction commits here, so a job's run (see
/// `jobs::fence`) writes only while it still holds its job's lease: inside
/// a run, the fence is read in the transaction first, and a stale one rolls
/// everything back. Outside a run this is a plain commit.
pub async fn commit(mut tx: Tx) -> Result<(), sqlx::Error> {
    if let Some(fence) = Fence::current() {
        if !fence.still_held(&mut tx).await? {
            tx.rollback().await?;
            return Err(fence::lost(&fence));
        }
    }
    tx.commit().await
}

pub fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}
