//! What and when, everywhere: an event's start in its own time zone on the
//! event list, on the booking and in the confirmation; places named the
//! same way everywhere, by the kind of event (seats, or a ship's cabins).

use crate::common;

use common::TestApp;
use holdfast_core::payments::sandbox::Delivery;
use serde_json::json;

on_both_backends!(
    events_start_in_their_own_time_zone,
    |app: TestApp| async move {
        let events = app.buyer().get("/api/events").await.json();
        let arena = &events[0];
        assert_eq!(arena["startsAt"], "2027-03-14T19:30:00.000Z");
        assert_eq!(arena["timeZone"], "Europe/Oslo");
        assert_eq!(arena["localStartsAt"], "2027-03-14T20:30:00+01:00");
        assert_eq!(arena["timeZoneAbbreviation"], "CET");
        // The cruise sails in summer: the same zone, summer time.
        let cruise = events
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["id"] == 2)
            .unwrap();
        assert_eq!(cruise["timeZoneAbbreviation"], "CEST");
        assert_eq!(cruise["localStartsAt"], "2027-06-05T18:00:00+02:00");
    }
);

on_both_backends!(
    an_organizer_sets_a_start_in_the_event_s_own_zone,
    |app: TestApp| async move {
        let admin = app.admin();
        let layout = |zone: &str, starts: &str| {
            json!({
                "name": "Đêm nhạc Hà Nội", "kind": "concert", "venue": "Nhà hát Lớn",
                "startsAt": starts, "timeZone": zone, "currency": "EUR",
                "categories": [ { "code": "A", "name": "Stalls", "priceCents": 3000, "color": "#c0392b" } ],
                "sections": [ { "name": "Stalls", "category": "A", "rows": 2, "seatsPerRow": 4, "x": 0, "y": 0 } ]
            })
        };
        let before = app.scalar("select count(*) from event").await;
        for (zone, starts, field) in [
            ("Mars/Olympus", "2027-06-01T20:00", "timeZone"),
            ("Asia/Ho_Chi_Minh", "20:00 tonight", "startsAt"),
        ] {
            let refused = admin
                .post("/api/admin/events", None, Some(layout(zone, starts)))
                .await;
            assert_eq!(refused.status, 422, "{}", refused.text);
            assert_eq!(
                refused.json()["error"]["fieldErrors"][0]["field"],
                field,
                "{}",
                refused.text
            );
        }
        assert_eq!(app.scalar("select count(*) from event").await, before);

        let id = app
            .published_event(layout("Asia/Ho_Chi_Minh", "2027-06-01T20:00"))
            .await;
        let event = app.buyer().get(&format!("/api/events/{id}")).await.json();
        assert_eq!(event["startsAt"], "2027-06-01T13:00:00.000Z");
        assert_eq!(event["localStartsAt"], "2027-06-01T20:00:00+07:00");
        assert_eq!(event["timeZoneAbbreviation"], "UTC+07");
    }
);

on_both_backends!(
    a_booking_says_what_where_and_when_and_names_its_places,
    |app: TestApp| async move {
        let (buyer, booking) = app.book(&[5, 6], "fan@example.com", Delivery::Once).await;
        let view = buyer.get(&format!("/api/bookings/{booking}")).await.json();
        assert_eq!(view["event"]["name"], "Northern Lights Live — Arena Tour");
        assert_eq!(view["event"]["venue"], "Harbour Arena");
        assert_eq!(view["event"]["localStartsAt"], "2027-03-14T20:30:00+01:00");
        let name = view["seats"][0]["name"].as_str().unwrap();
        assert!(
            name.starts_with("Section ") && name.contains(", row ") && name.contains(", seat "),
            "{name}"
        );
        assert_eq!(
            view["tickets"][0]["name"], name,
            "the ticket names it the same"
        );
        assert_eq!(
            view["tickets"][0]["label"], view["seats"][0]["label"],
            "a ticket's label stays the seat's short label"
        );
        let listed = buyer.get("/api/bookings").await.json();
        assert_eq!(listed[0]["event"]["name"], view["event"]["name"]);

        app.dispatch_outbox().await;
        let (body,): (String,) = sqlx::query_as("select body from mailbox where booking_id = $1")
            .bind(&booking)
            .fetch_one(app.state.db.reader())
            .await
            .unwrap();
        assert!(body.contains("Northern Lights Live — Arena Tour"), "{body}");
        assert!(
            body.contains("Harbour Arena · Sun 14 March 2027, 20:30 CET"),
            "{body}"
        );
        assert!(body.contains(name), "{body}");
        assert!(body.contains("Enjoy the show!"), "{body}");

        // On the ship: cabins on decks, and a voyage wished.
        let cabin = app.first_seat(2).await;
        let passenger = app.buyer();
        let cruise_booking = passenger.held_booking(2, cabin).await;
        let cruise_view = passenger
            .get(&format!("/api/bookings/{cruise_booking}"))
            .await
            .json();
        let cabin_name = cruise_view["seats"][0]["name"].as_str().unwrap();
        assert!(
            cabin_name.starts_with("Deck 5, Port, cabin 500"),
            "{cabin_name}"
        );
    }
);
