//! The organizer moves an event's on-sale time: holds follow at once —
//! refused before it, taken after it — including holds already on their
//! way while it moves; a wall-clock time is read in the event's own zone;
//! bad input changes nothing. SQLite and Postgres.

use crate::common;

use common::TestApp;
use futures::future::join_all;
use reqwest::Method;
use serde_json::json;

async fn move_on_sale(app: &TestApp, at: &str) -> common::Answer {
    app.admin()
        .send(
            Method::PUT,
            "/api/admin/events/1/on-sale",
            &[],
            Some(json!({ "onSaleAt": at })),
        )
        .await
}

on_both_backends!(
    holds_follow_the_on_sale_time_as_it_moves,
    |app: TestApp| async move {
        let zone = app.buyer().get("/api/events/1").await.json()["timeZone"]
            .as_str()
            .unwrap()
            .to_string();
        // Fifty buyers hold while the on-sale time moves to next year: each
        // is taken or refused as not on sale, nothing else.
        let seats = app.arena_seats().await;
        let buyers: Vec<_> = (0..50).map(|_| app.buyer()).collect();
        let holds = join_all(
            buyers
                .iter()
                .zip(&seats)
                .map(|(b, seat)| async move { b.hold(1, *seat).await }),
        );
        let (answers, moved) = tokio::join!(holds, move_on_sale(&app, "2030-01-01T10:00"));
        assert_eq!(moved.status, 200, "{}", moved.text);
        let room = moved.json();
        assert!(
            room["onSaleAtLocal"]
                .as_str()
                .unwrap()
                .starts_with("2030-01-01T10:00"),
            "read in {zone}: {room}"
        );
        for a in &answers {
            assert!(
                a.status == 200 || a.code() == "NOT_ON_SALE",
                "{} {}",
                a.status,
                a.text
            );
        }
        let taken = answers.iter().filter(|a| a.status == 200).count() as i64;
        assert_eq!(
            app.scalar("select count(*) from booking_seat where live = 1")
                .await,
            taken
        );
        // Now nobody holds.
        let refused = app.buyer().hold(1, seats[100]).await;
        assert_eq!(refused.status, 409);
        assert_eq!(refused.code(), "NOT_ON_SALE");
        // Back to the past: holds are taken again.
        assert_eq!(move_on_sale(&app, "2020-01-01T00:00:00Z").await.status, 200);
        assert_eq!(app.buyer().hold(1, seats[100]).await.status, 200);
        let moves = app
            .scalar("select count(*) from audit_log where action = 'move_on_sale'")
            .await;
        assert_eq!(moves, 2);

        // Bad input changes nothing.
        let before = app
            .scalar("select on_sale_at from event where id = 1")
            .await;
        let bad = move_on_sale(&app, "next tuesday").await;
        assert_eq!(
            (bad.status.as_u16(), bad.code().as_str()),
            (422, "VALIDATION")
        );
        assert_eq!(bad.json()["error"]["fields"], json!(["onSaleAt"]));
        let unknown = app
            .admin()
            .send(
                Method::PUT,
                "/api/admin/events/999/on-sale",
                &[],
                Some(json!({ "onSaleAt": "2030-01-01T10:00" })),
            )
            .await;
        assert_eq!(unknown.status, 404);
        let stranger = app
            .buyer()
            .send(
                Method::PUT,
                "/api/admin/events/1/on-sale",
                &[],
                Some(json!({ "onSaleAt": "2030-01-01T10:00" })),
            )
            .await;
        assert_eq!(stranger.status, 401);
        assert_eq!(
            app.scalar("select on_sale_at from event where id = 1")
                .await,
            before
        );
        app.assert_invariants().await;
    }
);
