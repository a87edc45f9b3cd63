//! Abuse on an on-sale day, from outside: live streams capped per client
//! and in total, the pages' server functions held to the API's body limit
//! and counted against the caller's address like the REST steps.

use crate::common;

use common::{Buyer, TestApp};
use holdfast_app::server_fns::buyer::HoldSeats;
use holdfast_core::platform::client_addr::TrustedProxies;
use holdfast_core::platform::clock::Clock;
use leptos::server_fn::ServerFn;

async fn app_with(tweak: impl FnOnce(&mut holdfast::server::config::Config)) -> TestApp {
    common::spawn_sqlite_with(|c| {
        c.trusted_proxies = TrustedProxies::parse("127.0.0.1").unwrap();
        tweak(c);
    })
    .await
}

async fn open_stream(who: &Buyer, path: &str) -> reqwest::Response {
    who.http
        .get(format!("{}{path}", who.base))
        .send()
        .await
        .unwrap()
}

/// Three streams per client, five on the instance: the fourth from one
/// client and the sixth overall are 503 `TOO_MANY_STREAMS` with
/// `Retry-After`, in the API's error shape; the streams already open stay.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn live_streams_are_capped_per_client_and_in_total() {
    let app = app_with(|c| {
        c.sse_max_per_client = 3;
        c.sse_max_streams = 5;
    })
    .await;
    let a = app.buyer_at("203.0.113.1");
    let b = app.buyer_at("203.0.113.2");
    let c = app.buyer_at("203.0.113.3");
    let mut open = Vec::new();
    for _ in 0..3 {
        let s = open_stream(&a, "/api/events/1/seats/stream").await;
        assert_eq!(s.status(), 200);
        open.push(s);
    }
    let refused = open_stream(&a, "/api/events/1/seats/stream").await;
    assert_eq!(refused.status(), 503);
    assert_eq!(refused.headers()["retry-after"], "5");
    let body: serde_json::Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["code"], "TOO_MANY_STREAMS");
    // The queue's stream counts against the same caps.
    assert_eq!(b.post("/api/events/1/queue", None, None).await.status, 200);
    for path in ["/api/events/1/queue/stream", "/api/events/1/seats/stream"] {
        let s = open_stream(&b, path).await;
        assert_eq!(s.status(), 200, "{path}");
        open.push(s);
    }
    let full = open_stream(&c, "/api/events/1/seats/stream").await;
    assert_eq!(full.status(), 503);
    assert_eq!(app.state.streams.open_now(), 5);
    // The open ones still deliver: a hold shows up on them.
    assert_eq!(c.hold(1, 77).await.status, 200);
    // (The arena's streams open with its standing places left; then the hold.)
    let mut first = open.remove(0);
    let mut seen = String::new();
    while !seen.contains("event: seats") {
        let chunk = tokio::time::timeout(std::time::Duration::from_secs(5), first.chunk())
            .await
            .expect("a change within 5 s")
            .unwrap()
            .unwrap();
        seen.push_str(&String::from_utf8_lossy(&chunk));
    }
    assert!(seen.contains("event: seats"), "{seen}");
}

