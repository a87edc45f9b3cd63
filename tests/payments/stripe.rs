//! The Stripe adapter (`PAYMENT_PROVIDER=stripe`, async-stripe) against a
//! stand-in of Stripe's API on 127.0.0.1 that answers with Stripe's own
//! published `checkout.session` object (tests/fixtures/stripe) and records
//! every request: what the adapter sends (form fields, idempotency keys,
//! the secret key) and how it reads the answers, through the whole flow —
//! pay, webhook, reconciliation (paid and expired), refund, outage.

use crate::common;

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use common::{new_key, Backend, TestApp};
use holdfast_core::payments::reconcile::reconcile_due;
use holdfast_core::platform::clock::{Clock, ManualClock};
use serde_json::{json, Value};

const SECRET_KEY: &str = "sk_test_holdfast";
const WEBHOOK_SECRET: &str = "whsec_test_holdfast";

#[derive(Debug, Clone)]
struct Recorded {
    method: &'static str,
    path: String,
    authorization: String,
    idempotency_key: Option<String>,
    form: HashMap<String, String>,
}

#[derive(Default)]
struct FakeStripe {
    requests: Mutex<Vec<Recorded>>,
    sessions: Mutex<HashMap<String, Value>>,
    by_key: Mutex<HashMap<String, Value>>,
    /// The next this-many requests answer 500.
    failing: AtomicUsize,
    /// The app's clock: Stripe's "now" moves with it.
    clock: Mutex<Option<Arc<ManualClock>>>,
    /// Sessions refused for an `expires_at` too close (or past).
    refused_expiry: AtomicUsize,
}

type Shared = Arc<FakeStripe>;

fn official_session() -> Value {
    let all: Value = serde_json::from_str(include_str!(
        "../fixtures/stripe/official-fixtures3-objects-f6c2a48.json"
    ))
    .unwrap();
    all["checkout.session"].clone()
}

impl FakeStripe {
    fn record(&self, method: &'static str, path: String, headers: &HeaderMap, body: &str) {
        let header = |n: &str| {
            headers
                .get(n)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let form: Vec<(String, String)> = serde_urlencoded::from_str(body).unwrap_or_default();
        self.requests.lock().unwrap().push(Recorded {
            method,
            path,
            authorization: header("authorization").unwrap_or_default(),
            idempotency_key: header("idempotency-key"),
            form: form.into_iter().collect(),
        });
    }

    fn failure(&self) -> Option<Response> {
        self.failing
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .ok()
            .map(|_| {
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    Json(json!({ "error": { "type": "api_error", "message": "try later" } })),
                )
                    .into_response()
            })
    }

    fn sent(&self, path: &str) -> Vec<Recorded> {
        self.requests
            .lock()
            .unwrap()
            .iter()
            .filter(|r| r.path == path)
            .cloned()
            .collect()
    }

    fn now_ms(&self) -> i64 {
        match &*self.clock.lock().unwrap() {
            Some(clock) => clock.now().ms(),
            None => std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_millis() as i64,
        }
    }

    /// What Stripe does when the buyer pays on its page.
    fn pay(&self, session_id: &str, email: &str) {
        let mut sessions = self.sessions.lock().unwrap();
        let s = sessions.get_mut(session_id).expect("known session");
        s["status"] = json!("complete");
        s["payment_status"] = json!("paid");
        s["url"] = Value::Null;
        s["customer_details"]["email"] = json!(email);
    }
}

