//! `spawn_app`: a real server on port 0 over a fresh database — a SQLite
//! file in a temp dir, or a new database on the Postgres that
//! `HOLDFAST_TEST_PG_URL` points at (the test command starts one) — with a
//! clock the test moves by hand.
#![allow(dead_code)]

pub mod process;

use std::sync::Arc;

use holdfast::server::{build, config::Config};
use holdfast_core::platform::clock::{Clock, ManualClock};
use holdfast_core::AppState;
use reqwest::StatusCode;
use serde_json::Value;

/// The longest any test request may take: a stalled answer fails its test
/// with its output instead of stalling the whole test command.
pub const REQUEST_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);

#[derive(Clone, Copy, Debug)]
pub enum Backend {
    Sqlite,
    Postgres,
}

pub struct TestApp {
    pub base: String,
    pub state: AppState,
    pub clock: Arc<ManualClock>,
    pub database_url: String,
    _tmp: Option<Arc<tempdir::TempDir>>,
}

/// Runs one async test body on both backends (Postgres unless
/// `HOLDFAST_TEST_BACKENDS` leaves it out).
#[macro_export]
macro_rules! on_both_backends {
    ($name:ident, $body:expr) => {
        mod $name {
            use super::*;
            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn sqlite() {
                let app = common::spawn_app(common::Backend::Sqlite).await;
                ($body)(app).await;
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn postgres() {
                if !common::wants_postgres() {
                    return;
                }
                let app = common::spawn_app(common::Backend::Postgres).await;
                ($body)(app).await;
            }
        }
    };
}

/// Runs each named `async fn(Backend)` as two tests, `name::sqlite` and
/// `name::postgres` (the function decides what Postgres not being wanted
/// means for it).
#[macro_export]
macro_rules! for_each_backend {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
                async fn sqlite() {
                    super::$name(super::common::Backend::Sqlite).await;
                }
                #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
                async fn postgres() {
                    super::$name(super::common::Backend::Postgres).await;
                }
            }
        )*
    };
}

/// Postgres runs unless explicitly left out; without a URL that is an error,
/// not a silent pass.
pub fn wants_postgres() -> bool {
    let wanted = std::env::var("HOLDFAST_TEST_BACKENDS")
        .map(|v| v.contains("postgres"))
        .unwrap_or(true);
    if wanted && std::env::var("HOLDFAST_TEST_PG_URL").is_err() {
        panic!("HOLDFAST_TEST_PG_URL is not set: run ./scripts/test.sh, or set HOLDFAST_TEST_BACKENDS=sqlite");
    }
    wanted
}

pub async fn spawn_app(backend: Backend) -> TestApp {
    let (url, tmp) = fresh_database(backend).await;
    spawn_on(&url, tmp, |_| {}).await
}

/// A fresh SQLite instance, its configuration tweaked.
pub async fn spawn_sqlite_with(tweak: impl FnOnce(&mut Config)) -> TestApp {
    let (db, tmp) = fresh_database(Backend::Sqlite).await;
    spawn_on(&db, tmp, tweak).await
}

pub async fn spawn_on(
    url: &str,
    tmp: Option<Arc<tempdir::TempDir>>,
    tweak: impl FnOnce(&mut Config),
) -> TestApp {
    // RUST_LOG=… shows the servers' logs beside a failing test.
    if std::env::var_os("RUST_LOG").is_some() {
        let _ = tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
            .with_test_writer()
            .try_init();
    }
    // Bind first: the sandbox sends its webhooks to this very address.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    let mut config = Config::for_tests(url);
    config.public_base_url = base.clone();
    tweak(&mut config);
    let clock = ManualClock::starting_now();
    let (router, state) = build(&config, clock.clone()).await.expect("app builds");
    let listener = holdfast::server::no_delay(listener);
    tokio::spawn(async move {
        axum::serve(listener, holdfast::server::per_connection(router))
            .await
            .expect("serve");
    });
    TestApp {
        base,
        state,
        clock,
        database_url: url.to_string(),
        _tmp: tmp,
    }
}

