//! Configuration from the environment (docs/OPERATIONS.md's table), typed and checked
//! once at start.

use std::net::SocketAddr;
use std::time::Duration;

use holdfast_core::platform::client_addr::TrustedProxies;
use holdfast_core::platform::secrets;

#[derive(Debug, Clone)]
pub struct Config {
    pub database_url: String,
    pub site_addr: SocketAddr,
    pub public_base_url: String,
    pub hold_ttl: Duration,
    pub max_seats_per_booking: usize,
    pub max_places_per_buyer: i64,
    /// The most claims one commit carries (`CLAIM_BATCH_MAX`; 1: a
    /// transaction per hold).
    pub claim_batch_max: usize,
    pub sweep_interval: Duration,
    pub db_max_connections: u32,
    /// Where the built site (wasm, JS, CSS, public files) is served from.
    pub site_root: String,
    /// The deployment's root secret (`TICKET_SECRET`); unset: generated
    /// once per deployment and kept in the database (`core::secrets`).
    pub ticket_secret: Option<String>,
    /// `sandbox` (default) or `stripe`.
    pub payment_provider: String,
    /// `HOLDFAST_ENV=production`, or a `PUBLIC_BASE_URL` on https: secure
    /// cookies, HSTS, and no start on development settings.
    pub production: bool,
    pub stripe_secret_key: Option<String>,
    /// Stripe's API address (`STRIPE_API_BASE`); unset: Stripe itself.
    pub stripe_api_base: Option<String>,
    /// Webhook signing secret; unset with the sandbox: derived from the
    /// deployment's root.
    pub stripe_webhook_secret: Option<String>,
    pub checkout_ttl: Duration,
    /// While an event sells fast, a checkout ends this long after its hold
    /// would have (`CHECKOUT_GRACE_SECONDS`).
    pub checkout_grace: Duration,
    /// An event sells fast below this share of free places, in percent
    /// (`FAST_SALE_FREE_PERCENT`), or while its waiting room is open.
    pub fast_sale_free_percent: i64,
    /// Unpaid checkouts a buyer may leave in an hour before pay answers
    /// 429 (`ABANDONED_CHECKOUTS_PER_HOUR`, 0: no limit).
    pub abandoned_checkouts_per_hour: i64,
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
    /// Proxies whose forwarding header is believed (`TRUSTED_PROXIES`:
    /// addresses or CIDR ranges; none by default), and which one header
    /// (`TRUSTED_PROXY_HEADER`: `X-Forwarded-For` or `Forwarded`; the proxy
    /// must overwrite or append to it, never pass the client's through).
    pub trusted_proxies: TrustedProxies,
    /// Hold, pay and sign-in attempts a minute per client address
    /// (`RATE_LIMIT_IP_PER_MINUTE`, 0: off).
    pub rate_limit_ip_per_minute: u32,
    /// Live streams (SSE) one client address may hold open
    /// (`SSE_MAX_PER_CLIENT`, 0: no cap).
    pub sse_max_per_client: usize,
    /// Live streams one instance holds open (`SSE_MAX_STREAMS`, 0: no cap).
    pub sse_max_streams: usize,
    /// How long an admission from a waiting room lasts (`ADMISSION_TTL_SECONDS`).
    pub admission_ttl: Duration,
    /// How often the waiting rooms let buyers in (`ADMIT_INTERVAL_MS`).
    pub admit_interval: Duration,
    /// Opens a waiting room at this rate before every on-sale the admin has
    /// not set one for (`AUTO_WAITING_ROOM_PER_MINUTE`, 0: off).
    pub auto_room_per_minute: i64,
    /// How long before the on-sale it opens (`AUTO_WAITING_ROOM_LEAD_SECONDS`).
    pub auto_room_lead: Duration,
    /// How long a job's run holds its lease without a heartbeat
    /// (`JOB_LEASE_SECONDS`): how soon another instance takes over the
    /// job of one that died mid-run.
    pub job_lease: Duration,
}

impl Config {
    pub fn from_env() -> Result<Config, String> {
        Config::from_settings(&|name| std::env::var(name).ok())
    }

