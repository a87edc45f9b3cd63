//! A hold belongs to the buyer, not to the tab: its booking page pays for
//! it (`POST /bookings/{id}/pay`, a plain form) wherever the buyer comes
//! back to it — after a reload, Back, or on another device of their
//! account. Only the hold's buyer, only from the site itself, only while it
//! runs; a ship's guests are named first.

use crate::common;
use common::TestApp;

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
        // Sent again (a second click): back to the booking, which says
        // where it stands; still one checkout.
        let again = buyer.http.post(&url).send().await.unwrap();
        assert_ne!(again.status(), 500);
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