async fn create_session(State(fake): State<Shared>, headers: HeaderMap, body: String) -> Response {
    fake.record("POST", "/v1/checkout/sessions".into(), &headers, &body);
    if let Some(r) = fake.failure() {
        return r;
    }
    let key = headers
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    if let Some(earlier) = fake.by_key.lock().unwrap().get(&key) {
        return Json(earlier.clone()).into_response();
    }
    let form: HashMap<String, String> = serde_urlencoded::from_str::<Vec<(String, String)>>(&body)
        .unwrap()
        .into_iter()
        .collect();
    // As Stripe: `expires_at` must be 30 minutes to 24 hours ahead (checked
    // on a new request only; a replayed key answers what it answered).
    let now_s = fake.now_ms() / 1000;
    let expires_at: i64 = form["expires_at"].parse().unwrap();
    if expires_at < now_s + 30 * 60 || expires_at > now_s + 24 * 3600 {
        fake.refused_expiry.fetch_add(1, Ordering::SeqCst);
        return (
            StatusCode::BAD_REQUEST,
            Json(json!({ "error": { "type": "invalid_request_error", "param": "expires_at",
                "message": "The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation." } })),
        )
            .into_response();
    }
    let n = fake.sessions.lock().unwrap().len();
    let id = format!("cs_test_fake{n}");
    let total: i64 = (0..)
        .map_while(|i| form.get(&format!("line_items[{i}][price_data][unit_amount]")))
        .map(|v| v.parse::<i64>().unwrap())
        .sum();
    let mut s = official_session();
    s["id"] = json!(id);
    s["status"] = json!("open");
    s["payment_status"] = json!("unpaid");
    s["payment_intent"] = json!(format!("pi_fake{n}"));
    s["amount_total"] = json!(total);
    s["amount_subtotal"] = json!(total);
    s["currency"] = json!(form["line_items[0][price_data][currency]"]);
    s["client_reference_id"] = json!(form["client_reference_id"]);
    s["metadata"] = json!({ "booking_id": form["metadata[booking_id]"] });
    s["expires_at"] = json!(form["expires_at"].parse::<i64>().unwrap());
    s["url"] = json!(format!("https://checkout.stripe.com/c/pay/{id}"));
    s["customer_details"]["email"] = Value::Null;
    fake.sessions.lock().unwrap().insert(id, s.clone());
    fake.by_key.lock().unwrap().insert(key, s.clone());
    Json(s).into_response()
}

async fn retrieve_session(
    State(fake): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    fake.record("GET", format!("/v1/checkout/sessions/{id}"), &headers, "");
    if let Some(r) = fake.failure() {
        return r;
    }
    match fake.sessions.lock().unwrap().get(&id) {
        Some(s) => Json(s.clone()).into_response(),
        None => (
            StatusCode::NOT_FOUND,
            Json(
                json!({ "error": { "type": "invalid_request_error", "code": "resource_missing" } }),
            ),
        )
            .into_response(),
    }
}

async fn expire_session(
    State(fake): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: String,
) -> Response {
    fake.record(
        "POST",
        format!("/v1/checkout/sessions/{id}/expire"),
        &headers,
        &body,
    );
    let mut sessions = fake.sessions.lock().unwrap();
    let s = sessions.get_mut(&id).expect("known session");
    if s["status"] != "open" {
        return (
            StatusCode::BAD_REQUEST,
            Json(json!({ "error": { "type": "invalid_request_error", "message": "Only Checkout Sessions with a status in [\"open\"] can be expired." } })),
        )
            .into_response();
    }
    s["status"] = json!("expired");
    s["url"] = Value::Null;
    Json(s.clone()).into_response()
}

async fn create_refund(State(fake): State<Shared>, headers: HeaderMap, body: String) -> Response {
    fake.record("POST", "/v1/refunds".into(), &headers, &body);
    let form: HashMap<String, String> = serde_urlencoded::from_str::<Vec<(String, String)>>(&body)
        .unwrap()
        .into_iter()
        .collect();
    Json(json!({
        "id": "re_fake1", "object": "refund", "amount": form["amount"].parse::<i64>().unwrap(),
        "created": 1_700_000_000, "currency": "eur", "payment_intent": form["payment_intent"],
        "status": "succeeded"
    }))
    .into_response()
}

async fn start_fake() -> (String, Shared) {
    let fake: Shared = Arc::default();
    let app = Router::new()
        .route("/v1/checkout/sessions", post(create_session))
        .route("/v1/checkout/sessions/{id}", get(retrieve_session))
        .route("/v1/checkout/sessions/{id}/expire", post(expire_session))
        .route("/v1/refunds", post(create_refund))
        .with_state(fake.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, fake)
}

async fn stripe_app(backend: Backend) -> Option<(TestApp, Shared)> {
    stripe_app_with(backend, |_| {}).await
}

