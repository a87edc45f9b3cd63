//! Money and tickets agree whatever the provider says and in whatever
//! order: a further paid verdict never books a refunded checkout again,
//! concurrent verdicts decide once (standing places included), and money
//! sent back or disputed outside Holdfast voids the ticket. SQLite and
//! Postgres.

use crate::common;

use common::TestApp;
use futures::future::join_all;
use holdfast_core::payments::sandbox::{Delivery, Sender};
use serde_json::{json, Value};

/// The sandbox's session of a booking: (session id, intent, amount, currency).
async fn session_of(app: &TestApp, booking: &str) -> (String, String, i64, String) {
    sqlx::query_as(
        "select id, payment_intent_id, amount_cents, currency from sandbox_session where booking_id = $1",
    )
    .bind(booking)
    .fetch_one(app.state.db.reader())
    .await
    .expect("a sandbox session")
}

/// A signed provider event about `booking`'s checkout, with its own id.
fn checkout_event(
    kind: &str,
    session: &(String, String, i64, String),
    booking: &str,
    paid: bool,
) -> String {
    json!({
        "id": format!("evt_money_{}", uuid::Uuid::new_v4().simple()),
        "object": "event",
        "type": kind,
        "data": { "object": {
            "id": session.0, "object": "checkout.session", "client_reference_id": booking,
            "metadata": { "booking_id": booking }, "payment_intent": session.1,
            "amount_total": session.2, "currency": session.3.to_lowercase(),
            "payment_status": if paid { "paid" } else { "unpaid" },
            "status": if paid { "complete" } else { "expired" },
        } },
    })
    .to_string()
}

fn charge_event(kind: &str, intent: &str, amount: i64, refunded: i64) -> String {
    let object = match kind {
        "charge.dispute.created" => json!({
            "id": format!("du_{}", uuid::Uuid::new_v4().simple()), "object": "dispute",
            "amount": amount, "payment_intent": intent, "reason": "fraudulent", "status": "needs_response",
        }),
        _ => json!({
            "id": format!("ch_{}", uuid::Uuid::new_v4().simple()), "object": "charge",
            "amount": amount, "amount_refunded": refunded, "refunded": refunded >= amount,
            "payment_intent": intent,
            "refunds": { "object": "list", "data": [{ "id": format!("re_dash_{}", uuid::Uuid::new_v4().simple()), "object": "refund", "amount": refunded }] },
        }),
    };
    json!({
        "id": format!("evt_money_{}", uuid::Uuid::new_v4().simple()),
        "object": "event", "type": kind, "data": { "object": object },
    })
    .to_string()
}

/// The buyer pays on the provider's page; the provider's own events are
/// dropped (each test sends the verdicts it orders).
async fn pay_at_provider(app: &TestApp, session: &str) {
    let paid = app
        .sandbox()
        .complete(
            session,
            true,
            Delivery::Once,
            Some("late@example.com"),
            Sender::Worker,
        )
        .await
        .unwrap();
    assert!(paid.is_some(), "the session is still open");
    sqlx::query("update sandbox_delivery set delivered_at = 0 where delivered_at is null")
        .execute(app.state.db.writer())
        .await
        .unwrap();
}

/// Stripe tells of `cents` refunded in its dashboard: recorded, the ticket
/// stays. The payment's intent and amount.
async fn refunded_in_part(app: &TestApp, booking: &str, cents: i64) -> (String, i64) {
    let (_, intent, amount, _) = session_of(app, booking).await;
    let partial = charge_event("charge.refunded", &intent, amount, cents);
    assert_eq!(
        deliver(app, &partial).await["outcome"],
        "partial_refund_recorded"
    );
    (intent, amount)
}

async fn deliver(app: &TestApp, body: &str) -> Value {
    let a = app.post_webhook(body, Some(app.sign(body))).await;
    assert_eq!(a.status, 200, "{}", a.text);
    a.json()
}

/// `n` distinct paid verdicts for one checkout, delivered all at once (kinds
/// alternating as Stripe sends them for delayed methods): their outcomes,
/// and how many re-took the seats.
async fn paid_at_once(
    app: &TestApp,
    session: &(String, String, i64, String),
    booking: &str,
    n: usize,
) -> (Vec<String>, usize) {
    let verdicts: Vec<String> = (0..n)
        .map(|i| {
            let kind = if i % 2 == 0 {
                "checkout.session.completed"
            } else {
                "checkout.session.async_payment_succeeded"
            };
            checkout_event(kind, session, booking, true)
        })
        .collect();
    let answers = join_all(verdicts.iter().map(|v| deliver(app, v))).await;
    let outcomes: Vec<String> = answers
        .iter()
        .map(|a| a["outcome"].as_str().unwrap().to_string())
        .collect();
    let retaken = outcomes
        .iter()
        .filter(|o| *o == "late_payment_retaken")
        .count();
    (outcomes, retaken)
}

