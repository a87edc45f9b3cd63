//! Buyers who come back, on SQLite and Postgres: sign-in links (single
//! use, expiry, limits, stored hashed), bookings that follow the account
//! across sessions, the per-buyer limit per account under concurrent
//! holds from five sessions, and self-service cancellation refunding the
//! policy's amount exactly once while an admin's refund and a late webhook
//! race it.

use crate::common;

use common::{new_key, Buyer, TestApp};
use futures::future::join_all;
use holdfast_app::core::payments::sandbox::Delivery;
use serde_json::json;

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// Asks for a sign-in link to `email`.
async fn ask_for_link(buyer: &Buyer, email: impl Into<String>) -> common::Answer {
    let email: String = email.into();
    buyer
        .post(
            "/api/auth/email-link",
            None,
            Some(json!({ "email": email })),
        )
        .await
}

/// Asks for a link to `email` and hands it out: the `/auth/…` path read
/// from the mailbox through the admin API.
async fn link_for(app: &TestApp, asker: &Buyer, email: &str) -> String {
    let asked = ask_for_link(asker, email).await;
    assert_eq!(asked.status, 202, "{}", asked.text);
    app.dispatch_outbox().await;
    latest_link(app, email)
        .await
        .expect("a sign-in link was mailed")
}

/// The newest sign-in link mailed to `email`, if any.
async fn latest_link(app: &TestApp, email: &str) -> Option<String> {
    let mail = app
        .admin()
        .get(&format!("/api/admin/mailbox?recipient={email}"))
        .await;
    assert_eq!(mail.status, 200, "{}", mail.text);
    let mails = mail.json();
    let body = mails.as_array()?.first()?["body"].as_str()?.to_string();
    let at = body.find("/auth/")?;
    Some(body[at..].split_whitespace().next()?.to_string())
}

async fn mails_to(app: &TestApp, email: &str) -> usize {
    let mail = app
        .admin()
        .get(&format!("/api/admin/mailbox?recipient={email}"))
        .await;
    mail.json().as_array().map_or(0, Vec::len)
}

/// A buyer (new session) signed in to `email`.
async fn signed_in(app: &TestApp, email: &str) -> Buyer {
    let buyer = app.buyer();
    let link = link_for(app, &buyer, email).await;
    let opened = buyer.get(&link).await;
    assert_eq!(opened.status, 200, "the link leads to the bookings page");
    assert_eq!(whoami(&buyer).await, Some(email.to_string()));
    buyer
}

async fn whoami(buyer: &Buyer) -> Option<String> {
    let me = buyer.get("/api/auth/session").await;
    assert_eq!(me.status, 200, "{}", me.text);
    me.json()["email"].as_str().map(str::to_string)
}

async fn listed(buyer: &Buyer) -> Vec<String> {
    let mine = buyer.get("/api/bookings").await;
    assert_eq!(mine.status, 200, "{}", mine.text);
    mine.json()
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_str().unwrap().to_string())
        .collect()
}

on_both_backends!(
    sign_in_links_are_single_use_short_lived_and_hashed,
    |app: TestApp| async move {
        let phone = app.buyer();
        let link = link_for(&app, &phone, "Ana@Example.com").await;
        let token = link.trim_start_matches("/auth/");
        assert_eq!(token.len(), 64);
        // Only its hash is kept.
        let stored: Vec<(String,)> = sqlx::query_as("select token_hash from sign_in_link")
            .fetch_all(app.state.db.reader())
            .await
            .unwrap();
        assert!(stored.iter().all(|(h,)| h != token));

        let laptop = app.buyer();
        assert_eq!(whoami(&laptop).await, None);
        assert_eq!(laptop.get(&link).await.status, 200);
        assert_eq!(whoami(&laptop).await.as_deref(), Some("ana@example.com"));

        // Once only, from anywhere.
        let again = app.buyer().get(&link).await;
        assert_eq!(again.status, 410);
        assert!(again.text.contains("already used"), "{}", again.text);
        // Mistyped.
        let unknown = app.buyer().get(&format!("/auth/{}", "0".repeat(64))).await;
        assert_eq!(unknown.status, 410);
        assert!(unknown.text.contains("not valid"), "{}", unknown.text);
        // Fifteen minutes, then no more.
        let late = link_for(&app, &phone, "ana@example.com").await;
        app.clock.advance_ms(15 * 60 * 1000);
        let expired = app.buyer().get(&late).await;
        assert_eq!(expired.status, 410);
        assert!(expired.text.contains("expired"), "{}", expired.text);

        // Signing out: the session is a stranger again.
        let out = laptop.post("/api/auth/sign-out", None, None).await;
        assert_eq!(out.status, 200, "{}", out.text);
        assert_eq!(whoami(&laptop).await, None);

        // Bad input changes nothing and says what is wrong.
        let bad = ask_for_link(&phone, "ana at example").await;
        assert_eq!(bad.status, 422, "{}", bad.text);
        assert_eq!(bad.json()["error"]["fields"][0], "email", "{}", bad.text);
    }
);

