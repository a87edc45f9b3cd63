//! Configuration from the environment (API.md's table), typed and checked
//! once at start.

use std::net::SocketAddr;
use std::time::Duration;

use holdfast_app::core::client_addr::TrustedProxies;

#[derive(Debug, Clone)]
pub struct Config {
    pub database_url: String,
    pub site_addr: SocketAddr,
    pub public_base_url: String,
    pub hold_ttl: Duration,
    pub max_seats_per_booking: usize,
    pub max_places_per_buyer: i64,
    pub sweep_interval: Duration,
    pub db_max_connections: u32,
    /// Where the built site (wasm, JS, CSS, public files) is served from.
    pub site_root: String,
    /// Signs ticket tokens (`TICKET_SECRET`).
    pub ticket_secret: String,
    /// `sandbox` (default) or `stripe`.
    pub payment_provider: String,
    pub stripe_secret_key: Option<String>,
    /// Stripe's API address (`STRIPE_API_BASE`); unset: Stripe itself.
    pub stripe_api_base: Option<String>,
    pub stripe_webhook_secret: String,
    pub checkout_ttl: Duration,
    pub reconcile_interval: Duration,
    /// Load the demo events when the database has none.
    pub demo_data: bool,
    /// Outgoing mail relay (`SMTP_URL`); unset: the local mailbox only.
    pub smtp_url: Option<String>,
    /// Sender of outgoing mail (`MAIL_FROM`).
    pub mail_from: String,
    /// The console's password (`ADMIN_PASSWORD`); generated at first start
    /// when unset.
    pub admin_password: Option<String>,
    /// The admin API's bearer token (`ADMIN_TOKEN`); likewise.
    pub admin_token: Option<String>,
    /// Hold and pay attempts a minute per buyer session
    /// (`RATE_LIMIT_SESSION_PER_MINUTE`, the contract's name; the older
    /// `RATE_LIMIT_BUYER_PER_MINUTE` is still read; 0: off).
    pub rate_limit_buyer_per_minute: u32,
    /// Proxies whose `X-Forwarded-For` / `Forwarded` is believed
    /// (`TRUSTED_PROXIES`: addresses or CIDR ranges; none by default).
    pub trusted_proxies: TrustedProxies,
    /// Hold, pay and sign-in attempts a minute per client address
    /// (`RATE_LIMIT_IP_PER_MINUTE`, 0: off).
    pub rate_limit_ip_per_minute: u32,
    /// How long an admission from a waiting room lasts (`ADMISSION_TTL_SECONDS`).
    pub admission_ttl: Duration,
    /// How often the waiting rooms let buyers in (`ADMIT_INTERVAL_MS`).
    pub admit_interval: Duration,
    /// Opens a waiting room at this rate before every on-sale the admin has
    /// not set one for (`AUTO_WAITING_ROOM_PER_MINUTE`, 0: off).
    pub auto_room_per_minute: i64,
    /// How long before the on-sale it opens (`AUTO_WAITING_ROOM_LEAD_SECONDS`).
    pub auto_room_lead: Duration,
}

impl Config {
    pub fn from_env() -> Result<Config, String> {
        let site_addr: SocketAddr = var("LEPTOS_SITE_ADDR", "127.0.0.1:3000")
            .parse()
            .map_err(|e| format!("LEPTOS_SITE_ADDR: {e}"))?;
        Ok(Config {
            database_url: var("DATABASE_URL", "sqlite://data/holdfast.db"),
            public_base_url: std::env::var("PUBLIC_BASE_URL")
                .unwrap_or_else(|_| format!("http://{site_addr}")),
            site_addr,
            hold_ttl: Duration::from_secs(number("HOLD_TTL_SECONDS", 300)?),
            max_seats_per_booking: number("MAX_SEATS_PER_BOOKING", 10)? as usize,
            max_places_per_buyer: number("MAX_PLACES_PER_BUYER", 10)? as i64,
            sweep_interval: Duration::from_secs(number("SWEEP_INTERVAL_SECONDS", 10)?.max(1)),
            db_max_connections: number("DATABASE_MAX_CONNECTIONS", 16)? as u32,
            site_root: var("LEPTOS_SITE_ROOT", "target/site"),
            demo_data: var("DEMO_DATA", "1") != "0",
            ticket_secret: var("TICKET_SECRET", DEV_TICKET_SECRET),
            payment_provider: var("PAYMENT_PROVIDER", "sandbox"),
            stripe_secret_key: std::env::var("STRIPE_SECRET_KEY").ok(),
            stripe_api_base: std::env::var("STRIPE_API_BASE")
                .ok()
                .filter(|u| !u.is_empty()),
            stripe_webhook_secret: var("STRIPE_WEBHOOK_SECRET", DEV_WEBHOOK_SECRET),
            checkout_ttl: Duration::from_secs(number("CHECKOUT_TTL_SECONDS", 1800)?),
            reconcile_interval: Duration::from_secs(
                number("RECONCILE_INTERVAL_SECONDS", 30)?.max(1),
            ),
            smtp_url: std::env::var("SMTP_URL").ok().filter(|u| !u.is_empty()),
            mail_from: var("MAIL_FROM", DEFAULT_MAIL_FROM),
            admin_password: std::env::var("ADMIN_PASSWORD")
                .ok()
                .filter(|p| !p.is_empty()),
            admin_token: std::env::var("ADMIN_TOKEN").ok().filter(|t| !t.is_empty()),
            rate_limit_buyer_per_minute: number(
                "RATE_LIMIT_SESSION_PER_MINUTE",
                number("RATE_LIMIT_BUYER_PER_MINUTE", 120)?,
            )? as u32,
            trusted_proxies: TrustedProxies::parse(&var("TRUSTED_PROXIES", ""))
                .map_err(|e| format!("TRUSTED_PROXIES: {e}"))?,
            rate_limit_ip_per_minute: number("RATE_LIMIT_IP_PER_MINUTE", 1200)? as u32,
            admission_ttl: Duration::from_secs(number("ADMISSION_TTL_SECONDS", 900)?.max(1)),
            admit_interval: Duration::from_millis(number("ADMIT_INTERVAL_MS", 1000)?.max(50)),
            auto_room_per_minute: number("AUTO_WAITING_ROOM_PER_MINUTE", 0)? as i64,
            auto_room_lead: Duration::from_secs(number("AUTO_WAITING_ROOM_LEAD_SECONDS", 600)?),
        })
    }