/// A server function's body is held to the API's limit (413), and its
/// attempts count against the caller's address whatever its URL.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn server_functions_share_the_apis_body_limit_and_address_limit() {
    let app = app_with(|c| c.rate_limit_ip_per_minute = 3).await;
    let path = HoldSeats::PATH;
    let buyer = app.buyer_at("198.51.100.4");
    let huge = format!(
        "event_id=1&idempotency_key=k&padding={}",
        "x".repeat(100_000)
    );
    let answer = buyer
        .http
        .post(format!("{}{path}", app.base))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(huge)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 413);
    // The payment webhook keeps its own, larger limit: a 20 KB event from
    // the provider is read, not refused.
    let padding = "x".repeat(20_000);
    let event = format!(
        r#"{{"id":"evt_large","type":"customer.updated","data":{{"object":{{"id":"cus_1","metadata":{{"note":"{padding}"}}}}}}}}"#
    );
    let now = app.clock.now().ms() / 1000;
    let signature = holdfast_core::payments::signature::sign(
        holdfast::server::config::DEV_WEBHOOK_SECRET,
        event.as_bytes(),
        now,
    );
    let large = app.post_webhook(&event, Some(signature)).await;
    assert_eq!(large.status, 200, "{}", large.text);

    let mut outcomes = Vec::new();
    for i in 0..5 {
        let form = format!(
            "event_id=1&seat_ids[0]={}&idempotency_key={}",
            600 + i,
            common::new_key()
        );
        let send = || {
            buyer
                .http
                .post(format!("{}{path}", app.base))
                .header("content-type", "application/x-www-form-urlencoded")
                .body(form.clone())
                .send()
        };
        // A pooled connection the server closed after the refused large
        // body fails before any answer; like a browser, send it again (the
        // same idempotency key: never a second hold).
        let answer = match send().await {
            Ok(answer) => answer,
            Err(e) if e.is_request() => send().await.unwrap(),
            Err(e) => panic!("{e}"),
        };
        outcomes.push(answer.text().await.unwrap());
    }
    let held = outcomes.iter().filter(|o| o.contains("\"Held\"")).count();
    let limited = outcomes
        .iter()
        .filter(|o| o.contains("RATE_LIMITED"))
        .count();
    assert_eq!((held, limited), (3, 2), "{outcomes:?}");
    assert_eq!(app.scalar("select count(*) from booking").await, 3);
    // Another address is not held back.
    assert_eq!(app.buyer_at("198.51.100.5").hold(1, 700).await.status, 200);
}

on_both_backends!(
    paying_does_not_stretch_a_hold_while_the_event_sells_fast,
    |first: TestApp| async move {
        // Calm: a checkout gets its full 30 minutes.
        let buyer = first.buyer();
        let booking = buyer.held_booking(1, 800).await;
        first.clock.advance_ms(240_000);
        let calm = buyer.pay(&booking).await;
        assert_eq!(calm.json()["expiresInMs"], 1_800_000);

        // Selling fast (every place counts as scarce here): the hold's
        // remaining minute plus the 5-minute grace.
        let app = common::spawn_on(&first.database_url, None, |c| {
            c.fast_sale_free_percent = 100;
        })
        .await;
        let buyer = app.buyer();
        let booking = buyer.held_booking(1, 801).await;
        app.clock.advance_ms(240_000);
        let fast = buyer.pay(&booking).await;
        assert_eq!(fast.status, 200, "{}", fast.text);
        assert_eq!(fast.json()["expiresInMs"], 360_000);
        // At that deadline the checkout ends and the seat goes back, though
        // the provider's session would have lasted longer.
        app.clock.advance_ms(360_001);
        holdfast_core::payments::reconcile::reconcile_due(&app.state)
            .await
            .unwrap();
        assert_eq!(app.status_of(&booking).await, "EXPIRED");
        assert_eq!(app.buyer().hold(1, 801).await.status, 200);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_buyer_who_keeps_abandoning_checkouts_is_refused_new_ones,
    |first: TestApp| async move {
        let app = common::spawn_on(&first.database_url, None, |c| {
            c.abandoned_checkouts_per_hour = 2;
            c.checkout_ttl = std::time::Duration::from_secs(600);
        })
        .await;
        let buyer = app.buyer();
        for seat in [900, 901] {
            let booking = buyer.held_booking(1, seat).await;
            assert_eq!(buyer.pay(&booking).await.status, 200);
            app.clock.advance_ms(600_001);
            holdfast_core::payments::reconcile::reconcile_due(&app.state)
                .await
                .unwrap();
            assert_eq!(app.status_of(&booking).await, "EXPIRED");
        }
        let booking = buyer.held_booking(1, 902).await;
        let refused = buyer.pay(&booking).await;
        assert_eq!(
            (refused.status.as_u16(), refused.code()),
            (429, "RATE_LIMITED".into())
        );
        assert_eq!(app.status_of(&booking).await, "HELD");
        // Somebody else pays as usual; an hour later this buyer may again.
        let other = app.buyer();
        let theirs = other.held_booking(1, 903).await;
        assert_eq!(other.pay(&theirs).await.status, 200);
        app.clock.advance_ms(3_600_000);
        let booking = buyer.held_booking(1, 904).await;
        assert_eq!(buyer.pay(&booking).await.status, 200);
        app.assert_invariants().await;
    }
);

/// A server function's call without a field it needs is the caller's
/// mistake: a 400 in the API's error shape naming no internals, and
/// nothing held.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_function_call_missing_a_field_is_refused_as_bad_input() {
    let app = app_with(|_| {}).await;
    let buyer = app.buyer_at("198.51.100.6");
    let answer = buyer
        .http
        .post(format!("{}{}", app.base, HoldSeats::PATH))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("event_id=1&seat_ids[0]=600")
        .send()
        .await
        .unwrap();
    let status = answer.status();
    let text = answer.text().await.unwrap();
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("\"VALIDATION\""), "{text}");
    assert!(!text.contains("serde") && !text.contains("Args"), "{text}");
    assert_eq!(app.scalar("select count(*) from booking").await, 0);
}

