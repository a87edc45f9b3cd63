//! Buyers who come back, on SQLite and Postgres: sign-in links (single
//! use, expiry, limits, stored hashed), bookings that follow the account
//! across sessions, the per-buyer limit per account under concurrent
//! holds from five sessions, and self-service cancellation refunding the
//! policy's amount exactly once while an admin's refund and a late webhook
//! race it.

use crate::common;

use common::{new_key, Buyer, TestApp};
use futures::future::join_all;
use holdfast_core::payments::sandbox::Delivery;
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
    let opened = buyer.open_sign_in_link(&link, false).await;
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
        // Opening the link only asks; nothing is used until confirmed.
        let asked = laptop.get(&link).await;
        assert_eq!(asked.status, 200);
        assert!(asked.text.contains("a•••@example.com"), "{}", asked.text);
        assert!(
            !asked.text.contains("ana@example.com"),
            "the address is masked"
        );
        assert_eq!(whoami(&laptop).await, None);
        assert_eq!(laptop.open_sign_in_link(&link, false).await.status, 200);
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
        assert_eq!(laptop.open_sign_in_link(&link, false).await.status, 200);
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
        assert_eq!(laptop.open_sign_in_link(&link, false).await.status, 200);
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
    app.set_refund_policy(
        1,
        json!({ "fullRefundUntilDays": 30, "partialRefundUntilDays": 7, "partialRefundPercent": 50 }),
    )
    .await;
}

/// Moves the clock to `days` before event 1 starts.
async fn days_before_start(app: &TestApp, days: i64) {
    let starts = app.scalar("select starts_at from event where id = 1").await;
    let now = holdfast_core::platform::clock::Clock::now(app.clock.as_ref()).ms();
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

// Login CSRF: a link the attacker asked for, sent to the victim's browser
// from another site, signs nobody in on the GET, is refused as a
// cross-site POST, and — even confirmed by the victim — takes none of the
// victim's guest bookings into the attacker's account unless the victim
// ticks the box.
on_both_backends!(
    a_link_someone_else_asked_for_takes_no_bookings_without_the_persons_word,
    |app: TestApp| async move {
        let seats = app.arena_seats().await;
        // The victim, a guest, holds two seats.
        let victim = app.buyer();
        let held = victim.held_booking(1, seats[0]).await;
        // The attacker asks for a link to their own (new) address.
        let attacker = app.buyer();
        let link = link_for(&app, &attacker, "mallory@example.com").await;
        // Another site sends the victim's browser to it: a GET changes nothing.
        let cross_site_get = victim
            .send(
                reqwest::Method::GET,
                &link,
                &[("sec-fetch-site", "cross-site")],
                None,
            )
            .await;
        assert_eq!(cross_site_get.status, 200);
        assert!(
            cross_site_get.text.contains("m•••@example.com"),
            "{}",
            cross_site_get.text
        );
        assert_eq!(whoami(&victim).await, None, "a GET signs nobody in");
        // A form on the other site posting it is refused.
        let forged = victim
            .http
            .post(format!("{}{link}", victim.base))
            .header("sec-fetch-site", "cross-site")
            .header("origin", "https://evil.example")
            .form(&[("bring", "1")])
            .send()
            .await
            .unwrap();
        assert_eq!(forged.status(), 403);
        assert_eq!(whoami(&victim).await, None);
        // Fooled into confirming (without ticking the box): signed in to the
        // attacker's account, but the guest's hold stays the guest's.
        let confirmed = victim.open_sign_in_link(&link, false).await;
        assert_eq!(confirmed.status, 200, "{}", confirmed.text);
        assert_eq!(
            whoami(&victim).await.as_deref(),
            Some("mallory@example.com")
        );
        let on_attackers_device = signed_in(&app, "mallory@example.com").await;
        assert!(
            !listed(&on_attackers_device).await.contains(&held),
            "the victim's hold did not move into the attacker's account"
        );
        let read = on_attackers_device
            .get(&format!("/api/bookings/{held}"))
            .await;
        assert_eq!(read.status, 404, "{}", read.text);
        // A person who does want them ticks the box: another device's link,
        // this browser's bookings come along.
        let phone = app.buyer();
        let kept = phone.held_booking(1, seats[1]).await;
        let laptop = app.buyer();
        let link = link_for(&app, &laptop, "ana@example.com").await;
        assert_eq!(phone.open_sign_in_link(&link, true).await.status, 200);
        let elsewhere = signed_in(&app, "ana@example.com").await;
        assert!(listed(&elsewhere).await.contains(&kept));
        app.assert_invariants().await;
    }
);

// Forty asks at once for one address: the per-address limit (3 mails)
// and the per-client one (10 asks) hold however they interleave.
on_both_backends!(
    sign_in_link_limits_hold_under_parallel_asks,
    |app: TestApp| async move {
        let asker = app.buyer();
        let asks = (0..40).map(|_| ask_for_link(&asker, "rush@example.com"));
        let answers = join_all(asks).await;
        let accepted = answers.iter().filter(|a| a.status == 202).count();
        let refused = answers.iter().filter(|a| a.status == 429).count();
        assert_eq!(accepted + refused, 40, "only 202 or 429");
        assert_eq!(accepted, 10, "ten asks per client per window");
        app.dispatch_outbox().await;
        assert_eq!(mails_to(&app, "rush@example.com").await, 3);
    }
);

// Reads without a session (no cookie) make no session rows.
on_both_backends!(
    reads_without_a_cookie_make_no_sessions,
    |app: TestApp| async move {
        let before = app.scalar("select count(*) from session").await;
        for _ in 0..50 {
            let stranger = reqwest::Client::new();
            let r = stranger
                .get(format!("{}/api/bookings", app.base))
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 200);
            assert!(r.headers().get("set-cookie").is_none());
            let r = stranger
                .get(format!(
                    "{}/api/bookings/00000000-0000-4000-8000-000000000000",
                    app.base
                ))
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 404);
        }
        assert_eq!(app.scalar("select count(*) from session").await, before);
    }
);

