//! `GET /metrics` in Prometheus' text format: the counters the use cases
//! keep (see `holdfast_core::platform::metrics`), request latency per route,
//! the outbox backlog, database pool use and open live streams.

use holdfast_web::HttpError;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock, RwLock};
use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderMap, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Extension;
use holdfast_core::payments::outbox;
use holdfast_core::platform::client_addr::ClientAddr;
use holdfast_core::{ApiError, AppState};
use metrics::{gauge, histogram, Histogram};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

const LATENCY: &str = "holdfast_http_request_duration_seconds";

/// The process-wide recorder (installed once, however many apps a test
/// process builds). A thread folds recorded samples into their buckets
/// every few seconds, so memory stays flat whether or not anyone scrapes.
pub fn handle() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let handle = PrometheusBuilder::new()
            .set_buckets_for_metric(
                Matcher::Full(LATENCY.to_string()),
                &[
                    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                ],
            )
            .expect("buckets")
            .set_buckets_for_metric(
                Matcher::Full("holdfast_db_pool_wait_seconds".to_string()),
                &[
                    0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0,
                ],
            )
            .expect("buckets")
            .install_recorder()
            .expect("one metrics recorder per process");
        let upkeep = handle.clone();
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_secs(5));
            upkeep.run_upkeep();
        });
        handle
    })
}

/// The latency series of one (route, method, status), looked up once: the
/// hot paths then only record a number.
fn latency_series(route: &str, method: &Method, status: u16) -> Histogram {
    type Series = HashMap<(String, Method, u16), Histogram>;
    static SERIES: OnceLock<RwLock<Series>> = OnceLock::new();
    let series = SERIES.get_or_init(Default::default);
    let key = (route.to_string(), method.clone(), status);
    if let Some(h) = series.read().unwrap_or_else(|p| p.into_inner()).get(&key) {
        return h.clone();
    }
    let h = histogram!(
        LATENCY,
        "route" => key.0.clone(),
        "method" => method.as_str().to_string(),
        "status" => status.to_string()
    );
    series
        .write()
        .unwrap_or_else(|p| p.into_inner())
        .entry(key)
        .or_insert(h)
        .clone()
}

/// Times every request, labelled by its route template (not the raw path,
/// so ids do not explode the series).
pub async fn track(request: Request, next: Next) -> Response {
    let route = request.extensions().get::<MatchedPath>().cloned();
    let method = request.method().clone();
    let started = Instant::now();
    let response = next.run(request).await;
    if let Some(route) = route {
        latency_series(route.as_str(), &method, response.status().as_u16())
            .record(started.elapsed().as_secs_f64());
    }
    response
}

/// How long the gauges read from the database stand for: scrapes from
/// several Prometheus servers (or a fast one) cost the database one read
/// each this often, not one per scrape.
const DATABASE_GAUGES_FOR: Duration = Duration::from_secs(5);

/// `GET /metrics`, for the machine's own scraper (a loopback client: the
/// Prometheus beside it, or the proxy's own checks) or a holder of an
/// admin key; anyone else hears 401. What it shows (routes, volumes,
/// error rates) helps an attacker time an attack.
pub async fn render(
    State(state): State<AppState>,
    client: Option<Extension<ClientAddr>>,
    headers: HeaderMap,
) -> Response {
    let local = client.is_some_and(|Extension(c)| c.0.is_loopback());
    if !local && !crate::server::api::extract::is_staff(&state, client.as_deref(), &headers) {
        return HttpError(ApiError::Unauthorized).into_response();
    }
    if !database_gauges_fresh() && read_database_gauges(&state).await {
        mark_database_gauges_read();
    }
    // The pools' own counts cost nothing to read.
    for (pool, p) in [("read", state.db.reader()), ("write", state.db.writer())] {
        let size = p.size() as f64;
        let idle = p.num_idle() as f64;
        gauge!("holdfast_db_pool_connections", "pool" => pool).set(size);
        gauge!("holdfast_db_pool_in_use", "pool" => pool).set(size - idle);
        gauge!("holdfast_db_pool_max", "pool" => pool)
            .set(p.options().get_max_connections() as f64);
    }
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        handle().render(),
    )
        .into_response()
}

/// When the database's gauges were last read. Marked only once a read is
/// done: a scrape that comes while another reads them reads them too,
/// rather than render before they were ever set.
static GAUGES_READ_AT: Mutex<Option<Instant>> = Mutex::new(None);

/// Whether the database's gauges were read less than `DATABASE_GAUGES_FOR`
/// ago.
fn database_gauges_fresh() -> bool {
    let at = GAUGES_READ_AT.lock().unwrap_or_else(|p| p.into_inner());
    at.is_some_and(|t| t.elapsed() < DATABASE_GAUGES_FOR)
}

fn mark_database_gauges_read() {
    *GAUGES_READ_AT.lock().unwrap_or_else(|p| p.into_inner()) = Some(Instant::now());
}

/// Reads the database's gauges; whether the outbox's could be read.
async fn read_database_gauges(state: &AppState) -> bool {
    let read = outbox::backlog(state).await;
    if let Ok(backlog) = &read {
        gauge!("holdfast_outbox_backlog").set(backlog.waiting as f64);
        gauge!("holdfast_outbox_oldest_age_seconds").set(backlog.oldest_age_ms as f64 / 1000.0);
        gauge!("holdfast_outbox_given_up").set(backlog.given_up as f64);
    }
    if let Ok(waiting) = state.db.lock_waiters().await {
        gauge!("holdfast_db_lock_waiters").set(waiting as f64);
    }
    read.is_ok()
}