/// The console's live streams hold slots like every other stream: past the
/// per-client cap they are refused, and they count on the instance.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_consoles_streams_take_slots_too() {
    let app = app_with(|c| {
        c.sse_max_per_client = 2;
        c.sse_max_streams = 100;
    })
    .await;
    let staff = with_admin_token(&app, "203.0.113.20");
    let paths = [
        "/api/admin/events/1/stream",
        "/api/admin/sailings/2/rebooking/stream",
    ];
    let mut open = Vec::new();
    for path in paths {
        let s = open_stream(&staff, path).await;
        assert_eq!(s.status(), 200, "{path}");
        open.push(s);
    }
    assert_eq!(app.state.streams.open_now(), 2);
    for path in paths {
        let refused = open_stream(&staff, path).await;
        assert_eq!(refused.status(), 503, "{path}");
        let body: serde_json::Value = refused.json().await.unwrap();
        assert_eq!(body["error"]["code"], "TOO_MANY_STREAMS");
    }
    drop(open);
}

/// A client at `address` (behind the trusted proxy) sending the admin
/// bearer token.
fn with_admin_token(app: &TestApp, address: &str) -> Buyer {
    let bearer = format!("Bearer {}", holdfast::server::config::TEST_ADMIN_TOKEN);
    app.client_with(&[("authorization", &bearer), ("x-forwarded-for", address)])
}

/// Behind a proxy that writes X-Forwarded-For, a `Forwarded` header the
/// client sent itself chooses nothing: every per-address limit sees the
/// proxy's word.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_client_cannot_choose_its_address_with_the_other_header() {
    let app = app_with(|c| c.rate_limit_ip_per_minute = 3).await;
    let mut statuses = Vec::new();
    for i in 0..6 {
        // Each claims another address in Forwarded; the proxy says one.
        let answer = app
            .buyer_at("203.0.113.30")
            .send(
                reqwest::Method::POST,
                &format!("/api/events/1/seats/{}/hold", 600 + i),
                &[
                    ("forwarded", &format!("for=198.51.100.{i}")),
                    ("idempotency-key", &common::new_key()),
                ],
                None,
            )
            .await;
        statuses.push(answer.status.as_u16());
    }
    assert_eq!(
        statuses.iter().filter(|s| **s == 429).count(),
        3,
        "one address's limit: {statuses:?}"
    );
}

/// `/metrics` is for the machine's own scraper or an admin key: a client
/// from outside (through the proxy) hears 401, with the key 200.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn metrics_are_not_public() {
    let app = app_with(|_| {}).await;
    let outside = app.buyer_at("203.0.113.40").get("/metrics").await;
    assert_eq!(outside.status, 401, "{}", outside.text);
    assert_eq!(outside.json()["error"]["code"], "UNAUTHORIZED");
    let staff = with_admin_token(&app, "203.0.113.41");
    let scraped = staff.get("/metrics").await;
    assert_eq!(scraped.status, 200);
    // Series a panel divides by are there before anything happened.
    assert!(
        scraped
            .text
            .contains("holdfast_db_retries_total{cause=\"deadlock\"}"),
        "{}",
        scraped.text
    );
    // The machine's own scraper (loopback, no proxy) needs no key.
    assert_eq!(app.buyer().get("/metrics").await.status, 200);
}