async fn payment_status(app: &TestApp, booking: &str) -> String {
    let (s,): (String,) = sqlx::query_as("select status from payment where booking_id = $1")
        .bind(booking)
        .fetch_one(app.state.db.reader())
        .await
        .unwrap();
    s
}

async fn live_seats(app: &TestApp, seat: i64) -> i64 {
    app.scalar(&format!(
        "select count(*) from booking_seat where live = 1 and seat_id = {seat}"
    ))
    .await
}

on_both_backends!(
    a_refunded_booking_is_never_booked_again_by_a_further_paid_verdict,
    |app: TestApp| async move {
        let (buyer, booking) = app.book(&[900], "a@example.com", Delivery::Once).await;
        let session = session_of(&app, &booking).await;
        app.refund_by_admin(&booking).await;
        assert_eq!(app.status_of(&booking).await, "CANCELLED");
        // Stripe's second verdict for a delayed payment method, its own id.
        let again = checkout_event(
            "checkout.session.async_payment_succeeded",
            &session,
            &booking,
            true,
        );
        assert_eq!(deliver(&app, &again).await["outcome"], "already_settled");
        assert_eq!(app.status_of(&booking).await, "CANCELLED");
        assert_eq!(live_seats(&app, 900).await, 0, "the seat stays free");
        app.assert_invariants().await;
        app.dispatch_outbox().await;
        app.deliver_events().await;
        assert_eq!(app.status_of(&booking).await, "REFUNDED");
        // …and once refunded, yet another verdict still changes nothing.
        let late = checkout_event("checkout.session.completed", &session, &booking, true);
        assert_eq!(deliver(&app, &late).await["outcome"], "already_settled");
        assert_eq!(app.status_of(&booking).await, "REFUNDED");
        assert_eq!(app.scalar("select count(*) from sandbox_refund").await, 1);
        let view = buyer.get(&format!("/api/bookings/{booking}")).await.json();
        assert!(view["ticket"].is_null(), "no ticket: {view}");
        assert_eq!(app.buyer().hold(1, 900).await.status, 200);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_late_payment_refunded_for_a_taken_seat_never_retakes_it_once_it_frees,
    |app: TestApp| async move {
        let buyer = app.buyer();
        let (booking, paid) = buyer.hold_and_pay(&[910]).await;
        assert_eq!(paid.status, 200, "{}", paid.text);
        let session = session_of(&app, &booking).await;
        let ended = checkout_event("checkout.session.expired", &session, &booking, false);
        assert_eq!(deliver(&app, &ended).await["outcome"], "checkout_ended");
        let other = app.buyer();
        let held = other.hold(1, 910).await;
        assert_eq!(held.status, 200, "{}", held.text);
        pay_at_provider(&app, &session.0).await;
        let first = checkout_event("checkout.session.completed", &session, &booking, true);
        assert_eq!(
            deliver(&app, &first).await["outcome"],
            "late_payment_refund_queued"
        );
        // The other buyer lets the seat go: it is free again.
        let theirs = held.json()["bookingId"].as_str().unwrap().to_string();
        assert_eq!(
            other
                .delete(&format!("/api/bookings/{theirs}"))
                .await
                .status,
            200
        );
        assert_eq!(live_seats(&app, 910).await, 0);
        let second = checkout_event(
            "checkout.session.async_payment_succeeded",
            &session,
            &booking,
            true,
        );
        assert_eq!(deliver(&app, &second).await["outcome"], "already_settled");
        assert_eq!(
            live_seats(&app, 910).await,
            0,
            "money going back buys no seat"
        );
        app.assert_invariants().await;
        app.dispatch_outbox().await;
        assert_eq!(app.status_of(&booking).await, "REFUNDED");
        assert_eq!(app.scalar("select count(*) from sandbox_refund").await, 1);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    concurrent_distinct_paid_verdicts_for_an_ended_booking_decide_once,
    |app: TestApp| async move {
        for round in 0..3 {
            let seat = 920 + round;
            let (booking, paid) = app.buyer().hold_and_pay(&[seat]).await;
            assert_eq!(paid.status, 200, "{}", paid.text);
            let session = session_of(&app, &booking).await;
            let ended = checkout_event("checkout.session.expired", &session, &booking, false);
            deliver(&app, &ended).await;
            let (outcomes, retaken) = paid_at_once(&app, &session, &booking, 8).await;
            assert_eq!(retaken, 1, "{outcomes:?}");
            assert!(
                outcomes
                    .iter()
                    .all(|o| *o == "late_payment_retaken" || *o == "already_settled"),
                "money that bought the ticket is never refunded: {outcomes:?}"
            );
            assert_eq!(app.status_of(&booking).await, "BOOKED");
            assert_eq!(payment_status(&app, &booking).await, "paid");
            assert_eq!(
                app.scalar("select count(*) from outbox where kind = 'refund'")
                    .await,
                0
            );
            app.assert_invariants().await;
        }
    }
);

/// A standing area of `capacity` places on the arena.
async fn standing_area(app: &TestApp, capacity: i64) -> i64 {
    sqlx::query("update ga_area set capacity = $1, remaining = $1")
        .bind(capacity)
        .execute(app.state.db.writer())
        .await
        .unwrap();
    app.scalar("select min(id) from ga_area").await
}

async fn hold_standing(buyer: &common::Buyer, area: i64, quantity: i64) -> common::Answer {
    buyer
        .post(
            &format!("/api/events/1/general-admission/{area}/hold"),
            Some(&common::new_key()),
            Some(json!({ "quantity": quantity })),
        )
        .await
}

/// A buyer holds `quantity` of `capacity` standing places, starts paying,
/// and the provider says the checkout ended: (booking, session).
async fn ended_standing_checkout(
    app: &TestApp,
    capacity: i64,
    quantity: i64,
) -> (String, (String, String, i64, String)) {
    let area = standing_area(app, capacity).await;
    let buyer = app.buyer();
    let held = hold_standing(&buyer, area, quantity).await;
    assert_eq!(held.status, 200, "{}", held.text);
    let booking = held.json()["bookingId"].as_str().unwrap().to_string();
    let path = format!("/api/bookings/{booking}/pay");
    let paid = buyer.post(&path, Some(&common::new_key()), None).await;
    assert_eq!(paid.status, 200, "{}", paid.text);
    let session = session_of(app, &booking).await;
    let ended = checkout_event("checkout.session.expired", &session, &booking, false);
    deliver(app, &ended).await;
    (booking, session)
}

on_both_backends!(
    concurrent_verdicts_retake_standing_places_once,
    |app: TestApp| async move {
        let (booking, session) = ended_standing_checkout(&app, 10, 3).await;
        pay_at_provider(&app, &session.0).await;
        // Places are left: the first verdict re-takes them, the others are
        // duplicates — none takes places again, none refunds the ticket.
        let (outcomes, retaken) = paid_at_once(&app, &session, &booking, 6).await;
        assert_eq!(retaken, 1, "{outcomes:?}");
        assert!(
            outcomes.iter().all(|o| *o != "late_payment_refund_queued"),
            "{outcomes:?}"
        );
        assert_eq!(app.status_of(&booking).await, "BOOKED");
        assert_eq!(
            app.scalar("select remaining from ga_area where id = (select min(id) from ga_area)")
                .await,
            7
        );
        app.assert_invariants().await;
    }
);

on_both_backends!(
    concurrent_verdicts_for_standing_places_never_leak_a_place,
    |app: TestApp| async move {
        let (booking, session) = ended_standing_checkout(&app, 4, 3).await;
        let area = app.scalar("select min(id) from ga_area").await;
        assert_eq!(
            app.scalar("select remaining from ga_area where id = (select min(id) from ga_area)")
                .await,
            4
        );
        // Someone takes two of the four places: the three cannot come back.
        assert_eq!(hold_standing(&app.buyer(), area, 2).await.status, 200);
        pay_at_provider(&app, &session.0).await;
        let (outcomes, retaken) = paid_at_once(&app, &session, &booking, 6).await;
        let refunds = outcomes
            .iter()
            .filter(|o| *o == "late_payment_refund_queued")
            .count();
        assert_eq!((retaken, refunds), (0, 1), "{outcomes:?}");
        assert_eq!(
            app.scalar("select remaining from ga_area where id = (select min(id) from ga_area)")
                .await,
            2,
            "a refused re-take gives back every place it touched"
        );
        app.assert_invariants().await;
        app.dispatch_outbox().await;
        assert_eq!(app.status_of(&booking).await, "REFUNDED");
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_refund_made_outside_holdfast_voids_the_ticket_and_frees_the_seat,
    |app: TestApp| async move {
        let (buyer, booking) = app.book(&[930], "c@example.com", Delivery::Once).await;
        // A partial refund from Stripe's dashboard: recorded, the ticket stays.
        let (intent, amount) = refunded_in_part(&app, &booking, 1000).await;
        assert_eq!(app.status_of(&booking).await, "BOOKED");
        let view = buyer.get(&format!("/api/bookings/{booking}")).await.json();
        assert_eq!(view["payment"]["refundedCents"], 1000);
        assert!(view["ticket"].is_string());
        app.assert_invariants().await;
        // Then the rest: the ticket is void, the seat is on sale again.
        let full = charge_event("charge.refunded", &intent, amount, amount);
        assert_eq!(deliver(&app, &full).await["outcome"], "ticket_voided");
        assert_eq!(deliver(&app, &full).await["outcome"], "duplicate");
        assert_eq!(app.status_of(&booking).await, "REFUNDED");
        assert_eq!(payment_status(&app, &booking).await, "refunded");
        assert_eq!(live_seats(&app, 930).await, 0);
        let view = buyer.get(&format!("/api/bookings/{booking}")).await.json();
        assert!(view["ticket"].is_null());
        app.dispatch_outbox().await;
        let subjects: Vec<(String,)> =
            sqlx::query_as("select subject from mailbox where booking_id = $1 order by id")
                .bind(&booking)
                .fetch_all(app.state.db.reader())
                .await
                .unwrap();
        assert!(
            subjects.iter().any(|s| s.0 == "Your payment was refunded"),
            "{subjects:?}"
        );
        assert_eq!(
            app.scalar("select count(*) from sandbox_refund").await,
            0,
            "Holdfast refunds nothing itself"
        );
        // A further paid verdict for that checkout books nothing.
        let session = session_of(&app, &booking).await;
        let late = checkout_event(
            "checkout.session.async_payment_succeeded",
            &session,
            &booking,
            true,
        );
        assert_eq!(deliver(&app, &late).await["outcome"], "already_settled");
        assert_eq!(app.buyer().hold(1, 930).await.status, 200);
        let settled = app.admin().get("/api/admin/events/1/dashboard").await.text;
        assert!(settled.contains("refunded outside Holdfast"), "{settled}");
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_dispute_voids_the_ticket_and_stops_a_refund_under_way,
    |app: TestApp| async move {
        let (buyer, booking) = app.book(&[940], "d@example.com", Delivery::Once).await;
        let (_, intent, amount, _) = session_of(&app, &booking).await;
        let dispute = charge_event("charge.dispute.created", &intent, amount, 0);
        assert_eq!(deliver(&app, &dispute).await["outcome"], "ticket_voided");
        assert_eq!(app.status_of(&booking).await, "DISPUTED");
        assert_eq!(payment_status(&app, &booking).await, "disputed");
        assert_eq!(live_seats(&app, 940).await, 0);
        let view = buyer.get(&format!("/api/bookings/{booking}")).await.json();
        assert_eq!(view["status"], "DISPUTED");
        assert!(view["ticket"].is_null(), "no ticket: {view}");
        app.dispatch_outbox().await;
        let told: i64 = app
            .scalar(&format!(
                "select count(*) from mailbox where booking_id = '{booking}' and subject like '%disputed%'"
            ))
            .await;
        assert_eq!(told, 1, "the buyer is told once");
        let dashboard = app.admin().get("/api/admin/events/1/dashboard").await.text;
        assert!(dashboard.contains("disputed"), "{dashboard}");
        app.assert_invariants().await;

        // A booking whose admin refund is still queued when the dispute
        // comes: the bank has the money, Holdfast sends nothing back.
        let (_, second) = app.book(&[941], "e@example.com", Delivery::Once).await;
        let (_, intent, amount, _) = session_of(&app, &second).await;
        app.refund_by_admin(&second).await;
        let dispute = charge_event("charge.dispute.created", &intent, amount, 0);
        assert_eq!(deliver(&app, &dispute).await["outcome"], "ticket_voided");
        app.dispatch_outbox().await;
        assert_eq!(app.status_of(&second).await, "DISPUTED");
        assert_eq!(app.scalar("select count(*) from sandbox_refund").await, 0);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    an_admin_refund_after_a_partial_one_sends_back_only_the_rest,
    |app: TestApp| async move {
        let (_, booking) = app.book(&[950], "f@example.com", Delivery::Once).await;
        let (_, amount) = refunded_in_part(&app, &booking, 1500).await;
        app.refund_by_admin(&booking).await;
        app.dispatch_outbox().await;
        assert_eq!(app.status_of(&booking).await, "REFUNDED");
        let sent = app.scalar("select amount_cents from sandbox_refund").await;
        assert_eq!(sent, amount - 1500, "only what is left goes back");
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_dong_booking_at_the_sandbox_is_paid_and_refunded_in_whole_dong,
    |app: TestApp| async move {
        let hanoi = app
            .scalar("select id from event where currency = 'VND'")
            .await;
        let seat = app.last_seat(hanoi).await;
        let buyer = app.buyer();
        let booking = buyer.held_booking(hanoi, seat).await;
        let paid = buyer.pay(&booking).await;
        assert_eq!(paid.status, 200, "{}", paid.text);
        let session = session_of(&app, &booking).await;
        assert_eq!((session.2, session.3.as_str()), (850_000, "VND"));
        app.sandbox()
            .complete(
                &session.0,
                true,
                Delivery::Once,
                Some("an@example.vn"),
                Sender::Worker,
            )
            .await
            .unwrap();
        app.deliver_events().await;
        assert_eq!(app.status_of(&booking).await, "BOOKED");
        app.refund_by_admin(&booking).await;
        app.dispatch_outbox().await;
        app.deliver_events().await;
        assert_eq!(app.status_of(&booking).await, "REFUNDED");
        let (refunded,): (i64,) =
            sqlx::query_as("select amount_cents from sandbox_refund where payment_intent_id = $1")
                .bind(&session.1)
                .fetch_one(app.state.db.reader())
                .await
                .unwrap();
        assert_eq!(refunded, 850_000);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    the_canary_counts_the_refunds_under_way_of_each_payment,
    |app: TestApp| async move {
        // A payment whose refund is under way needs exactly one refund in
        // the outbox: none, or two, is money that may never go back (or go
        // back twice). The count is made once for all payments and joined.
        let seats = app.arena_seats().await;
        let (_, other) = app
            .book(&seats[20..21], "other@example.com", Delivery::Once)
            .await;
        let (_, booking) = app
            .book(&seats[10..11], "canary@example.com", Delivery::Once)
            .await;
        app.tamper(
            "update booking_seat set live = 0 where booking_id = $1",
            &booking,
        )
        .await;
        app.tamper(
            "update booking set status = 'EXPIRED' where id = $1",
            &booking,
        )
        .await;
        app.tamper(
            "update payment set status = 'refund_pending' where booking_id = $1",
            &booking,
        )
        .await;
        app.assert_violation(&booking, "with its payment refund_pending")
            .await;
        let refund = |n: i64| {
            format!(
                "insert into outbox (kind, booking_id, dedupe_key, payload, next_attempt_at, created_at)
                 values ('refund', $1, 'canary-refund-{n}', '{{}}', 9999999999999, 0)"
            )
        };
        // Another booking's refund is not this one's.
        app.tamper(&refund(0), &other).await;
        app.assert_violation(&booking, "with its payment refund_pending")
            .await;
        app.tamper(&refund(1), &booking).await;
        let found = app.invariants().await;
        assert!(
            !found.iter().any(|v| v.contains(&booking)),
            "one refund under way is as it should be: {found:?}"
        );
        app.tamper(&refund(2), &booking).await;
        app.assert_violation(&booking, "with its payment refund_pending")
            .await;
    }
);

// Part refunded outside, then the buyer cancels under a policy that gives
// the rest back: the payment shows the total refunded, not the last part.
on_both_backends!(
    refunded_cents_add_up_over_two_refunds,
    |app: TestApp| async move {
        let (buyer, booking) = app.book(&[931], "two@example.com", Delivery::Once).await;
        let (_, amount) = refunded_in_part(&app, &booking, 1000).await;
        app.set_refund_policy(1, json!({ "fullRefundUntilDays": 1 }))
            .await;
        let cancelled = buyer
            .post(
                &format!("/api/bookings/{booking}/cancel"),
                Some(&common::new_key()),
                None,
            )
            .await;
        assert_eq!(cancelled.status, 200, "{}", cancelled.text);
        assert_eq!(cancelled.json()["refundCents"], amount - 1000);
        app.dispatch_outbox().await;
        assert_eq!(app.status_of(&booking).await, "REFUNDED");
        let view = buyer.get(&format!("/api/bookings/{booking}")).await.json();
        assert_eq!(view["payment"]["refundedCents"], amount, "{view}");
        app.assert_invariants().await;
    }
);
