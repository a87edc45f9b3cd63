//! Cruises as they are sold: a route's sailings with itineraries and fares,
//! cabins held for a party (priced for two plus a supplement per guest
//! beyond, within the cabin's occupancy), the manifest of guests, and many
//! parties racing for the same cabins — on SQLite and Postgres.

use crate::common;

use std::collections::{HashMap, HashSet};

use common::{Answer, Buyer, TestApp};
use futures::future::join_all;
use reqwest::Method;
use serde_json::{json, Value};

/// The cabins of a sailing: id → (label, category, min, max guests) read
/// from the sailing's fares and the database.
async fn cabins(app: &TestApp, sailing: i64) -> Vec<(i64, String, i64, i64)> {
    let rows: Vec<(i64, String, i64, i64)> = sqlx::query_as(
        "select s.id, s.label, c.min_guests, c.max_guests from cabin c join seat s on s.id = c.seat_id
         where s.event_id = $1 order by s.id",
    )
    .bind(sailing)
    .fetch_all(app.state.db.reader())
    .await
    .unwrap();
    rows
}

async fn hold_party(buyer: &Buyer, sailing: i64, parties: &[(i64, i64)]) -> Answer {
    let seats: Vec<i64> = parties.iter().map(|p| p.0).collect();
    let guests: Vec<Value> = parties
        .iter()
        .map(|(seat, n)| json!({ "seatId": seat, "count": n }))
        .collect();
    buyer
        .post(
            &format!("/api/events/{sailing}/holds"),
            Some(&common::new_key()),
            Some(json!({ "seatIds": seats, "guests": guests })),
        )
        .await
}

async fn put_guests(buyer: &Buyer, booking: &str, guests: Value) -> Answer {
    buyer
        .send(
            Method::PUT,
            &format!("/api/bookings/{booking}/guests"),
            &[],
            Some(json!({ "guests": guests })),
        )
        .await
}

fn fare<'a>(detail: &'a Value, code: &str) -> &'a Value {
    detail["fares"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == code)
        .unwrap()
}

on_both_backends!(
    the_line_sails_a_cruise_weekly_and_a_ferry_daily_with_ports_and_fares,
    |app: TestApp| async move {
        let buyer = app.buyer();
        let all = buyer.get("/api/sailings").await;
        assert_eq!(all.status, 200, "{}", all.text);
        let all = all.json();
        let routes: HashSet<&str> = all
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["route"]["code"].as_str().unwrap())
            .collect();
        assert_eq!(
            routes,
            HashSet::from(["NORWAY-7N", "POHANG-ULLEUNG", "ULLEUNG-POHANG"])
        );

        let cruise = buyer.get("/api/sailings?route=NORWAY-7N").await.json();
        let cruise = cruise.as_array().unwrap();
        assert_eq!(cruise.len(), 4, "four weekly sailings");
        assert_eq!(cruise[0]["id"], 2, "the demo's cruise event is the first");
        let departures: Vec<&str> = cruise
            .iter()
            .map(|s| s["departsAt"].as_str().unwrap())
            .collect();
        let mut sorted = departures.clone();
        sorted.sort();
        assert_eq!(departures, sorted, "in departure order");
        assert_eq!(cruise[0]["nights"], 7);
        assert_eq!(cruise[0]["status"], "SCHEDULED");
        assert_eq!(cruise[0]["placeCount"], 300);
        assert_eq!(cruise[0]["fromCents"], 79_000, "an inside cabin for two");
        assert_eq!(cruise[0]["localDepartsAt"], "2027-06-05T18:00:00+02:00");
        assert_eq!(cruise[0]["timeZoneAbbreviation"], "CEST");

        let ferry = buyer.get("/api/sailings?route=ULLEUNG-POHANG").await.json();
        assert_eq!(ferry.as_array().unwrap().len(), 7, "one a day for a week");
        assert_eq!(ferry[0]["currency"], "KRW");
        assert_eq!(ferry[0]["nights"], 0);

        let detail = buyer.get("/api/sailings/2").await;
        assert_eq!(detail.status, 200, "{}", detail.text);
        let detail = detail.json();
        let ports: Vec<&str> = detail["itinerary"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["port"].as_str().unwrap())
            .collect();
        assert_eq!(ports.first(), Some(&"Bergen"));
        assert_eq!(ports.last(), Some(&"Bergen"));
        assert!(ports.contains(&"Geiranger"));
        assert!(detail["itinerary"][0]["arrivesAt"].is_null());
        assert!(detail["itinerary"][6]["departsAt"].is_null());
        let suite = fare(&detail, "SUITE");
        assert_eq!(suite["extraGuestCents"], 45_000);
        assert_eq!(suite["maxGuests"], 4);
        assert_eq!(fare(&detail, "INSIDE")["minGuests"], 1);

        // The sailing is an event like any other.
        let event = buyer.get("/api/events/2").await.json();
        assert_eq!(event["kind"], "cruise");

        // Asked what is not there.
        assert_eq!(
            buyer.get("/api/sailings/1").await.status,
            404,
            "the arena is no sailing"
        );
        assert_eq!(buyer.get("/api/sailings/0").await.status, 400);
        assert_eq!(
            buyer.get("/api/sailings?route=NOWHERE").await.json(),
            json!([])
        );
        let long = "X".repeat(65);
        let refused = buyer.get(&format!("/api/sailings?route={long}")).await;
        assert_eq!(refused.status, 422, "{}", refused.text);
    }
);

