//! The server process: configuration, database, router, workers, shutdown.
//! Thin by design: every decision lives in `holdfast_core`.

pub mod account_pages;
pub mod api;
pub mod assets;
pub mod compression;
pub mod config;
pub mod console_landing;
pub mod error_shape;
pub mod guest_pages;
pub mod language;
pub mod limits;
pub mod metrics;
pub mod operations_layout;
pub mod operations_pages;
pub mod page_cache;
pub mod protect;
pub mod refund_policy_pages;
pub mod sailing_pages;
pub mod sandbox_pages;
pub mod team_console_pages;
pub mod team_pages;
pub mod telemetry;
pub mod two_factor_pages;
pub mod workers;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use holdfast_app::{shell, App};
use holdfast_core::admin::auth::AdminAuth;
use holdfast_core::booking::store::ClaimQueue;
use holdfast_core::payments::mail::Mailer;
use holdfast_core::payments::sandbox::Sandbox;
use holdfast_core::payments::stripe::{self, Stripe};
use holdfast_core::payments::PaymentProvider;
use holdfast_core::payments::PaymentSettings;
use holdfast_core::platform::clock::{SharedClock, SystemClock};
use holdfast_core::platform::db::Db;
use holdfast_core::platform::rate_limit::RateLimits;
use holdfast_core::platform::secrets::{Purpose, Secrets};
use holdfast_core::platform::session_store::DbSessionStore;
use holdfast_core::platform::stream_slots::StreamSlots;
use holdfast_core::seat_map::SeatMaps;
use holdfast_core::state::{Payments, Rules, SIGNED_IN_KEYS};
use holdfast_core::ticket::TicketSigner;
use holdfast_core::waiting_room::WaitingRooms;
use holdfast_core::{seed, AppState, StateParts};
use leptos::config::LeptosOptions;
use leptos_axum::{generate_route_list, AxumRouteListing, LeptosRoutes};
use tower_sessions::cookie::SameSite;
use tower_sessions::{Expiry, SessionManagerLayer};

use config::Config;

/// The pages' routes, generated once per process. Generating runs the app
/// with every resource suppressed process-wide, and a resource first polled
/// meanwhile (a page another instance of this process renders) never loads
/// (leptos-rs/leptos#4773): a second `build` in one process (the tests, the
/// bench) must not generate again. `tests/startup.rs`.
fn page_routes() -> Vec<AxumRouteListing> {
    static ROUTES: std::sync::OnceLock<Vec<AxumRouteListing>> = std::sync::OnceLock::new();
    ROUTES.get_or_init(|| generate_route_list(App)).clone()
}

