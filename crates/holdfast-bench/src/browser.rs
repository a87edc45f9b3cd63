//! What a browser fetches from the arena's event page, measured next to
//! the machine's limit in the same run: requests per second of each answer
//! (asked as Chromium asks, `Accept-Encoding: gzip, deflate, br, zstd`)
//! beside `/healthz`'s, and the bytes of a first visit and of a revisit
//! (bodies as sent; the Chromium spec counts headers too).
//!
//! The limit is measured in turns with the answers: after a warm-up, a
//! `/healthz` run before each answer's and one after the last, and each
//! answer is set against the mean of the two beside it. A single
//! `/healthz` run at the start, while the server and the client are still
//! warming up, would make the same answer's share of the limit swing
//! widely from one run to the next.

use std::time::Duration;

use super::throughput::{loop_gets, Run};
use crate::stats::percentile;

const CONNS: usize = 16;
const SECONDS: u64 = 5;
pub const CHROMIUM_ASKS: &str = "gzip, deflate, br, zstd";

/// A client that asks as Chromium does (`HOLDFAST_BENCH_ACCEPT` to compare
/// another `Accept-Encoding`, e.g. `identity` or `gzip`).
fn browser() -> reqwest::Client {
    let asks = std::env::var("HOLDFAST_BENCH_ACCEPT").unwrap_or_else(|_| CHROMIUM_ASKS.into());
    let mut headers = reqwest::header::HeaderMap::new();
    if let Ok(v) = reqwest::header::HeaderValue::from_str(&asks) {
        headers.insert(reqwest::header::ACCEPT_ENCODING, v);
    }
    reqwest::Client::builder()
        .default_headers(headers)
        .build()
        .expect("client")
}

/// One answer as sent: status, ETag and body bytes on the wire.
async fn fetch(base: &str, path: &str) -> (u16, Option<String>, Vec<u8>) {
    let r = browser()
        .get(format!("{base}{path}"))
        .send()
        .await
        .expect("GET");
    let status = r.status().as_u16();
    let etag = r
        .headers()
        .get("etag")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    (status, etag, r.bytes().await.expect("body").to_vec())
}

async fn rate(base: &str, path: &str, etag: Option<String>) -> Run {
    let clients = (0..CONNS).map(|_| browser()).collect();
    let url = format!("{base}{path}");
    loop_gets(
        clients,
        &url,
        etag,
        Duration::from_secs(SECONDS),
        &[200, 304],
    )
    .await
}

/// What the event page names for a browser with an empty cache to fetch
/// next: the script, the wasm, the stylesheet and the seats' drawing.
pub fn assets_named(html: &str, event: i64) -> Vec<String> {
    ["js", "wasm", "css"]
        .iter()
        .filter_map(|ext| linked(html, "/pkg/holdfast", ext))
        .chain(linked(
            html,
            &format!("/api/events/{event}/seats/drawing"),
            "",
        ))
        .collect()
}

pub async fn run(base: &str, event: i64) {
    let (_, _, page) = fetch(base, &format!("/events/{event}")).await;
    // Read uncompressed, to find what it names.
    let html = reqwest::get(format!("{base}/events/{event}"))
        .await
        .expect("GET")
        .text()
        .await
        .expect("page");
    // The page names what it needs; a browser fetches those next.
    let assets = assets_named(&html, event);
    let drawing = linked(&html, &format!("/api/events/{event}/seats/drawing"), "")
        .unwrap_or_else(|| format!("/api/events/{event}/seats/drawing"));
    let status = format!("/api/events/{event}/seats/status");
    let snapshot = format!("/api/events/{event}/seats");

    println!("-- what a browser fetches, {CONNS} connections, {SECONDS} s each, Accept-Encoding: {CHROMIUM_ASKS}");
    println!("   (each answer against the mean of the /healthz runs just before and after it)");
    let rows: Vec<(String, String, bool)> = vec![
        ("hello world".into(), "/hello".into(), false),
        (
            format!("SSR event page /events/{event}"),
            format!("/events/{event}"),
            false,
        ),
        (
            "seat map snapshot JSON, 200".into(),
            snapshot.clone(),
            false,
        ),
        ("seat map snapshot JSON, 304".into(), snapshot, true),
        ("status letters, 200".into(), status.clone(), false),
        ("status letters, 304".into(), status.clone(), true),
        ("drawing (immutable)".into(), drawing.clone(), false),
    ];
    // Warm-up, not counted: connections, caches, the CPU's clock.
    rate(base, "/healthz", None).await;
    let mut before = rate(base, "/healthz", None).await;
    let mut limits = vec![per_second(&before)];
    let mut measured = Vec::new();
    for (name, path, revalidate) in rows {
        let (_, etag, body) = fetch(base, &path).await;
        let r = rate(base, &path, if revalidate { etag } else { None }).await;
        let after = rate(base, "/healthz", None).await;
        let limit = (per_second(&before) + per_second(&after)) / 2.0;
        limits.push(per_second(&after));
        measured.push((name, r, limit, if revalidate { 0 } else { body.len() }));
        before = after;
    }
    let (low, high) = limits
        .iter()
        .fold((f64::MAX, 0.0_f64), |(l, h), x| (l.min(*x), h.max(*x)));
    println!(
        "{:<40} {low:>8.0} to {high:.0} req/s over {} runs, in turns with the answers below",
        "/healthz (the limit)",
        limits.len()
    );
    for (name, r, limit, bytes) in measured {
        print_row(&name, &r, limit, bytes);
    }

    let mut first = page.len();
    let mut parts = vec![format!("page {}", page.len())];
    for path in assets.iter().chain([&status, &"/favicon.ico".to_string()]) {
        let (_, _, body) = fetch(base, path).await;
        first += body.len();
        let name = path
            .rsplit('/')
            .next()
            .unwrap_or(path)
            .split('?')
            .next()
            .unwrap_or(path);
        parts.push(format!("{name} {}", body.len()));
    }
    let (_, _, letters) = fetch(base, &status).await;
    let revisit = page.len() + letters.len();
    println!(
        "bytes per first visit: {first} ({})\nbytes per revisit: {revisit} (page and status letters; the rest is kept by the browser)",
        parts.join(", ")
    );
}

fn per_second(r: &Run) -> f64 {
    (r.ok + r.other) as f64 / r.elapsed.as_secs_f64()
}

fn print_row(name: &str, r: &Run, limit_rps: f64, bytes: usize) {
    let mut lat = r.latencies.clone();
    lat.sort();
    let rps = per_second(r);
    println!(
        "{name:<40} {rps:>8.0} req/s  {:>7.4}× /healthz  p50 {:>6.2} ms  p99 {:>6.2} ms  {bytes:>8} B  failed {}",
        rps / limit_rps,
        percentile(&lat, 0.50),
        percentile(&lat, 0.99),
        r.other
    );
}

/// The first path in the page that starts with `prefix` and (when given)
/// ends with `.{ext}`.
pub fn linked(html: &str, prefix: &str, ext: &str) -> Option<String> {
    let mut rest = html;
    while let Some(at) = rest.find(prefix) {
        let tail = &rest[at..];
        let end = tail.find(['"', '\'', ' ', ')']).unwrap_or(tail.len());
        let found = tail[..end].replace("&amp;", "&");
        if ext.is_empty() || found.ends_with(&format!(".{ext}")) {
            return Some(found);
        }
        rest = &rest[at + prefix.len()..];
    }
    None
}
