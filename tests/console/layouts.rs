//! An event's layout after it is made: kept and exported (`GET …/layout`,
//! with the event's own times and on-sale moves), replaced whole while it
//! was never published (`PUT …/layout`), refused from its first publishing
//! on, withdrawn or not; edits racing each other and a publish leave
//! exactly one layout's seats, never a mixture. Curved sections come out
//! as arcs. SQLite and Postgres.

use crate::common;

use common::TestApp;
use futures::future::join_all;
use holdfast_model::console::{CategorySpec, SectionSpec};
use reqwest::Method;
use serde_json::{json, Value};

/// `rows` rows of 8 in section "Left" (curved 40°), a second category and
/// a standing area in it.
fn layout(name: &str, rows: i64) -> Value {
    json!({
        "name": name,
        "kind": "concert",
        "venue": "Spektrum",
        "startsAt": "2027-06-01T20:00",
        "timeZone": "Europe/Oslo",
        "currency": "EUR",
        "categories": [
            { "code": "A", "name": "Front", "priceCents": 8500, "color": "#1f6feb" },
            { "code": "B", "name": "Floor", "priceCents": 4000, "color": "#2471a3" }
        ],
        "sections": [
            { "name": "Left", "category": "A", "rows": rows, "seatsPerRow": 8, "x": 0, "y": 0, "curve": 40 }
        ],
        "generalAdmission": [ { "name": "Pit", "category": "B", "capacity": 50 } ]
    })
}

/// The layout's sections and categories as the server reads them (so
/// `40` and `40.0`, a missing field and `null`, are alike).
fn parts(layout: &Value) -> (Vec<SectionSpec>, Vec<CategorySpec>) {
    (
        serde_json::from_value(layout["sections"].clone()).unwrap(),
        serde_json::from_value(layout["categories"].clone()).unwrap(),
    )
}

async fn put(app: &TestApp, event: i64, body: Value) -> common::Answer {
    app.admin()
        .send(
            Method::PUT,
            &format!("/api/admin/events/{event}/layout"),
            &[],
            Some(body),
        )
        .await
}

async fn count(app: &TestApp, table: &str, event: i64) -> i64 {
    app.scalar(&format!(
        "select count(*) from {table} where event_id = {event}"
    ))
    .await
}

/// The event's seats, categories and standing areas, as counts.
async fn shape(app: &TestApp, event: i64) -> (i64, i64, i64) {
    (
        count(app, "seat", event).await,
        count(app, "price_category", event).await,
        count(app, "ga_area", event).await,
    )
}