/// Connects, migrates, loads demo data and builds the state and the router.
pub async fn build(
    config: &Config,
    clock: SharedClock,
) -> Result<(Router, AppState), Box<dyn std::error::Error>> {
    let db = Db::connect(&config.database_url, config.db_max_connections).await?;
    db.migrate().await?;
    if config.demo_data {
        seed::load_demo_data(&db, clock.now()).await?;
    }
    let secrets = Secrets::load(&db, config.ticket_secret.as_deref(), clock.now()).await?;
    let hash_file = assets::hash_file(&config.site_root);
    let leptos_options = LeptosOptions::builder()
        .output_name("holdfast")
        .site_root(config.site_root.as_str())
        .site_pkg_dir("pkg")
        .site_addr(config.site_addr)
        .hash_files(hash_file.is_some())
        .hash_file(
            hash_file
                .map(|p| std::sync::Arc::from(p.to_string_lossy().as_ref()))
                .unwrap_or_else(|| std::sync::Arc::from("hash.txt")),
        )
        .build();
    let webhook_secret = match &config.stripe_webhook_secret {
        Some(given) => given.clone(),
        None => secrets.sandbox_webhook_secret(),
    };
    let (provider, sandbox, checkout_ttl) = payment_provider(config, &db, &clock, &webhook_secret)?;
    let payments = Payments {
        provider,
        sandbox,
        settings: PaymentSettings {
            public_base_url: config.public_base_url.trim_end_matches('/').to_string(),
            webhook_secret,
            checkout_ttl_ms: checkout_ttl.as_millis() as i64,
            checkout_grace_ms: config.checkout_grace.as_millis() as i64,
            fast_sale_free_percent: config.fast_sale_free_percent,
            abandoned_checkouts_per_hour: config.abandoned_checkouts_per_hour,
        },
        mailer: match &config.smtp_url {
            Some(url) => Mailer::smtp(url, &config.mail_from)?,
            None => Mailer::Mailbox,
        },
    };
    let (admin, generated) = AdminAuth::start(
        &db,
        config.admin_password.as_deref(),
        config.admin_token.as_deref(),
        clock.now(),
    )
    .await?;
    if let Some(g) = generated {
        // Shown once: the instance that created the credentials prints them.
        if let Some(p) = g.password {
            println!("holdfast: admin password (shown once): {p}");
        }
        if let Some(t) = g.token {
            println!("holdfast: admin API token (shown once): {t}");
        }
    }
    let state = AppState::new(StateParts {
        limits: Arc::new(RateLimits::new(
            config.rate_limit_buyer_per_minute,
            config.rate_limit_ip_per_minute,
        )),
        admin: Arc::new(admin),
        streams: StreamSlots::new(config.sse_max_per_client, config.sse_max_streams),
        waiting_rooms: Arc::new(WaitingRooms::new(
            &db,
            &secrets,
            config.admission_ttl.as_millis() as i64,
            config.production,
        )),
        canary: Arc::default(),
        db: db.clone(),
        claims: ClaimQueue::start(db.clone(), config.claim_batch_max),
        clock,
        seat_maps: Arc::new(SeatMaps::default()),
        rules: Arc::new(Rules {
            hold_ttl_ms: config.hold_ttl.as_millis() as i64,
            max_seats_per_booking: config.max_seats_per_booking,
            max_places_per_buyer: config.max_places_per_buyer,
            ..Rules::default()
        }),
        payments: Arc::new(payments),
        tickets: Arc::new(
            TicketSigner::new(&secrets.key(Purpose::Tickets))
                .reading_legacy(config.ticket_secret.as_deref()),
        ),
        stopping: Default::default(),
    });

    if db.backend == holdfast_core::platform::db::Backend::Postgres {
        holdfast_core::seat_map::fanout::start(
            &config.database_url,
            db.clone(),
            state.seat_maps.clone(),
            state.clock.clone(),
        )
        .await?;
    }

    let sessions = SessionManagerLayer::new(DbSessionStore::new(db, SIGNED_IN_KEYS))
        .with_name("holdfast_session")
        .with_http_only(true)
        .with_same_site(SameSite::Lax)
        .with_secure(config.production)
        .with_expiry(Expiry::OnInactivity(
            tower_sessions::cookie::time::Duration::days(30),
        ));

    metrics::handle();
    holdfast_core::platform::metrics::start_series();
    let public = Some(config.public_base_url.clone());
    let hsts = config.production;
    let trusted = Arc::new(config.trusted_proxies.clone());
    let routes = page_routes();
    let page_state = state.clone();
    // Leptos' pages and server functions, with Leptos' options as their
    // state; the server functions find the core's state in their context.
    let pages = Router::<LeptosOptions>::new()
        .leptos_routes_with_context(
            &leptos_options,
            routes,
            move || leptos::prelude::provide_context(page_state.clone()),
            {
                let options = leptos_options.clone();
                move || shell(options.clone())
            },
        )
        .fallback(leptos_axum::file_and_error_handler::<LeptosOptions, _>(
            shell,
        ))
        .with_state(leptos_options.clone());
    let router = Router::new()
        .merge(api::routes())
        .merge(sandbox_pages::routes())
        .merge(account_pages::routes())
        .merge(guest_pages::routes())
        .merge(operations_pages::routes())
        .merge(refund_policy_pages::routes())
        .merge(sailing_pages::routes())
        .merge(team_pages::routes())
        .merge(team_console_pages::routes())
        .merge(two_factor_pages::routes())
        .merge(language::routes())
        .merge(assets::routes(&config.site_root))
        .merge(pages)
        .route("/metrics", axum::routing::get(metrics::render))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            console_landing::door_to_scanner,
        ))
        .layer(axum::middleware::from_fn(language::vary_by_language))
        .layer(axum::middleware::from_fn_with_state(
            page_cache::EventPages::new(state.clone()),
            page_cache::serve,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            limits::per_address,
        ))
        .layer(axum::middleware::from_fn(move |req, next| {
            limits::identify_client(trusted.clone(), req, next)
        }))
        .layer(axum::middleware::from_fn(metrics::track))
        .layer(axum::middleware::from_fn(move |req, next| {
            protect::same_origin_writes(public.clone(), hsts, req, next)
        }))
        .layer(sessions)
        // Every request body is held to the API's limit (413 past it) — the
        // pages' server functions too — except the webhook's, which
        // providers may send larger (its route sets its own).
        .layer(axum::middleware::from_fn(limits::body_size))
        .layer(axum::middleware::from_fn(error_shape::api_errors))
        // Every text answer compressed by Accept-Encoding (with Vary); what
        // is the same for everyone arrives already compressed and passes
        // through (live streams too).
        .layer(axum::middleware::from_fn(compression::compress))
        .layer(
            tower_http::trace::TraceLayer::new_for_http().make_span_with(telemetry::request_span),
        )
        .with_state(state.clone());
    Ok((router, state))
}

