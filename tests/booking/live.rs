//! The live seat stream over HTTP: a change reaches an open stream within a
//! second; a reconnect with Last-Event-ID gets what it missed, or a reset.

use crate::common;

use std::time::Duration;

use common::TestApp;

/// Reads the stream until `needle` shows up (or a second passes).
async fn read_until(resp: &mut reqwest::Response, needle: &str) -> String {
    read_for(resp, needle, Duration::from_secs(1)).await
}

async fn read_for(resp: &mut reqwest::Response, needle: &str, wait: Duration) -> String {
    let mut seen = String::new();
    let deadline = tokio::time::Instant::now() + wait;
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
        // Nor can it account for an id that is no version at all.
        let mut garbled = client
            .get(&url)
            .header("Last-Event-ID", "not-a-version")
            .send()
            .await
            .unwrap();
        let reset = read_until(&mut garbled, "event: reset").await;
        assert!(reset.contains("event: reset"), "{reset}");

        let unknown = client
            .get(format!("{}/api/events/77/seats/stream", app.base))
            .send()
            .await
            .unwrap();
        assert_eq!(unknown.status(), 404);
    }
);

on_both_backends!(
    standing_places_left_reach_the_stream_when_they_change,
    |app: TestApp| async move {
        let area = app.scalar("select id from ga_area").await;
        let url = format!("{}/api/events/1/seats/stream", app.base);
        let mut stream = reqwest::Client::new().get(&url).send().await.unwrap();
        let opened =
            format!("{{\"eventId\":1,\"standing\":[{{\"id\":{area},\"remaining\":2000}}]}}");
        let first = read_until(&mut stream, &opened).await;
        assert!(first.contains("event: standing"), "{first}");
        assert!(first.contains(&opened), "the places left at once: {first}");

        let path = format!("/api/events/1/general-admission/{area}/hold");
        let held = app
            .buyer()
            .post(
                &path,
                Some(&common::new_key()),
                Some(serde_json::json!({ "quantity": 3 })),
            )
            .await;
        assert_eq!(held.status, 200, "{}", held.text);
        let changed = "\"remaining\":1997";
        let next = read_for(&mut stream, changed, Duration::from_secs(5)).await;
        assert!(next.contains("event: standing"), "{next}");
        assert!(
            next.contains(changed),
            "the new count within seconds: {next}"
        );

        // The cruise has no standing areas: its stream never says `standing`.
        let mut cruise = reqwest::Client::new()
            .get(format!("{}/api/events/2/seats/stream", app.base))
            .send()
            .await
            .unwrap();
        let quiet = read_until(&mut cruise, "event: standing").await;
        assert!(!quiet.contains("standing"), "{quiet}");
    }
);

/// Two instances on one Postgres: a hold made on one reaches the other's
/// stream and snapshot within a second (LISTEN/NOTIFY).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn changes_on_one_instance_reach_the_other_instances_stream() {
    if !common::wants_postgres() {
        return;
    }
    let a = common::spawn_app(common::Backend::Postgres).await;
    let b = common::spawn_on(&a.database_url, None, |_| {}).await;
    let client = reqwest::Client::new();
    // B has the map loaded and a stream open.
    assert_eq!(b.buyer().get("/api/events/1/seats").await.status, 200);
    let mut stream = client
        .get(format!("{}/api/events/1/seats/stream", b.base))
        .send()
        .await
        .unwrap();
    assert_eq!(a.buyer().hold(1, 321).await.status, 200);
    let got = read_until(&mut stream, "\"id\":321").await;
    assert!(got.contains("\"status\":\"HELD\""), "B's stream: {got}");
    // The snapshot may lag its stream by its staleness bound (under 1 s).
    let mut status = String::new();
    for _ in 0..10 {
        let snapshot = b.buyer().get("/api/events/1/seats").await.json();
        let seat = snapshot["seats"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == 321)
            .cloned()
            .unwrap();
        status = seat["status"].as_str().unwrap().to_string();
        if status == "HELD" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(status, "HELD");
    // And B refuses that seat from its own map, without a write.
    assert_eq!(b.buyer().hold(1, 321).await.code(), "SEAT_TAKEN");
}