on_both_backends!(
    sign_in_links_are_limited_per_address_and_per_client,
    |app: TestApp| async move {
        let asker = app.buyer();
        // Three to one address per window; the fourth is answered alike and not sent.
        for _ in 0..4 {
            let asked = ask_for_link(&asker, "bo@example.com").await;
            assert_eq!(asked.status, 202, "{}", asked.text);
        }
        app.dispatch_outbox().await;
        assert_eq!(mails_to(&app, "bo@example.com").await, 3);
        // Ten from one client per window, whatever the addresses.
        let mut refused = 0;
        for i in 0..10 {
            let asked = ask_for_link(&asker, format!("n{i}@example.com")).await;
            if asked.status == 429 {
                assert_eq!(asked.code(), "RATE_LIMITED");
                refused += 1;
            }
        }
        assert_eq!(refused, 4, "4 + 6 links, then 429");
        // The window moves on.
        app.clock.advance_ms(15 * 60 * 1000 + 1);
        let asked = ask_for_link(&asker, "bo@example.com").await;
        assert_eq!(asked.status, 202, "{}", asked.text);
    }
);

on_both_backends!(
    bookings_follow_the_account_and_stay_private,
    |app: TestApp| async move {
        let seats = app.arena_seats().await;
        // Booked as a guest on a phone, paid with ana's address.
        let (phone, paid_booking) = app
            .book(&seats[0..2], "ana@example.com", Delivery::Once)
            .await;
        // A guest on a laptop holds a seat, then signs in there: the hold comes along.
        let laptop = app.buyer();
        let held = laptop.held_booking(1, seats[5]).await;
        let link = link_for(&app, &laptop, "ana@example.com").await;
        assert_eq!(laptop.get(&link).await.status, 200);
        let mine = listed(&laptop).await;
        assert!(
            mine.contains(&paid_booking),
            "paid with the address: {mine:?}"
        );
        assert!(mine.contains(&held), "the guest's hold: {mine:?}");
        let shown = laptop.get(&format!("/api/bookings/{paid_booking}")).await;
        assert_eq!(shown.status, 200, "{}", shown.text);
        assert_eq!(shown.json()["status"], "BOOKED");
        // The sign-in mail listed the booking too.
        let mail = app
            .admin()
            .get("/api/admin/mailbox?recipient=ana@example.com")
            .await
            .json();
        let bodies: Vec<&str> = mail
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|m| m["body"].as_str())
            .collect();
        assert!(
            bodies
                .iter()
                .any(|b| b.contains(&format!("/bookings/{paid_booking}"))),
            "{bodies:?}"
        );

        // A second device signed in to the account sees the same.
        let tablet = signed_in(&app, "ana@example.com").await;
        let on_tablet = listed(&tablet).await;
        assert!(on_tablet.contains(&paid_booking) && on_tablet.contains(&held));
        // …and the phone, still a guest, keeps its own booking.
        assert!(listed(&phone).await.contains(&paid_booking));

        // Another account sees none of it and can change none of it.
        let bo = signed_in(&app, "bo@example.com").await;
        assert!(listed(&bo).await.is_empty());
        for id in [&paid_booking, &held] {
            assert_eq!(bo.get(&format!("/api/bookings/{id}")).await.status, 404);
            let cancel = bo
                .post(
                    &format!("/api/bookings/{id}/cancel"),
                    Some(&new_key()),
                    None,
                )
                .await;
            assert_eq!(cancel.status, 404, "{}", cancel.text);
            assert_eq!(bo.delete(&format!("/api/bookings/{id}")).await.status, 404);
        }
        assert_eq!(app.status_of(&held).await, "HELD");
        assert_eq!(app.status_of(&paid_booking).await, "BOOKED");
        // The held one is the account's to release from any of its sessions.
        let released = tablet.delete(&format!("/api/bookings/{held}")).await;
        assert_eq!(released.status, 200, "{}", released.text);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    the_limit_counts_per_account_across_sessions,
    |app: TestApp| async move {
        let seats = app.arena_seats().await;
        let mut sessions = Vec::new();
        for i in 0..5 {
            if i == 3 {
                // Three links a window to one address.
                app.clock.advance_ms(15 * 60 * 1000 + 1);
            }
            sessions.push(signed_in(&app, "cy@example.com").await);
        }
        // 20 single-seat holds at once, four from each session, on distinct seats.
        let attempts = (0..20).map(|i| {
            let buyer = &sessions[i % 5];
            let seat = seats[10 + i];
            async move { buyer.hold(1, seat).await }
        });
        let answers = join_all(attempts).await;
        let held = answers.iter().filter(|a| a.status == 200).count();
        for a in answers.iter().filter(|a| a.status != 200) {
            assert_eq!(a.code(), "LIMIT_EXCEEDED", "{}", a.text);
        }
        assert_eq!(held, 10, "MAX_PLACES_PER_BUYER is the account's");
        let (buyer,): (String,) =
            sqlx::query_as("select buyer_id from account where email = 'cy@example.com'")
                .fetch_one(app.state.db.reader())
                .await
                .unwrap();
        let places = app
            .scalar(&format!(
                "select count(*) from booking_seat bs join booking b on b.id = bs.booking_id
             where b.buyer_id = '{buyer}' and b.status = 'HELD'"
            ))
            .await;
        assert_eq!(places, 10);
        // A guest session is its own buyer: its limit is its own.
        let guest = app.buyer();
        assert_eq!(guest.hold(1, seats[40]).await.status, 200);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_guests_holds_brought_to_the_account_count_against_its_limit,
    |app: TestApp| async move {
        let seats = app.arena_seats().await;
        let phone = signed_in(&app, "dee@example.com").await;
        for &seat in &seats[0..4] {
            assert_eq!(phone.hold(1, seat).await.status, 200);
        }
        // A guest on a laptop holds six, then signs in: ten for the account.
        let laptop = app.buyer();
        for &seat in &seats[4..10] {
            assert_eq!(laptop.hold(1, seat).await.status, 200);
        }
        let link = link_for(&app, &laptop, "dee@example.com").await;
        assert_eq!(laptop.get(&link).await.status, 200);
        assert_eq!(listed(&phone).await.len(), 10);
        for buyer in [&phone, &laptop] {
            let one_more = buyer.hold(1, seats[10]).await;
            assert_eq!(one_more.code(), "LIMIT_EXCEEDED", "{}", one_more.text);
        }
        app.assert_invariants().await;
    }
);

/// One of the requests racing a cancellation: who, and the status it got.
type Racer<'a> = std::pin::Pin<Box<dyn std::future::Future<Output = (&'a str, u16)> + Send + 'a>>;

