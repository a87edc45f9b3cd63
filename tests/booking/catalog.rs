//! The walking skeleton through HTTP: events, the seat map, ETags, errors,
//! and demo data that a restart does not duplicate — on SQLite and Postgres.

use crate::common;

use common::TestApp;

on_both_backends!(
    the_event_list_shows_the_arena_the_cruise_and_hanoi,
    |app: TestApp| async move {
        let list = app.buyer().get("/api/events").await;
        assert_eq!(list.status, 200);
        let events = list.json();
        let events = events.as_array().expect("array");
        // The arena, the opera house, and 18 sailings (each an event): the
        // Aurora's 4 and the ferry's 7 each way.
        assert_eq!(events.len(), 20);
        let starts: Vec<&str> = events
            .iter()
            .map(|e| e["startsAt"].as_str().unwrap())
            .collect();
        let mut sorted = starts.clone();
        sorted.sort();
        assert_eq!(starts, sorted, "in order of start");
        let by_id = |id: i64| events.iter().find(|e| e["id"] == id).unwrap();
        assert_eq!(by_id(1)["kind"], "concert");
        assert_eq!(by_id(1)["seatCount"], 10_000);
        assert_eq!(by_id(1)["availableCount"], 10_000);
        assert_eq!(by_id(2)["kind"], "cruise");
        assert!(by_id(2)["startsAt"].as_str().unwrap().ends_with('Z'));
        // Hà Nội, in đồng (no decimals) and at 20:00 there.
        assert_eq!(by_id(3)["currency"], "VND");
        assert_eq!(by_id(3)["localStartsAt"], "2027-09-18T20:00:00+07:00");
        assert_eq!(by_id(3)["seatCount"], 556);
        let cruises = events.iter().filter(|e| e["kind"] == "cruise").count();
        assert_eq!(cruises, 18);
    }
);

on_both_backends!(
    the_seat_map_has_ten_thousand_seats_with_statuses,
    |app: TestApp| async move {
        let buyer = app.buyer();
        assert_eq!(buyer.hold(1, 17).await.status, 200);
        let map = buyer.get("/api/events/1/seats").await;
        assert_eq!(map.status, 200);
        let map = map.json();
        let seats = map["seats"].as_array().expect("seats");
        assert_eq!(seats.len(), 10_000);
        let held: Vec<_> = seats.iter().filter(|s| s["status"] == "HELD").collect();
        assert_eq!(held.len(), 1);
        assert_eq!(held[0]["id"], 17);
        let s = &seats[0];
        for field in [
            "id",
            "label",
            "section",
            "row",
            "number",
            "x",
            "y",
            "category",
            "priceCents",
            "status",
        ] {
            assert!(!s[field].is_null(), "seat field {field} missing");
        }
        let detail = buyer.get("/api/events/1").await.json();
        assert_eq!(detail["categories"].as_array().unwrap().len(), 5);
        assert_eq!(detail["generalAdmission"][0]["capacity"], 2000);
    }
);

on_both_backends!(
    the_seat_map_answers_304_until_something_changes,
    |app: TestApp| async move {
        let buyer = app.buyer();
        let r = seats_of(&app, &buyer, 2, None).await;
        let etag = r.headers()["etag"].to_str().unwrap().to_string();
        let again = seats_of(&app, &buyer, 2, Some(&etag)).await;
        assert_eq!(again.status(), 304);
        let seat: i64 = app.first_seat(2).await;
        assert_eq!(buyer.hold(2, seat).await.status, 200);
        // The snapshot may lag by its staleness bound; the clock is not it.
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let after = seats_of(&app, &buyer, 2, Some(&etag)).await;
        assert_eq!(after.status(), 200);
        assert_ne!(after.headers()["etag"].to_str().unwrap(), etag);
    }
);

on_both_backends!(
    an_expired_hold_changes_the_etag_without_any_write,
    |app: TestApp| async move {
        let buyer = app.buyer();
        assert_eq!(buyer.hold(1, 3).await.status, 200);
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let first = seats_of(&app, &buyer, 1, None).await;
        let etag = first.headers()["etag"].to_str().unwrap().to_string();
        app.clock.advance_ms(301_000);
        let later = seats_of(&app, &buyer, 1, Some(&etag)).await;
        assert_eq!(later.status(), 200, "the old ETag no longer matches");
        assert_ne!(later.headers()["etag"].to_str().unwrap(), etag);
        let later: serde_json::Value = later.json().await.unwrap();
        assert_eq!(later["seats"][2]["status"], "AVAILABLE");
    }
);