on_both_backends!(
    a_cabin_is_held_for_its_party_priced_for_two_plus_each_guest_beyond,
    |app: TestApp| async move {
        let cabins = cabins(&app, 2).await;
        let family = cabins.iter().find(|c| c.3 == 4).unwrap();
        let detail = app.buyer().get("/api/sailings/2").await.json();
        let category: (String,) = sqlx::query_as(
            "select c.code from seat s join price_category c on c.id = s.category_id where s.id = $1",
        )
        .bind(family.0)
        .fetch_one(app.state.db.reader())
        .await
        .unwrap();
        let f = fare(&detail, &category.0);
        let (base, extra) = (
            f["priceCents"].as_i64().unwrap(),
            f["extraGuestCents"].as_i64().unwrap(),
        );

        let buyer = app.buyer();
        // Beyond the cabin's occupancy, or a party for a seat: refused, nothing held.
        let too_many = hold_party(&buyer, 2, &[(family.0, 5)]).await;
        assert_eq!(too_many.status, 422, "{}", too_many.text);
        assert_eq!(
            too_many.json()["error"]["fields"][0],
            "guests",
            "{}",
            too_many.text
        );
        let stray = hold_party(&buyer, 2, &[(family.0, 2)]).await;
        assert_eq!(stray.status, 200, "{}", stray.text);
        let stray_booking = stray.json()["bookingId"].as_str().unwrap().to_string();
        assert_eq!(
            stray.json()["amountCents"],
            base,
            "two guests: the cabin's price"
        );
        let released = buyer
            .delete(&format!("/api/bookings/{stray_booking}"))
            .await;
        assert_eq!(released.status, 200, "{}", released.text);

        let held = hold_party(&buyer, 2, &[(family.0, 4)]).await;
        assert_eq!(held.status, 200, "{}", held.text);
        assert_eq!(
            held.json()["amountCents"],
            base + 2 * extra,
            "{}",
            held.text
        );
        let booking = held.json()["bookingId"].as_str().unwrap().to_string();
        let view = buyer.get(&format!("/api/bookings/{booking}")).await.json();
        assert_eq!(view["seats"][0]["guests"], 4);
        assert_eq!(view["amountCents"], base + 2 * extra);

        // A ferry seat sits one.
        let ferry = buyer.get("/api/sailings?route=POHANG-ULLEUNG").await.json();
        let ferry_id = ferry[0]["id"].as_i64().unwrap();
        let seat: (i64,) = sqlx::query_as(
            "select s.id from seat s where s.event_id = $1 and not exists
               (select 1 from cabin c where c.seat_id = s.id) order by s.id limit 1",
        )
        .bind(ferry_id)
        .fetch_one(app.state.db.reader())
        .await
        .unwrap();
        let two_on_a_seat = hold_party(&app.buyer(), ferry_id, &[(seat.0, 2)]).await;
        assert_eq!(two_on_a_seat.status, 422, "{}", two_on_a_seat.text);
        let naming_another = hold_party(&app.buyer(), ferry_id, &[(seat.0, 1)]).await;
        assert_eq!(naming_another.status, 200, "{}", naming_another.text);
        let bad_shape = app
            .buyer()
            .post(
                &format!("/api/events/{ferry_id}/holds"),
                Some(&common::new_key()),
                Some(json!({ "seatIds": [seat.0], "guests": [{ "seatId": seat.0, "count": "two" }] })),
            )
            .await;
        assert_eq!(bad_shape.status, 422, "{}", bad_shape.text);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    every_guest_of_a_cabin_is_named_before_boarding_and_only_by_its_owner,
    |app: TestApp| async move {
        let cabins = cabins(&app, 2).await;
        let family = cabins.iter().find(|c| c.3 == 4).unwrap();
        let single = cabins.iter().find(|c| c.3 == 2).unwrap();
        let buyer = app.buyer();
        let held = hold_party(&buyer, 2, &[(family.0, 3), (single.0, 1)]).await;
        assert_eq!(held.status, 200, "{}", held.text);
        let booking = held.json()["bookingId"].as_str().unwrap().to_string();
        let guest = |seat: i64, name: &str, born: &str| json!({ "seatId": seat, "fullName": name, "birthDate": born });
        let party = vec![
            guest(family.0, "  Kari   Nordmann ", "1984-02-29"),
            guest(family.0, "Ola Nordmann", "1982-11-03"),
            guest(family.0, "Emma Nordmann", "2019-07-14"),
            guest(single.0, "Nguyễn Thị Lan", "1990-01-01"),
        ];

        // One guest short, a date that is none, a seat of another booking.
        let short = put_guests(&buyer, &booking, json!(party[..3])).await;
        assert_eq!(short.status, 422, "{}", short.text);
        let mut bad_date = party.clone();
        bad_date[1]["birthDate"] = json!("1982-02-30");
        let answer = put_guests(&buyer, &booking, json!(bad_date)).await;
        assert_eq!(answer.status, 422, "{}", answer.text);
        assert_eq!(answer.json()["error"]["fields"][0], "guests[1].birthDate");
        let mut unborn = party.clone();
        unborn[2]["birthDate"] = json!("2030-01-01");
        assert_eq!(
            put_guests(&buyer, &booking, json!(unborn)).await.status,
            422
        );
        let mut nameless = party.clone();
        nameless[0]["fullName"] = json!("   ");
        assert_eq!(
            put_guests(&buyer, &booking, json!(nameless)).await.status,
            422
        );
        let mut elsewhere = party.clone();
        elsewhere[3]["seatId"] = json!(cabins.last().unwrap().0);
        assert_eq!(
            put_guests(&buyer, &booking, json!(elsewhere)).await.status,
            422
        );
        let view = buyer.get(&format!("/api/bookings/{booking}")).await.json();
        assert!(view.get("guests").is_none(), "nothing named yet: {view}");

        // Another buyer cannot see or name them.
        let stranger = put_guests(&app.buyer(), &booking, json!(party)).await;
        assert_eq!(stranger.status, 404, "{}", stranger.text);

        let named = put_guests(&buyer, &booking, json!(party)).await;
        assert_eq!(named.status, 200, "{}", named.text);
        assert_eq!(named.json()["complete"], true);
        let view = buyer.get(&format!("/api/bookings/{booking}")).await.json();
        let names: Vec<&str> = view["guests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["fullName"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "Kari Nordmann",
                "Ola Nordmann",
                "Emma Nordmann",
                "Nguyễn Thị Lan"
            ],
            "in place order, names tidied"
        );

        // Named again: replaced whole, not added to.
        let renamed = put_guests(&buyer, &booking, json!(party)).await;
        assert_eq!(renamed.status, 200);
        let rows = app
            .scalar(&format!(
                "select count(*) from booking_guest where booking_id = '{booking}'"
            ))
            .await;
        assert_eq!(rows, 4);

        // A concert booking has no guests to name.
        let arena_seat = app.first_seat(1).await;
        let concert = buyer.held_booking(1, arena_seat).await;
        let answer = put_guests(
            &buyer,
            &concert,
            json!([guest(arena_seat, "Someone", "1990-01-01")]),
        )
        .await;
        assert_eq!(answer.status, 409, "{}", answer.text);
    }
);