on_both_backends!(
    a_layout_is_kept_and_edited_until_buyers_can_touch_it,
    |app: TestApp| async move {
        let admin = app.admin();
        // The start sent in UTC: 18:00Z is 20:00 in Oslo in June.
        let mut first = layout("Arena night", 3);
        first["startsAt"] = json!("2027-06-01T18:00:00Z");
        let created = admin
            .post("/api/admin/events", None, Some(first.clone()))
            .await;
        assert_eq!(created.status, 201, "{}", created.text);
        let event = created.json()["eventId"].as_i64().unwrap();

        // Exported as sent, its times as the event's own wall clock (what a
        // form shows and `PUT` takes back unchanged).
        let kept = admin
            .get(&format!("/api/admin/events/{event}/layout"))
            .await;
        assert_eq!(kept.status, 200, "{}", kept.text);
        let kept = kept.json();
        assert_eq!(parts(&kept), parts(&first));
        assert_eq!(kept["timeZone"], "Europe/Oslo");
        assert_eq!(kept["startsAt"], "2027-06-01T20:00");
        assert_eq!(kept["onSaleAt"], "");
        // A move of the on-sale time shows in the export too.
        let moved = admin
            .send(
                Method::PUT,
                &format!("/api/admin/events/{event}/on-sale"),
                &[],
                Some(json!({ "onSaleAt": "2027-05-01T10:00" })),
            )
            .await;
        assert_eq!(moved.status, 200, "{}", moved.text);
        let kept = admin
            .get(&format!("/api/admin/events/{event}/layout"))
            .await
            .json();
        assert_eq!(kept["onSaleAt"], "2027-05-01T10:00");

        // The curved rows are arcs: the ends nearer the stage than the middle.
        let front: Vec<(f64,)> = sqlx::query_as(
            "select y from seat where event_id = $1 and row_label = 'A' order by number",
        )
        .bind(event)
        .fetch_all(app.state.db.reader())
        .await
        .unwrap();
        assert_eq!(front.len(), 8);
        assert!(
            front[0].0 < front[3].0 && front[7].0 < front[4].0,
            "{front:?}"
        );

        // Replaced whole: a third category, two sections, no standing area.
        let mut edited = layout("Arena night (late show)", 5);
        edited["categories"]
            .as_array_mut()
            .unwrap()
            .push(json!({ "code": "C", "name": "Back", "priceCents": 2500, "color": "#1e8449" }));
        edited["sections"].as_array_mut().unwrap().push(
            json!({ "name": "Right", "category": "C", "rows": 2, "seatsPerRow": 4, "x": 200, "y": 0 }),
        );
        edited["generalAdmission"] = json!([]);
        let saved = put(&app, event, edited.clone()).await;
        assert_eq!(saved.status, 200, "{}", saved.text);
        assert_eq!(saved.json()["seatCount"], 48);
        assert_eq!(shape(&app, event).await, (48, 3, 0));
        let name: (String,) = sqlx::query_as("select name from event where id = $1")
            .bind(event)
            .fetch_one(app.state.db.reader())
            .await
            .unwrap();
        assert_eq!(name.0, "Arena night (late show)");
        let kept = admin
            .get(&format!("/api/admin/events/{event}/layout"))
            .await
            .json();
        assert_eq!(parts(&kept), parts(&edited));

        // A bad layout is refused on its fields and changes nothing.
        let mut bad = edited.clone();
        bad["sections"][1]["curve"] = json!(270);
        bad["categories"][2]["color"] = json!("green");
        let refused = put(&app, event, bad).await;
        assert_eq!(refused.status, 422, "{}", refused.text);
        let fields = refused.field_errors();
        assert_eq!(fields, ["categories[2].color", "sections[1].curve"]);
        assert_eq!(shape(&app, event).await, (48, 3, 0));
        // Two sections drawn over each other are refused on the second.
        let mut over = edited.clone();
        over["sections"][1]["x"] = json!(20);
        let refused = put(&app, event, over).await;
        assert_eq!(refused.status, 422, "{}", refused.text);
        assert_eq!(refused.field_errors(), ["sections[1].place"]);
        let message = &refused.json()["error"]["fieldErrors"][0]["message"];
        assert!(
            message
                .as_str()
                .unwrap()
                .starts_with("drawn over section \"Left\""),
            "{message}"
        );
        assert_eq!(shape(&app, event).await, (48, 3, 0));
        assert_eq!(put(&app, 999_999, edited.clone()).await.status, 404);

        // On sale: refused, nothing changed.
        let published = admin
            .post(&format!("/api/admin/events/{event}/publish"), None, None)
            .await;
        assert_eq!(published.status, 200);
        let late = put(&app, event, layout("Too late", 1)).await;
        assert_eq!(late.status, 409, "{}", late.text);
        assert_eq!(late.json()["error"]["code"], "INVALID_STATE");
        assert_eq!(shape(&app, event).await, (48, 3, 0));

        // Withdrawn, it stays as it is: buyers (and every instance's seat
        // map) have seen its seats. Published again, they sell.
        admin
            .post(&format!("/api/admin/events/{event}/unpublish"), None, None)
            .await;
        assert_eq!(put(&app, event, layout("Withdrawn", 1)).await.status, 409);
        assert_eq!(shape(&app, event).await, (48, 3, 0));
        let listed = admin.get("/api/admin/events").await.json();
        let row = listed
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["id"] == event)
            .unwrap()
            .clone();
        assert_eq!(row["editable"], false);
        admin
            .post(&format!("/api/admin/events/{event}/publish"), None, None)
            .await;
        let seat = app.first_seat(event).await;
        assert_eq!(app.buyer().hold(event, seat).await.status, 200);

        // The demo's events were not made from a layout.
        assert_eq!(admin.get("/api/admin/events/1/layout").await.status, 404);
        let audited = app
            .scalar(&format!(
                "select count(*) from audit_log where event_id = {event} and action = 'edit_layout'"
            ))
            .await;
        assert_eq!(audited, 1);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    edits_racing_a_publish_leave_one_whole_layout,
    |app: TestApp| async move {
        let admin = app.admin();
        let created = admin
            .post("/api/admin/events", None, Some(layout("Race", 1)))
            .await;
        let event = created.json()["eventId"].as_i64().unwrap();
        // Twelve edits (each its own number of rows) and a publish at once.
        let edits = join_all((1..=12).map(|rows| {
            let app = &app;
            async move { (rows, put(app, event, layout("Race", rows)).await) }
        }));
        let publish = async {
            admin
                .post(&format!("/api/admin/events/{event}/publish"), None, None)
                .await
        };
        let (edits, published) = tokio::join!(edits, publish);
        assert_eq!(published.status, 200, "{}", published.text);
        let mut saved = Vec::new();
        for (rows, answer) in &edits {
            match answer.status.as_u16() {
                200 => saved.push(*rows),
                409 => assert_eq!(answer.json()["error"]["code"], "INVALID_STATE"),
                other => panic!("edit of {rows} rows answered {other}: {}", answer.text),
            }
        }
        // Exactly one layout's seats and areas: the one kept on the event.
        let kept = admin
            .get(&format!("/api/admin/events/{event}/layout"))
            .await
            .json();
        let rows = kept["sections"][0]["rows"].as_i64().unwrap();
        assert!(
            rows == 1 || saved.contains(&rows),
            "{rows} not among {saved:?}"
        );
        assert_eq!(shape(&app, event).await, (rows * 8, 2, 1));
        let labels = app
            .scalar(&format!(
                "select count(distinct label) from seat where event_id = {event}"
            ))
            .await;
        assert_eq!(labels, rows * 8, "no seat twice");
        // On sale now: no edit gets through any more.
        assert_eq!(put(&app, event, layout("Race", 20)).await.status, 409);
        let seat = app.first_seat(event).await;
        assert_eq!(app.buyer().hold(event, seat).await.status, 200);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    the_currency_stays_while_amount_off_codes_are_in_it,
    |app: TestApp| async move {
        let admin = app.admin();
        let created = admin
            .post("/api/admin/events", None, Some(layout("Codes", 2)))
            .await;
        let event = created.json()["eventId"].as_i64().unwrap();
        let promo = |body: Value| {
            let admin = app.admin();
            async move {
                let a = admin.post("/api/admin/promos", None, Some(body)).await;
                assert_eq!(a.status, 201, "{}", a.text);
            }
        };
        // A percentage is the same in any currency.
        promo(json!({ "name": "Ten", "kind": "single", "eventId": event, "percentOff": 10 })).await;
        let mut in_nok = layout("Codes", 2);
        in_nok["currency"] = json!("NOK");
        assert_eq!(put(&app, event, in_nok.clone()).await.status, 200);
        // Five kroner off would silently become five euros off.
        promo(json!({ "name": "Five", "kind": "single", "eventId": event, "amountOffCents": 500 }))
            .await;
        let refused = put(&app, event, layout("Codes", 2)).await;
        assert_eq!(refused.status, 422, "{}", refused.text);
        assert_eq!(refused.field_errors(), ["currency"]);
        let currency = app
            .scalar(&format!(
                "select count(*) from event where id = {event} and currency = 'NOK'"
            ))
            .await;
        assert_eq!(currency, 1, "nothing changed");
        // In the same currency, the layout still changes.
        in_nok["sections"][0]["rows"] = json!(4);
        assert_eq!(put(&app, event, in_nok).await.status, 200);
        assert_eq!(count(&app, "seat", event).await, 32);
    }
);
