//! A hold belongs to the buyer, not to the tab: its booking page pays for
//! it (`POST /bookings/{id}/pay`, a plain form) wherever the buyer comes
//! back to it — after a reload, Back, or on another device of their
//! account. Only the hold's buyer, only from the site itself, only while it
//! runs; a ship's guests are named first.

use crate::common;
use common::TestApp;
use holdfast_app::server_fns::bookings::MyHold;
use holdfast_core::payments::sandbox::Delivery;
use holdfast_core::platform::clock::Clock;
use leptos::server_fn::ServerFn;
use serde_json::Value;

on_both_backends!(
    a_running_hold_is_paid_from_its_booking_page,
    |app: TestApp| async move {
        let (buyer, booking) = held(&app, 1).await;
        let url = format!("{}/bookings/{booking}/pay", app.base);

        // Somebody else's booking: not found, nothing changed.
        let stranger = app.buyer().http.post(&url).send().await.unwrap();
        assert_eq!(stranger.status(), 404);
        assert_eq!(app.status_of(&booking).await, "HELD");
        // From another site, with the buyer's own cookie: refused.
        let forged = buyer
            .http
            .post(&url)
            .header("Origin", "https://evil.example")
            .header("Sec-Fetch-Site", "cross-site")
            .send()
            .await
            .unwrap();
        assert_eq!(forged.status(), 403);
        assert_eq!(app.status_of(&booking).await, "HELD");

        // Its page, rendered by the server as a reload or another device
        // asks for it: the time left and Pay.
        let page = buyer.get(&format!("/bookings/{booking}")).await;
        assert_eq!(page.status, 200);
        assert!(
            page.text.contains("data-testid=\"countdown\""),
            "{}",
            page.text
        );
        assert!(
            page.text.contains("data-testid=\"pay-held\""),
            "{}",
            page.text
        );

        // The buyer: on to the provider's checkout.
        let paid = buyer.http.post(&url).send().await.unwrap();
        assert_eq!(paid.status(), 200);
        assert!(
            paid.url().path().starts_with("/sandbox/checkout/"),
            "{}",
            paid.url()
        );
        assert_eq!(app.status_of(&booking).await, "PAYMENT_PENDING");
        // Sent again (a second click, or Back from the provider's page):
        // the same checkout goes on; still one.
        let again = buyer.http.post(&url).send().await.unwrap();
        assert_eq!(again.status(), 200);
        assert_eq!(again.url(), paid.url());
        assert_eq!(app.status_of(&booking).await, "PAYMENT_PENDING");
        assert_eq!(
            app.scalar(&format!(
                "select count(*) from payment where booking_id = '{booking}'"
            ))
            .await,
            1
        );
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_hold_that_ran_out_is_not_paid_from_its_page,
    |app: TestApp| async move {
        let (buyer, booking) = held(&app, 1).await;
        app.clock.advance_ms(app.state.rules.hold_ttl_ms + 1);
        let answer = pay_from_the_page(&app, &buyer, &booking).await;
        // Back to its page, which says the hold ended.
        assert_eq!(answer.status(), 200);
        assert_eq!(answer.url().path(), format!("/bookings/{booking}"));
        assert_ne!(app.status_of(&booking).await, "PAYMENT_PENDING");
        assert_eq!(
            app.scalar(&format!(
                "select count(*) from payment where booking_id = '{booking}'"
            ))
            .await,
            0
        );
    }
);

on_both_backends!(
    a_cabins_page_sends_its_buyer_to_name_the_guests_first,
    |app: TestApp| async move {
        let (buyer, booking) = held(&app, 2).await;
        let answer = pay_from_the_page(&app, &buyer, &booking).await;
        assert_eq!(answer.status(), 200);
        assert_eq!(answer.url().path(), format!("/bookings/{booking}/guests"));
        assert_eq!(app.status_of(&booking).await, "HELD");
    }
);

on_both_backends!(
    a_checkout_left_goes_on_with_the_same_session,
    |app: TestApp| async move {
        let (buyer, booking) = held(&app, 1).await;
        let first = buyer.pay(&booking).await;
        assert_eq!(first.status, 200, "{}", first.text);
        let first = first.json();
        // Paid again with a new key (Back, then Pay): the same session.
        let again = buyer.pay(&booking).await;
        assert_eq!(again.status, 200, "{}", again.text);
        let again = again.json();
        assert_eq!(again["checkoutSessionId"], first["checkoutSessionId"]);
        assert_eq!(again["checkoutUrl"], first["checkoutUrl"]);
        assert_eq!(again["status"], "PAYMENT_PENDING");
        assert!(again["expiresInMs"].as_i64().unwrap() > 0);
        let payments = format!("select count(*) from payment where booking_id = '{booking}'");
        assert_eq!(app.scalar(&payments).await, 1);
        // Another buyer asking to pay it: as if there were no such booking.
        let stranger = app.buyer().pay(&booking).await;
        assert_eq!(stranger.status, 404, "{}", stranger.text);
        assert!(!stranger.text.contains("checkout"), "{}", stranger.text);
        // The session paid: the booking is booked, and asking again
        // opens nothing.
        let paid = common::Answer {
            status: reqwest::StatusCode::OK,
            text: first.to_string(),
        };
        app.pay_on_sandbox(&paid, "fan@example.com", Delivery::Once)
            .await;
        app.deliver_events().await;
        assert_eq!(app.status_of(&booking).await, "BOOKED");
        let late = buyer.pay(&booking).await;
        assert_eq!(late.status, 409, "{}", late.text);
        assert_eq!(app.scalar(&payments).await, 1);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_checkout_left_past_its_time_is_not_opened_again,
    |app: TestApp| async move {
        let (buyer, booking) = held(&app, 1).await;
        assert_eq!(buyer.pay(&booking).await.status, 200);
        app.clock.advance_ms(time_left(&app, &booking).await + 1);
        let late = buyer.pay(&booking).await;
        assert_eq!(late.status, 409, "{}", late.text);
        assert_eq!(late.code(), "HOLD_EXPIRED");
        let payments = format!("select count(*) from payment where booking_id = '{booking}'");
        assert_eq!(app.scalar(&payments).await, 1);
    }
);

on_both_backends!(
    the_event_page_finds_the_buyers_running_hold,
    |app: TestApp| async move {
        let (buyer, booking) = held(&app, 1).await;
        let seat = app.first_seat(1).await;
        let mine = my_hold(&buyer, 1).await;
        assert_eq!(mine["bookingId"], booking.as_str(), "{mine}");
        assert_eq!(mine["status"], "HELD");
        assert_eq!(mine["seatIds"], serde_json::json!([seat]));
        let left = mine["expiresInMs"].as_i64().unwrap();
        assert!(left > 0 && left <= app.state.rules.hold_ttl_ms, "{left}");
        // Nobody else's page shows it; nor the buyer's other events.
        assert_eq!(my_hold(&app.buyer(), 1).await, Value::Null);
        assert_eq!(my_hold(&buyer, 3).await, Value::Null);
        // Paying begun (then Back from the provider): still theirs to pay.
        assert_eq!(buyer.pay(&booking).await.status, 200);
        let paying = my_hold(&buyer, 1).await;
        assert_eq!(paying["status"], "PAYMENT_PENDING", "{paying}");
        // Asked from another site with the buyer's cookie: refused.
        let forged = buyer
            .http
            .post(format!("{}{}", app.base, MyHold::PATH))
            .header("content-type", "application/x-www-form-urlencoded")
            .header("Origin", "https://evil.example")
            .header("Sec-Fetch-Site", "cross-site")
            .body("event_id=1")
            .send()
            .await
            .unwrap();
        assert_eq!(forged.status(), 403);
        // Its time over: nothing running to show.
        app.clock.advance_ms(time_left(&app, &booking).await);
        assert_eq!(my_hold(&buyer, 1).await, Value::Null);
    }
);

/// The booking's time left (ms) by the test's clock.
async fn time_left(app: &TestApp, booking: &str) -> i64 {
    let until = app
        .scalar(&format!(
            "select held_until from booking where id = '{booking}'"
        ))
        .await;
    until - app.clock.now().ms()
}

/// What the event page's `my_hold` answers `buyer` for `event`.
async fn my_hold(buyer: &common::Buyer, event: i64) -> Value {
    buyer
        .server_fn(MyHold::PATH, &format!("event_id={event}"))
        .await
}

/// A new buyer holding the event's first seat (or cabin), and the booking.
async fn held(app: &TestApp, event: i64) -> (common::Buyer, String) {
    let seat = app.first_seat(event).await;
    let buyer = app.buyer();
    let booking = buyer.held_booking(event, seat).await;
    (buyer, booking)
}

/// The booking page's Pay form, sent by `buyer` (redirects followed).
async fn pay_from_the_page(
    app: &TestApp,
    buyer: &common::Buyer,
    booking: &str,
) -> reqwest::Response {
    buyer
        .http
        .post(format!("{}/bookings/{booking}/pay", app.base))
        .send()
        .await
        .unwrap()
}
