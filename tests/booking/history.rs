//! Every booking keeps its history: each status it took, why and when,
//! written in the transition's own transaction (a trigger over the cause
//! the statement names). The invariants check the history ends where the
//! booking stands and skips no status.

use crate::common;

use holdfast_core::booking::release::expire_due_holds;
use holdfast_core::payments::reconcile::reconcile_due;
use holdfast_core::payments::sandbox::Delivery;
use reqwest::StatusCode;
use serde_json::{json, Value};

use common::TestApp;

const CHECKOUT_MS: i64 = 1_800_000;

/// The booking's history as the admin API gives it: (from, to, cause, by).
async fn steps(app: &TestApp, booking: &str) -> Vec<(Value, Value, Value, Value)> {
    let answer = app
        .admin()
        .get(&format!("/api/admin/bookings/{booking}/history"))
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    answer
        .json()
        .as_array()
        .expect("a list")
        .iter()
        .map(|s| {
            assert!(s["at"].as_str().is_some_and(|at| at.ends_with('Z')), "{s}");
            (
                s["from"].clone(),
                s["to"].clone(),
                s["cause"].clone(),
                s["by"].clone(),
            )
        })
        .collect()
}

fn step(from: Value, to: &str, cause: &str, by: Value) -> (Value, Value, Value, Value) {
    (from, json!(to), json!(cause), by)
}

on_both_backends!(
    every_transition_is_in_the_history_with_its_cause,
    |app: TestApp| async move {
        let seats = app.arena_seats().await;
        let none = Value::Null;

        // Paid through the provider's webhook, refunded by an admin, the refund
        // confirmed by the provider.
        let (_buyer, paid) = app
            .book(&seats[..2], "ana@example.com", Delivery::Once)
            .await;
        let answer = app
            .admin()
            .post(&format!("/api/admin/bookings/{paid}/refund"), None, None)
            .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        app.dispatch_outbox().await;
        assert_eq!(app.status_of(&paid).await, "REFUNDED");
        let event: String = sqlx::query_scalar(
            "select event_id from webhook_inbox where booking_id = $1 and outcome = 'booked'",
        )
        .bind(&paid)
        .fetch_one(app.state.db.reader())
        .await
        .expect("the paid event");
        assert_eq!(
            steps(&app, &paid).await,
            vec![
                step(none.clone(), "HELD", "buyer", none.clone()),
                step(json!("HELD"), "PAYMENT_PENDING", "buyer", none.clone()),
                step(json!("PAYMENT_PENDING"), "BOOKED", "webhook", json!(event)),
                step(json!("BOOKED"), "CANCELLED", "admin", json!("api-token")),
                step(json!("CANCELLED"), "REFUNDED", "refund", none.clone()),
            ]
        );

        // A hold whose time ran out, swept.
        let lapsed = app.buyer().hold_many(1, &seats[2..3]).await.json()["bookingId"]
            .as_str()
            .unwrap()
            .to_string();
        // Released by its buyer, and by an admin.
        let buyer = app.buyer();
        let own = buyer.hold_many(1, &seats[3..4]).await.json()["bookingId"]
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(
            buyer.delete(&format!("/api/bookings/{own}")).await.status,
            StatusCode::OK
        );
        let other = app.buyer().hold_many(1, &seats[4..5]).await.json()["bookingId"]
            .as_str()
            .unwrap()
            .to_string();
        let released = app
            .admin()
            .post(&format!("/api/admin/bookings/{other}/release"), None, None)
            .await;
        assert_eq!(released.status, StatusCode::OK, "{}", released.text);
        // A checkout nobody finished, ended by reconciliation.
        let (unpaid, started) = app.buyer().hold_and_pay(&seats[5..6]).await;
        assert_eq!(started.status, StatusCode::OK, "{}", started.text);
        app.clock.advance_ms(CHECKOUT_MS + 1000);
        assert!(expire_due_holds(&app.state, 100).await.unwrap() >= 1);
        assert_eq!(reconcile_due(&app.state).await.unwrap(), 1);

        let held = step(none.clone(), "HELD", "buyer", none.clone());
        assert_eq!(
            steps(&app, &lapsed).await,
            vec![
                held.clone(),
                step(json!("HELD"), "EXPIRED", "expiry", none.clone())
            ]
        );
        assert_eq!(
            steps(&app, &own).await,
            vec![
                held.clone(),
                step(json!("HELD"), "CANCELLED", "buyer", none.clone())
            ]
        );
        assert_eq!(
            steps(&app, &other).await,
            vec![
                held.clone(),
                step(json!("HELD"), "CANCELLED", "admin", json!("api-token"))
            ]
        );
        assert_eq!(
            steps(&app, &unpaid).await,
            vec![
                held,
                step(json!("HELD"), "PAYMENT_PENDING", "buyer", none.clone()),
                step(json!("PAYMENT_PENDING"), "EXPIRED", "reconciliation", none),
            ]
        );
        app.assert_invariants().await;

        // Strangers and unknown bookings.
        let unknown = app
            .admin()
            .get("/api/admin/bookings/00000000-0000-4000-8000-000000000000/history")
            .await;
        assert_eq!(unknown.status, StatusCode::NOT_FOUND);
        assert_eq!(unknown.code(), "NOT_FOUND");
        let bad = app
            .admin()
            .get("/api/admin/bookings/not-a-booking/history")
            .await;
        assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.text);
        let stranger = app
            .buyer()
            .get(&format!("/api/admin/bookings/{paid}/history"))
            .await;
        assert_eq!(stranger.status, StatusCode::UNAUTHORIZED);
    }
);

on_both_backends!(
    a_status_changed_behind_the_historys_back_is_a_violation,
    |app: TestApp| async move {
        let seat = app.first_seat(1).await;
        let held = app.buyer().hold(1, seat).await.json()["bookingId"]
            .as_str()
            .unwrap()
            .to_string();
        app.assert_invariants().await;
        // A statement that names no cause: the trigger still writes the step,
        // and the invariants name it.
        app.tamper(
            "update booking set status = 'CANCELLED', cause = null where id = $1",
            &held,
        )
        .await;
        app.tamper(
            "update booking_seat set live = 0 where booking_id = $1",
            &held,
        )
        .await;
        app.assert_violation(&held, "no cause").await;
        // A history that stops short of the booking's status.
        app.tamper(
            "delete from booking_history where booking_id = $1 and to_status = 'CANCELLED'",
            &held,
        )
        .await;
        app.assert_violation(&held, "is CANCELLED but its history ends at HELD")
            .await;
    }
);
