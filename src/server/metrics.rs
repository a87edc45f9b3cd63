//! `GET /metrics` in Prometheus' text format: the counters the use cases
//! keep (see `holdfast_app::core::metrics`), request latency per route,
//! the outbox backlog, database pool use and open live streams.

use std::sync::OnceLock;
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use holdfast_app::core::payments::outbox;
use holdfast_app::core::AppState;
use metrics::{gauge, histogram};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

const LATENCY: &str = "holdfast_http_request_duration_seconds";

/// The process-wide recorder (installed once, however many apps a test
/// process builds).
pub fn handle() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        PrometheusBuilder::new()
            .set_buckets_for_metric(
                Matcher::Full(LATENCY.to_string()),
                &[
                    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                ],
            )
            .expect("buckets")
            .install_recorder()
            .expect("one metrics recorder per process")
    })
}

/// Times every request, labelled by its route template (not the raw path,
/// so ids do not explode the series).
pub async fn track(request: Request, next: Next) -> Response {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_string());
    let method = request.method().to_string();
    let started = Instant::now();
    let response = next.run(request).await;
    if let Some(route) = route {
        histogram!(
            LATENCY,
            "route" => route,
            "method" => method,
            "status" => response.status().as_u16().to_string()
        )
        .record(started.elapsed().as_secs_f64());
    }
    response
}

pub async fn render(State(state): State<AppState>) -> Response {
    if let Ok(backlog) = outbox::backlog(&state).await {
        gauge!("holdfast_outbox_backlog").set(backlog as f64);
    }
    for (pool, p) in [("read", state.db.reader()), ("write", state.db.writer())] {
        let size = p.size() as f64;
        let idle = p.num_idle() as f64;
        gauge!("holdfast_db_pool_connections", "pool" => pool).set(size);
        gauge!("holdfast_db_pool_in_use", "pool" => pool).set(size - idle);
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
