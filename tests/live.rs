//! The live seat stream over HTTP: a change reaches an open stream within a
//! second; a reconnect with Last-Event-ID gets what it missed, or a reset.

mod common;

use std::time::Duration;

use common::TestApp;

/// Reads the stream until `needle` shows up (or a second passes).
async fn read_until(resp: &mut reqwest::Response, needle: &str) -> String {
    let mut seen = String::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(1);
    while !seen.contains(needle) {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        match tokio::time::timeout(left, resp.chunk()).await {
            Ok(Ok(Some(bytes))) => seen.push_str(&String::from_utf8_lossy(&bytes)),
            _ => break,
        }
    }
    seen
}

on_both_backends!(
    seat_changes_stream_live_and_catch_up,
    |app: TestApp| async move {
        let client = reqwest::Client::new();
        let url = format!("{}/api/events/1/seats/stream", app.base);
        let mut stream = client.get(&url).send().await.unwrap();
        assert_eq!(stream.status(), 200);
        assert!(stream.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream"));

        let buyer = app.buyer();
        assert_eq!(buyer.hold(1, 123).await.status, 200);
        let got = read_until(&mut stream, "\"id\":123").await;
        assert!(got.contains("event: seats"), "{got}");
        assert!(got.contains("\"status\":\"HELD\""), "{got}");
        let version: u64 = got
            .lines()
            .find_map(|l| l.strip_prefix("id: ").or(l.strip_prefix("id:")))
            .and_then(|v| v.trim().parse().ok())
            .expect("an event id");

        // Missed while away: replayed on reconnect.
        assert_eq!(buyer.hold(1, 124).await.status, 200);
        let mut again = client
            .get(&url)
            .header("Last-Event-ID", version.to_string())
            .send()
            .await
            .unwrap();
        let caught = read_until(&mut again, "\"id\":124").await;
        assert!(caught.contains("\"id\":124"), "{caught}");
        assert!(
            !caught.contains("\"id\":123"),
            "only what was missed: {caught}"
        );

        // A version this server cannot account for: refetch.
        let mut lost = client
            .get(&url)
            .header("Last-Event-ID", "999999")
            .send()
            .await
            .unwrap();
        let reset = read_until(&mut lost, "event: reset").await;
        assert!(reset.contains("event: reset"), "{reset}");

        let unknown = client
            .get(format!("{}/api/events/77/seats/stream", app.base))
            .send()
            .await
            .unwrap();
        assert_eq!(unknown.status(), 404);
    }
);
