//! Promo codes under contention (the seed's voucher race): a single-use
//! code is redeemed exactly once, a capped code never passes its cap, a
//! pool hands each buyer one code and never one code twice; the discount is
//! what the checkout charges.

use crate::common;

use std::collections::{HashMap, HashSet};

use common::{Buyer, TestApp};
use futures::future::join_all;
use serde_json::{json, Value};

async fn campaign(app: &TestApp, body: Value) -> Value {
    let a = app
        .admin()
        .post("/api/admin/promos", None, Some(body))
        .await;
    assert_eq!(a.status, 201, "{}", a.text);
    a.json()
}

/// `n` buyers, each holding one seat of the arena (price 2 of them differ).
async fn holders(app: &TestApp, n: usize, first_seat: i64) -> Vec<(Buyer, String, i64)> {
    let mut out = Vec::new();
    for i in 0..n {
        let b = app.buyer();
        let held = b.hold(1, first_seat + i as i64).await;
        assert_eq!(held.status, 200, "{}", held.text);
        let j = held.json();
        let booking = j["bookingId"].as_str().unwrap().to_string();
        let amount = j["amountCents"].as_i64().unwrap();
        out.push((b, booking, amount));
    }
    out
}

async fn apply(b: &Buyer, booking: &str, code: &str) -> common::Answer {
    b.post(
        &format!("/api/bookings/{booking}/promo"),
        None,
        Some(json!({ "code": code })),
    )
    .await
}

