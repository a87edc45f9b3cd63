//! `holdfast`: serve the app (the default) — see docs/OPERATIONS.md for configuration.

use holdfast::server::{config::Config, run};

#[tokio::main]
async fn main() {
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