pub async fn fresh_database(backend: Backend) -> (String, Option<Arc<tempdir::TempDir>>) {
    match backend {
        Backend::Sqlite => {
            let dir = tempdir::TempDir::new("holdfast").expect("tempdir");
            let url = format!("sqlite://{}/test.db", dir.path().display());
            (url, Some(Arc::new(dir)))
        }
        Backend::Postgres => {
            let admin = std::env::var("HOLDFAST_TEST_PG_URL").expect("HOLDFAST_TEST_PG_URL");
            let name = format!("holdfast_{}", uuid::Uuid::new_v4().simple());
            sqlx::any::install_default_drivers();
            let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect(&admin)
                .await
                .expect("admin connect");
            sqlx::Executor::execute(&mut conn, format!("create database {name}").as_str())
                .await
                .expect("create database");
            let base = admin
                .rsplit_once('/')
                .map(|(b, _)| b.to_string())
                .expect("url with a database");
            (format!("{base}/{name}"), None)
        }
    }
}

impl TestApp {
    /// A new buyer: its own cookie jar, so its own session.
    pub fn buyer(&self) -> Buyer {
        Buyer {
            base: self.base.clone(),
            http: reqwest::Client::builder()
                .cookie_store(true)
                .pool_max_idle_per_host(64)
                .timeout(REQUEST_TIMEOUT)
                .build()
                .expect("client"),
        }
    }

    /// A new buyer behind a proxy that says it is `address`
    /// (`X-Forwarded-For`; counted as such where the proxy is trusted).
    pub fn buyer_at(&self, address: &str) -> Buyer {
        let mut headers = reqwest::header::HeaderMap::new();
        headers.insert("x-forwarded-for", address.parse().expect("address"));
        Buyer {
            base: self.base.clone(),
            http: reqwest::Client::builder()
                .cookie_store(true)
                .default_headers(headers)
                .timeout(REQUEST_TIMEOUT)
                .build()
                .expect("client"),
        }
    }

    /// Switches event 1's waiting room on or off (60 a minute).
    pub async fn set_room(&self, enabled: bool) {
        let a = self
            .admin()
            .send(
                reqwest::Method::PUT,
                "/api/admin/events/1/queue",
                &[],
                Some(serde_json::json!({ "enabled": enabled, "admitPerMinute": 60 })),
            )
            .await;
        assert_eq!(a.status, 200, "{}", a.text);
    }

    /// Sets an event's refund policy through the admin API (it must take it).
    pub async fn set_refund_policy(&self, event: i64, policy: Value) {
        let set = self
            .admin()
            .send(
                reqwest::Method::PUT,
                &format!("/api/admin/events/{event}/refund-policy"),
                &[],
                Some(policy),
            )
            .await;
        assert_eq!(set.status, 200, "{}", set.text);
    }

    /// A client sending these headers with every request (no cookies).
    pub fn client_with(&self, headers: &[(&str, &str)]) -> Buyer {
        let mut map = reqwest::header::HeaderMap::new();
        for (name, value) in headers {
            map.insert(
                reqwest::header::HeaderName::from_bytes(name.as_bytes()).expect("header name"),
                value.parse().expect("header value"),
            );
        }
        Buyer {
            base: self.base.clone(),
            http: reqwest::Client::builder()
                .default_headers(map)
                .timeout(REQUEST_TIMEOUT)
                .build()
                .expect("client"),
        }
    }

    /// A client of the admin API (the bearer token of `Config::for_tests`).
    pub fn admin(&self) -> Buyer {
        let mut headers = reqwest::header::HeaderMap::new();
        headers.insert(
            reqwest::header::AUTHORIZATION,
            format!("Bearer {}", holdfast::server::config::TEST_ADMIN_TOKEN)
                .parse()
                .expect("header"),
        );
        Buyer {
            base: self.base.clone(),
            http: reqwest::Client::builder()
                .default_headers(headers)
                .timeout(REQUEST_TIMEOUT)
                .build()
                .expect("client"),
        }
    }

    /// A new buyer holds `seats` of event 1 and starts paying:
    /// (buyer, booking id, the pay answer).
    pub async fn hold_and_pay(&self, seats: &[i64]) -> (Buyer, String, Answer) {
        let buyer = self.buyer();
        let (booking, paid) = buyer.hold_and_pay(seats).await;
        (buyer, booking, paid)
    }