/// The amounts the sandbox refunded for the booking's payment.
async fn refunds_at_the_sandbox(app: &TestApp, booking: &str) -> Vec<(i64,)> {
    sqlx::query_as(
        "select r.amount_cents from sandbox_refund r join payment p on p.payment_intent_id = r.payment_intent_id
         where p.booking_id = $1",
    )
    .bind(booking)
    .fetch_all(app.state.db.reader())
    .await
    .unwrap()
}

/// Sets event 1's policy: in full until 30 days before, half until 7.
async fn half_after_a_month(app: &TestApp) {
    let set = app
        .admin()
        .send(
            reqwest::Method::PUT,
            "/api/admin/events/1/refund-policy",
            &[],
            Some(json!({ "fullRefundUntilDays": 30, "partialRefundUntilDays": 7, "partialRefundPercent": 50 })),
        )
        .await;
    assert_eq!(set.status, 200, "{}", set.text);
}

/// Moves the clock to `days` before event 1 starts.
async fn days_before_start(app: &TestApp, days: i64) {
    let starts = app.scalar("select starts_at from event where id = 1").await;
    let now = holdfast_app::core::platform::clock::Clock::now(app.clock.as_ref()).ms();
    app.clock.advance_ms(starts - days * DAY_MS - now);
}

/// ana books `seats` (paying on the sandbox's page); the signed events of
/// the payment are returned undelivered-again for a late replay.
async fn booked_by_ana(app: &TestApp, seats: &[i64]) -> (String, Vec<String>) {
    let (_, booking, paid) = app.hold_and_pay(seats).await;
    app.pay_on_sandbox(&paid, "ana@example.com", Delivery::Once)
        .await;
    let events: Vec<(String,)> =
        sqlx::query_as("select body from sandbox_delivery where delivered_at is null order by id")
            .fetch_all(app.state.db.reader())
            .await
            .unwrap();
    app.deliver_events().await;
    assert_eq!(app.status_of(&booking).await, "BOOKED");
    (booking, events.into_iter().map(|e| e.0).collect())
}

