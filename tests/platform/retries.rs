//! Transactions the database rolls back for contention are run again
//! whole, then answered 503 SERVICE_BUSY: on Postgres with real
//! `40001`/`40P01` errors raised by a trigger inside the webhook's own
//! transaction, on SQLite with a real `SQLITE_BUSY` from a second writer.

use crate::common;

use holdfast_core::platform::error::ApiError;
use holdfast_core::platform::retry::{self, Contention};
use reqwest::StatusCode;
use serde_json::json;

use common::TestApp;

/// A signed checkout.session.completed for `booking` (Stripe's own shape).
async fn paid_event(app: &TestApp, booking: &str, id: &str) -> String {
    let raw = include_str!("../fixtures/stripe/checkout.session.completed.json");
    let mut event: serde_json::Value = serde_json::from_str(raw).unwrap();
    event["id"] = json!(id);
    let object = &mut event["data"]["object"];
    object["client_reference_id"] = json!(booking);
    object["metadata"] = json!({ "booking_id": booking });
    object["amount_total"] = json!(app.scalar("select amount_cents from booking").await);
    object["currency"] = json!("eur");
    event.to_string()
}

/// The counter's value in `/metrics` (0 when not yet counted). The
/// recorder is the process's, shared with every other test's servers.
async fn counted(app: &TestApp, series: &str) -> f64 {
    let text = app.buyer().get("/metrics").await.text;
    text.lines()
        .filter(|l| l.starts_with(series))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

async fn execute(app: &TestApp, sql: &str) {
    sqlx::raw_sql(sql)
        .execute(app.state.db.writer())
        .await
        .expect(sql);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_deadlock_victims_are_run_again_and_a_lasting_one_answers_503() {
    if !common::wants_postgres() {
        return;
    }
    let app = common::spawn_app(common::Backend::Postgres).await;
    let seat = app.first_seat(1).await;
    let (_buyer, booking, paid) = app.hold_and_pay(&[seat]).await;
    assert_eq!(paid.status, StatusCode::OK, "{}", paid.text);

    // Every attempt loses: the inbox insert fails as a serialization failure.
    execute(
        &app,
        "create function lose() returns trigger language plpgsql as $$
         begin raise exception 'could not serialize access' using errcode = '40001'; end $$;
         create trigger lose before insert on webhook_inbox for each row execute function lose();",
    )
    .await;
    let exhausted = counted(
        &app,
        "holdfast_db_retries_exhausted_total{cause=\"serialization\"}",
    )
    .await;
    let body = paid_event(&app, &booking, "evt_lose").await;
    let answer = app.post_webhook(&body, Some(app.sign(&body))).await;
    assert_eq!(
        answer.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        answer.text
    );
    assert_eq!(answer.code(), "SERVICE_BUSY");
    assert!(
        !answer.text.contains("serialize"),
        "a database message reached the client: {}",
        answer.text
    );
    assert_eq!(
        app.status_of(&booking).await,
        "PAYMENT_PENDING",
        "nothing was done"
    );
    assert_eq!(app.scalar("select count(*) from webhook_inbox").await, 0);
    // At least: the recorder is the process's, and another test's server
    // may lose a transaction at the same moment.
    assert!(
        counted(
            &app,
            "holdfast_db_retries_exhausted_total{cause=\"serialization\"}"
        )
        .await
            >= exhausted + 1.0
    );

    // The first two attempts are deadlock victims, the third goes through.
    execute(
        &app,
        "drop trigger lose on webhook_inbox;
         create sequence losses;
         create function lose_twice() returns trigger language plpgsql as $$
         begin
           if nextval('losses') <= 2 then
             raise exception 'deadlock detected' using errcode = '40P01';
           end if;
           return new;
         end $$;
         create trigger lose_twice before insert on webhook_inbox for each row execute function lose_twice();",
    )
    .await;
    let retried = counted(&app, "holdfast_db_retries_total{cause=\"deadlock\"}").await;
    let body = paid_event(&app, &booking, "evt_win").await;
    let answer = app.post_webhook(&body, Some(app.sign(&body))).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(answer.json()["outcome"], "booked");
    assert_eq!(app.status_of(&booking).await, "BOOKED");
    assert_eq!(
        app.scalar("select count(*) from webhook_inbox").await,
        1,
        "applied once"
    );
    assert_eq!(
        app.scalar("select count(*) from payment where status = 'paid'")
            .await,
        1
    );
    assert!(counted(&app, "holdfast_db_retries_total{cause=\"deadlock\"}").await >= retried + 2.0);
    app.assert_invariants().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite_busy_from_another_writer_is_run_again() {
    use sqlx::{Connection, Executor};
    let app = common::spawn_app(common::Backend::Sqlite).await;
    let url = format!("{}?mode=rw", app.database_url);
    // Another process's writer holds the file.
    let mut other = sqlx::AnyConnection::connect(&url).await.expect("other");
    other.execute("begin immediate").await.expect("lock");
    let mut impatient = sqlx::AnyConnection::connect(&url).await.expect("impatient");
    impatient
        .execute("pragma busy_timeout = 0")
        .await
        .expect("pragma");
    let busy = impatient
        .execute("insert into job (name, every_ms) values ('probe', 1000)")
        .await
        .expect_err("the file is locked");
    assert_eq!(Contention::of(&busy), Some(Contention::Busy), "{busy:?}");
    assert!(matches!(
        ApiError::from(busy),
        ApiError::Contended(Contention::Busy)
    ));

    // The writer lets go after the second attempt; the third goes through.
    let attempts = std::sync::atomic::AtomicU32::new(0);
    let other = tokio::sync::Mutex::new(Some(other));
    let impatient = tokio::sync::Mutex::new(impatient);
    let done = retry::retried("probe", || async {
        let n = attempts.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
        if n == 3 {
            if let Some(mut o) = other.lock().await.take() {
                o.execute("rollback").await.expect("unlock");
            }
        }
        let mut c = impatient.lock().await;
        c.execute("insert into job (name, every_ms) values ('probe', 1000)")
            .await
            .map_err(ApiError::from)?;
        Ok(n)
    })
    .await
    .expect("went through");
    assert_eq!(done, 3);
    assert_eq!(
        app.scalar("select count(*) from job where name = 'probe'")
            .await,
        1
    );

    // Held for good: the cap, then SERVICE_BUSY.
    let mut other = sqlx::AnyConnection::connect(&url).await.expect("other");
    other.execute("begin immediate").await.expect("lock");
    let tries = std::sync::atomic::AtomicU32::new(0);
    let refused = retry::retried("probe", || async {
        tries.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let mut c = impatient.lock().await;
        c.execute("delete from job where name = 'probe'")
            .await
            .map_err(ApiError::from)?;
        Ok(())
    })
    .await
    .expect_err("never goes through");
    assert_eq!(tries.into_inner(), retry::TRIES);
    assert_eq!(refused.code(), "SERVICE_BUSY");
    assert_eq!(
        holdfast_web::status_of(&refused),
        StatusCode::SERVICE_UNAVAILABLE
    );
    other.execute("rollback").await.expect("unlock");
}

// A value the database refuses (a NUL byte in text, which Postgres cannot
// store: SQLSTATE 22021, all digits like an SQLite code) is the client's
// error, never "busy, try again": 200 or 422 in the error shape.
on_both_backends!(
    a_value_the_database_refuses_is_not_contention,
    |app: TestApp| async move {
        for path in ["/api/sailings?route=AB%00C", "/api/sailings?route=%00"] {
            let answer = app.buyer().get(path).await;
            assert!(
                answer.status == StatusCode::OK
                    || answer.status == StatusCode::UNPROCESSABLE_ENTITY,
                "{path}: {} {}",
                answer.status,
                answer.text
            );
            if answer.status != StatusCode::OK {
                assert_eq!(answer.code(), "VALIDATION", "{}", answer.text);
            }
        }
    }
);

#[test]
fn postgres_sqlstates_are_never_sqlite_busy() {
    // The codes themselves: every SQLSTATE of class 22 and 42 whose low
    // byte happens to be SQLite's 5 or 6 (22021, 42501, 22022, …).
    for code in ["22021", "42501", "22022", "22P05", "23505"] {
        let n: Option<i64> = code.parse().ok();
        if let Some(n) = n {
            if matches!(n & 0xff, 5 | 6) {
                // Exactly the shape that was taken for SQLITE_BUSY before.
                assert!(!retry::is_sqlite_busy_code(code), "{code}");
            }
        }
    }
    for code in ["5", "261", "517", "6", "262"] {
        assert!(retry::is_sqlite_busy_code(code), "{code}");
    }
}
