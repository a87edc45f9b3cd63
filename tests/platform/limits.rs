//! Rate limits on the steps that claim seats or start payments: a buyer
//! (session) and a client address get so many attempts a minute, fired here
//! concurrently; the rest answer 429 `RATE_LIMITED` with `Retry-After` and
//! write nothing.

use crate::common;

use common::TestApp;
use futures::future::join_all;

/// An app allowing so many attempts a minute per buyer and per client
/// address (0: no limit), trusting `X-Forwarded-For` from `trusted` proxies.
async fn app_limited(buyer: u32, address: u32, trusted: &str) -> TestApp {
    let trusted = holdfast_core::platform::client_addr::TrustedProxies::parse(trusted).unwrap();
    common::spawn_sqlite_with(|c| {
        c.rate_limit_buyer_per_minute = buyer;
        c.rate_limit_ip_per_minute = address;
        c.trusted_proxies = trusted;
    })
    .await
}

async fn app_with_limits(buyer: u32, address: u32) -> TestApp {
    app_limited(buyer, address, "").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_buyer_gets_so_many_holds_a_minute() {
    let app = app_with_limits(5, 0).await;
    let buyer = app.buyer();
    // The first hold makes the buyer's session; the other 19 come at once.
    let mut answers = vec![buyer.hold(1, 400).await];
    answers.extend(join_all((1..20).map(|i| buyer.hold(1, 400 + i))).await);
    let ok = answers.iter().filter(|a| a.status == 200).count();
    let limited: Vec<_> = answers.iter().filter(|a| a.status == 429).collect();
    assert_eq!(
        ok,
        5,
        "{:?}",
        answers.iter().map(|a| a.status).collect::<Vec<_>>()
    );
    assert_eq!(limited.len(), 15);
    assert!(limited.iter().all(|a| a.code() == "RATE_LIMITED"));
    assert_eq!(app.scalar("select count(*) from booking").await, 5);
    // Pay counts for the same buyer too.
    let held = answers.iter().find(|a| a.status == 200).unwrap();
    let booking = held.json()["bookingId"].as_str().unwrap().to_string();
    let pay = buyer.pay(&booking).await;
    assert_eq!(pay.status, 429);
    assert_eq!(app.status_of(&booking).await, "HELD");
    // Another buyer is not held back.
    assert_eq!(app.buyer().hold(1, 450).await.status, 200);
    app.assert_invariants().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_address_gets_so_many_attempts_a_minute_with_retry_after() {
    let app = app_with_limits(0, 8).await;
    let answers = join_all((0..12).map(|i| {
        let buyer = app.buyer();
        async move { buyer.hold(1, 500 + i).await }
    }))
    .await;
    let statuses: Vec<u16> = answers.iter().map(|a| a.status.as_u16()).collect();
    assert_eq!(tally(&statuses), [(200, 8), (429, 4)].into());
    assert_eq!(app.scalar("select count(*) from booking").await, 8);
    // Retry-After says when to come back; reads are never limited.
    let r = reqwest::Client::new()
        .post(format!("{}/api/events/1/seats/600/hold", app.base))
        .header("Idempotency-Key", common::new_key())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 429);
    let wait: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    assert_eq!(app.buyer().get("/api/events/1/seats").await.status, 200);
}

/// How many answers had each status.
fn tally(statuses: &[u16]) -> std::collections::BTreeMap<u16, usize> {
    let mut counts = std::collections::BTreeMap::new();
    for s in statuses {
        *counts.entry(*s).or_default() += 1;
    }
    counts
}

/// A hold from a fresh session, as a client behind a proxy: (status).
async fn hold_as(app: &TestApp, seat: i64, forwarded_for: &str) -> u16 {
    reqwest::Client::new()
        .post(format!("{}/api/events/1/seats/{seat}/hold", app.base))
        .header("Idempotency-Key", common::new_key())
        .header("X-Forwarded-For", forwarded_for)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn behind_a_trusted_proxy_each_client_counts_alone() {
    // The test's requests come from 127.0.0.1, the "load balancer".
    let app = app_limited(0, 3, "127.0.0.1/32").await;
    for i in 0..3 {
        assert_eq!(hold_as(&app, 700 + i, "203.0.113.1").await, 200);
    }
    assert_eq!(hold_as(&app, 710, "203.0.113.1").await, 429);
    // A client cannot pick another address by sending the header itself:
    // the proxy appended the real one, and that one is counted.
    assert_eq!(hold_as(&app, 711, "198.51.100.9, 203.0.113.1").await, 429);
    // Another client behind the same proxy has its own allowance.
    assert_eq!(hold_as(&app, 712, "203.0.113.2").await, 200);
    // IPv6 clients count by their /64.
    for i in 0..3 {
        assert_eq!(
            hold_as(&app, 720 + i, &format!("2001:db8:1:2::{i}")).await,
            200
        );
    }
    assert_eq!(hold_as(&app, 730, "2001:db8:1:2:ffff::1").await, 429);
    assert_eq!(app.scalar("select count(*) from booking").await, 7);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_forwarded_header_from_an_untrusted_peer_changes_nothing() {
    let app = app_limited(0, 3, "10.0.0.0/8").await;
    let statuses = join_all((0..6).map(|i| {
        let app = &app;
        async move { hold_as(app, 740 + i, &format!("203.0.113.{i}")).await }
    }))
    .await;
    assert_eq!(tally(&statuses), [(200, 3), (429, 3)].into());
}

/// Queue joins, promo applies and pooled-code claims count like holds: per
/// address (REST middleware) and per buyer (in the use cases), so a script
/// cannot hammer them from fresh sessions or from one.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn queue_joins_and_promo_attempts_are_limited_per_address_and_per_buyer() {
    let app = app_with_limits(0, 3).await;
    let joins = join_all((0..5).map(|_| {
        let buyer = app.buyer();
        async move { buyer.post("/api/events/1/queue", None, None).await }
    }))
    .await;
    let limited: Vec<_> = joins.iter().filter(|a| a.status == 429).collect();
    assert_eq!(
        limited.len(),
        2,
        "{:?}",
        joins.iter().map(|a| a.status).collect::<Vec<_>>()
    );
    assert!(limited.iter().all(|a| a.code() == "RATE_LIMITED"));
    let claim = app.buyer().post("/api/promos/1/claim", None, None).await;
    assert_eq!(claim.status, 429);

    // One buyer guessing promo codes: its own allowance (5 a minute here).
    let app = app_with_limits(5, 0).await;
    let guesser = app.buyer();
    let held = guesser.hold(1, 640).await;
    let booking = held.json()["bookingId"].as_str().unwrap().to_string();
    let mut statuses = Vec::new();
    for i in 0..8 {
        let a = guesser
            .post(
                &format!("/api/bookings/{booking}/promo"),
                None,
                Some(serde_json::json!({ "code": format!("GUESS-{i}") })),
            )
            .await;
        statuses.push(a.status.as_u16());
    }
    // The hold took one of the five: four guesses, then 429.
    assert_eq!(statuses, vec![404, 404, 404, 404, 429, 429, 429, 429]);
    assert_eq!(app.status_of(&booking).await, "HELD");
}