    /// Reads every setting through `get` (the environment, or a table in
    /// tests) and checks them together.
    pub fn from_settings(get: &dyn Fn(&str) -> Option<String>) -> Result<Config, String> {
        let s = Settings(get);
        let site_addr: SocketAddr = s
            .text("LEPTOS_SITE_ADDR", "127.0.0.1:3000")
            .parse()
            .map_err(|e| format!("LEPTOS_SITE_ADDR: {e}"))?;
        let public_base_url = s
            .given("PUBLIC_BASE_URL")
            .unwrap_or_else(|| format!("http://{site_addr}"));
        let production = match s.given("HOLDFAST_ENV").as_deref() {
            None | Some("development") => public_base_url.starts_with("https://"),
            Some("production") => true,
            Some(other) => {
                return Err(format!(
                    "HOLDFAST_ENV={other}: choose `production` or `development`"
                ))
            }
        };
        let config = Config {
            database_url: s.text("DATABASE_URL", "sqlite://data/holdfast.db"),
            public_base_url,
            site_addr,
            production,
            hold_ttl: Duration::from_secs(s.number("HOLD_TTL_SECONDS", 300)?),
            max_seats_per_booking: s.number("MAX_SEATS_PER_BOOKING", 10)? as usize,
            max_places_per_buyer: s.number("MAX_PLACES_PER_BUYER", 10)? as i64,
            claim_batch_max: s.number("CLAIM_BATCH_MAX", 64)?.clamp(1, 1_000) as usize,
            sweep_interval: Duration::from_secs(s.number("SWEEP_INTERVAL_SECONDS", 10)?.max(1)),
            db_max_connections: s.number("DATABASE_MAX_CONNECTIONS", 16)? as u32,
            site_root: s.text("LEPTOS_SITE_ROOT", "target/site"),
            // Production sells real seats: the demo events only when asked for.
            demo_data: match s.given("DEMO_DATA") {
                Some(v) => v != "0",
                None => !production,
            },
            ticket_secret: s.given("TICKET_SECRET"),
            payment_provider: s.text("PAYMENT_PROVIDER", "sandbox"),
            stripe_secret_key: s.given("STRIPE_SECRET_KEY"),
            stripe_api_base: s.given("STRIPE_API_BASE"),
            stripe_webhook_secret: s.given("STRIPE_WEBHOOK_SECRET"),
            checkout_ttl: Duration::from_secs(s.number("CHECKOUT_TTL_SECONDS", 1800)?),
            checkout_grace: Duration::from_secs(s.number("CHECKOUT_GRACE_SECONDS", 300)?),
            fast_sale_free_percent: s.number("FAST_SALE_FREE_PERCENT", 20)?.min(100) as i64,
            abandoned_checkouts_per_hour: s.number("ABANDONED_CHECKOUTS_PER_HOUR", 3)? as i64,
            reconcile_interval: Duration::from_secs(
                s.number("RECONCILE_INTERVAL_SECONDS", 30)?.max(1),
            ),
            smtp_url: s.given("SMTP_URL"),
            mail_from: s.text("MAIL_FROM", DEFAULT_MAIL_FROM),
            admin_password: s.given("ADMIN_PASSWORD"),
            admin_token: s.given("ADMIN_TOKEN"),
            rate_limit_buyer_per_minute: s.number(
                "RATE_LIMIT_SESSION_PER_MINUTE",
                s.number("RATE_LIMIT_BUYER_PER_MINUTE", 120)?,
            )? as u32,
            trusted_proxies: TrustedProxies::parse(&s.text("TRUSTED_PROXIES", ""))
                .map_err(|e| format!("TRUSTED_PROXIES: {e}"))?
                .reading(
                    s.text("TRUSTED_PROXY_HEADER", "X-Forwarded-For")
                        .parse()
                        .map_err(|e| format!("TRUSTED_PROXY_HEADER: {e}"))?,
                ),
            rate_limit_ip_per_minute: s.number("RATE_LIMIT_IP_PER_MINUTE", 1200)? as u32,
            sse_max_per_client: s.number("SSE_MAX_PER_CLIENT", 32)? as usize,
            sse_max_streams: s.number("SSE_MAX_STREAMS", 20_000)? as usize,
            admission_ttl: Duration::from_secs(s.number("ADMISSION_TTL_SECONDS", 900)?.max(1)),
            admit_interval: Duration::from_millis(s.number("ADMIT_INTERVAL_MS", 1000)?.max(50)),
            auto_room_per_minute: s.number("AUTO_WAITING_ROOM_PER_MINUTE", 0)? as i64,
            auto_room_lead: Duration::from_secs(s.number("AUTO_WAITING_ROOM_LEAD_SECONDS", 600)?),
            job_lease: Duration::from_secs(s.number("JOB_LEASE_SECONDS", 15)?.max(3)),
        };
        config.check_secrets()?;
        if config.production {
            config.check_production(s.given("PAYMENT_PROVIDER").is_some())?;
        }
        Ok(config)
    }

    /// Secrets the environment gives must be strong enough, everywhere.
    fn check_secrets(&self) -> Result<(), String> {
        let too_short = |name: &str, value: &Option<String>, min: usize| {
            match value {
            Some(v) if v.chars().count() < min => Err(format!(
                "{name} is too short ({} characters): give at least {min}, or leave it unset to have one generated",
                v.chars().count()
            )),
            _ => Ok(()),
        }
        };
        too_short("ADMIN_TOKEN", &self.admin_token, MIN_ADMIN_TOKEN_LEN)?;
        too_short(
            "ADMIN_PASSWORD",
            &self.admin_password,
            MIN_ADMIN_PASSWORD_LEN,
        )?;
        too_short("TICKET_SECRET", &self.ticket_secret, secrets::MIN_ROOT_LEN)
    }

