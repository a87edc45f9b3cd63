//! The admin API on SQLite and Postgres: who may use it, sign-in with its
//! throttle, the actions (release, extend, refund — idempotent under
//! concurrency —, resend) with their audit rows, event setup from a layout,
//! the invariant canary against a violation planted in the database, and
//! buyers kept out of each other's bookings.

use crate::common;

use common::{Buyer, TestApp};
use futures::future::join_all;
use holdfast::server::config::TEST_ADMIN_PASSWORD;
use holdfast_core::payments::sandbox::Delivery;
use serde_json::{json, Value};

/// Holds, pays and books `seats` for a new buyer: (buyer, booking id).
async fn booked(app: &TestApp, seats: &[i64]) -> (Buyer, String) {
    app.book(seats, "fan@example.com", Delivery::Once).await
}

async fn audit_actions(app: &TestApp, booking: &str) -> Vec<String> {
    let rows: Vec<(String,)> =
        sqlx::query_as("select action from audit_log where booking_id = $1 order by id")
            .bind(booking)
            .fetch_all(app.state.db.reader())
            .await
            .unwrap();
    rows.into_iter().map(|r| r.0).collect()
}

const ADMIN_GETS: [&str; 8] = [
    "/api/admin/holds",
    "/api/admin/invariants",
    "/api/admin/audit",
    "/api/admin/events",
    "/api/admin/events/1/dashboard",
    "/api/admin/events/1/stream",
    "/api/admin/promos",
    "/api/admin/events/1/queue",
];

/// A client sending this `Authorization` value with every request.
fn authorized(app: &TestApp, value: &str) -> Buyer {
    app.client_with(&[("authorization", value)])
}

on_both_backends!(
    admin_endpoints_refuse_anonymous_buyers_and_wrong_tokens,
    |app: TestApp| async move {
        let buyer = app.buyer();
        let held = buyer.hold(1, 40).await;
        let booking = held.json()["bookingId"].as_str().unwrap().to_string();
        let anonymous = Buyer {
            base: app.base.clone(),
            http: reqwest::Client::new(),
        };
        let wrong = authorized(&app, "Bearer not-the-token");
        for action in ["release", "refund", "resend"] {
            let a = buyer
                .post(
                    &format!("/api/admin/bookings/{booking}/{action}"),
                    None,
                    None,
                )
                .await;
            assert_eq!(a.status, 401, "buyer on {action}");
        }
        let a = buyer
            .post("/api/admin/events", None, Some(json!({ "name": "x" })))
            .await;
        assert_eq!(a.status, 401);
        // Nothing moved.
        assert_eq!(app.status_of(&booking).await, "HELD");
        assert_eq!(app.scalar("select count(*) from audit_log").await, 0);
        // The token opens them all.
        for path in &ADMIN_GETS[..5] {
            let a = app.admin().get(path).await;
            assert_eq!(a.status, 200, "{path}: {}", a.text);
        }
        // The scheme's name in any case (RFC 9110): the same token.
        let token = holdfast::server::config::TEST_ADMIN_TOKEN;
        let lower = authorized(&app, &format!("bearer {token}"));
        let a = lower.get(ADMIN_GETS[0]).await;
        assert_eq!(a.status, 200, "{}", a.text);
        // Wrong tokens: 403, then 429 once this client (every test client
        // is 127.0.0.1) has guessed too often; nothing is let through.
        for path in ADMIN_GETS {
            for (who, client, status) in [
                ("anonymous", &anonymous, 401),
                ("buyer", &buyer, 401),
                ("wrong token", &wrong, 403),
            ] {
                let a = client.get(path).await;
                // Wrong tokens are throttled after five (tests/posture.rs):
                // 429 then, and still nothing let through.
                let throttled = who == "wrong token" && a.status == 429;
                assert!(
                    a.status == status || throttled,
                    "{who} on {path}: {}",
                    a.text
                );
                assert!(["UNAUTHORIZED", "FORBIDDEN", "RATE_LIMITED"].contains(&a.code().as_str()));
            }
        }
    }
);

