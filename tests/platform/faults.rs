//! With the database gone, the API still answers in its error shape (no
//! bare 500 from a layer, no database message).

use crate::common;

use common::TestApp;

on_both_backends!(
    database_gone_answers_stay_in_the_error_shape,
    |app: TestApp| async move {
        // A session first (a hold makes one: reads never do), so the
        // requests below also exercise its loading.
        let buyer = app.buyer();
        assert_eq!(buyer.hold(1, 3).await.status, 200);
        app.state.db.close().await;

        for answer in [
            buyer.get("/api/bookings").await,
            app.buyer().get("/api/bookings").await,
            buyer.hold(1, 1).await,
            buyer
                .get("/api/bookings/00000000-0000-0000-0000-000000000000")
                .await,
        ] {
            assert_internal(&answer);
            let text = answer.text.to_lowercase();
            for leak in ["pool", "sqlx", "closed", "database", "postgres", "sqlite"] {
                assert!(!text.contains(leak), "{leak} leaked: {}", answer.text);
            }
        }
    }
);

// SQLite writes through a pool of its own: with only that one gone, a new
// buyer's hold cannot store its session — the session layer's bare 500
// must not reach the client either. (A read makes no session at all.)
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_session_that_cannot_be_stored_answers_in_the_error_shape() {
    let app = common::spawn_app(common::Backend::Sqlite).await;
    app.state.db.writer().close().await;
    assert_eq!(app.buyer().get("/api/bookings").await.status, 200);
    assert_internal(&app.buyer().hold(1, 5).await);
}

fn assert_internal(answer: &common::Answer) {
    assert!(
        answer.status.is_server_error(),
        "{} {}",
        answer.status,
        answer.text
    );
    assert_eq!(answer.code(), "INTERNAL", "{}", answer.text);
}

// The router's own answers (a method the route does not have, an unknown
// path) are in the error shape too, with their headers kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_routers_own_answers_are_in_the_error_shape() {
    let app = common::spawn_app(common::Backend::Sqlite).await;
    let http = reqwest::Client::new();
    let r = http
        .request(reqwest::Method::PUT, format!("{}/api/bookings", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 405);
    assert!(r.headers().get("allow").is_some(), "{:?}", r.headers());
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "METHOD_NOT_ALLOWED", "{body}");

    let r = http
        .request(reqwest::Method::TRACE, format!("{}/api/events", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 405);
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "METHOD_NOT_ALLOWED", "{body}");
}