/// Parties racing for the same cabins.
const PARTIES: usize = 120;

on_both_backends!(
    parties_racing_for_the_same_cabins_each_get_a_whole_cabin_or_nothing,
    |app: TestApp| async move {
        let cabins = cabins(&app, 2).await;
        let contested: Vec<&(i64, String, i64, i64)> = cabins.iter().take(12).collect();
        let buyers: Vec<Buyer> = (0..PARTIES).map(|_| app.buyer()).collect();
        let answers = join_all(buyers.iter().enumerate().map(|(i, b)| {
            let a = contested[i % contested.len()];
            let c = contested[(i * 7 + 3) % contested.len()];
            let mut parties = vec![(a.0, 1 + (i as i64 % a.3)), (c.0, c.2)];
            parties.sort();
            parties.dedup_by_key(|p| p.0);
            async move { (parties.clone(), hold_party(b, 2, &parties).await) }
        }))
        .await;
        let mut held: HashMap<i64, i64> = HashMap::new();
        for (parties, answer) in &answers {
            match answer.status.as_u16() {
                200 => {
                    for (seat, guests) in parties {
                        assert!(
                            held.insert(*seat, *guests).is_none(),
                            "cabin {seat} held twice"
                        );
                    }
                }
                409 => {}
                other => panic!("unexpected {other}: {}", answer.text),
            }
        }
        assert!(!held.is_empty());
        // The database agrees: one live booking per cabin, for the party the
        // winner asked for.
        for (seat, guests) in &held {
            let live = app
                .scalar(&format!(
                    "select count(*) from booking_seat where seat_id = {seat} and live = 1"
                ))
                .await;
            assert_eq!(live, 1);
            let party = app
                .scalar(&format!(
                    "select guests from booking_seat where seat_id = {seat} and live = 1"
                ))
                .await;
            assert_eq!(party, *guests);
        }
        app.assert_invariants().await;
    }
);