    /// Defaults for tests: a given database, port 0.
    pub fn for_tests(database_url: &str) -> Config {
        Config {
            database_url: database_url.to_string(),
            site_addr: "127.0.0.1:0".parse().expect("literal address"),
            public_base_url: "http://127.0.0.1".into(),
            hold_ttl: Duration::from_secs(300),
            max_seats_per_booking: 10,
            max_places_per_buyer: 10,
            sweep_interval: Duration::from_secs(3600),
            db_max_connections: 16,
            site_root: "target/site".into(),
            demo_data: true,
            ticket_secret: DEV_TICKET_SECRET.into(),
            payment_provider: "sandbox".into(),
            stripe_secret_key: None,
            stripe_api_base: None,
            stripe_webhook_secret: DEV_WEBHOOK_SECRET.into(),
            checkout_ttl: Duration::from_secs(1800),
            reconcile_interval: Duration::from_secs(3600),
            smtp_url: None,
            mail_from: DEFAULT_MAIL_FROM.into(),
            admin_password: Some(TEST_ADMIN_PASSWORD.into()),
            admin_token: Some(TEST_ADMIN_TOKEN.into()),
            // Off: the concurrency tests and the bench fire thousands of
            // requests from one address; tests/limits.rs turns them on.
            rate_limit_buyer_per_minute: 0,
            rate_limit_ip_per_minute: 0,
            trusted_proxies: TrustedProxies::default(),
            admission_ttl: Duration::from_secs(900),
            // Tests step the rooms themselves, on their own clock.
            admit_interval: Duration::from_secs(3600),
            auto_room_per_minute: 0,
            auto_room_lead: Duration::from_secs(600),
        }
    }
}

/// The sandbox's signing secret in development (never a real Stripe secret).
pub const DEV_WEBHOOK_SECRET: &str = "whsec_holdfast_development";

/// The admin credentials of `Config::for_tests`.
pub const TEST_ADMIN_PASSWORD: &str = "test-admin-password";
pub const TEST_ADMIN_TOKEN: &str = "test-admin-token";

pub const DEFAULT_MAIL_FROM: &str = "Holdfast <tickets@holdfast.invalid>";

/// Development ticket secret; set `TICKET_SECRET` in production.
pub const DEV_TICKET_SECRET: &str = "holdfast-development-tickets";

fn var(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

fn number(name: &str, default: u64) -> Result<u64, String> {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .map_err(|_| format!("{name} must be a whole number, got {v:?}")),
        Err(_) => Ok(default),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The contract's name (API.md) sets the per-session limit; the older
    /// name still works where the new one is absent; TRUSTED_PROXIES is
    /// read and checked.
    #[test]
    fn the_contracts_setting_names_are_honoured() {
        std::env::remove_var("RATE_LIMIT_SESSION_PER_MINUTE");
        std::env::set_var("RATE_LIMIT_BUYER_PER_MINUTE", "33");
        assert_eq!(Config::from_env().unwrap().rate_limit_buyer_per_minute, 33);
        std::env::set_var("RATE_LIMIT_SESSION_PER_MINUTE", "7");
        assert_eq!(Config::from_env().unwrap().rate_limit_buyer_per_minute, 7);
        std::env::set_var("TRUSTED_PROXIES", "10.0.0.0/8, 192.0.2.1");
        let trusted = Config::from_env().unwrap().trusted_proxies;
        let headers = {
            let mut h = axum::http::HeaderMap::new();
            h.insert("x-forwarded-for", "203.0.113.5".parse().unwrap());
            h
        };
        assert_eq!(
            trusted.client("10.1.1.1".parse().unwrap(), &headers).0,
            "203.0.113.5".parse::<std::net::IpAddr>().unwrap()
        );
        std::env::set_var("TRUSTED_PROXIES", "10.0.0.0/99");
        assert!(Config::from_env().unwrap_err().contains("TRUSTED_PROXIES"));
        for name in [
            "RATE_LIMIT_SESSION_PER_MINUTE",
            "RATE_LIMIT_BUYER_PER_MINUTE",
            "TRUSTED_PROXIES",
        ] {
            std::env::remove_var(name);
        }
    }
}