on_both_backends!(errors_come_in_the_api_shape, |app: TestApp| async move {
    let b = app.buyer();
    let unknown = b.get("/api/events/999").await;
    assert_eq!(unknown.status, 404);
    assert_eq!(unknown.code(), "NOT_FOUND");
    let malformed = b.get("/api/events/abc/seats").await;
    assert_eq!(malformed.status, 400);
    assert_eq!(malformed.code(), "VALIDATION");
    assert_eq!(malformed.json()["error"]["fields"][0], "eventId");
    // Every id in a path is named as the API names it when it is wrong.
    let key = common::new_key();
    for (path, field) in [
        ("/api/events/1/seats/0/hold", "seatId"),
        ("/api/events/x/seats/1/hold", "eventId"),
        ("/api/events/1/general-admission/-2/hold", "areaId"),
        ("/api/bookings/not-a-uuid/pay", "bookingId"),
    ] {
        let wrong = b.post(path, Some(&key), None).await;
        assert_eq!(wrong.status, 400, "{path}: {}", wrong.text);
        assert_eq!(wrong.json()["error"]["fields"][0], field, "{path}");
    }
    let nowhere = b.get("/api/no-such-thing").await;
    assert_eq!(nowhere.status, 404);
    assert_eq!(nowhere.code(), "NOT_FOUND");
    let health = b.get("/healthz").await;
    assert_eq!(health.status, 200);
    assert_eq!(b.get("/readyz").await.status, 200);
});

on_both_backends!(
    a_restart_does_not_duplicate_the_demo_data,
    |app: TestApp| async move {
        let again = common::spawn_on(&app.database_url, None, |_| {}).await;
        assert_eq!(again.scalar("select count(*) from event").await, 20);
        // The arena, the opera house, 4 sailings of 300 cabins, 14 of 270
        // seats and rooms.
        assert_eq!(again.scalar("select count(*) from seat").await, 15_536);
        assert_eq!(again.scalar("select count(*) from ga_area").await, 1);
        assert_eq!(again.scalar("select count(*) from ship").await, 2);
        assert_eq!(again.scalar("select count(*) from route").await, 3);
        assert_eq!(again.scalar("select count(*) from sailing").await, 18);
        assert_eq!(
            again.scalar("select count(*) from cabin").await,
            4 * 300 + 14 * 6
        );
        assert_eq!(
            again.scalar("select count(*) from port_call").await,
            4 * 7 + 14 * 2
        );
    }
);

on_both_backends!(pages_render_on_the_server, |app: TestApp| async move {
    let b = app.buyer();
    let home = b.get("/").await;
    assert_eq!(home.status, 200);
    assert!(home.text.contains("Northern Lights Live"));
    let map = b.get("/events/1").await;
    assert_eq!(map.status, 200);
    // The page is the frame (name, date, prices, stage, sections); the
    // seats come apart, as a drawing the browser keeps and status letters.
    assert!(map.text.contains("Northern Lights Live"));
    assert!(map.text.contains("section-label"));
    assert!(map.text.contains("/api/events/1/seats/drawing?v="));
    assert_eq!(map.text.matches("class=\"seat ").count(), 0);
});

/// The event's seat map as the buyer fetches it, with an ETag it holds.
async fn seats_of(
    app: &TestApp,
    buyer: &common::Buyer,
    event: i64,
    etag: Option<&str>,
) -> reqwest::Response {
    let mut request = buyer
        .http
        .get(format!("{}/api/events/{event}/seats", app.base));
    if let Some(etag) = etag {
        request = request.header("If-None-Match", etag);
    }
    request.send().await.unwrap()
}

on_both_backends!(
    an_events_refund_policy_is_shown_before_anyone_pays,
    |app: TestApp| async move {
        // Hà Nội at 20:00 there: in full until 14 days before, half until 2.
        app.set_refund_policy(
            3,
            serde_json::json!({
                "fullRefundUntilDays": 14,
                "partialRefundUntilDays": 2,
                "partialRefundPercent": 50
            }),
        )
        .await;
        let event = app.buyer().get("/api/events/3").await.json();
        let windows = event["refundWindows"].as_array().expect("windows");
        assert_eq!(windows.len(), 2, "{event}");
        assert_eq!(windows[0]["percent"], 100);
        assert_eq!(windows[0]["localUntil"], "2027-09-04T20:00:00+07:00");
        assert_eq!(windows[0]["until"], "2027-09-04T13:00:00.000Z");
        assert_eq!(windows[1]["percent"], 50);
        assert_eq!(windows[1]["localUntil"], "2027-09-16T20:00:00+07:00");
        assert_eq!(windows[1]["timeZoneAbbreviation"], "UTC+07");
        // The page says it, with its dates in the event's zone.
        let page = app.buyer().get("/events/3").await;
        assert!(
            page.text.contains("all your money back until")
                && page.text.contains("2027")
                && page.text.contains("50 % back until"),
            "{}",
            page.text
        );
        // An event whose buyers cannot cancel says so.
        let arena = app.buyer().get("/events/1").await;
        assert!(
            arena
                .text
                .contains("Tickets cannot be cancelled once paid."),
            "{}",
            arena.text
        );
        // Once the full window has closed, only the half is left to offer.
        let starts = 1_821_272_400_000_i64; // 2027-09-18T13:00:00Z
        let now = holdfast_core::platform::clock::Clock::now(&*app.clock).ms();
        app.clock.advance_ms(starts - 10 * 86_400_000 - now);
        let event = app.buyer().get("/api/events/3").await.json();
        let windows = event["refundWindows"].as_array().expect("windows");
        assert_eq!(windows.len(), 1, "{event}");
        assert_eq!(windows[0]["percent"], 50);
    }
);