on_both_backends!(
    fifty_concurrent_redemptions_of_a_single_use_code_make_one,
    |app: TestApp| async move {
        let promo = campaign(
            &app,
            json!({ "name": "Launch", "kind": "single", "code": "launch-50", "percentOff": 50 }),
        )
        .await;
        assert_eq!(promo["codes"], json!(["LAUNCH-50"]));
        let buyers = holders(&app, 50, 2_000).await;
        let answers = join_all(
            buyers
                .iter()
                .map(|(b, booking, _)| apply(b, booking, " launch-50 ")),
        )
        .await;
        let won: Vec<usize> = (0..answers.len())
            .filter(|i| answers[*i].status == 200)
            .collect();
        assert_eq!(
            won.len(),
            1,
            "{:?}",
            answers.iter().map(|a| &a.text).collect::<Vec<_>>()
        );
        for (i, a) in answers.iter().enumerate() {
            if i != won[0] {
                assert_eq!(
                    (a.status.as_u16(), a.code()),
                    (409, "PROMO_EXHAUSTED".into()),
                    "{}",
                    a.text
                );
            }
        }
        let (winner, booking, amount) = &buyers[won[0]];
        let applied = answers[won[0]].json();
        assert_eq!(applied["discountCents"], amount / 2);
        assert_eq!(applied["amountCents"], amount - amount / 2);
        // The same code again on the same booking answers the same; another
        // code is refused; nothing else changed.
        assert_eq!(apply(winner, booking, "LAUNCH-50").await.json(), applied);
        let other = campaign(
            &app,
            json!({ "name": "Other", "kind": "single", "code": "OTHER-1", "amountOffCents": 100 }),
        )
        .await;
        assert_eq!(other["kind"], "single");
        assert_eq!(
            apply(winner, booking, "OTHER-1").await.code(),
            "PROMO_ALREADY_APPLIED"
        );
        assert_eq!(app.scalar("select count(*) from booking_promo").await, 1);
        assert_eq!(
            app.scalar("select count(*) from promo_code where redeemed_at is not null")
                .await,
            1
        );
        // The checkout charges the discounted amount.
        let paid = winner.pay(booking).await;
        assert_eq!(paid.status, 200, "{}", paid.text);
        let charged = app
            .scalar(&format!(
                "select amount_cents from payment where booking_id = '{booking}'"
            ))
            .await;
        assert_eq!(charged, amount - amount / 2);
        let view = winner.get(&format!("/api/bookings/{booking}")).await.json();
        assert_eq!(view["amountCents"], amount - amount / 2);
        assert_eq!(view["discountCents"], amount / 2);
        // A promo no longer applies once paying started.
        assert_eq!(
            apply(winner, booking, "OTHER-1").await.code(),
            "PROMO_ALREADY_APPLIED"
        );
        let (loser, loser_booking, loser_amount) = &buyers[(won[0] + 1) % 50];
        let view = loser
            .get(&format!("/api/bookings/{loser_booking}"))
            .await
            .json();
        assert_eq!(
            view["amountCents"], *loser_amount,
            "a refused code changed nothing"
        );
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_capped_code_never_passes_its_cap,
    |app: TestApp| async move {
        campaign(
            &app,
            json!({ "name": "Friends", "kind": "capped", "code": "FRIENDS", "amountOffCents": 500, "maxUses": 7 }),
        )
        .await;
        let buyers = holders(&app, 50, 3_000).await;
        let answers = join_all(
            buyers
                .iter()
                .map(|(b, booking, _)| apply(b, booking, "friends")),
        )
        .await;
        let ok = answers.iter().filter(|a| a.status == 200).count();
        let exhausted = answers
            .iter()
            .filter(|a| a.status == 409 && a.code() == "PROMO_EXHAUSTED")
            .count();
        assert_eq!((ok, exhausted), (7, 43));
        assert_eq!(
            app.scalar("select uses from promo_campaign where name = 'Friends'")
                .await,
            7
        );
        assert_eq!(app.scalar("select count(*) from booking_promo").await, 7);
        // The CHECK stands behind the conditional update.
        let forced =
            sqlx::query("update promo_campaign set uses = max_uses + 1 where name = 'Friends'")
                .execute(app.state.db.writer())
                .await;
        assert!(forced.is_err(), "the database refuses uses past the cap");
        let listed = app.admin().get("/api/admin/promos").await.json();
        let friends = listed
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == "Friends")
            .unwrap();
        assert_eq!(
            (friends["redeemed"].clone(), friends["maxUses"].clone()),
            (json!(7), json!(7))
        );
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_pool_gives_each_buyer_one_code_and_no_code_twice,
    |app: TestApp| async move {
        let pool = campaign(
            &app,
            json!({ "name": "Fan club", "kind": "pooled", "count": 30, "percentOff": 10, "eventId": 1 }),
        )
        .await;
        let id = pool["id"].as_i64().unwrap();
        assert_eq!(pool["codeCount"], 30);
        let buyers: Vec<Buyer> = (0..40).map(|_| app.buyer()).collect();
        // A fresh session with no hold is not handed a code: the campaign
        // looks like a missing one.
        let stranger = app.buyer();
        let refused = stranger
            .post(&format!("/api/promos/{id}/claim"), None, None)
            .await;
        assert_eq!(
            (refused.status.as_u16(), refused.code()),
            (404, "NOT_FOUND".into())
        );
        // Each buyer holds a seat on the campaign's event first (which also
        // gives it a session: three first requests at once would be three
        // strangers).
        for (i, b) in buyers.iter().enumerate() {
            assert_eq!(b.hold(1, 3_000 + i as i64).await.status, 200);
        }
        // Every buyer asks three times at once: 120 requests for 30 codes.
        let asks = join_all(buyers.iter().enumerate().flat_map(|(i, b)| {
            (0..3).map(move |_| async move {
                (
                    i,
                    b.post(&format!("/api/promos/{id}/claim"), None, None).await,
                )
            })
        }))
        .await;
        let mut code_of: HashMap<usize, HashSet<String>> = HashMap::new();
        let mut exhausted = HashSet::new();
        for (i, a) in &asks {
            match a.status.as_u16() {
                200 => {
                    code_of
                        .entry(*i)
                        .or_default()
                        .insert(a.json()["code"].as_str().unwrap().to_string());
                }
                409 => {
                    assert_eq!(a.code(), "PROMO_EXHAUSTED");
                    exhausted.insert(*i);
                }
                other => panic!("unexpected {other}: {}", a.text),
            }
        }
        assert!(
            code_of.values().all(|codes| codes.len() == 1),
            "one code per buyer: {code_of:?}"
        );
        let handed: HashSet<&String> = code_of.values().flatten().collect();
        assert_eq!(handed.len(), 30, "all codes handed out, each once");
        assert_eq!(code_of.len(), 30);
        assert!(
            exhausted.iter().all(|i| !code_of.contains_key(i)),
            "a buyer with a code is never told the pool is empty"
        );
        assert_eq!(
            app.scalar(&format!(
                "select count(distinct holder) from promo_code where campaign_id = {id}"
            ))
            .await,
            30
        );
        // A pooled code applies once, to its event.
        let (i, codes) = code_of.iter().next().unwrap();
        let code = codes.iter().next().unwrap();
        let mine = buyers[*i].get("/api/bookings").await.json();
        let booking = mine[0]["id"].as_str().unwrap().to_string();
        let a = apply(&buyers[*i], &booking, code).await;
        assert_eq!(a.status, 200, "{}", a.text);
        let other = app.buyer();
        let held = other.hold(1, 4_001).await;
        let other_booking = held.json()["bookingId"].as_str().unwrap().to_string();
        // Somebody else's pooled code does not exist for this buyer.
        assert_eq!(
            apply(&other, &other_booking, code).await.code(),
            "PROMO_UNKNOWN"
        );
        // The console counts the pool as it is: all handed out, one used.
        let listed = app.admin().get("/api/admin/promos").await.json();
        let fans = listed
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap()
            .clone();
        assert_eq!(
            (
                &fans["kind"],
                &fans["codeCount"],
                &fans["handedOut"],
                &fans["redeemed"]
            ),
            (&json!("pooled"), &json!(30), &json!(30), &json!(1)),
            "{fans}"
        );
        assert_eq!(fans["codes"].as_array().map(Vec::len), Some(30));
        app.assert_invariants().await;
    }
);

on_both_backends!(
    bad_promo_input_is_refused_and_changes_nothing,
    |app: TestApp| async move {
        let admin = app.admin();
        for body in [
            json!({ "name": "", "kind": "single", "percentOff": 10 }),
            json!({ "name": "x", "kind": "free", "percentOff": 10 }),
            json!({ "name": "x", "kind": "single" }),
            json!({ "name": "x", "kind": "single", "percentOff": 150 }),
            json!({ "name": "x", "kind": "capped", "percentOff": 10 }),
            json!({ "name": "x", "kind": "pooled", "percentOff": 10, "count": 0 }),
            json!({ "name": "x", "kind": "single", "percentOff": 10, "code": "no spaces" }),
            json!({ "name": "x", "kind": "single", "percentOff": 10, "eventId": 999 }),
            json!({ "name": "x", "kind": "single", "percentOff": 10, "unknown": 1 }),
        ] {
            let a = admin
                .post("/api/admin/promos", None, Some(body.clone()))
                .await;
            assert!(a.status == 422 || a.status == 400, "{body}: {}", a.text);
            assert_eq!(a.code(), "VALIDATION", "{body}");
        }
        campaign(
            &app,
            json!({ "name": "Dup", "kind": "single", "code": "DUP-1", "percentOff": 5 }),
        )
        .await;
        let dup = admin
            .post("/api/admin/promos", None, Some(json!({ "name": "Dup again", "kind": "single", "code": "dup-1", "percentOff": 5 })))
            .await;
        assert_eq!(dup.status, 422, "{}", dup.text);
        assert_eq!(app.scalar("select count(*) from promo_campaign").await, 1);
        let buyer = app.buyer();
        assert_eq!(
            buyer
                .post("/api/admin/promos", None, Some(json!({})))
                .await
                .status,
            401
        );

        let held = buyer.hold(1, 5_000).await;
        let booking = held.json()["bookingId"].as_str().unwrap().to_string();
        let unknown = apply(&buyer, &booking, "NOPE-NOPE").await;
        assert_eq!(
            (unknown.status.as_u16(), unknown.code()),
            (404, "PROMO_UNKNOWN".into())
        );
        assert_eq!(apply(&buyer, &booking, "x").await.code(), "PROMO_UNKNOWN");
        let missing = buyer
            .post(
                &format!("/api/bookings/{booking}/promo"),
                None,
                Some(json!({ "kode": "DUP-1" })),
            )
            .await;
        assert_eq!(missing.code(), "VALIDATION");
        // Somebody else's booking is not found; an expired hold is refused.
        let stranger = app.buyer();
        assert_eq!(apply(&stranger, &booking, "DUP-1").await.status, 404);
        app.clock.advance_ms(301_000);
        assert_eq!(
            apply(&buyer, &booking, "DUP-1").await.code(),
            "HOLD_EXPIRED"
        );
        assert_eq!(
            app.scalar("select count(*) from promo_code where redeemed_at is not null")
                .await,
            0
        );
        assert_eq!(app.scalar("select count(*) from booking_promo").await, 0);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_hold_that_ends_unpaid_gives_its_promo_use_back,
    |app: TestApp| async move {
        campaign(
            &app,
            json!({ "name": "Once", "kind": "single", "code": "ONCE-BACK", "amountOffCents": 700 }),
        )
        .await;
        campaign(&app, json!({ "name": "Two", "kind": "capped", "code": "TWO-BACK", "percentOff": 10, "maxUses": 1 })).await;
        let buyers = holders(&app, 3, 6_000).await;
        let (first, booking, amount) = &buyers[0];
        assert_eq!(apply(first, booking, "ONCE-BACK").await.status, 200);
        let (second, second_booking, _) = &buyers[1];
        assert_eq!(apply(second, second_booking, "TWO-BACK").await.status, 200);
        let (third, third_booking, _) = &buyers[2];
        assert_eq!(
            apply(third, third_booking, "TWO-BACK").await.code(),
            "PROMO_EXHAUSTED"
        );
        // The second buyer lets go of the hold: the capped use comes back.
        assert_eq!(
            second
                .delete(&format!("/api/bookings/{second_booking}"))
                .await
                .status,
            200
        );
        assert_eq!(apply(third, third_booking, "TWO-BACK").await.status, 200);
        // The first hold expires unpaid: the single-use code comes back.
        app.clock.advance_ms(301_000);
        holdfast::server::workers::sweep_expired_holds(&app.state)
            .await
            .expect("sweep");
        let view = first.get(&format!("/api/bookings/{booking}")).await.json();
        assert_eq!(
            (
                view["status"].clone(),
                view["amountCents"].clone(),
                view["discountCents"].clone()
            ),
            (json!("EXPIRED"), json!(amount), json!(0))
        );
        let again = app.buyer();
        let held = again.hold(1, 6_100).await;
        let again_booking = held.json()["bookingId"].as_str().unwrap().to_string();
        assert_eq!(apply(&again, &again_booking, "once-back").await.status, 200);
        assert_eq!(
            app.scalar("select count(*) from promo_code where redeemed_at is not null")
                .await,
            1
        );
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_code_works_only_inside_its_window_and_a_crowd_at_the_start_keeps_the_cap,
    |app: TestApp| async move {
        use holdfast_core::platform::clock::{rfc3339, Clock};
        let now = app.clock.now();
        let promo = campaign(
            &app,
            json!({ "name": "Doors", "kind": "capped", "code": "doors-open", "percentOff": 10,
                    "maxUses": 5, "eventId": 1,
                    "startsAt": rfc3339(now + 60_000), "endsAt": rfc3339(now + 200_000) }),
        )
        .await;
        assert_eq!(promo["startsAt"], json!(rfc3339(now + 60_000)));
        assert_eq!(promo["endsAt"], json!(rfc3339(now + 200_000)));
        let buyers = holders(&app, 20, 2_200).await;
        // Before its start: real, but not yet usable; nothing is used up.
        let early = apply(&buyers[0].0, &buyers[0].1, "doors-open").await;
        assert_eq!(
            (early.status.as_u16(), early.code().as_str()),
            (409, "INVALID_STATE"),
            "{}",
            early.text
        );
        assert!(early.text.contains("can be used from"), "{}", early.text);
        // At the start, twenty at once: five get it.
        app.clock.advance_ms(60_000);
        let answers = join_all(
            buyers
                .iter()
                .map(|(b, booking, _)| apply(b, booking, "doors-open")),
        )
        .await;
        let won = answers.iter().filter(|a| a.status == 200).count();
        assert_eq!(
            won,
            5,
            "{:?}",
            answers.iter().map(|a| &a.text).collect::<Vec<_>>()
        );
        assert!(answers
            .iter()
            .filter(|a| a.status != 200)
            .all(|a| a.code() == "PROMO_EXHAUSTED"));
        // After its end, even a code with uses left is refused.
        let late = campaign(
            &app,
            json!({ "name": "Late", "kind": "single", "code": "too-late", "amountOffCents": 500,
                    "endsAt": rfc3339(now + 100_000) }),
        )
        .await;
        assert_eq!(late["startsAt"], Value::Null);
        app.clock.advance_ms(40_001);
        let (b, booking, _) = &holders(&app, 1, 2_300).await[0];
        let refused = apply(b, booking, "too-late").await;
        assert_eq!(refused.status, 409, "{}", refused.text);
        assert!(
            refused.text.contains("could be used until"),
            "{}",
            refused.text
        );
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_window_that_does_not_read_or_ends_before_it_starts_is_refused,
    |app: TestApp| async move {
        let post = |body: Value| {
            let admin = app.admin();
            async move { admin.post("/api/admin/promos", None, Some(body)).await }
        };
        let before = app.scalar("select count(*) from promo_campaign").await;
        let unreadable = post(json!({ "name": "X", "kind": "single", "percentOff": 5,
                                       "startsAt": "soon", "endsAt": "later" }))
        .await;
        assert_eq!(unreadable.status, 422, "{}", unreadable.text);
        let fields: Vec<String> = unreadable.json()["error"]["fields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                f.as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| f["field"].as_str().unwrap().to_string())
            })
            .collect();
        assert_eq!(fields, ["startsAt", "endsAt"]);
        let backwards = post(json!({ "name": "X", "kind": "single", "percentOff": 5, "eventId": 1,
                                      "startsAt": "2030-01-02T10:00", "endsAt": "2030-01-01T10:00" }))
        .await;
        assert_eq!(backwards.status, 422, "{}", backwards.text);
        assert!(backwards.text.contains("endsAt"), "{}", backwards.text);
        assert_eq!(
            app.scalar("select count(*) from promo_campaign").await,
            before
        );
    }
);
