//! Production posture: secrets nobody can read in the source, a server
//! that will not start on development settings in production, HSTS and
//! secure cookies there, throttled bearer tokens, and console sign-outs
//! that reach every instance.

use crate::common;

use common::{Answer, Buyer, TestApp};
use hmac::{Hmac, Mac};
use holdfast::server::config::{Config, TEST_ADMIN_PASSWORD, TEST_ADMIN_TOKEN};
use holdfast_core::payments::sandbox::Delivery;
use holdfast_core::platform::client_addr::TrustedProxies;
use holdfast_core::platform::clock::Clock;
use reqwest::Method;
use serde_json::json;
use sha2::Sha256;

/// The secrets the binary used to default to (public in its source).
const OLD_PUBLIC_TICKET_SECRET: &str = "holdfast-development-tickets";
const OLD_PUBLIC_WEBHOOK_SECRET: &str = "whsec_holdfast_development";

/// No secret given: the deployment makes its own.
fn unset_secrets(c: &mut Config) {
    c.ticket_secret = None;
    c.stripe_webhook_secret = None;
}

/// Signs like the old code did: HMAC of `admission:{event}:{buyer}:{n}`
/// under the secret anyone could read.
fn forge_admission(event: i64, buyer: &str, expires_at: i64) -> String {
    let mut m = Hmac::<Sha256>::new_from_slice(OLD_PUBLIC_TICKET_SECRET.as_bytes()).unwrap();
    m.update(format!("admission:{event}:{buyer}:{expires_at}").as_bytes());
    let mac = hex::encode(m.finalize().into_bytes());
    format!("{event}.{buyer}.{expires_at}.{mac}")
}

on_both_backends!(
    unset_secrets_are_generated_once_per_deployment_and_shared,
    |first: TestApp| async move {
        let app = common::spawn_on(&first.database_url, None, unset_secrets).await;
        let other = common::spawn_on(&first.database_url, None, unset_secrets).await;

        // Both instances sign and read the same tickets…
        let booking = holdfast_model::BookingId::from("booking-1");
        let ticket = app.state.tickets.token(&booking);
        assert_eq!(other.state.tickets.verify(&ticket), Some(booking.clone()));
        // …with a key nobody can compute from the source.
        let public = holdfast_core::ticket::TicketSigner::new(OLD_PUBLIC_TICKET_SECRET.as_bytes());
        assert_eq!(app.state.tickets.verify(&public.token(&booking)), None);

        // An admission minted with the old public secret does not pass the
        // waiting room.
        app.set_room(true).await;
        let buyer = app.buyer();
        let place = buyer.post("/api/events/1/queue", None, None).await.json();
        let queue_token = place["queueToken"].as_str().unwrap().to_string();
        let buyer_id = queue_token.split('.').nth(1).unwrap().to_string();
        let forged = forge_admission(1, &buyer_id, i64::MAX / 2);
        let seat = app.arena_seats().await[0];
        let hold = buyer
            .send(
                Method::POST,
                &format!("/api/events/1/seats/{seat}/hold"),
                &[
                    ("Admission-Token", &forged),
                    ("Idempotency-Key", &common::new_key()),
                ],
                None,
            )
            .await;
        assert_eq!(
            (hold.status.as_u16(), hold.code()),
            (403, "ADMISSION_REQUIRED".into())
        );
        let map = buyer
            .send(
                Method::GET,
                "/api/events/1/seats",
                &[("Admission-Token", &forged)],
                None,
            )
            .await;
        assert_eq!(map.status, 403);
        assert_eq!(app.scalar("select count(*) from booking").await, 0);

        // The sandbox signs its webhooks with the deployment's own secret:
        // the old public one is refused, the sandbox's own deliveries book.
        let body = r#"{"id":"evt_forged","type":"checkout.session.completed","data":{"object":{"id":"cs_x","metadata":{"booking_id":"b"}}}}"#;
        let now = app.clock.now().ms() / 1000;
        let forged_sig = holdfast_core::payments::signature::sign(
            OLD_PUBLIC_WEBHOOK_SECRET,
            body.as_bytes(),
            now,
        );
        let refused = app.post_webhook(body, Some(forged_sig)).await;
        assert_eq!(refused.status, 400, "{}", refused.text);
        app.set_room(false).await;
        app.book(&[seat], "fan@example.com", Delivery::Once).await;
        app.assert_invariants().await;
    }
);