on_both_backends!(
    console_sign_in_is_throttled_and_ends_at_logout,
    |app: TestApp| async move {
        let console = app.buyer();
        assert_eq!(
            console.get("/api/admin/session").await.json()["admin"],
            false
        );
        let started = std::time::Instant::now();
        let wrong = console
            .post(
                "/api/admin/login",
                None,
                Some(json!({ "password": "guess" })),
            )
            .await;
        assert_eq!(wrong.status, 403);
        assert_eq!(wrong.code(), "FORBIDDEN");
        assert!(started.elapsed() >= std::time::Duration::from_millis(300));
        let mut last = wrong;
        for _ in 0..5 {
            last = console
                .post(
                    "/api/admin/login",
                    None,
                    Some(json!({ "password": "guess" })),
                )
                .await;
        }
        assert_eq!(last.status, 429, "{}", last.text);
        assert_eq!(last.code(), "RATE_LIMITED");
        // Even the right password waits out the minute from that client.
        let blocked = console
            .post(
                "/api/admin/login",
                None,
                Some(json!({ "password": TEST_ADMIN_PASSWORD })),
            )
            .await;
        assert_eq!(blocked.status, 429);

        let fresh = common::spawn_on(&app.database_url, None, |_| {}).await;
        let console = fresh.buyer();
        let ok = console
            .post(
                "/api/admin/login",
                None,
                Some(json!({ "password": TEST_ADMIN_PASSWORD })),
            )
            .await;
        assert_eq!(ok.status, 200, "{}", ok.text);
        assert_eq!(
            console.get("/api/admin/events/1/dashboard").await.status,
            200
        );
        assert_eq!(
            console.post("/api/admin/logout", None, None).await.status,
            204
        );
        assert_eq!(
            console.get("/api/admin/events/1/dashboard").await.status,
            401
        );
    }
);

on_both_backends!(
    a_buyer_never_reaches_another_buyers_booking,
    |app: TestApp| async move {
        let (owner, booking) = booked(&app, &[50]).await;
        let held = owner.hold(1, 51).await;
        let hold = held.json()["bookingId"].as_str().unwrap().to_string();
        let other = app.buyer();
        for id in [&booking, &hold] {
            assert_eq!(other.get(&format!("/api/bookings/{id}")).await.status, 404);
            assert_eq!(
                other.delete(&format!("/api/bookings/{id}")).await.status,
                404
            );
            let pay = other.pay(id).await;
            assert_eq!(pay.status, 404, "{}", pay.text);
            let a = other
                .post(&format!("/api/admin/bookings/{id}/release"), None, None)
                .await;
            assert_eq!(a.status, 401);
        }
        let mine = other.get("/api/bookings").await.json();
        assert_eq!(mine.as_array().unwrap().len(), 0);
        assert!(!other.get("/api/admin/holds").await.text.contains(&hold));
        assert_eq!(app.status_of(&hold).await, "HELD");
        assert_eq!(app.status_of(&booking).await, "BOOKED");
    }
);

on_both_backends!(
    admin_sees_extends_and_releases_a_hold_with_audit,
    |app: TestApp| async move {
        let buyer = app.buyer();
        let held = buyer.hold_many(1, &[60, 61]).await;
        let booking = held.json()["bookingId"].as_str().unwrap().to_string();
        let admin = app.admin();

        let holds = admin.get("/api/admin/holds?eventId=1").await.json();
        let hold = holds
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["bookingId"] == booking.as_str())
            .expect("the new hold is listed")
            .clone();
        assert_eq!(hold["stage"], "HELD");
        assert_eq!(hold["seatIds"], json!([60, 61]));
        let left = hold["expiresInMs"].as_i64().unwrap();
        assert!(left > 290_000 && left <= 300_000, "{left}");

        let path = format!("/api/admin/bookings/{booking}/extend");
        let too_long = admin
            .post(&path, None, Some(json!({ "seconds": 601 })))
            .await;
        assert_eq!(too_long.status, 422);
        // A later hold, which ends sooner than the first once extended.
        app.clock.advance_ms(1_000);
        app.buyer().hold(1, 70).await;
        let order = |holds: Value| -> Vec<String> {
            holds
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h["bookingId"].as_str().unwrap().to_string())
                .collect()
        };
        let before = order(admin.get("/api/admin/holds?eventId=1").await.json());
        assert_eq!(before.len(), 2);
        assert_eq!(before[0], booking, "oldest first");
        let extended = admin
            .post(&path, None, Some(json!({ "seconds": 120 })))
            .await;
        assert_eq!(extended.status, 200, "{}", extended.text);
        let view = buyer.get(&format!("/api/bookings/{booking}")).await.json();
        assert!(view["expiresInMs"].as_i64().unwrap() > 410_000, "{view}");
        // The rows stay where they were: the next click lands where aimed.
        let after = order(admin.get("/api/admin/holds?eventId=1").await.json());
        assert_eq!(after, before);

        let released = admin
            .post(
                &format!("/api/admin/bookings/{booking}/release"),
                None,
                None,
            )
            .await;
        assert_eq!(released.status, 200, "{}", released.text);
        assert_eq!(
            buyer.get(&format!("/api/bookings/{booking}")).await.json()["status"],
            "CANCELLED"
        );
        let again = admin
            .post(
                &format!("/api/admin/bookings/{booking}/release"),
                None,
                None,
            )
            .await;
        assert_eq!(again.status, 409);
        assert_eq!(again.code(), "INVALID_STATE");
        // The seats are free for the next buyer at once.
        assert_eq!(app.buyer().hold(1, 60).await.status, 200);
        assert_eq!(audit_actions(&app, &booking).await, ["extend", "release"]);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    an_admin_refund_is_idempotent_under_concurrency,
    |app: TestApp| async move {
        let (buyer, booking) = booked(&app, &[70, 71]).await;
        let admin = app.admin();
        let path = format!("/api/admin/bookings/{booking}/refund");
        let answers = join_all((0..6).map(|_| admin.post(&path, None, None))).await;
        for a in &answers {
            assert_eq!(a.status, 200, "{}", a.text);
        }
        app.dispatch_outbox().await;
        app.deliver_events().await;
        app.dispatch_outbox().await;
        assert_eq!(app.status_of(&booking).await, "REFUNDED");
        assert_eq!(app.scalar("select count(*) from sandbox_refund").await, 1);
        assert_eq!(audit_actions(&app, &booking).await, ["refund"]);
        let mail: Vec<(String,)> =
            sqlx::query_as("select subject from mailbox where booking_id = $1 order by id")
                .bind(&booking)
                .fetch_all(app.state.db.reader())
                .await
                .unwrap();
        assert_eq!(
            mail.into_iter().map(|m| m.0).collect::<Vec<_>>(),
            ["Your booking is confirmed", "Your payment was refunded"]
        );
        // Asked again later: the same refund, nothing new.
        let later = admin.post(&path, None, None).await;
        assert_eq!(later.status, 200);
        assert!(later.json()["detail"].as_str().unwrap().contains("already"));
        assert_eq!(app.scalar("select count(*) from sandbox_refund").await, 1);
        // The seats are on sale again; the buyer sees the refund.
        assert_eq!(app.buyer().hold(1, 70).await.status, 200);
        let view = buyer.get(&format!("/api/bookings/{booking}")).await.json();
        assert_eq!(view["status"], "REFUNDED");
        app.assert_invariants().await;
    }
);