// Signing out on one instance signs the old cookie out on every other,
// even one that served it a moment before.
on_both_backends!(
    a_sign_out_reaches_every_instance,
    |app: TestApp| async move {
        let jar = std::sync::Arc::new(reqwest::cookie::Jar::default());
        let buyer = Buyer {
            base: app.base.clone(),
            http: reqwest::Client::builder()
                .cookie_provider(jar.clone())
                .build()
                .unwrap(),
        };
        let link = link_for(&app, &buyer, "sam@example.com").await;
        assert_eq!(buyer.open_sign_in_link(&link, false).await.status, 200);
        let url: reqwest::Url = app.base.parse().unwrap();
        let cookie = reqwest::cookie::CookieStore::cookies(&*jar, &url).expect("a session cookie");
        // The same cookie, kept by someone, on a second instance.
        let other = common::spawn_on(&app.database_url, None, |_| {}).await;
        let mut headers = reqwest::header::HeaderMap::new();
        headers.insert(reqwest::header::COOKIE, cookie);
        let old = Buyer {
            base: other.base.clone(),
            http: reqwest::Client::builder()
                .default_headers(headers)
                .build()
                .unwrap(),
        };
        assert_eq!(whoami(&old).await.as_deref(), Some("sam@example.com"));
        let out = buyer.post("/api/auth/sign-out", None, None).await;
        assert_eq!(out.status, 200, "{}", out.text);
        assert_eq!(
            whoami(&old).await,
            None,
            "signed out on the other instance too"
        );
    }
);

// Links are purged a day after they stopped working, with the address
// and client they name.
on_both_backends!(dead_sign_in_links_are_purged, |app: TestApp| async move {
    let asker = app.buyer();
    assert_eq!(ask_for_link(&asker, "old@example.com").await.status, 202);
    let clock = || holdfast_core::platform::clock::Clock::now(app.clock.as_ref());
    let now = clock();
    let purge = holdfast_core::account::link::purge_expired;
    purge(&app.state.db, now).await.unwrap();
    assert_eq!(app.scalar("select count(*) from sign_in_link").await, 1);
    app.clock.advance_ms(DAY_MS + 16 * 60 * 1000);
    let now = clock();
    assert!(purge(&app.state.db, now).await.unwrap() >= 1);
    assert_eq!(app.scalar("select count(*) from sign_in_link").await, 0);
    assert_eq!(app.scalar("select count(*) from sign_in_quota").await, 0);
});

