//! What a browser's first visit costs on the wire: every text answer
//! compressed by Accept-Encoding; the seat map as a drawing kept for good
//! plus one status letter per seat; static files by hashed name, kept for
//! good, sent as the build compressed them. Each read the way a browser
//! reads it (headers, then the body decoded).

use crate::common;

use std::io::Read;

use common::TestApp;
use holdfast_model::seat_drawing::SeatDrawing;
use reqwest::header::{
    ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, ETAG, IF_NONE_MATCH, VARY,
};
use serde_json::Value;

struct Fetched {
    status: u16,
    headers: reqwest::header::HeaderMap,
    /// The body as sent (compressed if it was).
    wire: Vec<u8>,
    /// The body decoded.
    body: Vec<u8>,
}

impl Fetched {
    fn header(&self, name: reqwest::header::HeaderName) -> String {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string()
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("JSON")
    }
}

async fn fetch(app: &TestApp, path: &str, encoding: &str, etag: Option<&str>) -> Fetched {
    let mut req = reqwest::Client::builder()
        .timeout(common::REQUEST_TIMEOUT)
        .build()
        .expect("client")
        .get(format!("{}{path}", app.base))
        .header(ACCEPT_ENCODING, encoding);
    if let Some(e) = etag {
        req = req.header(IF_NONE_MATCH, e);
    }
    let r = req.send().await.expect("GET");
    let status = r.status().as_u16();
    let headers = r.headers().clone();
    let wire = r.bytes().await.expect("body").to_vec();
    let mut body = Vec::new();
    match headers.get(CONTENT_ENCODING).and_then(|v| v.to_str().ok()) {
        Some("br") => {
            brotli::Decompressor::new(&wire[..], 4096)
                .read_to_end(&mut body)
                .expect("brotli");
        }
        Some("gzip") => {
            flate2::read::GzDecoder::new(&wire[..])
                .read_to_end(&mut body)
                .expect("gzip");
        }
        Some(other) => panic!("unexpected encoding {other}"),
        None => body = wire.clone(),
    }
    Fetched {
        status,
        headers,
        wire,
        body,
    }
}

on_both_backends!(
    pages_and_answers_are_compressed_as_the_browser_asks,
    |app: TestApp| async move {
        // Compressed per request: gzip when accepted (cheaper than brotli
        // on a few kilobytes); compressed once for everyone: brotli.
        for (path, chromium) in [
            ("/events/1", "gzip"),
            ("/", "gzip"),
            ("/api/events/1", "gzip"),
            ("/api/events/1/seats", "br"),
        ] {
            let plain = fetch(&app, path, "identity", None).await;
            assert_eq!(plain.status, 200, "{path}");
            assert_eq!(plain.header(CONTENT_ENCODING), "", "{path}: identity asked");
            for (asked, got) in [
                ("gzip, deflate, br, zstd", chromium),
                ("gzip", "gzip"),
                ("br", "br"),
            ] {
                let packed = fetch(&app, path, asked, None).await;
                assert_eq!(packed.status, 200, "{path}");
                assert_eq!(packed.header(CONTENT_ENCODING), got, "{path} for {asked}");
                assert!(
                    packed
                        .header(VARY)
                        .to_lowercase()
                        .contains("accept-encoding"),
                    "{path}: Vary"
                );
                assert!(
                    packed.wire.len() < packed.body.len(),
                    "{path}: {} bytes on the wire for {}",
                    packed.wire.len(),
                    packed.body.len()
                );
            }
        }
        // The page is a few kilobytes: the seats are not in it.
        let page = fetch(&app, "/events/1", "gzip, deflate, br, zstd", None).await;
        assert!(page.wire.len() < 8_000, "page: {} bytes", page.wire.len());
        assert!(!String::from_utf8_lossy(&page.body).contains("<circle"));
        // A live stream is never compressed (it would be held back).
        let stream = reqwest::Client::new()
            .get(format!("{}/api/events/1/seats/stream", app.base))
            .header(ACCEPT_ENCODING, "br, gzip")
            .send()
            .await
            .unwrap();
        assert_eq!(stream.status(), 200);
        assert!(stream.headers().get(CONTENT_ENCODING).is_none());
    }
);