on_both_backends!(
    resend_queues_one_more_confirmation,
    |app: TestApp| async move {
        let (_, booking) = booked(&app, &[80]).await;
        app.dispatch_outbox().await;
        let admin = app.admin();
        let a = admin
            .post(&format!("/api/admin/bookings/{booking}/resend"), None, None)
            .await;
        assert_eq!(a.status, 200, "{}", a.text);
        app.dispatch_outbox().await;
        app.dispatch_outbox().await;
        let n = app
            .scalar("select count(*) from mailbox where subject = 'Your booking is confirmed'")
            .await;
        assert_eq!(n, 2);
        assert_eq!(audit_actions(&app, &booking).await, ["resend"]);
        let held = app.buyer().hold(1, 81).await;
        let hold = held.json()["bookingId"].as_str().unwrap().to_string();
        let refused = admin
            .post(&format!("/api/admin/bookings/{hold}/resend"), None, None)
            .await;
        assert_eq!(refused.status, 409);
    }
);

fn layout() -> Value {
    json!({
        "name": "Cellar session",
        "kind": "concert",
        "venue": "The Cellar",
        "startsAt": "2027-06-01T20:00:00Z",
        "currency": "EUR",
        "categories": [
            { "code": "A", "name": "Stalls", "priceCents": 3000, "color": "#c0392b" },
            { "code": "S", "name": "Standing", "priceCents": 1500, "color": "#2980b9" }
        ],
        "sections": [ { "name": "Stalls", "category": "A", "rows": 3, "seatsPerRow": 8, "x": 0, "y": 0 } ],
        "generalAdmission": [ { "name": "Bar", "category": "S", "capacity": 40 } ]
    })
}

