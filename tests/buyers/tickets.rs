//! A booked booking's tickets on its page: one a seat, each with the code
//! of its own token (friends arriving apart each show theirs, and the door
//! admits each once), for the booking's owner only.

use crate::common;

use common::{Buyer, TestApp};
use holdfast_app::server_fns::bookings::TicketCodes;
use holdfast_core::payments::sandbox::Delivery;
use leptos::server_fn::ServerFn;
use serde_json::Value;

on_both_backends!(
    a_booked_booking_has_one_code_a_seat_for_its_owner_only,
    |app: TestApp| async move {
        let seats = app.arena_seats().await;
        let (buyer, booking) = app
            .book(&seats[..3], "friends@example.com", Delivery::Once)
            .await;
        let codes = ticket_codes(&buyer, &booking).await;
        let codes = codes.as_array().expect("a list");
        assert_eq!(codes.len(), 3, "{codes:?}");
        let svgs: std::collections::HashSet<&str> =
            codes.iter().map(|c| c["svg"].as_str().unwrap()).collect();
        assert_eq!(svgs.len(), 3, "each ticket its own code");
        assert!(codes
            .iter()
            .all(|c| c["svg"].as_str().unwrap().contains("<svg")));
        assert!(codes[0]["name"].as_str().unwrap().starts_with("Section "));
        // Each code is a ticket the door admits once, alone.
        let view = buyer.get(&format!("/api/bookings/{booking}")).await;
        assert_eq!(view.json()["tickets"].as_array().unwrap().len(), 3);

        // Somebody else asking for them: nothing, as for an unknown id.
        let stranger = ticket_codes(&app.buyer(), &booking).await;
        assert_eq!(stranger, Value::Array(Vec::new()));
        // A hold has no tickets yet.
        let other = app.buyer();
        let held = other.held_booking(1, seats[5]).await;
        assert_eq!(ticket_codes(&other, &held).await, Value::Array(Vec::new()));
    }
);

/// What the booking page's `ticket_codes` answers `buyer` for `booking`.
async fn ticket_codes(buyer: &Buyer, booking: &str) -> Value {
    buyer
        .server_fn(TicketCodes::PATH, &format!("booking_id={booking}"))
        .await
}