on_both_backends!(
    the_status_letters_are_the_snapshot_in_seat_order,
    |app: TestApp| async move {
        let buyer = app.buyer();
        let seats = app.arena_seats().await;
        assert_eq!(buyer.hold_many(1, &seats[5..8]).await.status, 200);
        // The snapshot may lag by its staleness bound (wall time).
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let full = fetch(&app, "/api/events/1/seats", "br", None).await.json();
        let letters = fetch(&app, "/api/events/1/seats/status", "br", None).await;
        assert_eq!(letters.header(CACHE_CONTROL), "no-cache");
        let compact = letters.json();
        assert_eq!(compact["version"], full["version"]);
        let statuses = compact["statuses"].as_str().unwrap();
        let expected: String = full["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| match s["status"].as_str().unwrap() {
                "AVAILABLE" => 'a',
                "HELD" => 'h',
                "BOOKED" => 'b',
                other => panic!("{other}"),
            })
            .collect();
        assert_eq!(statuses, expected);
        assert_eq!(statuses.matches('h').count(), 3);
        assert!(letters.wire.len() < 200, "{} bytes", letters.wire.len());
        // Unchanged: 304 with no body; after a change, the new letters.
        let etag = letters.header(ETAG);
        let again = fetch(&app, "/api/events/1/seats/status", "br", Some(&etag)).await;
        assert_eq!(again.status, 304);
        assert!(again.wire.is_empty());
        assert_eq!(buyer.hold(1, seats[100]).await.status, 200);
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let changed = fetch(&app, "/api/events/1/seats/status", "gzip", Some(&etag)).await;
        assert_eq!(changed.status, 200);
        let letters = changed.json()["statuses"].as_str().unwrap().to_string();
        let index = full["seats"]
            .as_array()
            .unwrap()
            .iter()
            .position(|s| s["id"] == seats[100])
            .unwrap();
        assert_eq!(letters.as_bytes()[index], b'h');
    }
);

on_both_backends!(
    the_drawing_is_the_map_without_statuses_and_kept_for_good_by_its_hash,
    |app: TestApp| async move {
        let full = fetch(&app, "/api/events/1/seats", "br", None).await.json();
        let plain = fetch(&app, "/api/events/1/seats/drawing", "br", None).await;
        assert_eq!(plain.status, 200);
        assert_eq!(
            plain.header(CACHE_CONTROL),
            "no-cache",
            "unnamed: revalidated"
        );
        let hash = plain.header(ETAG).trim_matches('"').to_string();
        let named = fetch(
            &app,
            &format!("/api/events/1/seats/drawing?v={hash}"),
            "br",
            None,
        )
        .await;
        assert_eq!(
            named.header(CACHE_CONTROL),
            "public, max-age=31536000, immutable"
        );
        assert_eq!(named.body, plain.body);
        assert!(
            named.wire.len() < 40_000,
            "10,000 seats drawn in {} bytes",
            named.wire.len()
        );
        let stale = fetch(&app, "/api/events/1/seats/drawing?v=0000", "br", None).await;
        assert_eq!(
            stale.header(CACHE_CONTROL),
            "no-cache",
            "another hash is not kept"
        );
        let again = fetch(
            &app,
            "/api/events/1/seats/drawing",
            "br",
            Some(&format!("\"{hash}\"")),
        )
        .await;
        assert_eq!(again.status, 304);

        let drawing: SeatDrawing = serde_json::from_slice(&named.body).unwrap();
        let drawn = drawing.seats();
        let seats = full["seats"].as_array().unwrap();
        assert_eq!(drawn.len(), seats.len());
        for (d, s) in drawn.iter().zip(seats) {
            assert_eq!(d.id, s["id"].as_i64().unwrap());
            assert_eq!(d.section, s["section"].as_str().unwrap());
            assert_eq!(d.row, s["row"].as_str().unwrap());
            assert_eq!(d.number, s["number"].as_i64().unwrap());
            assert_eq!(d.category.code, s["category"].as_str().unwrap());
            assert_eq!(d.category.price_cents, s["priceCents"].as_i64().unwrap());
            assert!((d.x as f64 / 10.0 - s["x"].as_f64().unwrap()).abs() <= 0.05);
            assert!((d.y as f64 / 10.0 - s["y"].as_f64().unwrap()).abs() <= 0.05);
        }
        // The page names this very drawing.
        let page = fetch(&app, "/events/1", "br", None).await;
        let html = String::from_utf8_lossy(&page.body).to_string();
        assert!(
            html.contains(&format!("seats/drawing?v={hash}")),
            "the page names the drawing"
        );
    }
);

on_both_backends!(
    the_status_letters_wait_behind_the_queue_like_the_snapshot,
    |app: TestApp| async move {
        app.set_room(true).await;
        let stranger = fetch(&app, "/api/events/1/seats/status", "br", None).await;
        assert_eq!(stranger.status, 403);
        let full = fetch(&app, "/api/events/1/seats", "br", None).await;
        assert_eq!(full.status, 403);
        // The drawing shows no one's seats: it is public.
        let drawing = fetch(&app, "/api/events/1/seats/drawing", "br", None).await;
        assert_eq!(drawing.status, 200);
        let unknown = fetch(&app, "/api/events/999/seats/drawing", "br", None).await;
        assert_eq!(unknown.status, 404);
        assert_eq!(unknown.json()["error"]["code"], "NOT_FOUND");
        let bad = fetch(&app, "/api/events/abc/seats/status", "br", None).await;
        assert_eq!(bad.status, 400);
    }
);