async fn stripe_app_with(
    backend: Backend,
    tweak: impl FnOnce(&mut holdfast::server::config::Config),
) -> Option<(TestApp, Shared)> {
    if matches!(backend, Backend::Postgres) && !common::wants_postgres() {
        return None;
    }
    let (url, fake) = start_fake().await;
    let (db, tmp) = common::fresh_database(backend).await;
    let app = common::spawn_on(&db, tmp, |c| {
        c.payment_provider = "stripe".into();
        c.stripe_secret_key = Some(SECRET_KEY.into());
        c.stripe_api_base = Some(url);
        c.stripe_webhook_secret = Some(WEBHOOK_SECRET.into());
        tweak(c);
    })
    .await;
    *fake.clock.lock().unwrap() = Some(app.clock.clone());
    Some((app, fake))
}

async fn webhook_completed(app: &TestApp, booking: &str, session: &Value) -> common::Answer {
    let mut event: Value = serde_json::from_str(include_str!(
        "../fixtures/stripe/checkout.session.completed.json"
    ))
    .unwrap();
    event["id"] = json!(format!("evt_{}", uuid::Uuid::new_v4().simple()));
    let object = &mut event["data"]["object"];
    object["id"] = session["id"].clone();
    object["client_reference_id"] = json!(booking);
    object["metadata"] = json!({ "booking_id": booking });
    object["payment_intent"] = session["payment_intent"].clone();
    object["amount_total"] = session["amount_total"].clone();
    object["currency"] = session["currency"].clone();
    let body = event.to_string();
    let now = app.clock.now().ms() / 1000;
    let header = holdfast_core::payments::signature::sign(WEBHOOK_SECRET, body.as_bytes(), now);
    app.post_webhook(&body, Some(header)).await
}

async fn checkout_request_webhook_and_refund(backend: Backend) {
    let Some((app, fake)) = stripe_app(backend).await else {
        return;
    };
    let (buyer, booking, paid) = app.hold_and_pay(&[300, 301]).await;
    assert_eq!(paid.status, 200, "{}", paid.text);
    let answer = paid.json();

    // What went to Stripe.
    let sent = fake.sent("/v1/checkout/sessions");
    assert_eq!(sent.len(), 1);
    let req = &sent[0];
    assert_eq!(req.authorization, format!("Bearer {SECRET_KEY}"));
    assert_eq!(
        req.idempotency_key.as_deref(),
        Some(format!("checkout-{booking}").as_str())
    );
    let f = &req.form;
    assert_eq!(f["mode"], "payment");
    assert_eq!(f["client_reference_id"], booking);
    assert_eq!(f["metadata[booking_id]"], booking);
    assert_eq!(
        f["success_url"],
        format!("{}/bookings/{booking}?checkout=done", app.base)
    );
    assert_eq!(f["cancel_url"], format!("{}/bookings/{booking}", app.base));
    let prices: Vec<(i64,)> = sqlx::query_as(
        "select price_cents from booking_seat where booking_id = $1 order by seat_id",
    )
    .bind(&booking)
    .fetch_all(app.state.db.reader())
    .await
    .unwrap();
    for (i, (price,)) in prices.iter().enumerate() {
        assert_eq!(f[&format!("line_items[{i}][price_data][currency]")], "eur");
        assert_eq!(
            f[&format!("line_items[{i}][price_data][unit_amount]")],
            price.to_string()
        );
        assert_eq!(f[&format!("line_items[{i}][quantity]")], "1");
        assert!(f[&format!("line_items[{i}][price_data][product_data][name]")].contains('-'));
    }
    assert!(!f.contains_key("line_items[2][quantity]"));
    // The deadline is Stripe's minimum (31 minutes, the configured 30 moved up).
    let expires_at: i64 = f["expires_at"].parse().unwrap();
    let ahead = expires_at * 1000 - app.clock.now().ms();
    assert!((1_859_000..=1_860_000).contains(&ahead), "{ahead}");

    // How its answer was read.
    let session = fake.sessions.lock().unwrap()["cs_test_fake0"].clone();
    assert_eq!(answer["checkoutSessionId"], "cs_test_fake0");
    assert_eq!(answer["checkoutUrl"], session["url"]);
    let remaining = answer["expiresInMs"].as_i64().unwrap();
    assert!((1_859_000..=1_860_000).contains(&remaining), "{remaining}");
    let view = buyer.get(&format!("/api/bookings/{booking}")).await.json();
    assert_eq!(view["payment"]["paymentIntentId"], "pi_fake0", "{view}");

    // Stripe's webhook books it.
    fake.pay("cs_test_fake0", "ada@example.com");
    let hook = webhook_completed(&app, &booking, &session).await;
    assert_eq!(hook.status, 200, "{}", hook.text);
    assert_eq!(app.status_of(&booking).await, "BOOKED");

    // An admin refund goes to Stripe once, with the booking's refund key.
    let admin = app.admin();
    let path = format!("/api/admin/bookings/{booking}/refund");
    assert_eq!(admin.post(&path, None, None).await.status, 200);
    assert_eq!(admin.post(&path, None, None).await.status, 200);
    app.dispatch_outbox().await;
    app.dispatch_outbox().await;
    let refunds = fake.sent("/v1/refunds");
    assert_eq!(refunds.len(), 1, "{refunds:?}");
    assert_eq!(refunds[0].method, "POST");
    assert_eq!(
        refunds[0].idempotency_key.as_deref(),
        Some(format!("refund-{booking}").as_str())
    );
    assert_eq!(refunds[0].form["payment_intent"], "pi_fake0");
    assert_eq!(
        refunds[0].form["amount"],
        session["amount_total"].to_string()
    );
    assert_eq!(app.status_of(&booking).await, "REFUNDED");
    app.assert_invariants().await;
}

