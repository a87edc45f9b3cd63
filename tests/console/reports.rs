//! What an organizer reads and takes away: sales per category and section
//! while many buyers hold at once (every line adds up to its places, the
//! lines to the dashboard's tiles, a lapsed hold counts as free), and the
//! attendee list as CSV (paid bookings only, emails, places, door scans).
//! SQLite and Postgres.

use crate::common;

use std::collections::HashMap;

use common::TestApp;
use futures::future::join_all;
use holdfast_core::payments::sandbox::Delivery;
use serde_json::{json, Value};

fn n(v: &Value, field: &str) -> i64 {
    v[field]
        .as_i64()
        .unwrap_or_else(|| panic!("{field} in {v}"))
}

on_both_backends!(
    sales_lines_add_up_while_buyers_hold_at_once,
    |app: TestApp| async move {
        // Forty buyers hold two seats each at once, spread over the arena.
        let seats = app.arena_seats().await;
        let step = seats.len() / 40;
        let buyers: Vec<_> = (0..40).map(|_| app.buyer()).collect();
        let held = join_all(buyers.iter().enumerate().map(|(i, b)| {
            let pair = [seats[i * step], seats[i * step + 1]];
            async move { b.hold_many(1, &pair).await }
        }))
        .await;
        assert!(held.iter().all(|a| a.status == 200), "every hold taken");
        // Three are paid for; one of those is refunded.
        let mut booked = Vec::new();
        for i in 0..3 {
            let pair = [seats[i * step + 2], seats[i * step + 3]];
            booked.push(
                app.book(&pair, &format!("fan{i}@example.com"), Delivery::Once)
                    .await
                    .1,
            );
        }
        app.refund_by_admin(&booked[2]).await;
        app.dispatch_outbox().await;
        app.deliver_events().await;
        // Standing places held.
        let area = app.scalar("select min(id) from ga_area").await;
        let ga = app
            .buyer()
            .post(
                &format!("/api/events/1/general-admission/{area}/hold"),
                Some(&common::new_key()),
                Some(json!({ "quantity": 3 })),
            )
            .await;
        assert_eq!(ga.status, 200, "{}", ga.text);

        let admin = app.admin();
        let sales = admin.get("/api/admin/events/1/sales").await;
        assert_eq!(sales.status, 200, "{}", sales.text);
        let lines = sales.json();
        let lines = lines.as_array().unwrap();
        let dash = admin.get("/api/admin/events/1/dashboard").await.json();
        assert_eq!(
            dash["sales"].as_array().unwrap(),
            lines,
            "the dashboard shows the same"
        );
        let mut totals: HashMap<&str, i64> = HashMap::new();
        for l in lines.iter().filter(|l| !l["standing"].as_bool().unwrap()) {
            assert_eq!(
                n(l, "sold") + n(l, "held") + n(l, "inPayment") + n(l, "free"),
                n(l, "places"),
                "{l}"
            );
            for f in ["sold", "held", "inPayment", "free", "places", "soldCents"] {
                *totals.entry(f).or_default() += n(l, f);
            }
        }
        let counts = &dash["counts"];
        assert_eq!(totals["sold"], n(counts, "booked"));
        assert_eq!(totals["sold"], 4, "two bookings of two stay sold");
        assert_eq!(totals["held"], n(counts, "held"));
        assert_eq!(totals["held"], 80);
        assert_eq!(totals["free"], n(counts, "available"));
        assert_eq!(totals["places"] as usize, seats.len());
        let sold_cents = app
            .scalar(
                "select cast(sum(bs.price_cents) as bigint) from booking_seat bs
                 join booking b on b.id = bs.booking_id where b.status = 'BOOKED' and bs.live = 1",
            )
            .await;
        assert_eq!(totals["soldCents"], sold_cents);
        let standing: Vec<&Value> = lines
            .iter()
            .filter(|l| l["standing"].as_bool().unwrap())
            .collect();
        let floor = standing
            .iter()
            .find(|l| n(l, "held") == 3)
            .expect("the held places");
        assert_eq!(n(floor, "free"), n(floor, "places") - 3);
        // The tiles' places: seats and standing places alike, the lines' totals.
        let places = &dash["places"];
        for (tile, line) in [
            ("booked", "sold"),
            ("held", "held"),
            ("inPayment", "inPayment"),
            ("available", "free"),
        ] {
            let all: i64 = lines.iter().map(|l| n(l, line)).sum();
            assert_eq!(n(places, tile), all, "{tile}: {places}");
        }
        assert_eq!(n(places, "held"), 83, "80 seats and 3 standing places held");
        // The console's home: the same sold count and revenue, of the
        // capacity seats and standing places make, the date in the zone.
        let events = admin.get("/api/admin/events").await.json();
        let arena = events
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["id"] == 1)
            .expect("event 1");
        let standing_capacity = app
            .scalar("select cast(sum(capacity) as bigint) from ga_area where event_id = 1")
            .await;
        assert_eq!(n(arena, "sold"), n(places, "booked"), "{arena}");
        assert_eq!(n(arena, "capacity"), seats.len() as i64 + standing_capacity);
        assert_eq!(n(arena, "revenueCents"), n(&dash, "revenueCents"));
        assert_eq!(arena["sale"], "on_sale");
        assert!(
            arena["startsAtLocal"].as_str().unwrap().starts_with("20"),
            "{arena}"
        );

        // Time runs out for the holds: their seats count as free at once,
        // before any sweep.
        app.clock.advance_ms(3_600_000);
        let lines = admin.get("/api/admin/events/1/sales").await.json();
        let held: i64 = lines.as_array().unwrap().iter().map(|l| n(l, "held")).sum();
        assert_eq!(held, 0);
        let free: i64 = lines
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| !l["standing"].as_bool().unwrap())
            .map(|l| n(l, "free"))
            .sum();
        assert_eq!(free as usize, seats.len() - 4);

        assert_eq!(
            app.buyer().get("/api/admin/events/1/sales").await.status,
            401
        );
        let unknown = admin.get("/api/admin/events/999/sales").await;
        assert_eq!(
            (unknown.status.as_u16(), unknown.code().as_str()),
            (404, "NOT_FOUND")
        );
        app.assert_invariants().await;
    }
);