on_both_backends!(
    the_event_page_is_rendered_once_for_the_same_data_and_again_when_it_changes,
    |app: TestApp| async move {
        let body = |f: &Fetched| String::from_utf8_lossy(&f.body).into_owned();
        let first = fetch(&app, "/events/1", "identity", None).await;
        assert_eq!(first.status, 200);
        assert!(
            body(&first).contains("\\\"availableCount\\\":10000"),
            "{}",
            body(&first)
        );
        // The same data: the kept render (a new render would draw a new
        // nonce), in every encoding.
        let again = fetch(&app, "/events/1", "identity", None).await;
        assert_eq!(body(&again), body(&first));
        let gzipped = fetch(&app, "/events/1", "gzip, deflate, br, zstd", None).await;
        assert_eq!(gzipped.header(CONTENT_ENCODING), "gzip");
        assert_eq!(body(&gzipped), body(&first));
        assert!(gzipped.header(VARY).contains("Accept-Language"));
        assert!(gzipped.header(VARY).contains("Accept-Encoding"));
        let brotli = fetch(&app, "/events/1", "br", None).await;
        assert_eq!(brotli.header(CONTENT_ENCODING), "br");
        assert_eq!(body(&brotli), body(&first));
        // Each language its own page.
        let vietnamese = reqwest::Client::new()
            .get(format!("{}/events/1", app.base))
            .header(reqwest::header::ACCEPT_LANGUAGE, "vi")
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(vietnamese.contains("<html lang=\"vi\""));
        assert!(body(&first).contains("<html lang=\"en\""));
        // A query is not the plain page: rendered for itself (its language
        // switch comes back to it).
        let with_query = fetch(&app, "/events/1?from=mail", "identity", None).await;
        assert!(body(&with_query).contains("/events/1?from=mail"));

        // Two seats held: the page shows the new count, never the kept one.
        let seats = app.arena_seats().await;
        assert_eq!(app.buyer().hold_many(1, &seats[..2]).await.status, 200);
        page_shows(&app, "\\\"availableCount\\\":9998").await;
        // A waiting room turned on: strangers get the room, not the map.
        app.set_room(true).await;
        page_shows(&app, "\\\"waiting\\\":{").await;
        app.set_room(false).await;
        page_shows(&app, "\\\"waiting\\\":null").await;
    }
);

/// Asks for the event page until it shows `needle` (what it reads may lag
/// by its freshness bound, a quarter of a second of wall time).
async fn page_shows(app: &TestApp, needle: &str) {
    let mut seen = String::new();
    for _ in 0..100 {
        seen =
            String::from_utf8_lossy(&fetch(app, "/events/1", "gzip", None).await.body).into_owned();
        if seen.contains(needle) {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the page never showed {needle}: {seen}");
}

#[tokio::test]
async fn hashed_files_are_kept_for_good_and_sent_as_the_build_compressed_them() {
    let site = tempdir::TempDir::new("holdfast-site").unwrap();
    let pkg = site.path().join("pkg");
    std::fs::create_dir_all(&pkg).unwrap();
    let wasm = vec![7u8; 50_000];
    std::fs::write(pkg.join("holdfast.0123456789abcdef.wasm"), &wasm).unwrap();
    let mut br = Vec::new();
    {
        use std::io::Write;
        let mut w = brotli::CompressorWriter::new(&mut br, 4096, 9, 22);
        w.write_all(&wasm).unwrap();
    }
    std::fs::write(pkg.join("holdfast.0123456789abcdef.wasm.br"), &br).unwrap();
    std::fs::write(
        pkg.join("holdfast.css"),
        "body { color: black }".repeat(100),
    )
    .unwrap();
    std::fs::write(
        site.path().join("hash.txt"),
        "js: 1111111111111111\nwasm: 0123456789abcdef\ncss: 2222222222222222\n",
    )
    .unwrap();
    let (url, tmp) = common::fresh_database(common::Backend::Sqlite).await;
    let root = site.path().to_string_lossy().to_string();
    let app = common::spawn_on(&url, tmp, |c| c.site_root = root).await;

    let hashed = fetch(
        &app,
        "/pkg/holdfast.0123456789abcdef.wasm",
        "gzip, br",
        None,
    )
    .await;
    assert_eq!(hashed.status, 200);
    assert_eq!(hashed.header(CONTENT_ENCODING), "br");
    assert_eq!(
        hashed.wire, br,
        "the build's own brotli, not compressed again"
    );
    assert_eq!(hashed.body, wasm);
    assert_eq!(
        hashed.header(CACHE_CONTROL),
        "public, max-age=31536000, immutable"
    );
    let plain = fetch(&app, "/pkg/holdfast.css", "gzip", None).await;
    assert_eq!(plain.status, 200);
    assert_eq!(plain.header(CACHE_CONTROL), "no-cache");
    assert_eq!(
        plain.header(CONTENT_ENCODING),
        "gzip",
        "compressed on the way"
    );
    // The page links the hashed names the hash file gives.
    let page = String::from_utf8(fetch(&app, "/", "identity", None).await.body).unwrap();
    assert!(page.contains("/pkg/holdfast.1111111111111111.js"), "{page}");
    assert!(page.contains("/pkg/holdfast.0123456789abcdef.wasm"));
    assert!(page.contains("/pkg/holdfast.2222222222222222.css"));
}