    /// What production refuses: the sandbox unless chosen explicitly, and
    /// the secrets of development and tests.
    fn check_production(&self, provider_given: bool) -> Result<(), String> {
        let why = "production (HOLDFAST_ENV=production or an https PUBLIC_BASE_URL)";
        if !provider_given {
            return Err(format!(
                "{why} needs PAYMENT_PROVIDER: `stripe`, or `sandbox` said explicitly"
            ));
        }
        let known = [
            DEV_WEBHOOK_SECRET,
            DEV_TICKET_SECRET,
            TEST_ADMIN_PASSWORD,
            TEST_ADMIN_TOKEN,
        ];
        for (name, value) in [
            ("TICKET_SECRET", &self.ticket_secret),
            ("STRIPE_WEBHOOK_SECRET", &self.stripe_webhook_secret),
            ("ADMIN_PASSWORD", &self.admin_password),
            ("ADMIN_TOKEN", &self.admin_token),
        ] {
            if value.as_deref().is_some_and(|v| known.contains(&v)) {
                return Err(format!(
                    "{why} refuses the development value of {name}: set a secret of your own, or leave it unset to have one generated"
                ));
            }
        }
        // Sign-in links, checkout returns and the same-origin check are
        // built on this address: on http they would travel in clear.
        if !self.public_base_url.starts_with("https://") {
            return Err(format!(
                "{why} needs an https PUBLIC_BASE_URL (the address buyers use), not {:?}",
                self.public_base_url
            ));
        }
        // Without a relay, sign-in links would stay readable in the
        // mailbox table instead of leaving; over a relay without TLS, they
        // would cross the network in clear.
        match self.smtp_url.as_deref() {
            None => Err(format!(
                "{why} needs SMTP_URL: a mail relay for sign-in links and tickets (smtps://… or smtp://…?tls=required)"
            )),
            Some(url) if !smtp_has_tls(url) => Err(format!(
                "{why} needs SMTP_URL with TLS: smtps://… or smtp://…?tls=required"
            )),
            Some(_) => Ok(()),
        }
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
            claim_batch_max: 64,
            sweep_interval: Duration::from_secs(3600),
            db_max_connections: 16,
            site_root: "target/site".into(),
            demo_data: true,
            ticket_secret: Some(DEV_TICKET_SECRET.into()),
            payment_provider: "sandbox".into(),
            production: false,
            stripe_secret_key: None,
            stripe_api_base: None,
            stripe_webhook_secret: Some(DEV_WEBHOOK_SECRET.into()),
            checkout_ttl: Duration::from_secs(1800),
            checkout_grace: Duration::from_secs(300),
            // Off: most tests are about other things; tests/payments.rs
            // turns them on.
            fast_sale_free_percent: 0,
            abandoned_checkouts_per_hour: 0,
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
            sse_max_per_client: 0,
            sse_max_streams: 0,
            admission_ttl: Duration::from_secs(900),
            // Tests step the rooms themselves, on their own clock.
            admit_interval: Duration::from_secs(3600),
            auto_room_per_minute: 0,
            auto_room_lead: Duration::from_secs(600),
            job_lease: Duration::from_secs(15),
        }
    }
}

/// The webhook secret of `Config::for_tests` (and of earlier development
/// defaults, which production refuses).
pub const DEV_WEBHOOK_SECRET: &str = "whsec_holdfast_development";

/// The admin credentials of `Config::for_tests`.
pub const TEST_ADMIN_PASSWORD: &str = "test-admin-password";
pub const TEST_ADMIN_TOKEN: &str = "test-admin-token";

pub const DEFAULT_MAIL_FROM: &str = "Holdfast <tickets@holdfast.invalid>";

/// The root secret of `Config::for_tests` (and the earlier development
/// default, which production refuses).
pub const DEV_TICKET_SECRET: &str = "holdfast-development-tickets-root";

/// The shortest admin token and password the environment may give.
pub const MIN_ADMIN_TOKEN_LEN: usize = 16;
pub const MIN_ADMIN_PASSWORD_LEN: usize = 12;

/// Settings by name; an empty value counts as unset.
struct Settings<'a>(&'a dyn Fn(&str) -> Option<String>);

impl Settings<'_> {
    fn given(&self, name: &str) -> Option<String> {
        (self.0)(name).filter(|v| !v.is_empty())
    }

    fn text(&self, name: &str, default: &str) -> String {
        self.given(name).unwrap_or_else(|| default.to_string())
    }

    fn number(&self, name: &str, default: u64) -> Result<u64, String> {
        match self.given(name) {
            Some(v) => v
                .parse()
                .map_err(|_| format!("{name} must be a whole number, got {v:?}")),
            None => Ok(default),
        }
    }
}

#[cfg(test)]
mod tests;

/// Whether a relay's URL (lettre's form) sends with TLS: implicit
/// (`smtps://`) or STARTTLS required (`tls=required`). `tls=opportunistic`
/// falls back to clear text when the relay offers no TLS.
fn smtp_has_tls(url: &str) -> bool {
    url.starts_with("smtps://")
        || url
            .split_once('?')
            .is_some_and(|(_, query)| query.split('&').any(|p| p == "tls=required"))
}
