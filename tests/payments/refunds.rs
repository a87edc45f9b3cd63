//! Refunds in part, on SQLite and Postgres: any number of them, each with a
//! reason and a choice to tell the buyer, a row in the booking's history and
//! its own refund at the provider; never together above what was paid, also
//! when asked many at once or racing the booking's own refund; the rest
//! after a buyer's cancellation under a policy that kept some is
//! refundable; and the endpoint refuses strangers, bad bodies and other
//! sites.

use crate::common;

use common::{Answer, TestApp};
use futures::future::join_all;
use holdfast_core::payments::sandbox::Delivery;
use serde_json::{json, Value};

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

fn path(booking: &str) -> String {
    format!("/api/admin/bookings/{booking}/refunds")
}

/// An admin asks for `cents` back, with `reason`.
async fn give(app: &TestApp, booking: &str, cents: i64, reason: &str, notify: bool) -> Answer {
    app.admin()
        .post(
            &path(booking),
            None,
            Some(json!({ "amountCents": cents, "reason": reason, "notifyBuyer": notify })),
        )
        .await
}

/// The outbox sends, the provider's echoes come back, the mail leaves.
async fn settle(app: &TestApp) {
    app.dispatch_outbox().await;
    app.deliver_events().await;
    app.dispatch_outbox().await;
}

/// What the sandbox refunded for the booking's payment, in all.
async fn refunded_at_the_provider(app: &TestApp, booking: &str) -> i64 {
    app.scalar(&format!(
        "select cast(coalesce(sum(r.amount_cents), 0) as bigint) from sandbox_refund r
         join payment p on p.payment_intent_id = r.payment_intent_id where p.booking_id = '{booking}'"
    ))
    .await
}

async fn paid(app: &TestApp, booking: &str) -> i64 {
    app.scalar(&format!(
        "select amount_cents from payment where booking_id = '{booking}'"
    ))
    .await
}

async fn refunded_cents(app: &TestApp, booking: &str) -> i64 {
    app.scalar(&format!(
        "select refunded_cents from payment where booking_id = '{booking}'"
    ))
    .await
}

/// The mails to the booking's buyer about part refunds.
async fn part_mails(app: &TestApp, booking: &str) -> Vec<String> {
    sqlx::query_as::<_, (String,)>(
        "select body from mailbox where booking_id = $1 and dedupe_key like 'refunded-part-%' order by id",
    )
    .bind(booking)
    .fetch_all(app.state.db.reader())
    .await
    .unwrap()
    .into_iter()
    .map(|m| m.0)
    .collect()
}

