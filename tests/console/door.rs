//! Tickets at the door: one ticket per seat (or standing place), checked in
//! once however many scanners read it at the same moment; the booking's own
//! ticket lets the whole party in; refunded, forged and anonymous scans are
//! refused. SQLite and Postgres.

use crate::common;

use common::TestApp;
use futures::future::join_all;
use holdfast_core::payments::sandbox::Delivery;
use serde_json::json;

fn tickets(view: &serde_json::Value) -> Vec<(String, String)> {
    view["tickets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["unit"].as_str().unwrap().to_string(),
                t["token"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

async fn scan(app: &TestApp, token: &str, gate: &str) -> common::Answer {
    app.admin()
        .post(
            &format!("/api/admin/tickets/{token}/check-in"),
            None,
            Some(json!({ "gate": gate })),
        )
        .await
}

on_both_backends!(
    fifty_scanners_at_once_let_a_ticket_in_once,
    |app: TestApp| async move {
        let (buyer, booking) = app
            .book(&[310, 311], "door@example.com", Delivery::Once)
            .await;
        let view = buyer.get(&format!("/api/bookings/{booking}")).await.json();
        let tickets = tickets(&view);
        assert_eq!(
            tickets.iter().map(|t| t.0.as_str()).collect::<Vec<_>>(),
            ["310", "311"]
        );
        let answers = join_all(
            (0..50).map(|i| scan(&app, &tickets[0].1, if i % 2 == 0 { "A" } else { "B" })),
        )
        .await;
        let ok: Vec<_> = answers.iter().filter(|a| a.status == 200).collect();
        assert_eq!(
            ok.len(),
            1,
            "{:?}",
            answers.iter().map(|a| a.status).collect::<Vec<_>>()
        );
        let first = ok[0].json();
        assert_eq!(first["units"], json!(["310"]));
        for a in answers.iter().filter(|a| a.status != 200) {
            assert_eq!(a.status, 409, "{}", a.text);
            assert_eq!(a.code(), "ALREADY_CHECKED_IN");
            let e = &a.json()["error"];
            assert_eq!(e["gate"], first["gate"]);
            assert_eq!(e["checkedInAt"], first["checkedInAt"]);
            assert!(e["message"].as_str().unwrap().contains("gate"));
        }
        assert_eq!(app.scalar("select count(*) from ticket_checkin").await, 1);
        // The other seat's holder still gets in; the party's ticket no more.
        assert_eq!(scan(&app, &tickets[1].1, "A").await.status, 200);
        let party = view["ticket"].as_str().unwrap();
        assert_eq!(scan(&app, party, "A").await.code(), "ALREADY_CHECKED_IN");
        let audit = app
            .scalar("select count(*) from audit_log where action = 'check_in'")
            .await;
        assert_eq!(audit, 2);
    }
);

on_both_backends!(
    the_bookings_own_ticket_lets_the_whole_party_in,
    |app: TestApp| async move {
        let (buyer, booking) = app
            .book(&[320, 321, 322], "party@example.com", Delivery::Once)
            .await;
        let view = buyer.get(&format!("/api/bookings/{booking}")).await.json();
        let party = view["ticket"].as_str().unwrap().to_string();
        let answer = scan(&app, &party, "North").await;
        assert_eq!(answer.status, 200, "{}", answer.text);
        assert_eq!(answer.json()["units"], json!(["320", "321", "322"]));
        assert_eq!(answer.json()["gate"], "North");
        let seat = &tickets(&view)[1].1;
        let again = scan(&app, seat, "South").await;
        assert_eq!(again.code(), "ALREADY_CHECKED_IN");
        assert_eq!(again.json()["error"]["gate"], "North");
        // The door check still says the ticket is genuine and BOOKED.
        let door = app
            .buyer()
            .get(&format!("/api/tickets/{seat}"))
            .await
            .json();
        assert_eq!(door["valid"], true);
        assert_eq!(door["bookingId"], booking.as_str());
    }
);

on_both_backends!(
    standing_places_each_have_a_ticket,
    |app: TestApp| async move {
        let area = app.scalar("select min(id) from ga_area").await;
        let buyer = app.buyer();
        let held = buyer
            .post(
                &format!("/api/events/1/general-admission/{area}/hold"),
                Some(&common::new_key()),
                Some(json!({ "quantity": 2 })),
            )
            .await;
        assert_eq!(held.status, 200, "{}", held.text);
        let booking = held.json()["bookingId"].as_str().unwrap().to_string();
        let paid = buyer.pay(&booking).await;
        app.pay_on_sandbox(&paid, "floor@example.com", Delivery::Once)
            .await;
        app.deliver_events().await;
        let view = buyer.get(&format!("/api/bookings/{booking}")).await.json();
        let tickets = tickets(&view);
        assert_eq!(
            tickets.iter().map(|t| t.0.as_str()).collect::<Vec<_>>(),
            ["p1", "p2"]
        );
        assert_eq!(scan(&app, &tickets[1].1, "Floor").await.status, 200);
        assert_eq!(scan(&app, &tickets[0].1, "Floor").await.status, 200);
        assert_eq!(scan(&app, &tickets[0].1, "Floor").await.status, 409);
    }
);

on_both_backends!(
    refunded_forged_and_anonymous_scans_are_refused,
    |app: TestApp| async move {
        let (buyer, booking) = app.book(&[330], "gone@example.com", Delivery::Once).await;
        let view = buyer.get(&format!("/api/bookings/{booking}")).await.json();
        let token = tickets(&view)[0].1.clone();
        // Nobody without staff credentials checks anyone in.
        let anonymous = app
            .buyer()
            .post(&format!("/api/admin/tickets/{token}/check-in"), None, None)
            .await;
        assert_eq!(anonymous.status, 401, "{}", anonymous.text);
        let forged = format!("{}0", &token[..token.len() - 1]);
        let forged = if forged == token {
            format!("{}1", &token[..token.len() - 1])
        } else {
            forged
        };
        assert_eq!(scan(&app, &forged, "A").await.status, 404);
        let too_long = scan(&app, &token, &"G".repeat(41)).await;
        assert_eq!(too_long.status, 422, "{}", too_long.text);
        let refund = app
            .admin()
            .post(&format!("/api/admin/bookings/{booking}/refund"), None, None)
            .await;
        assert_eq!(refund.status, 200);
        let refused = scan(&app, &token, "A").await;
        assert_eq!(refused.status, 409, "{}", refused.text);
        assert_eq!(refused.code(), "TICKET_VOID");
        assert_eq!(app.scalar("select count(*) from ticket_checkin").await, 0);
        // The booking no longer hands out tickets.
        let view = buyer.get(&format!("/api/bookings/{booking}")).await.json();
        assert!(view.get("tickets").is_none() || view["tickets"].as_array().unwrap().is_empty());
    }
);

async fn scan_at(app: &TestApp, token: &str, event: i64) -> common::Answer {
    app.admin()
        .post(
            &format!("/api/admin/tickets/{token}/check-in"),
            None,
            Some(json!({ "eventId": event, "gate": "North" })),
        )
        .await
}

// A ticket gets in only at its own event's door, and the answer names the
// event, its start and the seat.
on_both_backends!(
    a_ticket_is_let_in_only_at_its_own_events_door,
    |app: TestApp| async move {
        let (buyer, booking) = app.book(&[320], "night@example.com", Delivery::Once).await;
        let view = buyer.get(&format!("/api/bookings/{booking}")).await.json();
        let token = tickets(&view)[0].1.clone();
        let elsewhere = app.scalar("select max(id) from event where id <> 1").await;
        let wrong = scan_at(&app, &token, elsewhere).await;
        assert_eq!(wrong.status, 409, "{}", wrong.text);
        assert_eq!(wrong.code(), "WRONG_EVENT");
        let name = view["event"]["name"].as_str().unwrap();
        assert!(
            wrong.text.contains(name),
            "names the ticket's event: {}",
            wrong.text
        );
        assert_eq!(app.scalar("select count(*) from ticket_checkin").await, 0);
        // The party's ticket too.
        let party = view["ticket"].as_str().unwrap();
        assert_eq!(scan_at(&app, party, elsewhere).await.code(), "WRONG_EVENT");
        // At its own door.
        let right = scan_at(&app, &token, 1).await;
        assert_eq!(right.status, 200, "{}", right.text);
        let answer = right.json();
        assert_eq!(answer["eventId"], 1);
        assert_eq!(answer["eventName"], name);
        assert!(!answer["eventStarts"].as_str().unwrap().is_empty());
        let place = answer["places"][0].as_str().unwrap();
        assert!(place.contains("row") && place.contains("seat"), "{place}");
    }
);

// A buyer whose ticket was scanned cannot cancel for a refund.
on_both_backends!(
    a_booking_checked_in_cannot_be_cancelled_by_its_buyer,
    |app: TestApp| async move {
        let (buyer, booking) = app
            .book(&[321, 322], "in@example.com", Delivery::Once)
            .await;
        app.set_refund_policy(1, json!({ "fullRefundUntilDays": 1 }))
            .await;
        let view = buyer.get(&format!("/api/bookings/{booking}")).await.json();
        assert!(view["cancelRefundCents"].is_number(), "{view}");
        assert_eq!(scan_at(&app, &tickets(&view)[0].1, 1).await.status, 200);
        let shown = buyer.get(&format!("/api/bookings/{booking}")).await.json();
        assert!(
            shown.get("cancelRefundCents").is_none(),
            "no cancelling offered: {shown}"
        );
        let cancel = buyer
            .post(
                &format!("/api/bookings/{booking}/cancel"),
                Some(&common::new_key()),
                None,
            )
            .await;
        assert_eq!(cancel.status, 409, "{}", cancel.text);
        assert!(cancel.text.contains("used at the door"), "{}", cancel.text);
        assert_eq!(app.status_of(&booking).await, "BOOKED");
        app.dispatch_outbox().await;
        assert_eq!(app.status_of(&booking).await, "BOOKED");
        app.assert_invariants().await;
    }
);