    /// …and pays on the sandbox's page with `email`, events delivered `delivery`:
    /// the booking is BOOKED.
    pub async fn book(
        &self,
        seats: &[i64],
        email: &str,
        delivery: holdfast_core::payments::sandbox::Delivery,
    ) -> (Buyer, String) {
        let (buyer, booking, paid) = self.hold_and_pay(seats).await;
        self.pay_on_sandbox(&paid, email, delivery).await;
        self.deliver_events().await;
        assert_eq!(self.status_of(&booking).await, "BOOKED");
        (buyer, booking)
    }

    /// The buyer pays on the sandbox's page of the checkout `paid` (the pay
    /// step's 200 answer) with `email` (or none, as an API caller may);
    /// events are sent `delivery`.
    pub async fn pay_on_sandbox<'a>(
        &self,
        paid: &Answer,
        email: impl Into<Option<&'a str>>,
        delivery: holdfast_core::payments::sandbox::Delivery,
    ) {
        assert_eq!(paid.status, 200, "{}", paid.text);
        let session = paid.json()["checkoutSessionId"]
            .as_str()
            .unwrap()
            .to_string();
        self.sandbox()
            .complete(
                &session,
                true,
                delivery,
                email.into(),
                holdfast_core::payments::sandbox::Sender::Worker,
            )
            .await
            .unwrap();
    }

    pub async fn invariants(&self) -> Vec<String> {
        holdfast_core::invariants::violations(&self.state.db, self.clock.now())
            .await
            .expect("invariant queries run")
    }

    /// The invariant canary names `booking` with `what` (after a test broke
    /// the database behind the product's back).
    pub async fn assert_violation(&self, booking: &str, what: &str) {
        let found = self.invariants().await;
        assert!(
            found
                .iter()
                .any(|v| v.contains(booking) && v.contains(what)),
            "no violation naming {booking} and {what:?}: {found:?}"
        );
    }

    /// Changes the database behind the product's back: `sql` with `$1`
    /// bound to `value`.
    pub async fn tamper(&self, sql: &str, value: &str) {
        sqlx::query(sql)
            .bind(value)
            .execute(self.state.db.writer())
            .await
            .expect("the tampering statement runs");
    }

    pub async fn assert_invariants(&self) {
        let v = self.invariants().await;
        assert!(v.is_empty(), "invariants violated: {v:?}");
    }

    pub async fn scalar(&self, sql: &str) -> i64 {
        let (n,): (i64,) = sqlx::query_as(sql)
            .fetch_one(self.state.db.reader())
            .await
            .expect(sql);
        n
    }

    /// An admin sets up an event from a layout and publishes it: its id.
    pub async fn published_event(&self, layout: serde_json::Value) -> i64 {
        let admin = self.admin();
        let created = admin.post("/api/admin/events", None, Some(layout)).await;
        assert_eq!(created.status, 201, "{}", created.text);
        let id = created.json()["eventId"].as_i64().unwrap();
        let published = admin
            .post(&format!("/api/admin/events/{id}/publish"), None, None)
            .await;
        assert_eq!(published.status, 200, "{}", published.text);
        id
    }

    /// An admin refunds the booking, which must be taken.
    pub async fn refund_by_admin(&self, booking: &str) {
        let path = format!("/api/admin/bookings/{booking}/refund");
        let refund = self.admin().post(&path, None, None).await;
        assert_eq!(refund.status, 200, "{}", refund.text);
    }

    /// The event's first seat (lowest id).
    pub async fn first_seat(&self, event: i64) -> i64 {
        self.scalar(&format!(
            "select min(id) from seat where event_id = {event}"
        ))
        .await
    }

    /// The event's last seat (highest id).
    pub async fn last_seat(&self, event: i64) -> i64 {
        self.scalar(&format!(
            "select max(id) from seat where event_id = {event}"
        ))
        .await
    }

    pub fn sandbox(&self) -> &holdfast_core::payments::sandbox::Sandbox {
        self.state
            .payments
            .sandbox
            .as_deref()
            .expect("sandbox provider")
    }

    /// Sends every due sandbox event to the webhook.
    pub async fn deliver_events(&self) -> usize {
        let mut total = 0;
        loop {
            let n = self.sandbox().deliver_due().await.expect("deliveries");
            if n == 0 {
                return total;
            }
            total += n;
        }
    }

    /// Carries out every due outbox row (emails, refunds).
    pub async fn dispatch_outbox(&self) -> usize {
        let mut total = 0;
        loop {
            let n = holdfast_core::payments::outbox::dispatch_due(&self.state)
                .await
                .expect("outbox");
            if n == 0 {
                return total;
            }
            total += n;
        }
    }

    pub async fn status_of(&self, booking: &str) -> String {
        let (s,): (String,) = sqlx::query_as("select status from booking where id = $1")
            .bind(booking)
            .fetch_one(self.state.db.reader())
            .await
            .expect("booking");
        s
    }

    /// Posts a body to the webhook with the given signature header.
    pub async fn post_webhook(&self, body: &str, signature: Option<String>) -> Answer {
        let mut req = reqwest::Client::new()
            .post(format!("{}/api/payments/webhook", self.base))
            .header("content-type", "application/json")
            .body(body.to_string());
        if let Some(s) = signature {
            req = req.header("Stripe-Signature", s);
        }
        let r = req.send().await.expect("webhook");
        Answer {
            status: r.status(),
            text: r.text().await.expect("body"),
        }
    }

    /// A correct signature for `body`, signed at the app's clock.
    pub fn sign(&self, body: &str) -> String {
        holdfast_core::payments::signature::sign(
            holdfast::server::config::DEV_WEBHOOK_SECRET,
            body.as_bytes(),
            self.clock.now().ms() / 1000,
        )
    }

    /// Seat ids of the arena (event 1) in id order.
    pub async fn arena_seats(&self) -> Vec<i64> {
        let rows: Vec<(i64,)> =
            sqlx::query_as("select id from seat where event_id = 1 order by id")
                .fetch_all(self.state.db.reader())
                .await
                .expect("seats");
        rows.into_iter().map(|r| r.0).collect()
    }
}