on_both_backends!(
    part_refunds_add_up_to_what_was_paid_and_keep_the_ticket,
    |app: TestApp| async move {
        let seats = app.arena_seats().await;
        let (_, booking) = app
            .book(&seats[0..2], "ana@example.com", Delivery::Once)
            .await;
        let paid = paid(&app, &booking).await;
        let part = paid * 30 / 100;

        let given = give(&app, &booking, part, "Stage view blocked by a mast", true).await;
        assert_eq!(given.status, 201, "{}", given.text);
        let g = given.json();
        assert_eq!(g["amountCents"].as_i64(), Some(part));
        assert_eq!(g["state"], "asked");
        assert_eq!(g["leftCents"].as_i64(), Some(paid - part));
        settle(&app).await;
        assert_eq!(app.status_of(&booking).await, "BOOKED");
        assert_eq!(refunded_cents(&app, &booking).await, part);
        assert_eq!(refunded_at_the_provider(&app, &booking).await, part);
        let mails = part_mails(&app, &booking).await;
        assert_eq!(mails.len(), 1, "{mails:?}");
        assert!(
            mails[0].contains("Stage view blocked by a mast"),
            "{}",
            mails[0]
        );
        // The buyer's page shows what went back; the ticket stands.
        let listed = app.admin().get(&path(&booking)).await.json();
        assert_eq!(listed[0]["state"], "sent", "{listed}");
        assert_eq!(listed[0]["by"], "api-token");
        let history = app
            .admin()
            .get(&format!("/api/admin/bookings/{booking}/history"))
            .await
            .json();
        let rows = history.as_array().unwrap();
        let last = rows.last().unwrap();
        assert_eq!(last["refundCents"].as_i64(), Some(part), "{history}");
        assert_eq!(last["note"], "Stage view blocked by a mast");
        assert_eq!(
            (last["from"].clone(), last["to"].clone()),
            (json!("BOOKED"), json!("BOOKED"))
        );

        // While the ticket stands, some of the money stays.
        let all_left = give(&app, &booking, paid - part, "everything", false).await;
        assert_eq!(all_left.status, 422, "{}", all_left.text);
        assert_eq!(all_left.json()["error"]["fields"], json!(["amountCents"]));
        let most = give(&app, &booking, paid - part - 1, "goodwill", false).await;
        assert_eq!(most.status, 201, "{}", most.text);
        assert_eq!(most.json()["leftCents"].as_i64(), Some(1));
        settle(&app).await;
        assert_eq!(
            part_mails(&app, &booking).await.len(),
            1,
            "not told: no mail"
        );
        assert_eq!(refunded_cents(&app, &booking).await, paid - 1);

        // The booking's own refund gives back the last cent and frees its seats.
        app.refund_by_admin(&booking).await;
        settle(&app).await;
        assert_eq!(app.status_of(&booking).await, "REFUNDED");
        assert_eq!(refunded_at_the_provider(&app, &booking).await, paid);
        let nothing = give(&app, &booking, 1, "one more", false).await;
        assert_eq!(nothing.status, 422, "{}", nothing.text);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    the_rest_after_a_buyers_cancellation_can_be_refunded,
    |app: TestApp| async move {
        let seats = app.arena_seats().await;
        app.set_refund_policy(
            1,
            json!({ "fullRefundUntilDays": 30, "partialRefundUntilDays": 7, "partialRefundPercent": 50 }),
        )
        .await;
        let starts = app.scalar("select starts_at from event where id = 1").await;
        let now = holdfast_core::platform::clock::Clock::now(app.clock.as_ref()).ms();
        app.clock.advance_ms(starts - 10 * DAY_MS - now);
        let (buyer, booking) = app
            .book(&seats[0..2], "ana@example.com", Delivery::Once)
            .await;
        let paid = paid(&app, &booking).await;
        let cancelled = buyer
            .post(
                &format!("/api/bookings/{booking}/cancel"),
                Some(&common::new_key()),
                None,
            )
            .await;
        assert_eq!(cancelled.status, 200, "{}", cancelled.text);
        let kept = paid - cancelled.json()["refundCents"].as_i64().unwrap();
        assert!(kept > 0);
        // While the cancellation's refund is on its way, nothing more.
        let early = give(&app, &booking, 1, "too soon", false).await;
        assert_eq!(early.status, 409, "{}", early.text);
        settle(&app).await;
        assert_eq!(app.status_of(&booking).await, "REFUNDED");
        assert_eq!(refunded_cents(&app, &booking).await, paid - kept);

        let too_much = give(&app, &booking, kept + 1, "all of it", true).await;
        assert_eq!(too_much.status, 422, "{}", too_much.text);
        let rest = give(
            &app,
            &booking,
            kept,
            "The show was moved; all of it back",
            true,
        )
        .await;
        assert_eq!(rest.status, 201, "{}", rest.text);
        assert_eq!(rest.json()["leftCents"].as_i64(), Some(0));
        settle(&app).await;
        assert_eq!(refunded_at_the_provider(&app, &booking).await, paid);
        assert_eq!(refunded_cents(&app, &booking).await, paid);
        assert_eq!(part_mails(&app, &booking).await.len(), 1);
        let none_left = give(&app, &booking, 1, "again", false).await;
        assert_eq!(none_left.status, 422, "{}", none_left.text);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    part_refunds_asked_at_once_never_go_above_the_payment,
    |app: TestApp| async move {
        let seats = app.arena_seats().await;
        let (_, booking) = app
            .book(&seats[0..3], "ana@example.com", Delivery::Once)
            .await;
        let paid = paid(&app, &booking).await;
        let each = paid / 5;
        // Sixteen clicks at once, each a fifth: while the ticket stands at
        // least one minor unit stays, so as many as fit below the payment.
        let fit = ((paid - 1) / each).min(16);
        let asks = (0..16).map(|i| {
            let app = &app;
            let booking = booking.clone();
            async move { give(app, &booking, each, &format!("click {i}"), false).await }
        });
        let answers = join_all(asks).await;
        let given = answers.iter().filter(|a| a.status == 201).count() as i64;
        for a in answers.iter().filter(|a| a.status != 201) {
            assert_eq!(a.status, 422, "{}", a.text);
        }
        assert_eq!(
            given,
            fit,
            "{:?}",
            answers.iter().map(|a| a.status).collect::<Vec<_>>()
        );
        settle(&app).await;
        assert_eq!(refunded_at_the_provider(&app, &booking).await, fit * each);
        assert_eq!(refunded_cents(&app, &booking).await, fit * each);
        app.assert_invariants().await;

        // Cents asked at once with the booking's own refund, in any order:
        // the provider gets exactly what was paid, never more.
        let (_, other) = app
            .book(&seats[3..4], "bo@example.com", Delivery::Once)
            .await;
        let other_paid = self::paid(&app, &other).await;
        let mut racers: Vec<
            std::pin::Pin<Box<dyn std::future::Future<Output = Answer> + Send + '_>>,
        > = (0..8)
            .map(|i| {
                let app = &app;
                let other = other.clone();
                Box::pin(async move { give(app, &other, 1, &format!("cent {i}"), false).await })
                    as std::pin::Pin<Box<dyn std::future::Future<Output = Answer> + Send + '_>>
            })
            .collect();
        let full = format!("/api/admin/bookings/{other}/refund");
        let admin = app.admin();
        racers.insert(
            4,
            Box::pin(async move { admin.post(&full, None, None).await }),
        );
        for a in join_all(racers).await {
            assert!(
                [200, 201, 409, 422].contains(&a.status.as_u16()),
                "{} {}",
                a.status,
                a.text
            );
        }
        settle(&app).await;
        settle(&app).await;
        assert_eq!(app.status_of(&other).await, "REFUNDED");
        assert_eq!(refunded_at_the_provider(&app, &other).await, other_paid);
        assert_eq!(refunded_cents(&app, &other).await, other_paid);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    strangers_bad_bodies_and_other_sites_change_nothing,
    |app: TestApp| async move {
        let seats = app.arena_seats().await;
        let (buyer, booking) = app
            .book(&seats[0..1], "ana@example.com", Delivery::Once)
            .await;
        let body = json!({ "amountCents": 100, "reason": "mine", "notifyBuyer": false });
        // The buyer's own session and no credentials at all.
        for who in [&buyer, &app.buyer()] {
            let r = who.post(&path(&booking), None, Some(body.clone())).await;
            assert_eq!(r.status, 401, "{}", r.text);
        }
        // A forged bearer token.
        let forged = app.client_with(&[("Authorization", "Bearer not-the-token")]);
        let r = forged.post(&path(&booking), None, Some(body.clone())).await;
        assert!([401, 403].contains(&r.status.as_u16()), "{}", r.text);
        // Bodies that say nothing sensible.
        let bad: [(Value, u16, &str); 6] = [
            (
                json!({ "amountCents": 0, "reason": "x", "notifyBuyer": true }),
                422,
                "amountCents",
            ),
            (
                json!({ "amountCents": -500, "reason": "x", "notifyBuyer": true }),
                422,
                "amountCents",
            ),
            (
                json!({ "amountCents": 100, "reason": "   ", "notifyBuyer": true }),
                422,
                "reason",
            ),
            (
                json!({ "amountCents": 100, "reason": "x".repeat(501), "notifyBuyer": true }),
                422,
                "reason",
            ),
            (
                json!({ "amountCents": 100, "reason": "x" }),
                422,
                "notifyBuyer",
            ),
            (
                json!({ "amountCents": 100, "reason": "x", "notifyBuyer": true, "refundTo": "attacker" }),
                400,
                "refundTo",
            ),
        ];
        for (body, status, field) in bad {
            let r = app
                .admin()
                .post(&path(&booking), None, Some(body.clone()))
                .await;
            assert_eq!(r.status, status, "{body}: {}", r.text);
            assert!(r.text.contains(field), "{body}: {}", r.text);
        }
        // Another booking's id that does not exist; a hold that was never paid.
        let unknown = "00000000-0000-4000-8000-000000000000";
        let r = app
            .admin()
            .post(&path(unknown), None, Some(body.clone()))
            .await;
        assert_eq!(r.status, 404, "{}", r.text);
        let held = app.buyer().held_booking(1, seats[5]).await;
        let r = app
            .admin()
            .post(&path(&held), None, Some(body.clone()))
            .await;
        assert_eq!(r.status, 409, "{}", r.text);
        // The console's own cookie, sent from another site.
        let console = app.buyer();
        let signed = console
            .post(
                "/api/admin/login",
                None,
                Some(json!({ "password": holdfast::server::config::TEST_ADMIN_PASSWORD })),
            )
            .await;
        assert_eq!(signed.status, 200, "{}", signed.text);
        let cross = console
            .http
            .post(format!("{}{}", app.base, path(&booking)))
            .header("Origin", "https://evil.example")
            .header("Sec-Fetch-Site", "cross-site")
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(cross.status(), 403);
        // A GET lists, it never gives.
        let listed = console.get(&path(&booking)).await;
        assert_eq!(listed.status, 200, "{}", listed.text);
        assert_eq!(listed.json(), json!([]));
        assert_eq!(app.scalar("select count(*) from refund_part").await, 0);
        assert_eq!(app.scalar("select count(*) from sandbox_refund").await, 0);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    the_canary_sees_money_given_back_beyond_the_payment,
    |app: TestApp| async move {
        let seats = app.arena_seats().await;
        let (_, booking) = app
            .book(&seats[0..1], "ana@example.com", Delivery::Once)
            .await;
        let paid = paid(&app, &booking).await;
        assert_eq!(
            give(&app, &booking, paid - 1, "most", false).await.status,
            201
        );
        settle(&app).await;
        app.assert_invariants().await;
        // A second refund at the provider past the payment, as a defect
        // that forgot the first would send.
        app.tamper(
            "insert into sandbox_refund (id, idempotency_key, payment_intent_id, amount_cents, created_at)
             select 're_twice', 'twice', payment_intent_id, 2, 0 from payment where booking_id = $1",
            &booking,
        )
        .await;
        let found = app.invariants().await;
        assert!(
            found
                .iter()
                .any(|v| v.contains(&format!("was refunded {} of the {paid} paid", paid + 1))),
            "{found:?}"
        );
        // …and a part asked past what is left, as a defect in the limit would.
        app.tamper(
            "insert into refund_part (id, booking_id, amount_cents, currency, reason, notify_buyer, actor, created_at)
             select 'rp_over', booking_id, 5, currency, 'over', 0, 'test', 0 from payment where booking_id = $1",
            &booking,
        )
        .await;
        app.assert_violation(&booking, "gave back").await;
    }
);