on_both_backends!(
    cancelling_refunds_the_policy_amount_once,
    |app: TestApp| async move {
        let seats = app.arena_seats().await;
        let (booking, _) = booked_by_ana(&app, &seats[0..2]).await;
        let ana = signed_in(&app, "ana@example.com").await;
        let path = format!("/api/bookings/{booking}/cancel");

        // No policy: no cancelling.
        let refused = ana.post(&path, Some(&new_key()), None).await;
        assert_eq!(refused.status, 409, "{}", refused.text);
        half_after_a_month(&app).await;
        // Too late: a day before.
        days_before_start(&app, 1).await;
        let shown = ana.get(&format!("/api/bookings/{booking}")).await.json();
        assert!(shown.get("cancelRefundCents").is_none(), "{shown}");
        let refused = ana.post(&path, Some(&new_key()), None).await;
        assert_eq!(refused.status, 409, "{}", refused.text);
        assert_eq!(app.status_of(&booking).await, "BOOKED");
        // A policy that does not hold together is refused on its field.
        let bad = app
            .admin()
            .send(
                reqwest::Method::PUT,
                "/api/admin/events/1/refund-policy",
                &[],
                Some(json!({ "partialRefundUntilDays": 7, "partialRefundPercent": 100 })),
            )
            .await;
        assert_eq!(bad.status, 422, "{}", bad.text);

        // Ten days before: half back. The page states it; the answer too.
        let other = booked_by_ana(&app, &seats[2..3]).await.0;
        days_before_start(&app, 10).await;
        let amount = ana.get(&format!("/api/bookings/{other}")).await.json()["amountCents"]
            .as_i64()
            .unwrap();
        let shown = ana.get(&format!("/api/bookings/{booking}")).await.json();
        let paid = shown["amountCents"].as_i64().unwrap();
        assert_eq!(
            shown["cancelRefundCents"].as_i64(),
            Some(paid / 2),
            "{shown}"
        );
        let key = new_key();
        let cancelled = ana.post(&path, Some(&key), None).await;
        assert_eq!(cancelled.status, 200, "{}", cancelled.text);
        assert_eq!(cancelled.json()["status"], "CANCELLED");
        assert_eq!(cancelled.json()["refundCents"].as_i64(), Some(paid / 2));
        // Asked again with the key: the same answer, nothing more.
        let replay = ana.post(&path, Some(&key), None).await;
        assert_eq!(replay.text, cancelled.text);
        // The seats are free at once.
        let free = app
            .scalar(&format!(
                "select count(*) from booking_seat bs join booking b on b.id = bs.booking_id
             where b.status in ('HELD', 'PAYMENT_PENDING', 'BOOKED') and bs.seat_id in ({}, {})",
                seats[0], seats[1]
            ))
            .await;
        assert_eq!(free, 0);
        app.dispatch_outbox().await;
        app.deliver_events().await;
        app.dispatch_outbox().await;
        assert_eq!(app.status_of(&booking).await, "REFUNDED");
        let refunds = refunds_at_the_sandbox(&app, &booking).await;
        assert_eq!(refunds, vec![(paid / 2,)]);
        let refunded = app
            .scalar(&format!(
                "select refunded_cents from payment where booking_id = '{booking}'"
            ))
            .await;
        assert_eq!(refunded, paid / 2);
        let said: Vec<(String,)> = sqlx::query_as(
            "select body from mailbox where booking_id = $1 and dedupe_key like 'refunded-%'",
        )
        .bind(&booking)
        .fetch_all(app.state.db.reader())
        .await
        .unwrap();
        assert_eq!(said.len(), 1);
        assert!(said[0].0.contains("You cancelled"), "{}", said[0].0);
        assert!(amount > 0);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_cancellation_racing_an_admin_refund_and_a_late_webhook_refunds_once,
    |app: TestApp| async move {
        let seats = app.arena_seats().await;
        half_after_a_month(&app).await;
        days_before_start(&app, 10).await;
        let ana = signed_in(&app, "ana@example.com").await;
        for round in 0..6 {
            let (booking, events) = booked_by_ana(&app, &seats[round * 2..round * 2 + 2]).await;
            let paid = app
                .scalar(&format!(
                    "select amount_cents from payment where booking_id = '{booking}'"
                ))
                .await;
            let path = format!("/api/bookings/{booking}/cancel");
            let key = new_key();
            let admin = app.admin();
            let admin_path = format!("/api/admin/bookings/{booking}/refund");
            // Everything at once, in an order that differs per round.
            let mut racers: Vec<Racer<'_>> = vec![
                Box::pin(async {
                    (
                        "cancel",
                        ana.post(&path, Some(&key), None).await.status.as_u16(),
                    )
                }),
                Box::pin(async {
                    (
                        "cancel",
                        ana.post(&path, Some(&key), None).await.status.as_u16(),
                    )
                }),
                Box::pin(async {
                    (
                        "cancel-other-key",
                        ana.post(&path, Some(&new_key()), None)
                            .await
                            .status
                            .as_u16(),
                    )
                }),
                Box::pin(async {
                    (
                        "admin",
                        admin.post(&admin_path, None, None).await.status.as_u16(),
                    )
                }),
            ];
            for body in &events {
                let body = body.clone();
                let app = &app;
                racers.push(Box::pin(async move {
                    (
                        "webhook",
                        app.post_webhook(&body, Some(app.sign(&body)))
                            .await
                            .status
                            .as_u16(),
                    )
                }));
            }
            racers.rotate_left(round % 4);
            let answers = join_all(racers).await;
            for (who, status) in &answers {
                assert!([200, 409].contains(status), "{who}: {status}");
            }
            let buyer_won = answers
                .iter()
                .any(|(who, s)| who.starts_with("cancel") && *s == 200);
            app.dispatch_outbox().await;
            app.deliver_events().await;
            app.dispatch_outbox().await;
            let refunds = refunds_at_the_sandbox(&app, &booking).await;
            let expected = if buyer_won { paid / 2 } else { paid };
            assert_eq!(refunds, vec![(expected,)], "round {round}: {answers:?}");
            assert_eq!(app.status_of(&booking).await, "REFUNDED");
            app.assert_invariants().await;
        }
    }
);