on_both_backends!(
    an_event_from_a_layout_sells_once_published,
    |app: TestApp| async move {
        let admin = app.admin();
        let mut bad = layout();
        bad["sections"][0]["rows"] = json!(0);
        bad["currency"] = json!("euro");
        let refused = admin.post("/api/admin/events", None, Some(bad)).await;
        assert_eq!(refused.status, 422, "{}", refused.text);
        let fields = refused.field_errors();
        assert_eq!(fields, ["currency", "sections[0].rows"]);
        let events_before = app.scalar("select count(*) from event").await;

        let created = admin.post("/api/admin/events", None, Some(layout())).await;
        assert_eq!(created.status, 201, "{}", created.text);
        let event = created.json()["eventId"].as_i64().unwrap();
        assert_eq!(created.json()["seatCount"], 24);
        assert_eq!(
            app.scalar("select count(*) from event").await,
            events_before + 1
        );

        let buyer = app.buyer();
        let listed = buyer.get("/api/events").await.json();
        assert!(!listed.as_array().unwrap().iter().any(|e| e["id"] == event));
        let seat: (i64,) =
            sqlx::query_as("select id from seat where event_id = $1 and label = 'Stalls-B-4'")
                .bind(event)
                .fetch_one(app.state.db.reader())
                .await
                .unwrap();
        assert_ne!(buyer.hold(event, seat.0).await.status, 200);

        let published = admin
            .post(&format!("/api/admin/events/{event}/publish"), None, None)
            .await;
        assert_eq!(published.status, 200, "{}", published.text);
        let held = buyer.hold(event, seat.0).await;
        assert_eq!(held.status, 200, "{}", held.text);
        assert_eq!(held.json()["amountCents"], 3000);
        let seats = buyer
            .get(&format!("/api/events/{event}/seats"))
            .await
            .json();
        assert_eq!(seats["seats"].as_array().unwrap().len(), 24);

        let unpublished = admin
            .post(&format!("/api/admin/events/{event}/unpublish"), None, None)
            .await;
        assert_eq!(unpublished.status, 200);
        let late = buyer.hold(event, seat.0 + 1).await;
        assert_ne!(late.status, 200, "{}", late.text);
        let actions: Vec<(String,)> =
            sqlx::query_as("select action from audit_log where event_id = $1 order by id")
                .bind(event)
                .fetch_all(app.state.db.reader())
                .await
                .unwrap();
        let actions: Vec<String> = actions.into_iter().map(|a| a.0).collect();
        assert_eq!(actions, ["create_event", "publish", "unpublish"]);
    }
);

on_both_backends!(
    the_canary_reports_a_planted_violation,
    |app: TestApp| async move {
        let admin = app.admin();
        let (_, booking) = booked(&app, &[90]).await;
        let report = admin.get("/api/admin/invariants").await.json();
        assert_eq!(report["ok"], true, "{report}");
        assert_eq!(report["violations"], json!([]));

        // Plant: the booked booking's payment no longer says paid — a
        // BOOKED booking without its money, which invariant 3 forbids.
        sqlx::query("update payment set status = 'expired' where booking_id = $1")
            .bind(&booking)
            .execute(app.state.db.writer())
            .await
            .unwrap();
        let report = admin.get("/api/admin/invariants").await.json();
        assert_eq!(report["ok"], false, "{report}");
        let violations = report["violations"].as_array().unwrap();
        assert!(
            violations
                .iter()
                .any(|v| v.as_str().unwrap().contains(&booking)),
            "{report}"
        );
        let dashboard = admin.get("/api/admin/events/1/dashboard").await.json();
        assert_eq!(dashboard["canary"]["ok"], false);
    }
);

on_both_backends!(
    metrics_count_holds_payments_webhooks_and_requests,
    |app: TestApp| async move {
        let winner = app.buyer();
        assert_eq!(winner.hold(1, 95).await.status, 200);
        assert_eq!(app.buyer().hold(1, 95).await.status, 409);
        booked(&app, &[96]).await;
        let text = app.buyer().get("/metrics").await.text;
        let value = |series: &str| -> f64 {
            text.lines()
                .find(|l| l.starts_with(series))
                .and_then(|l| l.rsplit(' ').next())
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("no {series} in\n{text}"))
        };
        assert!(value("holdfast_hold_attempts_total{outcome=\"held\"}") >= 2.0);
        assert!(value("holdfast_hold_attempts_total{outcome=\"conflict\"}") >= 1.0);
        assert!(value("holdfast_payments_total{event=\"started\"}") >= 1.0);
        assert!(value("holdfast_payments_total{event=\"booked\"}") >= 1.0);
        assert!(
            value("holdfast_webhook_events_total{type=\"checkout.session.completed\",outcome=\"booked\"}")
                >= 1.0
        );
        assert!(text.contains(
            "holdfast_http_request_duration_seconds_bucket{route=\"/api/events/{eventId}/seats/{seatId}/hold\",method=\"POST\",status=\"409\""
        ), "{text}");
        assert!(value("holdfast_db_pool_connections{pool=\"write\"}") >= 1.0);
        value("holdfast_outbox_backlog");
    }
);

/// Parallel guesses get no more tries than sequential ones: 40 wrong
/// passwords at once from one client are 5 × 403 and 35 × 429 (counted
/// before the password is verified, not after).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_password_guesses_are_counted_before_they_are_verified() {
    let app = common::spawn_app(common::Backend::Sqlite).await;
    let answers = futures::future::join_all((0..40).map(|_| {
        let console = app.buyer();
        async move {
            console
                .post(
                    "/api/admin/login",
                    None,
                    Some(json!({ "password": "guess" })),
                )
                .await
        }
    }))
    .await;
    let refused = answers.iter().filter(|a| a.status == 403).count();
    let limited = answers.iter().filter(|a| a.status == 429).count();
    assert_eq!(
        (refused, limited),
        (5, 35),
        "{:?}",
        answers.iter().map(|a| a.status).collect::<Vec<_>>()
    );
}