pub struct Buyer {
    pub base: String,
    pub http: reqwest::Client,
}

pub struct Answer {
    pub status: StatusCode,
    pub text: String,
}

impl Answer {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|_| panic!("not JSON: {}", self.text))
    }

    pub fn code(&self) -> String {
        self.json()["error"]["code"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// The fields a `VALIDATION` refusal names, in its order.
    pub fn field_errors(&self) -> Vec<String> {
        self.json()["error"]["fieldErrors"]
            .as_array()
            .unwrap_or_else(|| panic!("no fieldErrors: {}", self.text))
            .iter()
            .map(|f| f["field"].as_str().unwrap_or_default().to_string())
            .collect()
    }
}

/// A browser (its own cookies) that does not follow redirects, so a test
/// sees where a page sends it.
pub fn browser_without_redirects(base: &str) -> Buyer {
    Buyer {
        base: base.to_string(),
        http: reqwest::Client::builder()
            .cookie_store(true)
            .redirect(reqwest::redirect::Policy::none())
            .timeout(REQUEST_TIMEOUT)
            .build()
            .expect("client"),
    }
}

impl Buyer {
    /// Whether this client's session is an admin's now.
    pub async fn is_admin(&self) -> bool {
        self.get("/api/admin/session").await.json()["admin"] == true
    }

    pub async fn get(&self, path: &str) -> Answer {
        let r = self
            .http
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .expect("GET");
        Answer {
            status: r.status(),
            text: r.text().await.expect("body"),
        }
    }

    /// Calls a page's server function at `path` (its `ServerFn::PATH`) with
    /// a form body, as the page does; its JSON answer (it must be 200).
    pub async fn server_fn(&self, path: &str, form: &str) -> Value {
        let answer = self
            .http
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(form.to_string())
            .send()
            .await
            .expect("server function");
        assert_eq!(answer.status(), 200);
        answer.json().await.expect("JSON")
    }

    pub async fn delete(&self, path: &str) -> Answer {
        let r = self
            .http
            .delete(format!("{}{path}", self.base))
            .send()
            .await
            .expect("DELETE");
        Answer {
            status: r.status(),
            text: r.text().await.expect("body"),
        }
    }

    /// Any method, with extra headers (e.g. `Admission-Token`).
    pub async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<Value>,
    ) -> Answer {
        let mut req = self.http.request(method, format!("{}{path}", self.base));
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        let r = req.send().await.expect("request");
        Answer {
            status: r.status(),
            text: r.text().await.expect("body"),
        }
    }

    /// Like a browser: a 503 SERVICE_BUSY (nothing was done) is sent again
    /// with the same Idempotency-Key after its Retry-After, a few times.
    pub async fn post(&self, path: &str, key: Option<&str>, body: Option<Value>) -> Answer {
        let mut tries = 0;
        loop {
            let mut req = self.http.post(format!("{}{path}", self.base));
            if let Some(k) = key {
                req = req.header("Idempotency-Key", k);
            }
            if let Some(b) = &body {
                req = req.json(b);
            }
            let r = req.send().await.expect("POST");
            let answer = Answer {
                status: r.status(),
                text: r.text().await.expect("body"),
            };
            tries += 1;
            if answer.status != 503 || answer.code() != "SERVICE_BUSY" || tries == 10 {
                return answer;
            }
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        }
    }

    /// Gives this client a session without booking anything (reads never
    /// make one): it asks for a sign-in link to a throwaway address.
    pub async fn open_session(&self) {
        let asked = self
            .post(
                "/api/auth/email-link",
                None,
                Some(serde_json::json!({ "email": format!("session-{}@example.com", new_key()) })),
            )
            .await;
        assert_eq!(asked.status, 202, "{}", asked.text);
    }

    /// Opens a mailed sign-in link as its person does: the page only asks
    /// "Sign in as …?"; the person confirms (a same-origin form post),
    /// `bring`: with the box "move this browser's bookings" ticked. The
    /// page's answer when it refused, else the confirmation's (the
    /// bookings page after the redirect).
    pub async fn open_sign_in_link(&self, link: &str, bring: bool) -> Answer {
        let page = self.get(link).await;
        if page.status != 200 {
            return page;
        }
        assert!(
            page.text.contains("data-testid=\"confirm-sign-in\""),
            "the link's page asks first: {}",
            page.text
        );
        let form: &[(&str, &str)] = if bring { &[("bring", "1")] } else { &[] };
        let r = self
            .http
            .post(format!("{}{link}", self.base))
            .form(form)
            .send()
            .await
            .expect("POST");
        Answer {
            status: r.status(),
            text: r.text().await.expect("body"),
        }
    }

    /// Holds `seats` of event 1 and starts paying: (booking id, the pay answer).
    pub async fn hold_and_pay(&self, seats: &[i64]) -> (String, Answer) {
        let held = self.hold_many(1, seats).await;
        assert_eq!(held.status, 200, "{}", held.text);
        let booking = held.json()["bookingId"].as_str().unwrap().to_string();
        let paid = self
            .post(
                &format!("/api/bookings/{booking}/pay"),
                Some(&new_key()),
                None,
            )
            .await;
        (booking, paid)
    }

    pub async fn hold(&self, event: i64, seat: i64) -> Answer {
        self.post(
            &format!("/api/events/{event}/seats/{seat}/hold"),
            Some(&new_key()),
            None,
        )
        .await
    }

    /// Holds one seat, which must succeed: the booking's id.
    pub async fn held_booking(&self, event: i64, seat: i64) -> String {
        let held = self.hold(event, seat).await;
        assert_eq!(held.status, 200, "{}", held.text);
        held.json()["bookingId"].as_str().unwrap().to_string()
    }

    /// Starts paying a booking (a fresh Idempotency-Key).
    pub async fn pay(&self, booking: &str) -> Answer {
        self.post(
            &format!("/api/bookings/{booking}/pay"),
            Some(&new_key()),
            None,
        )
        .await
    }

    pub async fn hold_many(&self, event: i64, seats: &[i64]) -> Answer {
        self.post(
            &format!("/api/events/{event}/holds"),
            Some(&new_key()),
            Some(serde_json::json!({ "seatIds": seats })),
        )
        .await
    }
}

pub fn new_key() -> String {
    uuid::Uuid::new_v4().to_string()
}