async fn reconciliation_asks_stripe(backend: Backend) {
    let Some((app, fake)) = stripe_app(backend).await else {
        return;
    };
    // One buyer paid but the webhook never came; one never paid.
    let (_, paid_booking, a) = app.hold_and_pay(&[310]).await;
    assert_eq!(a.status, 200);
    let (_, open_booking, b) = app.hold_and_pay(&[311]).await;
    assert_eq!(b.status, 200);
    fake.pay("cs_test_fake0", "late@example.com");

    app.clock.advance_ms(32 * 60 * 1000);
    reconcile_due(&app.state).await.unwrap();
    assert_eq!(app.status_of(&paid_booking).await, "BOOKED");
    assert_eq!(app.status_of(&open_booking).await, "EXPIRED");
    // The open session was expired at Stripe before its seat went back.
    assert_eq!(
        fake.sent("/v1/checkout/sessions/cs_test_fake1/expire")
            .len(),
        1
    );
    assert!(fake
        .sent("/v1/checkout/sessions/cs_test_fake0/expire")
        .is_empty());
    let email: (Option<String>,) =
        sqlx::query_as("select customer_email from payment where booking_id = $1")
            .bind(&paid_booking)
            .fetch_one(app.state.db.reader())
            .await
            .unwrap();
    assert_eq!(email.0.as_deref(), Some("late@example.com"));
    assert_eq!(app.buyer().hold(1, 311).await.status, 200);
    app.assert_invariants().await;
}

async fn an_outage_keeps_the_booking_pending(backend: Backend) {
    let Some((app, fake)) = stripe_app(backend).await else {
        return;
    };
    fake.failing.store(1, Ordering::SeqCst);
    let (buyer, booking, paid) = app.hold_and_pay(&[320]).await;
    assert_eq!(paid.status, 503, "{}", paid.text);
    assert_eq!(paid.code(), "PAYMENT_PROVIDER_UNAVAILABLE");
    assert!(
        !paid.text.contains("try later"),
        "no provider message leaks"
    );
    assert_eq!(app.status_of(&booking).await, "PAYMENT_PENDING");
    // Asking again sends the same idempotency key and gets the session.
    let again = buyer.pay(&booking).await;
    assert_eq!(again.status, 200, "{}", again.text);
    let keys: Vec<Option<String>> = fake
        .sent("/v1/checkout/sessions")
        .into_iter()
        .map(|r| r.idempotency_key)
        .collect();
    assert_eq!(keys.len(), 2);
    assert_eq!(keys[0], keys[1]);
    app.assert_invariants().await;
}