on_both_backends!(
    the_attendee_list_has_every_paid_booking_and_its_door_scans,
    |app: TestApp| async move {
        let (buyer, kept) = app
            .book(&[410, 411], "=ann@example.com", Delivery::Once)
            .await;
        // Listed in the order booked.
        app.clock.advance_ms(1_000);
        let (_, refunded) = app.book(&[412], "bo@example.com", Delivery::Once).await;
        app.refund_by_admin(&refunded).await;
        app.dispatch_outbox().await;
        app.deliver_events().await;
        // A hold never paid is not an attendee.
        app.buyer().held_booking(1, 413).await;
        // One of the kept booking's tickets is scanned at the door.
        let view = buyer.get(&format!("/api/bookings/{kept}")).await.json();
        let token = view["tickets"][0]["token"].as_str().unwrap().to_string();
        let scanned = app
            .admin()
            .post(
                &format!("/api/admin/tickets/{token}/check-in"),
                None,
                Some(json!({ "gate": "A" })),
            )
            .await;
        assert_eq!(scanned.status, 200, "{}", scanned.text);

        let r = app
            .admin()
            .http
            .get(format!("{}/api/admin/events/1/attendees.csv", app.base))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(r.headers()["content-type"], "text/csv; charset=utf-8");
        assert!(r.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains("attendees-event-1.csv"));
        let body = r.text().await.unwrap();
        let lines: Vec<&str> = body.split("\r\n").filter(|l| !l.is_empty()).collect();
        assert_eq!(
            lines[0],
            "booking,names,email,places,tickets,checked_in,status"
        );
        assert_eq!(lines.len(), 3, "{body}");
        let labels: Vec<(String,)> =
            sqlx::query_as("select label from seat where id in (410, 411, 412) order by id")
                .fetch_all(app.state.db.reader())
                .await
                .unwrap();
        assert_eq!(
            lines[1],
            format!(
                "{kept},,'=ann@example.com,{}; {},2,1,BOOKED",
                labels[0].0, labels[1].0
            ),
            "a formula-looking email is defused"
        );
        assert_eq!(
            lines[2],
            format!("{refunded},,bo@example.com,{},1,0,REFUNDED", labels[2].0)
        );

        // The console's booking search: by a piece of the email, a seat's
        // name or the booking id, any case; LIKE's wildcards are literal.
        let find = |q: String| {
            let state = app.state.clone();
            async move {
                holdfast_core::admin::console::find_bookings(&state, holdfast_model::EventId(1), &q)
                    .await
                    .unwrap()
            }
        };
        let ids = |found: Vec<holdfast_model::console::BookingActivity>| -> Vec<String> {
            found
                .into_iter()
                .map(|b| b.booking_id.to_string())
                .collect()
        };
        assert_eq!(ids(find("BO@EXAMPLE".into()).await), [refunded.as_str()]);
        assert_eq!(ids(find(labels[0].0.to_lowercase()).await), [kept.as_str()]);
        assert!(find("%".into()).await.is_empty());
        assert!(find("_".into()).await.is_empty());
        let by_id = find(kept[..8].to_string()).await;
        assert_eq!(ids(by_id.clone()), [kept.as_str()]);
        assert_eq!(by_id[0].buyer_email.as_deref(), Some("=ann@example.com"));
        assert_eq!(
            by_id[0].seat_labels,
            [labels[0].0.clone(), labels[1].0.clone()]
        );
        assert_eq!(
            app.buyer()
                .get("/api/admin/events/1/attendees.csv")
                .await
                .status,
            401
        );
        let unknown = app.admin().get("/api/admin/events/999/attendees.csv").await;
        assert_eq!(unknown.status, 404);
    }
);

on_both_backends!(
    the_console_reads_the_map_by_sale_while_the_waiting_room_turns_buyers_away,
    |app: TestApp| async move {
        app.set_room(true).await;
        let buyer = app.buyer();
        let refused = buyer.get("/api/events/1/seats/status").await;
        assert_ne!(refused.status, 200, "a buyer not let in: {}", refused.text);
        let console = app.buyer();
        let signed = console
            .post(
                "/api/admin/login",
                None,
                Some(json!({ "password": holdfast::server::config::TEST_ADMIN_PASSWORD })),
            )
            .await;
        assert_eq!(signed.status, 200, "{}", signed.text);
        let statuses = console.get("/api/events/1/seats/status").await;
        assert_eq!(statuses.status, 200, "{}", statuses.text);
        let dash = console.get("/api/admin/events/1/dashboard").await.json();
        let url = dash["heatMap"]["drawingUrl"].as_str().unwrap().to_string();
        assert_eq!(console.get(&url).await.status, 200);
        // Signed out, the console is a buyer like any other.
        console.post("/api/admin/logout", None, None).await;
        assert_ne!(console.get("/api/events/1/seats/status").await.status, 200);
    }
);
