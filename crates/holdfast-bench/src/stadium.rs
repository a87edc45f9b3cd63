//! `holdfast-bench stadium-event DATABASE_URL [SEATS]`: adds a published
//! 50,000-seat event (one category, rows of 50) starting in 30 days to the
//! database a running Holdfast serves, and prints its id, for the on-sale
//! simulator to sell out (`scripts/bench-backup.sh` times backups of it).
//! The instances read events as they are asked for them.

use holdfast_core::platform::db::Db;

pub async fn main(args: &[String]) -> bool {
    let Some(url) = args.first() else {
        eprintln!("usage: holdfast-bench stadium-event DATABASE_URL [SEATS]");
        return false;
    };
    let seats: i64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(50_000);
    let db = match Db::connect(url, 2).await {
        Ok(db) => db,
        Err(e) => {
            eprintln!("cannot reach the database: {e}");
            return false;
        }
    };
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    let in_a_month = now_ms + 30 * 24 * 3600 * 1000;
    match crate::claims::event_of_seats(&db, seats, "Stadium (bench)", in_a_month).await {
        Ok(id) => {
            println!("{id}");
            true
        }
        Err(e) => {
            eprintln!("could not create the stadium: {e}");
            false
        }
    }
}