/// The first checkout never reached Stripe, and by the time the buyer (or
/// reconciliation) asks again the deadline is under Stripe's 30 minutes:
/// no session may be made any more, so the booking ends and its seat goes
/// back — it is never stranded in PAYMENT_PENDING.
async fn a_checkout_that_can_no_longer_be_created_ends_the_booking(backend: Backend) {
    let Some((app, fake)) = stripe_app(backend).await else {
        return;
    };
    // The buyer retries too late.
    fake.failing.store(1, Ordering::SeqCst);
    let (buyer, booking, paid) = app.hold_and_pay(&[330]).await;
    assert_eq!(paid.status, 503, "{}", paid.text);
    app.clock.advance_ms(2 * 60_000);
    let key = new_key();
    let path = format!("/api/bookings/{booking}/pay");
    let again = buyer.post(&path, Some(&key), None).await;
    assert_eq!(again.status, 409, "{}", again.text);
    assert_eq!(again.code(), "HOLD_EXPIRED");
    assert_eq!(app.status_of(&booking).await, "EXPIRED");
    // The key is not left in flight: the same request again is answered
    // for the booking as it now is.
    let same = buyer.post(&path, Some(&key), None).await;
    assert_eq!(same.code(), "INVALID_STATE", "{}", same.text);
    assert_eq!(
        app.buyer().hold(1, 330).await.status,
        200,
        "the seat is free"
    );
    app.assert_invariants().await;

    // Nobody retries: reconciliation ends it once Stripe would refuse.
    fake.failing.store(1, Ordering::SeqCst);
    let (_, stranded, paid) = app.hold_and_pay(&[331]).await;
    assert_eq!(paid.status, 503, "{}", paid.text);
    app.clock.advance_ms(90_000);
    reconcile_due(&app.state).await.unwrap();
    assert_eq!(app.status_of(&stranded).await, "EXPIRED");
    // …also when the deadline has passed already.
    fake.failing.store(1, Ordering::SeqCst);
    let (_, late, paid) = app.hold_and_pay(&[332]).await;
    assert_eq!(paid.status, 503, "{}", paid.text);
    app.clock.advance_ms(40 * 60_000);
    reconcile_due(&app.state).await.unwrap();
    assert_eq!(app.status_of(&late).await, "EXPIRED");
    // Never a session asked for with less than Stripe's minimum ahead.
    assert_eq!(fake.refused_expiry.load(Ordering::SeqCst), 0);
    assert_eq!(fake.sessions.lock().unwrap().len(), 0);
    assert_eq!(
        app.scalar("select count(*) from booking where status = 'PAYMENT_PENDING'")
            .await,
        0
    );
    app.assert_invariants().await;
}

for_each_backend!(a_checkout_that_can_no_longer_be_created_ends_the_booking);

for_each_backend!(checkout_request_webhook_and_refund);

for_each_backend!(reconciliation_asks_stripe);

for_each_backend!(an_outage_keeps_the_booking_pending);

/// A promo code lowers what Stripe charges: one line at the discounted
/// amount, and the webhook with that amount books it.
async fn a_promo_is_what_stripe_charges(backend: Backend) {
    let Some((app, fake)) = stripe_app(backend).await else {
        return;
    };
    let created = app
        .admin()
        .post(
            "/api/admin/promos",
            None,
            Some(json!({ "name": "Half", "kind": "single", "code": "HALF-OFF", "percentOff": 50 })),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.text);
    let buyer = app.buyer();
    let held = buyer.hold_many(1, &[310, 311]).await;
    let booking = held.json()["bookingId"].as_str().unwrap().to_string();
    let full = held.json()["amountCents"].as_i64().unwrap();
    let applied = buyer
        .post(
            &format!("/api/bookings/{booking}/promo"),
            None,
            Some(json!({ "code": "half-off" })),
        )
        .await;
    assert_eq!(applied.status, 200, "{}", applied.text);
    let due = full - full / 2;
    assert_eq!(applied.json()["amountCents"], due);
    let paid = buyer.pay(&booking).await;
    assert_eq!(paid.status, 200, "{}", paid.text);
    let sent = fake.sent("/v1/checkout/sessions");
    let f = &sent[0].form;
    assert_eq!(f["line_items[0][price_data][unit_amount]"], due.to_string());
    assert!(f["line_items[0][price_data][product_data][name]"].contains("promo"));
    assert!(!f.contains_key("line_items[1][quantity]"));
    let session = fake.sessions.lock().unwrap()["cs_test_fake0"].clone();
    assert_eq!(session["amount_total"], due);
    fake.pay("cs_test_fake0", "ada@example.com");
    let hook = webhook_completed(&app, &booking, &session).await;
    assert_eq!(hook.status, 200, "{}", hook.text);
    assert_eq!(app.status_of(&booking).await, "BOOKED");
    app.assert_invariants().await;
}

