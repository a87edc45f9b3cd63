//! Payments through HTTP on SQLite and Postgres: the sandbox's signed
//! webhooks, duplicates and storms, late payments (re-taken or refunded),
//! declines, expiry, a lost provider answer — and invariant 3 after each.

use crate::common;

use common::{new_key, Buyer, TestApp};
use futures::future::join_all;
use holdfast_core::payments::reconcile::reconcile_due;
use holdfast_core::payments::sandbox::{Delivery, Sandbox, Sender};
use holdfast_core::platform::clock::Clock;
use rand::seq::SliceRandom;
use serde_json::json;

const CHECKOUT_MS: i64 = 1_800_000;

/// Holds the seats and starts the checkout: (booking id, session id).
async fn hold_and_pay(buyer: &Buyer, seats: &[i64]) -> (String, String) {
    let (booking, paid) = buyer.hold_and_pay(seats).await;
    assert_eq!(paid.status, 200, "{}", paid.text);
    let body = paid.json();
    assert_eq!(body["status"], "PAYMENT_PENDING");
    assert!(body["checkoutUrl"]
        .as_str()
        .unwrap()
        .contains("/sandbox/checkout/"));
    assert!(body["expiresInMs"].as_i64().unwrap() > 0);
    (
        booking,
        body["checkoutSessionId"].as_str().unwrap().to_string(),
    )
}

async fn mailbox(app: &TestApp, booking: &str) -> Vec<String> {
    let rows: Vec<(String,)> =
        sqlx::query_as("select subject from mailbox where booking_id = $1 order by id")
            .bind(booking)
            .fetch_all(app.state.db.reader())
            .await
            .unwrap();
    rows.into_iter().map(|r| r.0).collect()
}

/// The buyer pays (or declines) on the sandbox's page.
async fn complete(app: &TestApp, session: &str, paid: bool, delivery: Delivery) {
    app.sandbox()
        .complete(
            session,
            paid,
            delivery,
            Some("buyer@example.com"),
            Sender::Worker,
        )
        .await
        .unwrap();
}

/// The hosted page's form, through HTTP, as a browser posts it.
async fn pay_on_hosted_page(app: &TestApp, session: &str) {
    let r = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .post(format!("{}/sandbox/checkout/{session}/complete", app.base))
        .form(&[("outcome", "paid"), ("delivery", "once")])
        .send()
        .await
        .unwrap();
    assert!(r.status().is_redirection());
}

/// Pending sandbox events, as bodies, without delivering them.
async fn pending_events(app: &TestApp) -> Vec<String> {
    let rows: Vec<(String,)> =
        sqlx::query_as("select body from sandbox_delivery where delivered_at is null order by id")
            .fetch_all(app.state.db.reader())
            .await
            .unwrap();
    sqlx::query("update sandbox_delivery set delivered_at = 0 where delivered_at is null")
        .execute(app.state.db.writer())
        .await
        .unwrap();
    rows.into_iter().map(|r| r.0).collect()
}

