//! `holdfast`: serve the app (the default) — see docs/OPERATIONS.md for
//! configuration. `holdfast backup FILE`: an online copy of the SQLite
//! database named by `DATABASE_URL` (docs/OPERATIONS.md, "Backups").

use holdfast::server::{config::Config, run};

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some("backup") = args.first().map(String::as_str) {
        std::process::exit(backup(args.get(1)).await);
    }
    holdfast::server::telemetry::init();
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("configuration error: {e}");
            std::process::exit(2);
        }
    };
    if let Err(e) = run(config).await {
        tracing::error!(error = %e, "holdfast stopped");
        std::process::exit(1);
    }
}

/// `holdfast backup FILE`; the process's exit status.
async fn backup(to: Option<&String>) -> i32 {
    let Some(to) = to else {
        eprintln!("usage: holdfast backup FILE (DATABASE_URL names the SQLite database)");
        return 2;
    };
    let url = std::env::var("DATABASE_URL").unwrap_or_else(|_| "sqlite://data/holdfast.db".into());
    let path = std::path::Path::new(to);
    match holdfast_core::platform::backup::sqlite_backup(&url, path).await {
        Ok(b) => {
            println!(
                "backed up {} bookings to {} ({} bytes, checked) in {:.1} s",
                b.bookings,
                path.display(),
                b.bytes,
                b.took.as_secs_f64()
            );
            0
        }
        Err(e) => {
            eprintln!("backup failed: {e}");
            1
        }
    }
}