/// A burst of holds on two events, made at once on one instance, reaches
/// the other instance's maps whole: the sender gathers what queued up and
/// sends it in one statement, several notices, in order.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_burst_on_two_events_reaches_the_other_instance_whole() {
    if !common::wants_postgres() {
        return;
    }
    let a = common::spawn_app(common::Backend::Postgres).await;
    let b = common::spawn_on(&a.database_url, None, |_| {}).await;
    let second_event_seat: i64 = a.first_seat(2).await;
    let wanted: Vec<(i64, i64)> = (0..12)
        .map(|i| match i % 2 {
            0 => (1, 400 + i),
            _ => (2, second_event_seat + i),
        })
        .collect();
    // B has both maps loaded.
    for event in [1, 2] {
        assert_eq!(
            b.buyer()
                .get(&format!("/api/events/{event}/seats"))
                .await
                .status,
            200
        );
    }
    let holds = wanted.iter().map(|&(event, seat)| {
        let buyer = a.buyer();
        async move { buyer.hold(event, seat).await.status }
    });
    let statuses = futures::future::join_all(holds).await;
    assert!(statuses.iter().all(|s| *s == 200), "{statuses:?}");
    // B's snapshots show every one of them held (within their staleness bound).
    let mut missing = wanted.clone();
    for _ in 0..20 {
        let mut still = Vec::new();
        for &(event, seat) in &missing {
            let snapshot = b
                .buyer()
                .get(&format!("/api/events/{event}/seats"))
                .await
                .json();
            let status = snapshot["seats"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["id"] == seat)
                .map(|s| s["status"].as_str().unwrap_or_default().to_string());
            if status.as_deref() != Some("HELD") {
                still.push((event, seat));
            }
        }
        missing = still;
        if missing.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(missing.is_empty(), "not held on B: {missing:?}");
}

// The fan-out's connection was lost (a failover): the instance drops its
// maps, and an open stream says "reset" so its client reads the map again;
// the changes of the map read anew (numbered from 1 again) still reach it.
on_both_backends!(
    a_stream_resets_when_its_map_is_read_again,
    |app: TestApp| async move {
        let client = reqwest::Client::new();
        let url = format!("{}/api/events/1/seats/stream", app.base);
        let mut stream = client.get(&url).send().await.unwrap();
        assert_eq!(stream.status(), 200);
        let buyer = app.buyer();
        assert_eq!(buyer.hold(1, 601).await.status, 200);
        let before = read_until(&mut stream, "\"id\":601").await;
        assert!(before.contains("event: seats"), "{before}");
        app.state.seat_maps.forget_all();
        let reset = read_until(&mut stream, "event: reset").await;
        assert!(reset.contains("event: reset"), "{reset}");
        // The map is read again on its next use; its first change is
        // version 1, below what the stream sent before, and still arrives.
        assert_eq!(
            app.buyer().get("/api/events/1/seats/status").await.status,
            200
        );
        assert_eq!(buyer.hold(1, 602).await.status, 200);
        let after = read_until(&mut stream, "\"id\":602").await;
        assert!(after.contains("event: seats"), "{after}");
    }
);

on_both_backends!(
    streams_end_with_a_word_to_reconnect_when_the_instance_stops,
    |app: TestApp| async move {
        let client = reqwest::Client::new();
        let seats = format!("{}/api/events/1/seats/stream", app.base);
        let mut stream = client.get(&seats).send().await.unwrap();
        assert_eq!(stream.status(), 200);
        let mut console = app
            .admin()
            .http
            .get(format!("{}/api/admin/events/1/stream", app.base))
            .send()
            .await
            .unwrap();
        assert_eq!(console.status(), 200);
        let first = read_for(&mut console, "event: dashboard", Duration::from_secs(5)).await;
        assert!(first.contains("event: dashboard"), "{first}");
        // Open until the instance stops…
        let before = read_for(&mut stream, "retry:", Duration::from_millis(300)).await;
        assert!(!before.contains("retry:"), "{before}");
        app.state.stopping.begin();
        // …then each ends, its last word telling the browser to come back.
        for s in [&mut stream, &mut console] {
            let rest = read_for(s, "retry: 1000", Duration::from_secs(5)).await;
            assert!(rest.contains("retry: 1000"), "{rest}");
            let end = tokio::time::timeout(Duration::from_secs(5), s.chunk())
                .await
                .expect("the stream ends");
            assert!(matches!(end, Ok(None)), "{end:?}");
        }
    }
);