for_each_backend!(a_promo_is_what_stripe_charges);

/// While an event sells fast, paying does not stretch a hold: the booking
/// waits the hold's end plus the grace, though Stripe's session must live
/// 30 minutes; at the booking's deadline the session is expired at Stripe
/// and the seat goes back.
async fn a_fast_sale_checkout_ends_early_and_is_expired_at_stripe(backend: Backend) {
    let Some((app, fake)) = stripe_app_with(backend, |c| c.fast_sale_free_percent = 100).await
    else {
        return;
    };
    let buyer = app.buyer();
    let booking = buyer.held_booking(1, 320).await;
    let hold_ends = app.clock.now().ms() + 300_000;
    app.clock.advance_ms(60_000);
    let paid = buyer.pay(&booking).await;
    assert_eq!(paid.status, 200, "{}", paid.text);
    // 4 minutes of hold left + 5 minutes' grace, not 30 minutes.
    assert_eq!(paid.json()["expiresInMs"], 540_000);
    let deadline = app
        .scalar(&format!(
            "select held_until from booking where id = '{booking}'"
        ))
        .await;
    assert_eq!(deadline, hold_ends + 300_000);
    let sent = fake.sent("/v1/checkout/sessions");
    let expires_at: i64 = sent[0].form["expires_at"].parse().unwrap();
    assert!(expires_at * 1000 >= app.clock.now().ms() + 30 * 60 * 1000);

    app.clock.advance_ms(540_001);
    reconcile_due(&app.state).await.unwrap();
    assert_eq!(app.status_of(&booking).await, "EXPIRED");
    assert_eq!(
        fake.sent("/v1/checkout/sessions/cs_test_fake0/expire")
            .len(),
        1
    );
    assert_eq!(app.buyer().hold(1, 320).await.status, 200);
    app.assert_invariants().await;
}

for_each_backend!(a_fast_sale_checkout_ends_early_and_is_expired_at_stripe);

/// A published event of one category and eight seats in `currency`, at
/// `price` minor units a seat: (event id, its first seat).
async fn event_in(app: &TestApp, currency: &str, price: i64) -> (i64, i64) {
    let id = app.published_event(priced_layout(currency, price)).await;
    let seat = app.first_seat(id).await;
    (id, seat)
}

fn priced_layout(currency: &str, price: i64) -> Value {
    json!({
        "name": format!("Priced in {currency}"), "kind": "concert", "venue": "Hall",
        "startsAt": "2027-06-01T20:00:00Z", "currency": currency,
        "categories": [ { "code": "A", "name": "Stalls", "priceCents": price, "color": "#c0392b" } ],
        "sections": [ { "name": "Stalls", "category": "A", "rows": 2, "seatsPerRow": 4, "x": 0, "y": 0 } ]
    })
}

/// Each currency charged in its own smallest unit, as Stripe counts it:
/// whole yen and đồng (no hundredfold), fils in thousandths; the page and
/// the API show the same amount in the currency's own digits. A currency
/// Holdfast cannot charge in, or an amount Stripe would refuse, is refused
/// when the event is set up.
async fn every_currency_is_charged_in_its_own_unit(backend: Backend) {
    let Some((app, fake)) = stripe_app(backend).await else {
        return;
    };
    let events_before = app.scalar("select count(*) from event").await;
    for (currency, price, field) in [
        ("XYZ", 3000, "currency"),
        ("eur", 3000, "currency"),
        ("BHD", 12_345, "categories[0].priceCents"),
        ("VND", 100_000_000, "categories[0].priceCents"),
        ("EUR", -1, "categories[0].priceCents"),
    ] {
        let refused = app
            .admin()
            .post(
                "/api/admin/events",
                None,
                Some(priced_layout(currency, price)),
            )
            .await;
        assert_eq!(refused.status, 422, "{currency} {price}: {}", refused.text);
        let fields = refused.field_errors();
        assert!(fields.contains(&field.to_string()), "{fields:?}");
    }
    assert_eq!(
        app.scalar("select count(*) from event").await,
        events_before
    );

    for (i, (currency, price, shown)) in [
        ("JPY", 5_000, "¥5,000"),
        ("VND", 1_500_000, "₫1,500,000"),
        ("JPY", 125_000, "¥125,000"),
        ("BHD", 12_500, "BHD 12.500"),
    ]
    .into_iter()
    .enumerate()
    {
        let (event, seat) = event_in(&app, currency, price).await;
        let detail = app.buyer().get(&format!("/api/events/{event}")).await;
        assert_eq!(detail.json()["categories"][0]["priceCents"], price);
        let page = app.buyer().get(&format!("/events/{event}")).await;
        assert!(page.text.contains(shown), "{currency}: {shown} on the page");

        let buyer = app.buyer();
        let booking = buyer.held_booking(event, seat).await;
        let paid = buyer.pay(&booking).await;
        assert_eq!(paid.status, 200, "{}", paid.text);
        let sent = fake.sent("/v1/checkout/sessions");
        let f = &sent[i].form;
        assert_eq!(
            f["line_items[0][price_data][currency]"],
            currency.to_ascii_lowercase()
        );
        assert_eq!(
            f["line_items[0][price_data][unit_amount]"],
            price.to_string(),
            "{currency}: Stripe's smallest unit is the currency's minor unit"
        );
        let view = buyer.get(&format!("/api/bookings/{booking}")).await.json();
        assert_eq!(view["amountCents"], price);
        assert_eq!(view["currency"], currency);
    }
    app.assert_invariants().await;
}

