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
        let seat = app.first_seat(1).await;
        let buyer = app.buyer();
        let booking = buyer.held_booking(1, seat).await;
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
        let seat = app.first_seat(1).await;
        let buyer = app.buyer();
        let booking = buyer.held_booking(1, seat).await;
        app.clock.advance_ms(app.state.rules.hold_ttl_ms + 1);
        let answer = buyer
            .http
            .post(format!("{}/bookings/{booking}/pay", app.base))
            .send()
            .await
            .unwrap();
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
        let cabin = app.first_seat(2).await;
        let buyer = app.buyer();
        let booking = buyer.held_booking(2, cabin).await;
        let answer = buyer
            .http
            .post(format!("{}/bookings/{booking}/pay", app.base))
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 200);
        assert_eq!(answer.url().path(), format!("/bookings/{booking}/guests"));
        assert_eq!(app.status_of(&booking).await, "HELD");
    }
);
