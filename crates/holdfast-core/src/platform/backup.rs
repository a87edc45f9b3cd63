//! `holdfast backup FILE`: an online copy of the SQLite database while
//! Holdfast serves it. SQLite's `VACUUM INTO` reads the database in one
//! transaction, so the copy is one consistent moment however many holds
//! are taken meanwhile, and writers are not held up (WAL mode). The copy is
//! written beside its name, checked (`pragma integrity_check`) and only
//! then given its name: a file under the name is always a whole backup.
//! Postgres is backed up by its own tools (scripts/backup.sh postgres).

use std::path::Path;
use std::time::Instant;

use sqlx::Connection;

/// What a backup wrote.
#[derive(Debug)]
pub struct Backup {
    pub bytes: u64,
    pub bookings: i64,
    pub took: std::time::Duration,
}

/// Copies the SQLite database at `database_url` to `to` (which must not
/// exist yet).
pub async fn sqlite_backup(database_url: &str, to: &Path) -> Result<Backup, String> {
    if !database_url.starts_with("sqlite:") {
        return Err("this database is not SQLite: back Postgres up with scripts/backup.sh postgres (a base backup and the WAL archive)".into());
    }
    if to.exists() {
        return Err(format!("{} exists already; name a new file", to.display()));
    }
    let started = Instant::now();
    sqlx::any::install_default_drivers();
    let partial = to.with_extension("partial");
    let _ = std::fs::remove_file(&partial);
    let target = partial
        .to_str()
        .ok_or("the backup's path is not UTF-8")?
        .replace('\'', "''");
    let mut source = sqlx::AnyConnection::connect(database_url)
        .await
        .map_err(|e| format!("cannot open the database: {e}"))?;
    sqlx::query(&format!("vacuum into '{target}'"))
        .execute(&mut source)
        .await
        .map_err(|e| format!("the copy failed: {e}"))?;
    source.close().await.ok();
    let checked = check(&partial).await;
    let bookings = match checked {
        Ok(n) => n,
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            return Err(e);
        }
    };
    std::fs::rename(&partial, to).map_err(|e| format!("cannot name the backup: {e}"))?;
    let bytes = std::fs::metadata(to).map(|m| m.len()).unwrap_or(0);
    Ok(Backup {
        bytes,
        bookings,
        took: started.elapsed(),
    })
}

/// The copy reads back whole; how many bookings it holds.
async fn check(copy: &Path) -> Result<i64, String> {
    let url = format!("sqlite://{}?mode=ro", copy.display());
    let mut c = sqlx::AnyConnection::connect(&url)
        .await
        .map_err(|e| format!("cannot open the copy: {e}"))?;
    let (verdict,): (String,) = sqlx::query_as("pragma integrity_check")
        .fetch_one(&mut c)
        .await
        .map_err(|e| format!("cannot check the copy: {e}"))?;
    if verdict != "ok" {
        return Err(format!("the copy is damaged: {verdict}"));
    }
    let (bookings,): (i64,) = sqlx::query_as("select count(*) from booking")
        .fetch_one(&mut c)
        .await
        .map_err(|e| format!("the copy has no bookings table: {e}"))?;
    c.close().await.ok();
    Ok(bookings)
}