for_each_backend!(every_currency_is_charged_in_its_own_unit);

/// A night in Hà Nội end to end in đồng: a promo takes 10 %, Stripe is
/// asked for the due amount in whole đồng, its webhook with that amount
/// books it, and a refund sends back exactly that many đồng.
async fn a_dong_booking_is_charged_and_refunded_in_dong(backend: Backend) {
    let Some((app, fake)) = stripe_app(backend).await else {
        return;
    };
    let hanoi = app
        .scalar("select id from event where currency = 'VND'")
        .await;
    let first = app.first_seat(hanoi).await;
    let created = app
        .admin()
        .post(
            "/api/admin/promos",
            None,
            Some(json!({ "name": "Tết", "kind": "single", "code": "TET-10", "percentOff": 10 })),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.text);
    let buyer = app.buyer();
    let held = buyer.hold_many(hanoi, &[first, first + 1]).await;
    assert_eq!(held.status, 200, "{}", held.text);
    let booking = held.json()["bookingId"].as_str().unwrap().to_string();
    assert_eq!(held.json()["amountCents"], 5_000_000, "two VIP seats");
    let applied = buyer
        .post(
            &format!("/api/bookings/{booking}/promo"),
            None,
            Some(json!({ "code": "tet-10" })),
        )
        .await;
    assert_eq!(applied.status, 200, "{}", applied.text);
    assert_eq!(applied.json()["amountCents"], 4_500_000);
    let page = buyer.get(&format!("/bookings/{booking}")).await;
    assert!(page.text.contains("₫4,500,000"), "the page in đồng");

    let paid = buyer.pay(&booking).await;
    assert_eq!(paid.status, 200, "{}", paid.text);
    let sent = fake.sent("/v1/checkout/sessions");
    let f = &sent[0].form;
    assert_eq!(f["line_items[0][price_data][currency]"], "vnd");
    assert_eq!(f["line_items[0][price_data][unit_amount]"], "4500000");
    let session = fake.sessions.lock().unwrap()["cs_test_fake0"].clone();
    assert_eq!(session["amount_total"], 4_500_000);
    fake.pay("cs_test_fake0", "an@example.vn");
    let hook = webhook_completed(&app, &booking, &session).await;
    assert_eq!(hook.status, 200, "{}", hook.text);
    assert_eq!(app.status_of(&booking).await, "BOOKED");

    let admin = app.admin();
    let refund = admin
        .post(&format!("/api/admin/bookings/{booking}/refund"), None, None)
        .await;
    assert_eq!(refund.status, 200, "{}", refund.text);
    app.dispatch_outbox().await;
    let refunds = fake.sent("/v1/refunds");
    assert_eq!(refunds.len(), 1, "{refunds:?}");
    assert_eq!(refunds[0].form["amount"], "4500000");
    assert_eq!(app.status_of(&booking).await, "REFUNDED");
    app.assert_invariants().await;
}

for_each_backend!(a_dong_booking_is_charged_and_refunded_in_dong);