on_both_backends!(
    the_guests_page_names_every_guest_and_goes_on_to_pay,
    |app: TestApp| async move {
        let cabins = cabins(&app, 2).await;
        let family = cabins.iter().find(|c| c.3 == 4).unwrap();
        let buyer = app.buyer();
        let held = hold_party(&buyer, 2, &[(family.0, 3)]).await;
        assert_eq!(held.status, 200, "{}", held.text);
        let booking = held.json()["bookingId"].as_str().unwrap().to_string();
        let url = format!("{}/bookings/{booking}/guests", app.base);

        let page = buyer.get(&format!("/bookings/{booking}/guests")).await;
        assert_eq!(page.status, 200);
        for n in 1..=3 {
            assert!(page
                .text
                .contains(&format!("name=\"guest-{}-{n}-name\"", family.0)));
            assert!(page
                .text
                .contains(&format!("name=\"guest-{}-{n}-born\"", family.0)));
        }
        assert!(
            !page.text.contains(&format!("guest-{}-4-name", family.0)),
            "three, not four"
        );
        assert!(
            page.text.contains("data-testid=\"hold-left\""),
            "the hold's time is said"
        );
        let stranger = app
            .buyer()
            .get(&format!("/bookings/{booking}/guests"))
            .await;
        assert_eq!(stranger.status, 404);

        let field = |n: i64, what: &str| format!("guest-{}-{n}-{what}", family.0);
        let mut form = vec![
            (field(1, "name"), "Kari <b>Nordmann</b>".to_string()),
            (field(1, "born"), "1984-02-29".to_string()),
            (field(2, "name"), "Ola Nordmann".to_string()),
            (field(2, "born"), "1982-11-03".to_string()),
            (field(3, "name"), "Emma Nordmann".to_string()),
            (field(3, "born"), String::new()),
        ];
        // A date missing: the form again, what was typed kept (escaped), nothing saved.
        let refused = buyer.http.post(&url).form(&form).send().await.unwrap();
        assert_eq!(refused.status(), 422);
        let body = refused.text().await.unwrap();
        assert!(body.contains("role=\"alert\""), "{body}");
        assert!(body.contains("Kari &lt;b&gt;Nordmann&lt;/b&gt;"), "{body}");
        let saved = format!("select count(*) from booking_guest where booking_id = '{booking}'");
        assert_eq!(app.scalar(&saved).await, 0);

        // Every guest named: saved, and on to the checkout.
        form[5].1 = "2019-07-14".to_string();
        let paid = buyer.http.post(&url).form(&form).send().await.unwrap();
        assert_eq!(paid.status(), 200);
        assert!(
            paid.url().path().starts_with("/sandbox/checkout/"),
            "{}",
            paid.url()
        );
        assert_eq!(app.scalar(&saved).await, 3);
        assert_eq!(app.status_of(&booking).await, "PAYMENT_PENDING");
    }
);