// A sign-in ends thirty days after it began, however active the session
// (a stolen cookie does not live for ever by being used).
on_both_backends!(
    a_sign_in_ends_after_its_time_however_active,
    |app: TestApp| async move {
        let seats = app.arena_seats().await;
        let buyer = signed_in(&app, "ivy@example.com").await;
        let held = buyer.held_booking(1, seats[3]).await;
        let rows: Vec<(String, Vec<u8>)> = sqlx::query_as("select id, data from session")
            .fetch_all(app.state.db.reader())
            .await
            .unwrap();
        let (id, data) = rows
            .into_iter()
            .find(|(_, d)| String::from_utf8_lossy(d).contains("ivy@example.com"))
            .expect("the signed-in session");
        // The record is edited as text: its expiry is a number JSON values
        // would not keep exactly.
        let text = String::from_utf8(data).unwrap();
        let key = "\"signed_in_until\":";
        let at = text.find(key).expect("an end") + key.len();
        let digits = text[at..].find(|c: char| !c.is_ascii_digit()).unwrap();
        let until: i64 = text[at..at + digits].parse().unwrap();
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64;
        let thirty_days = 30 * DAY_MS;
        assert!(
            (until - now - thirty_days).abs() < 60_000,
            "ends 30 days on"
        );
        // Thirty days later (the end moved to the past), still in use.
        let ended = format!("{}{}{}", &text[..at], now - 1, &text[at + digits..]);
        sqlx::query("update session set data = $2 where id = $1")
            .bind(&id)
            .bind(ended.into_bytes())
            .execute(app.state.db.writer())
            .await
            .unwrap();
        assert_eq!(whoami(&buyer).await, None);
        assert!(!listed(&buyer).await.contains(&held), "a stranger again");
    }
);

on_both_backends!(
    the_sign_in_page_says_where_the_link_went,
    |app: TestApp| async move {
        let buyer = app.buyer();
        let sent = buyer
            .http
            .post(format!("{}/sign-in", app.base))
            .form(&[("email", "kari+tickets@example.com")])
            .send()
            .await
            .unwrap();
        assert_eq!(sent.status(), 200);
        assert_eq!(sent.url().path(), "/sign-in");
        let page = sent.text().await.unwrap();
        assert!(
            page.contains("If kari+tickets@example.com can receive mail"),
            "{page}"
        );
        // The address lives in the asking browser's session, not in the
        // page's address: another browser on the same URL is not told it.
        let other = app.buyer().get("/sign-in?sent=1").await;
        assert!(!other.text.contains("kari+tickets@example.com"));
        assert!(other.text.contains("a sign-in link is on its way"));
    }
);

on_both_backends!(
    a_checkout_that_asked_no_address_mails_the_account_signed_in,
    |app: TestApp| async move {
        let email = "no-address@example.com";
        let buyer = signed_in(&app, email).await;
        let (booking, paid) = buyer.hold_and_pay(&[61]).await;
        // Paid by a caller that gave no address (an API client of the
        // sandbox; Stripe's page always asks).
        app.pay_on_sandbox(
            &paid,
            None,
            holdfast_core::payments::sandbox::Delivery::Once,
        )
        .await;
        app.deliver_events().await;
        assert_eq!(app.status_of(&booking).await, "BOOKED");
        let before = mails_to(&app, email).await;
        app.dispatch_outbox().await;
        assert_eq!(
            mails_to(&app, email).await,
            before + 1,
            "the confirmation went to the account's address"
        );
        let stray = app
            .scalar("select count(*) from mailbox where recipient like 'buyer:%'")
            .await;
        assert_eq!(stray, 0, "no mail addressed to a buyer id");
    }
);

/// The header's question, as the page asks it after hydration: the
/// server function that says which address this browser is signed in to.
async fn header_asks(buyer: &Buyer, headers: &[(&str, &str)]) -> (reqwest::StatusCode, String) {
    let path = leptos::server_fn::axum::server_fn_paths()
        .map(|(path, _)| path.to_string())
        .find(|p| {
            p.strip_prefix("/api/signed_in_email")
                .is_some_and(|hash| hash.bytes().all(|b| b.is_ascii_digit()))
        })
        .expect("signed_in_email is registered");
    let mut req = buyer
        .http
        .post(format!("{}{path}", buyer.base))
        .header("content-type", "application/x-www-form-urlencoded");
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    let answer = req.send().await.expect("server function");
    (answer.status(), answer.text().await.unwrap())
}

on_both_backends!(
    the_header_tells_a_browser_only_its_own_address,
    |app: TestApp| async move {
        let email = "header@example.com";
        let buyer = signed_in(&app, email).await;
        let (status, said) = header_asks(&buyer, &[]).await;
        assert_eq!(status, 200);
        assert!(said.contains(email), "{said}");
        // A stranger's browser: nobody.
        let (status, said) = header_asks(&app.buyer(), &[]).await;
        assert_eq!(status, 200);
        assert_eq!(said.trim(), "null");
        // Asked from another site with the buyer's cookie: refused, and
        // the address is not in the answer.
        let (status, said) = header_asks(
            &buyer,
            &[
                ("origin", "https://evil.example"),
                ("sec-fetch-site", "cross-site"),
            ],
        )
        .await;
        assert_eq!(status, 403);
        assert!(!said.contains(email), "{said}");
    }
);