on_both_backends!(
    a_paid_checkout_books_the_seats_and_sends_one_email,
    |app: TestApp| async move {
        let buyer = app.buyer();
        let (booking, session) = hold_and_pay(&buyer, &[300, 301]).await;
        let seats = buyer.get("/api/events/1/seats").await.json();
        assert_eq!(
            seats["seats"][299]["status"], "HELD",
            "a seat in checkout shows as HELD"
        );
        let page = buyer.get(&format!("/sandbox/checkout/{session}")).await;
        assert_eq!(page.status, 200);
        assert!(page.text.contains("€170.00"), "{}", page.text);
        pay_on_hosted_page(&app, &session).await;
        app.deliver_events().await;
        for _ in 0..50 {
            if app.status_of(&booking).await == "BOOKED" {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(app.status_of(&booking).await, "BOOKED");
        app.dispatch_outbox().await;
        assert_eq!(
            mailbox(&app, &booking).await,
            vec!["Your booking is confirmed"]
        );
        let view = buyer.get(&format!("/api/bookings/{booking}")).await.json();
        assert_eq!(view["status"], "BOOKED");
        assert_eq!(view["payment"]["status"], "paid");
        assert_eq!(view["payment"]["provider"], "sandbox");
        assert!(view["payment"]["paymentIntentId"]
            .as_str()
            .unwrap()
            .starts_with("pi_"));
        assert!(view["expiresInMs"].is_null());
        // The ticket token checks out at the door; a forged one does not.
        let token = view["ticket"].as_str().unwrap().to_string();
        let door = app
            .buyer()
            .get(&format!("/api/tickets/{token}"))
            .await
            .json();
        assert_eq!(door["valid"], true);
        assert_eq!(door["bookingId"], booking.as_str());
        let last = if token.ends_with('0') { '1' } else { '0' };
        let forged = format!("{}{last}", &token[..token.len() - 1]);
        assert_eq!(
            app.buyer()
                .get(&format!("/api/tickets/{forged}"))
                .await
                .status,
            404
        );
        app.assert_invariants().await;
    }
);

on_both_backends!(
    the_hosted_page_sends_its_own_checkouts_events_at_once,
    |app: TestApp| async move {
        // Another buyer's completed checkout waits in the queue.
        let other = app.buyer();
        let (waiting, waiting_session) = hold_and_pay(&other, &[310]).await;
        complete(&app, &waiting_session, true, Delivery::Once).await;
        let buyer = app.buyer();
        let (booking, session) = hold_and_pay(&buyer, &[311]).await;
        // A delivery the sandbox does not know is refused, not taken as once.
        let refused = reqwest::Client::new()
            .post(format!("{}/sandbox/checkout/{session}/complete", app.base))
            .form(&[("outcome", "paid"), ("delivery", "never")])
            .send()
            .await
            .unwrap();
        assert_eq!(refused.status(), 400);
        assert_eq!(app.status_of(&booking).await, "PAYMENT_PENDING");
        pay_on_hosted_page(&app, &session).await;
        // Booked by the page's own send: nothing here delivers the queue.
        for _ in 0..100 {
            if app.status_of(&booking).await == "BOOKED" {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_eq!(app.status_of(&booking).await, "BOOKED");
        // Only its own: under an on-sale's thousands of payers, each page
        // racing every other for the whole queue was the bottleneck.
        assert_eq!(app.status_of(&waiting).await, "PAYMENT_PENDING");
        assert_eq!(app.deliver_events().await, 1);
        assert_eq!(app.status_of(&waiting).await, "BOOKED");
        assert_eq!(app.deliver_events().await, 0, "each sent once");
        app.assert_invariants().await;
    }
);

on_both_backends!(
    an_event_the_page_claimed_but_never_sent_goes_out_when_the_claim_lapses,
    |app: TestApp| async move {
        let buyer = app.buyer();
        let (booking, session) = hold_and_pay(&buyer, &[312, 313]).await;
        // The page completes the checkout and claims its events to send
        // them itself, then (a crash, a lost task) never does.
        let done = app
            .sandbox()
            .complete(
                &session,
                true,
                Delivery::Once,
                Some("buyer@example.com"),
                Sender::Caller,
            )
            .await
            .unwrap()
            .expect("the session was open");
        assert_eq!(done.deliveries.len(), 1);
        drop(done);
        assert_eq!(app.deliver_events().await, 0, "still claimed by the page");
        assert_eq!(app.status_of(&booking).await, "PAYMENT_PENDING");
        app.clock.advance_ms(Sandbox::SENDING_MS);
        assert_eq!(app.deliver_events().await, 1, "a worker takes it over");
        assert_eq!(app.status_of(&booking).await, "BOOKED");
        assert_eq!(app.deliver_events().await, 0, "sent once");
        let seats = buyer.get("/api/events/1/seats").await.json();
        assert_eq!(seats["seats"][311]["status"], "BOOKED");
        assert_eq!(seats["seats"][312]["status"], "BOOKED");
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_webhook_storm_moves_each_booking_once,
    |app: TestApp| async move {
        let mut bookings = Vec::new();
        for i in 0..4 {
            let (b, s) = hold_and_pay(&app.buyer(), &[400 + i]).await;
            complete(&app, &s, true, Delivery::Once).await;
            bookings.push(b);
        }
        let events = pending_events(&app).await;
        assert_eq!(events.len(), 4);
        let mut storm: Vec<String> = events
            .iter()
            .flat_map(|e| std::iter::repeat_n(e.clone(), 5))
            .collect();
        storm.shuffle(&mut rand::thread_rng());
        let answers = join_all(storm.iter().map(|e| app.post_webhook(e, Some(app.sign(e))))).await;
        assert!(
            answers.iter().all(|a| a.status == 200),
            "{:?}",
            answers.iter().map(|a| &a.text).collect::<Vec<_>>()
        );
        let dupes = answers
            .iter()
            .filter(|a| a.json()["outcome"] == "duplicate")
            .count();
        assert_eq!(dupes, 16);
        // Two dispatchers at once still send one email each.
        join_all([app.dispatch_outbox(), app.dispatch_outbox()]).await;
        for b in &bookings {
            assert_eq!(app.status_of(b).await, "BOOKED");
            assert_eq!(mailbox(&app, b).await.len(), 1);
        }
        assert_eq!(app.scalar("select count(*) from webhook_inbox").await, 4);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    bad_signatures_are_refused_and_change_nothing,
    |app: TestApp| async move {
        let (booking, session) = hold_and_pay(&app.buyer(), &[500]).await;
        complete(&app, &session, true, Delivery::Once).await;
        let event = pending_events(&app).await.remove(0);
        let now = app.clock.now().ms() / 1000;
        let sign = holdfast_core::payments::signature::sign;
        let secret = holdfast::server::config::DEV_WEBHOOK_SECRET;
        let tampered = event.replace("\"paid\"", "\"PAID\"");
        for (body, header) in [
            (
                event.clone(),
                Some(sign("whsec_wrong", event.as_bytes(), now)),
            ),
            (
                event.clone(),
                Some(sign(secret, event.as_bytes(), now - 301)),
            ),
            (tampered.clone(), Some(sign(secret, event.as_bytes(), now))),
            (event.clone(), None),
            (event.clone(), Some("t=abc,v1=zz".to_string())),
        ] {
            let a = app.post_webhook(&body, header).await;
            assert_eq!(a.status, 400, "{}", a.text);
            assert_eq!(a.code(), "VALIDATION");
        }
        assert_eq!(app.status_of(&booking).await, "PAYMENT_PENDING");
        assert_eq!(app.scalar("select count(*) from webhook_inbox").await, 0);
        // Secret rotation: the good v1 first, a bad one last.
        let good = sign(secret, event.as_bytes(), now);
        let bad = sign("whsec_old", event.as_bytes(), now);
        let rotated = format!("{good},v1={}", bad.split_once(",v1=").unwrap().1);
        let a = app.post_webhook(&event, Some(rotated)).await;
        assert_eq!(a.status, 200, "{}", a.text);
        assert_eq!(app.status_of(&booking).await, "BOOKED");
        app.assert_invariants().await;
    }
);

/// Ends the checkout behind the buyer's back (as an expired-session event
/// would), leaving the sandbox session open so it can still be paid late.
async fn end_checkout_early(app: &TestApp, booking: &str, session: &str) {
    let body = json!({
        "id": format!("evt_test_{}", uuid::Uuid::new_v4().simple()),
        "object": "event",
        "type": "checkout.session.expired",
        "data": { "object": { "id": session, "object": "checkout.session", "client_reference_id": booking,
                              "payment_status": "unpaid", "status": "expired" } },
    })
    .to_string();
    let a = app.post_webhook(&body, Some(app.sign(&body))).await;
    assert_eq!(a.json()["outcome"], "checkout_ended", "{}", a.text);
    assert_eq!(app.status_of(booking).await, "EXPIRED");
}

on_both_backends!(
    a_late_payment_retakes_seats_that_are_still_free,
    |app: TestApp| async move {
        let buyer = app.buyer();
        let (booking, session) = hold_and_pay(&buyer, &[600, 601]).await;
        end_checkout_early(&app, &booking, &session).await;
        complete(&app, &session, true, Delivery::Twice).await;
        app.deliver_events().await;
        assert_eq!(app.status_of(&booking).await, "BOOKED");
        assert_eq!(
            app.scalar(
                "select count(*) from booking_seat where live = 1 and seat_id in (600, 601)"
            )
            .await,
            2
        );
        assert_eq!(app.scalar("select count(*) from sandbox_refund").await, 0);
        app.dispatch_outbox().await;
        assert!(mailbox(&app, &booking)
            .await
            .contains(&"Your booking is confirmed".to_string()));
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_late_payment_for_a_taken_seat_is_refunded_exactly_once,
    |app: TestApp| async move {
        let buyer = app.buyer();
        let (booking, session) = hold_and_pay(&buyer, &[700, 701]).await;
        end_checkout_early(&app, &booking, &session).await;
        assert_eq!(
            app.buyer().hold(1, 701).await.status,
            200,
            "someone else takes a seat"
        );
        complete(&app, &session, true, Delivery::Twice).await;
        let events = pending_events(&app).await;
        // Both copies at once, racing a reconciliation run and two dispatchers.
        let posts = join_all(
            events
                .iter()
                .map(|e| app.post_webhook(e, Some(app.sign(e)))),
        )
        .await;
        assert!(posts.iter().all(|a| a.status == 200));
        let (_, _, _) = futures::join!(
            reconcile_due(&app.state),
            app.dispatch_outbox(),
            app.dispatch_outbox()
        );
        app.dispatch_outbox().await;
        assert_eq!(app.status_of(&booking).await, "REFUNDED");
        assert_eq!(app.scalar("select count(*) from sandbox_refund").await, 1);
        assert_eq!(
            app.scalar("select count(*) from booking_seat where live = 1 and seat_id = 700")
                .await,
            0
        );
        let view = buyer.get(&format!("/api/bookings/{booking}")).await.json();
        assert_eq!(view["payment"]["status"], "refunded");
        assert!(view["payment"]["refundId"]
            .as_str()
            .unwrap()
            .starts_with("re_"));
        // The provider's charge.refunded event comes back and changes nothing more.
        app.deliver_events().await;
        app.dispatch_outbox().await;
        assert!(mailbox(&app, &booking)
            .await
            .contains(&"Your payment was refunded".to_string()));
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_paid_webhook_racing_reconciliation_books_once,
    |app: TestApp| async move {
        let (booking, session) = hold_and_pay(&app.buyer(), &[800]).await;
        complete(&app, &session, true, Delivery::Twice).await;
        app.clock.advance_ms(CHECKOUT_MS + 1000);
        let events = pending_events(&app).await;
        let signed: Vec<(String, String)> =
            events.iter().map(|e| (e.clone(), app.sign(e))).collect();
        let (posts, reconciled) = futures::join!(
            join_all(
                signed
                    .iter()
                    .map(|(e, s)| app.post_webhook(e, Some(s.clone())))
            ),
            reconcile_due(&app.state)
        );
        assert!(posts.iter().all(|a| a.status == 200));
        reconciled.unwrap();
        assert_eq!(app.status_of(&booking).await, "BOOKED");
        app.dispatch_outbox().await;
        assert_eq!(
            mailbox(&app, &booking).await,
            vec!["Your booking is confirmed"]
        );
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_declined_payment_releases_the_seats,
    |app: TestApp| async move {
        let (booking, session) = hold_and_pay(&app.buyer(), &[900]).await;
        complete(&app, &session, false, Delivery::Once).await;
        app.deliver_events().await;
        assert_eq!(app.status_of(&booking).await, "EXPIRED");
        assert_eq!(app.buyer().hold(1, 900).await.status, 200);
        app.dispatch_outbox().await;
        assert_eq!(
            mailbox(&app, &booking).await,
            vec!["Your reservation has ended"]
        );
        app.assert_invariants().await;
    }
);

on_both_backends!(
    an_unpaid_checkout_is_expired_at_the_provider_then_released,
    |app: TestApp| async move {
        let (booking, session) = hold_and_pay(&app.buyer(), &[950]).await;
        // Still within the checkout: nothing to reconcile.
        app.clock.advance_ms(CHECKOUT_MS - 1000);
        assert_eq!(reconcile_due(&app.state).await.unwrap(), 0);
        app.clock.advance_ms(2000);
        assert_eq!(reconcile_due(&app.state).await.unwrap(), 1);
        assert_eq!(app.status_of(&booking).await, "EXPIRED");
        let (status,): (String,) =
            sqlx::query_as("select status from sandbox_session where id = $1")
                .bind(&session)
                .fetch_one(app.state.db.reader())
                .await
                .unwrap();
        assert_eq!(
            status, "expired",
            "expired at the provider before the seats went back"
        );
        // The provider's own expired event arrives afterwards: nothing more happens.
        app.deliver_events().await;
        assert_eq!(app.status_of(&booking).await, "EXPIRED");
        assert_eq!(app.buyer().hold(1, 950).await.status, 200);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_lost_provider_answer_leaves_the_booking_pending_until_known,
    |app: TestApp| async move {
        let buyer = app.buyer();
        let held = buyer.hold_many(1, &[980]).await.json();
        let booking = held["bookingId"].as_str().unwrap().to_string();
        app.sandbox().lose_next_answers(1);
        let key = new_key();
        let lost = buyer
            .post(&format!("/api/bookings/{booking}/pay"), Some(&key), None)
            .await;
        assert_eq!(
            (lost.status.as_u16(), lost.code()),
            (503, "PAYMENT_PROVIDER_UNAVAILABLE".to_string())
        );
        assert_eq!(
            app.status_of(&booking).await,
            "PAYMENT_PENDING",
            "unknown, not failed"
        );
        assert_eq!(
            app.buyer().hold(1, 980).await.status,
            409,
            "the seat stays reserved"
        );
        // Retrying with the same key asks the provider again: the same session.
        let retry = buyer
            .post(&format!("/api/bookings/{booking}/pay"), Some(&key), None)
            .await;
        assert_eq!(retry.status, 200, "{}", retry.text);
        assert_eq!(app.scalar("select count(*) from sandbox_session").await, 1);
        // Another key (the buyer back from the provider's page): that same
        // session again, never a second one.
        let other = buyer.pay(&booking).await;
        assert_eq!(other.status, 200, "{}", other.text);
        assert_eq!(
            other.json()["checkoutSessionId"],
            retry.json()["checkoutSessionId"]
        );
        assert_eq!(app.scalar("select count(*) from sandbox_session").await, 1);

        // A second booking whose answer is lost is settled by reconciliation.
        let held = buyer.hold_many(1, &[981]).await.json();
        let second = held["bookingId"].as_str().unwrap().to_string();
        app.sandbox().lose_next_answers(1);
        assert_eq!(
            buyer
                .post(
                    &format!("/api/bookings/{second}/pay"),
                    Some(&new_key()),
                    None
                )
                .await
                .status,
            503
        );
        app.clock.advance_ms(CHECKOUT_MS + 1000);
        reconcile_due(&app.state).await.unwrap();
        assert_eq!(app.status_of(&second).await, "EXPIRED");
        app.assert_invariants().await;
    }
);

on_both_backends!(
    pay_refuses_expired_and_foreign_bookings,
    |app: TestApp| async move {
        let buyer = app.buyer();
        let held = buyer.hold(1, 990).await.json();
        let booking = held["bookingId"].as_str().unwrap();
        let stranger = app
            .buyer()
            .post(
                &format!("/api/bookings/{booking}/pay"),
                Some(&new_key()),
                None,
            )
            .await;
        assert_eq!(stranger.status, 404);
        assert_eq!(
            buyer
                .post(&format!("/api/bookings/{booking}/pay"), None, None)
                .await
                .code(),
            "IDEMPOTENCY_KEY_MISSING"
        );
        app.clock.advance_ms(300_001);
        let late = buyer.pay(booking).await;
        assert_eq!(
            (late.status.as_u16(), late.code()),
            (409, "HOLD_EXPIRED".to_string())
        );
        let released = buyer.hold(1, 991).await.json();
        let id = released["bookingId"].as_str().unwrap();
        buyer.delete(&format!("/api/bookings/{id}")).await;
        let cancelled = buyer.pay(id).await;
        assert_eq!(cancelled.code(), "INVALID_STATE");
        app.assert_invariants().await;
    }
);

/// Our signature matches Stripe's own Node library (installed by the test
/// command in end2end/node_modules).
#[test]
fn signatures_match_the_official_stripe_library() {
    let body = r#"{"id":"evt_1","type":"checkout.session.completed"}"#;
    let script = format!(
        "const Stripe = require('stripe'); const s = Stripe('sk_test_x');
         const h = s.webhooks.generateTestHeaderString({{ payload: {body:?}, secret: 'whsec_cross', timestamp: 1700000000 }});
         process.stdout.write(h);
         s.webhooks.constructEvent({body:?}, '{ours}', 'whsec_cross', 1e12);",
        ours = holdfast_core::payments::signature::sign("whsec_cross", body.as_bytes(), 1_700_000_000)
    );
    let out = std::process::Command::new("node")
        .arg("-e")
        .arg(&script)
        .env(
            "NODE_PATH",
            concat!(env!("CARGO_MANIFEST_DIR"), "/end2end/node_modules"),
        )
        .output()
        .expect("node runs (the test command installs end2end's npm packages)");
    assert!(
        out.status.success(),
        "stripe-node refused our signature: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        theirs,
        holdfast_core::payments::signature::sign("whsec_cross", body.as_bytes(), 1_700_000_000)
    );
    assert_eq!(
        holdfast_core::payments::signature::verify(
            "whsec_cross",
            &theirs,
            body.as_bytes(),
            1_700_000_000
        ),
        Ok(())
    );
}

on_both_backends!(
    stripes_own_event_shape_books_through_the_webhook,
    |app: TestApp| async move {
        // Stripe's published fixture, with our booking's id and amount in it.
        let (booking, _) = hold_and_pay(&app.buyer(), &[1200]).await;
        let raw = include_str!("../fixtures/stripe/checkout.session.completed.json");
        let mut event: serde_json::Value = serde_json::from_str(raw).unwrap();
        let object = &mut event["data"]["object"];
        object["client_reference_id"] = json!(booking);
        object["metadata"] = json!({ "booking_id": booking });
        object["amount_total"] = json!(app.scalar("select amount_cents from booking").await);
        object["currency"] = json!("eur");
        let body = event.to_string();
        let a = app.post_webhook(&body, Some(app.sign(&body))).await;
        assert_eq!(a.json()["outcome"], "booked", "{}", a.text);
        assert_eq!(app.status_of(&booking).await, "BOOKED");
        let (intent,): (Option<String>,) = sqlx::query_as("select payment_intent_id from payment")
            .fetch_one(app.state.db.reader())
            .await
            .unwrap();
        assert_eq!(intent.as_deref(), Some("pi_3QfakeA1B2c3D4e5F6g7H8i9"));
        app.assert_invariants().await;
    }
);

// A process that died between claiming the pay key and storing its answer
// (the provider is called in between) leaves the key in flight. A retry
// with that key waits (409) while the claim may still be alive, then takes
// it over, and the checkout is started once.
on_both_backends!(
    pay_retry_takes_over_a_key_its_dead_process_left,
    |app: TestApp| async move {
        use holdfast_core::platform::idempotency::{IdempotencyKey, IN_FLIGHT_LEASE_MS};
        let seats = app.arena_seats().await;
        let buyer = app.buyer();
        let held = buyer.hold_many(1, &seats[..2]).await;
        let booking = held.json()["bookingId"].as_str().unwrap().to_string();
        let path = format!("/api/bookings/{booking}/pay");
        let key = new_key();
        let claim = IdempotencyKey::parse(&key, &[b"POST", path.as_bytes(), b""]).unwrap();
        sqlx::query(
            "insert into idempotency_key (buyer_id, key, fingerprint, created_at)
         select buyer_id, $2, $3, $4 from booking where id = $1",
        )
        .bind(&booking)
        .bind(&claim.key)
        .bind(&claim.fingerprint)
        .bind(app.clock.now().ms())
        .execute(app.state.db.writer())
        .await
        .unwrap();

        let early = buyer.post(&path, Some(&key), None).await;
        assert_eq!(early.status, 409, "{}", early.text);
        assert_eq!(early.code(), "IDEMPOTENCY_KEY_IN_USE");

        app.clock.advance_ms(IN_FLIGHT_LEASE_MS + 1);
        let retried = buyer.post(&path, Some(&key), None).await;
        assert_eq!(retried.status, 200, "{}", retried.text);
        let replay = buyer.post(&path, Some(&key), None).await;
        assert_eq!(replay.text, retried.text, "the answer is stored again");
        assert_eq!(
            app.scalar(&format!(
                "select count(*) from sandbox_session where booking_id = '{booking}'"
            ))
            .await,
            1
        );
        app.assert_invariants().await;
    }
);