type Provider = (Arc<dyn PaymentProvider>, Option<Arc<Sandbox>>, Duration);

/// The payment provider `PAYMENT_PROVIDER` names, and the checkout deadline
/// it allows.
fn payment_provider(
    config: &Config,
    db: &Db,
    clock: &SharedClock,
    webhook_secret: &str,
) -> Result<Provider, String> {
    match config.payment_provider.as_str() {
        "sandbox" => {
            let sandbox = Sandbox::new(
                db.clone(),
                clock.clone(),
                &config.public_base_url,
                webhook_secret,
            );
            Ok((sandbox.clone(), Some(sandbox), config.checkout_ttl))
        }
        "stripe" => {
            let key = config
                .stripe_secret_key
                .as_deref()
                .ok_or("PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY")?;
            if config.stripe_webhook_secret.is_none() {
                return Err("PAYMENT_PROVIDER=stripe needs STRIPE_WEBHOOK_SECRET (whsec_…)".into());
            }
            let stripe = Stripe::new(key, config.stripe_api_base.as_deref())?;
            let ttl = config
                .checkout_ttl
                .clamp(stripe::MIN_CHECKOUT, stripe::MAX_CHECKOUT);
            if ttl != config.checkout_ttl {
                tracing::warn!(
                    seconds = ttl.as_secs(),
                    "CHECKOUT_TTL_SECONDS moved into Stripe's range (31 min to 24 h)"
                );
            }
            Ok((Arc::new(stripe), None, ttl))
        }
        other => Err(format!(
            "PAYMENT_PROVIDER={other}: choose `sandbox` or `stripe`"
        )),
    }
}

/// Runs the server until SIGINT/SIGTERM, with the workers beside it. On
/// the signal the instance stops as a deploy expects: no new connections,
/// requests in flight finish, live streams end with a word to reconnect,
/// the job runner lets its runs finish (or their leases go), then the pool
/// closes.
pub async fn run(config: Config) -> Result<(), Box<dyn std::error::Error>> {
    let (router, state) = build(&config, Arc::new(SystemClock)).await?;
    let workers = workers::spawn_all(state.clone(), &config, state.stopping.subscribe());
    let listener = tokio::net::TcpListener::bind(config.site_addr).await?;
    tracing::info!(addr = %listener.local_addr()?, database = ?state.db.backend, "holdfast listening");
    let listener = no_delay(listener);
    let stopping = state.stopping.clone();
    axum::serve(listener, per_connection(router))
        .with_graceful_shutdown(async move {
            shutdown_signal().await;
            tracing::info!("stopping: finishing requests, ending streams, letting leases go");
            stopping.begin();
        })
        .await?;
    for w in workers {
        let _ = tokio::time::timeout(workers::STOP_GRACE + Duration::from_secs(5), w).await;
    }
    state.db.close().await;
    tracing::info!("holdfast stopped cleanly");
    Ok(())
}

/// What `axum::serve` runs for each connection: the router made a service
/// once, cloned (an `Arc`) per connection with the peer's address beside it
/// (`ConnectInfo`). Handing `axum::serve` the `Router` itself instead
/// rebuilds every route for each connection and frees them all when it
/// closes, a real share of the server's CPU where every buyer opens its
/// own connection (an on-sale's crowd, the claims bench).
pub fn per_connection(
    router: axum::Router,
) -> axum::extract::connect_info::IntoMakeServiceWithConnectInfo<axum::Router, std::net::SocketAddr>
{
    router.into_make_service_with_connect_info::<std::net::SocketAddr>()
}

/// Answers leave as they are written: a page streamed in parts would
/// otherwise wait on Nagle's algorithm and the browser's delayed ACK, 40 ms
/// per page.
pub fn no_delay(listener: tokio::net::TcpListener) -> NoDelay {
    use axum::serve::ListenerExt;
    fn set(tcp: &mut tokio::net::TcpStream) {
        let _ = tcp.set_nodelay(true);
    }
    listener.tap_io(set as fn(&mut tokio::net::TcpStream))
}

/// The listener `no_delay` makes (it keeps the peer's address for `ConnectInfo`).
pub type NoDelay = axum::serve::TapIo<tokio::net::TcpListener, fn(&mut tokio::net::TcpStream)>;

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}