/// The binary itself, started the way an operator would: on an https
/// address without a chosen payment provider it stops at once, with one
/// line naming the setting.
#[test]
fn production_refuses_to_start_on_development_settings() {
    let run = |extra: &[(&str, &str)]| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_holdfast"));
        cmd.env_clear()
            .env("DATABASE_URL", "sqlite::memory:")
            .env("LEPTOS_SITE_ADDR", "127.0.0.1:0");
        for (k, v) in extra {
            cmd.env(k, v);
        }
        cmd.output().expect("runs")
    };
    let out = run(&[("PUBLIC_BASE_URL", "https://tickets.example")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("PAYMENT_PROVIDER"), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    let out = run(&[
        ("HOLDFAST_ENV", "production"),
        ("PAYMENT_PROVIDER", "sandbox"),
        ("STRIPE_WEBHOOK_SECRET", OLD_PUBLIC_WEBHOOK_SECRET),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("STRIPE_WEBHOOK_SECRET"), "{stderr}");
    let out = run(&[("ADMIN_TOKEN", "123456")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("ADMIN_TOKEN"), "{stderr}");
}

/// Production answers carry HSTS and its cookies are `Secure`;
/// development sends neither.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn production_sends_hsts_and_secure_cookies() {
    for production in [true, false] {
        let (url, tmp) = common::fresh_database(common::Backend::Sqlite).await;
        let app = common::spawn_on(&url, tmp, |c| c.production = production).await;
        let answer = reqwest::Client::new()
            .post(format!("{}/api/admin/login", app.base))
            .json(&json!({ "password": TEST_ADMIN_PASSWORD }))
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 200);
        let hsts = answer.headers().get("strict-transport-security");
        let cookie = answer
            .headers()
            .get("set-cookie")
            .map(|c| c.to_str().unwrap().to_string())
            .unwrap_or_default();
        assert!(cookie.starts_with("holdfast_session="), "{cookie}");
        // The waiting room's place cookie too.
        app.set_room(true).await;
        let joined = reqwest::Client::new()
            .post(format!("{}/api/events/1/queue", app.base))
            .send()
            .await
            .unwrap();
        let place = joined
            .headers()
            .get_all("set-cookie")
            .iter()
            .map(|c| c.to_str().unwrap().to_string())
            .find(|c| c.starts_with("holdfast_queue_1="))
            .expect("a place cookie");
        if production {
            assert!(hsts.is_some_and(|h| h.to_str().unwrap().contains("max-age=31536000")));
            assert!(cookie.contains("Secure"), "{cookie}");
            assert!(place.contains("Secure"), "{place}");
        } else {
            assert!(hsts.is_none());
            assert!(!cookie.contains("Secure"), "{cookie}");
            assert!(!place.contains("Secure"), "{place}");
        }
    }
}

/// Wrong bearer tokens count against the client like wrong passwords: the
/// sixth wrong one in a minute is 429; the right token still works (its
/// holder is never locked out by a guesser at the same address).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn wrong_bearer_tokens_are_throttled() {
    let (url, tmp) = common::fresh_database(common::Backend::Sqlite).await;
    let app = common::spawn_on(&url, tmp, |c| {
        c.trusted_proxies = TrustedProxies::parse("127.0.0.1").unwrap();
    })
    .await;
    let guesser = app.buyer_at("203.0.113.7");
    let guesses: Vec<Answer> = futures::future::join_all(
        (0..12).map(|i| with_token(&guesser, format!("wrong-token-{i}"))),
    )
    .await;
    let forbidden = guesses.iter().filter(|a| a.status == 403).count();
    let limited = guesses.iter().filter(|a| a.status == 429).count();
    assert_eq!((forbidden, limited), (5, 7));
    let more = with_token(&guesser, "one-more-guess".into()).await;
    assert_eq!(more.status, 429);
    assert!(more.text.contains("RATE_LIMITED"));
    // The right token is never locked out by the guesses.
    assert_eq!(
        with_token(&guesser, TEST_ADMIN_TOKEN.into()).await.status,
        200
    );
    let other = app.buyer_at("198.51.100.9");
    let fine = other
        .send(
            Method::GET,
            "/api/admin/holds",
            &[("Authorization", &format!("Bearer {TEST_ADMIN_TOKEN}"))],
            None,
        )
        .await;
    assert_eq!(fine.status, 200, "{}", fine.text);
}

async fn with_token(client: &Buyer, token: String) -> Answer {
    client
        .send(
            Method::GET,
            "/api/admin/holds",
            &[("Authorization", &format!("Bearer {token}"))],
            None,
        )
        .await
}

async fn is_admin(console: &Buyer, base: &str) -> bool {
    let answer = console
        .http
        .get(format!("{base}/api/admin/session"))
        .send()
        .await
        .unwrap();
    answer.json::<serde_json::Value>().await.unwrap()["admin"] == true
}

on_both_backends!(
    signing_out_reaches_every_instance,
    |a: TestApp| async move {
        let b = common::spawn_on(&a.database_url, None, |_| {}).await;
        // One browser (cookies are per host, not per port): signed in on A,
        // it is signed in on B too.
        let console = a.buyer();
        let login = sign_in(&console).await;
        assert_eq!(login.status, 200, "{}", login.text);
        assert!(is_admin(&console, &b.base).await);
        let holds = holds_on(&console, &b.base).await;
        assert_eq!(holds.status(), 200);

        // Out on A: out on B at once (B served it from its cache before).
        assert_eq!(
            console.post("/api/admin/logout", None, None).await.status,
            204
        );
        assert!(!is_admin(&console, &b.base).await);
        let holds = holds_on(&console, &b.base).await;
        assert_eq!(holds.status(), 401);

        // A new password (an instance started with it) ends every console
        // session on every instance within a second.
        let login = sign_in(&console).await;
        assert_eq!(login.status, 200);
        assert!(is_admin(&console, &b.base).await);
        let _c = common::spawn_on(&a.database_url, None, |c| {
            c.admin_password = Some("a-brand-new-password".into());
        })
        .await;
        let changed = std::time::Instant::now();
        let mut out_everywhere = false;
        while changed.elapsed() < std::time::Duration::from_millis(1_500) {
            if !is_admin(&console, &a.base).await && !is_admin(&console, &b.base).await {
                out_everywhere = true;
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert!(
            out_everywhere,
            "still signed in 1.5 s after the password changed"
        );
        assert!(changed.elapsed() < std::time::Duration::from_secs(1));
    }
);

async fn sign_in(console: &common::Buyer) -> common::Answer {
    let password = json!({ "password": TEST_ADMIN_PASSWORD });
    console.post("/api/admin/login", None, Some(password)).await
}

/// The live holds as this browser asks another instance for them.
async fn holds_on(console: &common::Buyer, base: &str) -> reqwest::Response {
    console
        .http
        .get(format!("{base}/api/admin/holds"))
        .send()
        .await
        .unwrap()
}
