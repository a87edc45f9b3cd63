//! The booking core under contention, on SQLite and Postgres: many buyers
//! fire at once, then the invariants are checked in the database.

use crate::common;

use std::collections::HashSet;

use common::{new_key, TestApp};
use futures::future::join_all;
use holdfast_core::booking::release::expire_due_holds;
use rand::seq::SliceRandom;
use rand::Rng;
use serde_json::{json, Value};

on_both_backends!(
    two_hundred_buyers_on_one_seat_make_one_hold,
    |app: TestApp| async move {
        for round in 0..20i64 {
            let seat = 100 + round * 7;
            let buyers: Vec<_> = (0..200).map(|_| app.buyer()).collect();
            let answers = join_all(buyers.iter().map(|b| b.hold(1, seat))).await;
            let ok = answers.iter().filter(|a| a.status == 200).count();
            let taken = answers
                .iter()
                .filter(|a| a.status == 409 && a.code() == "SEAT_TAKEN")
                .count();
            assert_eq!(
                (ok, taken),
                (1, 199),
                "round {round}: {:?}; unexpected answers: {:?}",
                answers.iter().map(|a| a.status).collect::<Vec<_>>(),
                answers
                    .iter()
                    .filter(|a| a.status != 200 && a.status != 409)
                    .map(|a| &a.text)
                    .collect::<Vec<_>>()
            );
            let live = app
                .scalar(&format!(
                    "select count(*) from booking_seat where seat_id = {seat} and live = 1"
                ))
                .await;
            assert_eq!(live, 1);
        }
        app.assert_invariants().await;
    }
);

on_both_backends!(
    overlapping_multi_seat_holds_are_all_or_nothing,
    |app: TestApp| async move {
        let pool: Vec<i64> = (200..240).collect();
        let requests: Vec<Vec<i64>> = (0..100)
            .map(|_| {
                let mut rng = rand::thread_rng();
                let n = rng.gen_range(2..=6);
                let mut set: Vec<i64> = pool.choose_multiple(&mut rng, n).copied().collect();
                set.shuffle(&mut rng);
                set
            })
            .collect();
        let buyers: Vec<_> = (0..100).map(|_| app.buyer()).collect();
        let answers = join_all(
            buyers
                .iter()
                .zip(&requests)
                .map(|(b, seats)| b.hold_many(1, seats)),
        )
        .await;
        let mut won = 0;
        for (a, seats) in answers.iter().zip(&requests) {
            assert!(
                a.status == 200 || a.status == 409,
                "unexpected {}: {}",
                a.status,
                a.text
            );
            if a.status == 200 {
                won += 1;
                let got: HashSet<i64> = a.json()["seatIds"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_i64().unwrap())
                    .collect();
                assert_eq!(got, seats.iter().copied().collect());
            }
        }
        assert!(won >= 1);
        // Every booking has all its requested seats live, or it does not exist.
        let partial = app
            .scalar(
                "select count(*) from booking b where b.status = 'HELD' and
             (select count(*) from booking_seat bs where bs.booking_id = b.id and bs.live = 1) = 0",
            )
            .await;
        assert_eq!(partial, 0);
        let live = app
            .scalar("select count(*) from booking_seat where live = 1")
            .await;
        let distinct = app
            .scalar("select count(distinct seat_id) from booking_seat where live = 1")
            .await;
        assert_eq!(live, distinct);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    general_admission_never_sells_more_than_capacity,
    |app: TestApp| async move {
        sqlx::query("update ga_area set capacity = 300, remaining = 300")
            .execute(app.state.db.writer())
            .await
            .unwrap();
        let area = app.scalar("select id from ga_area").await;
        let buyers: Vec<_> = (0..500).map(|_| app.buyer()).collect();
        let path = format!("/api/events/1/general-admission/{area}/hold");
        let keys: Vec<String> = (0..500).map(|_| new_key()).collect();
        let answers = join_all(buyers.iter().zip(&keys).map(|(b, key)| {
            let qty = rand::thread_rng().gen_range(1..=4);
            b.post(&path, Some(key), Some(json!({ "quantity": qty })))
        }))
        .await;
        for a in &answers {
            assert!(
                a.status == 200 || (a.status == 409 && a.code() == "SOLD_OUT"),
                "{}: {}",
                a.status,
                a.text
            );
        }
        let sold = app.scalar("select cast(coalesce(sum(ga_quantity), 0) as bigint) from booking where status = 'HELD'").await;
        let remaining = app.scalar("select remaining from ga_area").await;
        assert_eq!(sold + remaining, 300);
        // Demand (≈1,250 places) far exceeds supply: it sells out exactly,
        // unless the last places are fewer than every loser asked for.
        assert!(remaining < 4, "remaining {remaining}");
        assert!(remaining >= 0);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    an_expired_hold_is_free_at_once_without_the_sweeper,
    |app: TestApp| async move {
        let first = app.buyer();
        let old = first.hold(1, 42).await.json();
        let second = app.buyer();
        assert_eq!(second.hold(1, 42).await.status, 409);
        app.clock.advance_ms(300_001);
        let new = second.hold(1, 42).await;
        assert_eq!(new.status, 200, "{}", new.text);
        let old_id = old["bookingId"].as_str().unwrap();
        let status: (String,) = sqlx::query_as("select status from booking where id = $1")
            .bind(old_id)
            .fetch_one(app.state.db.reader())
            .await
            .unwrap();
        assert_eq!(status.0, "EXPIRED");
        // Nothing is left for the sweeper to do about it: expired exactly once.
        assert_eq!(expire_due_holds(&app.state, 100).await.unwrap(), 0);
        assert_eq!(
            first.get(&format!("/api/bookings/{old_id}")).await.json()["status"],
            "EXPIRED"
        );
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_hold_reads_as_expired_from_its_deadline_on,
    |app: TestApp| async move {
        let buyer = app.buyer();
        let held = buyer.hold(1, 43).await.json();
        let path = format!("/api/bookings/{}", held["bookingId"].as_str().unwrap());
        app.clock.advance_ms(299_999);
        let before = buyer.get(&path).await.json();
        assert_eq!(
            (&before["status"], &before["expiresInMs"]),
            (&json!("HELD"), &json!(1))
        );
        // Its deadline passed, nobody swept yet: the buyer and integrators
        // read what it is (the seat is free already), not a HELD at 0 ms.
        app.clock.advance_ms(1);
        let after = buyer.get(&path).await.json();
        assert_eq!(
            (&after["status"], &after["expiresInMs"]),
            (&json!("EXPIRED"), &Value::Null),
            "{after}"
        );
        let list = buyer.get("/api/bookings").await.json();
        assert_eq!(list[0]["status"], "EXPIRED", "{list}");
        app.assert_invariants().await;
    }
);

on_both_backends!(
    racing_sweepers_expire_each_hold_exactly_once,
    |app: TestApp| async move {
        let buyers: Vec<_> = (0..60).map(|_| app.buyer()).collect();
        let holds = join_all(
            buyers
                .iter()
                .enumerate()
                .map(|(i, b)| b.hold(1, 500 + i as i64)),
        )
        .await;
        assert!(holds.iter().all(|h| h.status == 200));
        app.clock.advance_ms(300_001);
        let counts = join_all((0..4).map(|_| {
            let state = app.state.clone();
            async move {
                let mut n = 0;
                loop {
                    let k = expire_due_holds(&state, 7).await.unwrap();
                    n += k;
                    if k == 0 {
                        return n;
                    }
                }
            }
        }))
        .await;
        assert_eq!(counts.iter().sum::<u64>(), 60, "{counts:?}");
        assert_eq!(
            app.scalar("select count(*) from booking where status = 'EXPIRED'")
                .await,
            60
        );
        assert_eq!(
            app.scalar("select count(*) from booking_seat where live = 1")
                .await,
            0
        );
        app.assert_invariants().await;
    }
);

on_both_backends!(
    idempotency_keys_replay_refuse_and_serialise,
    |app: TestApp| async move {
        let b = app.buyer();
        let body = json!({ "seatIds": [900, 901] });
        let first = b
            .post("/api/events/1/holds", Some("key-1"), Some(body.clone()))
            .await;
        assert_eq!(first.status, 200);
        app.clock.advance_ms(1000);
        let replay = b
            .post("/api/events/1/holds", Some("key-1"), Some(body.clone()))
            .await;
        assert_eq!(replay.status, 200);
        assert_eq!(replay.text, first.text, "a replay is byte-identical");
        // The same JSON spaced and ordered otherwise is the same request.
        let spaced = b
            .http
            .post(format!("{}/api/events/1/holds", b.base))
            .header("Idempotency-Key", "key-1")
            .header("Content-Type", "application/json")
            .body("{ \"seatIds\" : [ 900, 901 ] }\n")
            .send()
            .await
            .unwrap();
        assert_eq!(spaced.status(), 200);
        assert_eq!(spaced.text().await.unwrap(), first.text, "replayed");
        let other = b
            .post(
                "/api/events/1/holds",
                Some("key-1"),
                Some(json!({ "seatIds": [902] })),
            )
            .await;
        assert_eq!(
            (other.status.as_u16(), other.code()),
            (422, "IDEMPOTENCY_KEY_REUSED".into())
        );
        let missing = b
            .post(
                "/api/events/1/holds",
                None,
                Some(json!({ "seatIds": [903] })),
            )
            .await;
        assert_eq!(
            (missing.status.as_u16(), missing.code()),
            (400, "IDEMPOTENCY_KEY_MISSING".into())
        );
        // The same key from another buyer is another key.
        let stranger = app
            .buyer()
            .post(
                "/api/events/1/holds",
                Some("key-1"),
                Some(json!({ "seatIds": [904] })),
            )
            .await;
        assert_eq!(stranger.status, 200);

        // Twenty copies of one request at once: one booking, the rest replay it
        // (or are told the key is in use).
        let body = json!({ "seatIds": [910, 911, 912] });
        let answers = join_all(
            (0..20).map(|_| b.post("/api/events/1/holds", Some("key-2"), Some(body.clone()))),
        )
        .await;
        let mut bodies = HashSet::new();
        for a in &answers {
            match a.status.as_u16() {
                200 => {
                    bodies.insert(a.text.clone());
                }
                409 => assert_eq!(a.code(), "IDEMPOTENCY_KEY_IN_USE", "{}", a.text),
                s => panic!("unexpected {s}: {}", a.text),
            }
        }
        assert_eq!(bodies.len(), 1, "every 200 is the same answer");
        assert_eq!(
            app.scalar("select count(*) from booking_seat where seat_id = 910")
                .await,
            1
        );
        app.assert_invariants().await;
    }
);

on_both_backends!(
    bad_input_is_refused_and_writes_nothing,
    |app: TestApp| async move {
        let b = app.buyer();
        let cruise_seat = app.first_seat(2).await;
        let cases: Vec<(String, Option<serde_json::Value>, u16)> = vec![
            ("/api/events/1/seats/99999999/hold".into(), None, 404),
            (format!("/api/events/1/seats/{cruise_seat}/hold"), None, 404),
            ("/api/events/1/seats/abc/hold".into(), None, 400),
            (
                "/api/events/x/holds".into(),
                Some(json!({ "seatIds": [1] })),
                400,
            ),
            (
                "/api/events/1/holds".into(),
                Some(json!({ "seatIds": [1, 1] })),
                422,
            ),
            (
                "/api/events/1/holds".into(),
                Some(json!({ "seatIds": [] })),
                422,
            ),
            (
                "/api/events/1/holds".into(),
                Some(json!({ "seatIds": (1..=11).collect::<Vec<_>>() })),
                422,
            ),
            (
                "/api/events/1/holds".into(),
                Some(json!({ "seatIds": ["one"] })),
                422,
            ),
            (
                "/api/events/1/holds".into(),
                Some(json!({ "seats": [1] })),
                400,
            ),
            (
                "/api/events/1/holds".into(),
                Some(json!({ "seatIds": [1, cruise_seat] })),
                422,
            ),
            (
                "/api/events/99/holds".into(),
                Some(json!({ "seatIds": [1] })),
                404,
            ),
        ];
        for (path, body, want) in cases {
            let a = b.post(&path, Some(&new_key()), body.clone()).await;
            assert_eq!(a.status.as_u16(), want, "{path} {body:?}: {}", a.text);
            assert!(a.json()["error"]["code"].is_string(), "{}", a.text);
        }
        // Over the 16 KiB limit, yet small enough to sit in the socket buffer, so the
        // client reads the early 413 instead of racing the closed connection.
        let huge = "x".repeat(20_000);
        let r = b
            .http
            .post(format!("{}/api/events/1/holds", app.base))
            .header("Idempotency-Key", "huge")
            .header("content-type", "application/json")
            .body(format!("{{\"seatIds\":[1],\"pad\":\"{huge}\"}}"))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 413);
        let text = r.text().await.unwrap();
        assert!(
            text.contains("\"code\""),
            "error shape for huge bodies: {text}"
        );
        let not_json = b
            .http
            .post(format!("{}/api/events/1/holds", app.base))
            .header("Idempotency-Key", "nj")
            .header("content-type", "application/json")
            .body("{not json")
            .send()
            .await
            .unwrap();
        assert_eq!(not_json.status(), 400);
        assert_eq!(app.scalar("select count(*) from booking").await, 0);
        assert_eq!(app.scalar("select count(*) from idempotency_key").await, 0);
    }
);

on_both_backends!(
    a_buyer_sees_and_releases_only_its_own_bookings,
    |app: TestApp| async move {
        let owner = app.buyer();
        let held = owner.hold(1, 77).await.json();
        let id = held["bookingId"].as_str().unwrap().to_string();
        let stranger = app.buyer();
        assert_eq!(
            stranger.get(&format!("/api/bookings/{id}")).await.status,
            404
        );
        assert_eq!(
            stranger.delete(&format!("/api/bookings/{id}")).await.status,
            404
        );
        let mine = owner.get(&format!("/api/bookings/{id}")).await.json();
        assert_eq!(mine["status"], "HELD");
        assert_eq!(mine["seats"][0]["id"], 77);
        assert!(mine["expiresInMs"].as_i64().unwrap() > 0);
        let released = owner.delete(&format!("/api/bookings/{id}")).await;
        assert_eq!(released.json()["status"], "CANCELLED");
        assert_eq!(
            owner.delete(&format!("/api/bookings/{id}")).await.code(),
            "INVALID_STATE"
        );
        assert_eq!(stranger.hold(1, 77).await.status, 200);
        assert_eq!(
            owner
                .get("/api/bookings")
                .await
                .json()
                .as_array()
                .unwrap()
                .len(),
            1
        );
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_buyer_cannot_hold_more_than_the_limit_even_in_parallel,
    |app: TestApp| async move {
        let b = app.buyer();
        assert_eq!(b.hold(1, 1).await.status, 200); // the session exists before the race
        let pairs: Vec<[i64; 2]> = (0..12).map(|i| [1000 + 2 * i, 1001 + 2 * i]).collect();
        let answers = join_all(pairs.iter().map(|p| b.hold_many(1, p))).await;
        let ok = answers.iter().filter(|a| a.status == 200).count();
        assert_eq!(ok, 4, "1 + 4×2 = 9 ≤ 10 < 11");
        assert!(answers
            .iter()
            .filter(|a| a.status != 200)
            .all(|a| a.code() == "LIMIT_EXCEEDED"));
        app.assert_invariants().await;
    }
);

on_both_backends!(
    places_given_back_or_run_out_count_no_more_against_the_limit,
    |app: TestApp| async move {
        // Ten places, ten times over: held and released, held and run out,
        // held in parallel. Each time the buyer owns none of the places
        // before, so each time all ten may be held, and an eleventh not.
        let b = app.buyer();
        let arena = app.arena_seats().await;
        // One session (and buyer) for every round: a hold given back.
        let first = b.held_booking(1, arena[199]).await;
        assert_eq!(
            b.delete(&format!("/api/bookings/{first}")).await.status,
            200
        );
        for round in 0..10usize {
            let seats = &arena[200 + 11 * round..210 + 11 * round];
            let answers = join_all(seats.iter().map(|&s| b.hold(1, s))).await;
            for a in &answers {
                assert_eq!(a.status, 200, "round {round}: {}", a.text);
            }
            let eleventh = b.hold(1, arena[210 + 11 * round]).await;
            assert_eq!(eleventh.code(), "LIMIT_EXCEEDED", "{}", eleventh.text);
            if round % 2 == 0 {
                for a in &answers {
                    let id = a.json()["bookingId"].as_str().unwrap().to_string();
                    assert_eq!(b.delete(&format!("/api/bookings/{id}")).await.status, 200);
                }
            } else {
                app.clock.advance_ms(app.state.rules.hold_ttl_ms + 1);
            }
        }
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_refused_hold_suggests_adjacent_free_seats,
    |app: TestApp| async move {
        let a = app.buyer();
        assert_eq!(a.hold_many(1, &[10, 11]).await.status, 200);
        let refused = app.buyer().hold_many(1, &[11, 12]).await;
        assert_eq!(refused.status, 409);
        let body = refused.json();
        assert_eq!(body["error"]["seatIds"], json!([11]));
        let suggestions = body["error"]["suggestions"].as_array().unwrap();
        assert!(!suggestions.is_empty());
        for s in suggestions {
            let ids: Vec<i64> = s
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_i64().unwrap())
                .collect();
            assert_eq!(ids.len(), 2);
            assert_eq!(ids[1], ids[0] + 1, "side by side");
            assert!(!ids.contains(&10) && !ids.contains(&11));
        }
    }
);

on_both_backends!(
    a_crowd_that_lost_the_same_seats_is_offered_different_ones,
    |app: TestApp| async move {
        // Everybody went for the same pair, as a crowd does at an on-sale.
        assert_eq!(app.buyer().hold_many(1, &[10, 11]).await.status, 200);
        let losers: Vec<_> = (0..30).map(|_| app.buyer()).collect();
        let refused = join_all(losers.iter().map(|b| b.hold_many(1, &[10, 11]))).await;
        let firsts: Vec<Vec<i64>> = refused
            .iter()
            .map(|a| {
                assert_eq!(a.status, 409, "{}", a.text);
                let first = &a.json()["error"]["suggestions"][0];
                first
                    .as_array()
                    .expect("a suggestion")
                    .iter()
                    .map(|v| v.as_i64().unwrap())
                    .collect()
            })
            .collect();
        // Each loser was offered a block of its own, side by side…
        let mut seen = HashSet::new();
        for block in &firsts {
            assert_eq!(block.len(), 2);
            assert_eq!(block[1], block[0] + 1, "side by side: {block:?}");
            for seat in block {
                assert!(seen.insert(*seat), "seat {seat} offered twice: {firsts:?}");
            }
        }
        // …so all of them get what they were offered, at once.
        let taken = join_all(losers.iter().zip(&firsts).map(|(b, s)| b.hold_many(1, s))).await;
        let ok = taken.iter().filter(|a| a.status == 200).count();
        assert_eq!(
            ok,
            losers.len(),
            "{:?}",
            taken.iter().map(|a| a.status).collect::<Vec<_>>()
        );
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_lost_seat_is_named_as_the_map_names_it,
    |app: TestApp| async move {
        let seats = app.buyer().get("/api/events/1/seats").await.json();
        let seat = &seats["seats"][4];
        let id = seat["id"].as_i64().unwrap();
        app.buyer().held_booking(1, id).await;
        let lost = app.buyer().hold(1, id).await;
        assert_eq!(lost.code(), "SEAT_TAKEN");
        let named = format!(
            "Section {}, row {}, seat {} is no longer available",
            seat["section"].as_str().unwrap(),
            seat["row"].as_str().unwrap(),
            seat["number"]
        );
        assert_eq!(lost.json()["error"]["message"], named.as_str());
        // On a ship, a cabin by its deck and corridor.
        let cabins = app.buyer().get("/api/events/2/seats").await.json();
        let cabin = cabins["seats"][0]["id"].as_i64().unwrap();
        app.buyer().held_booking(2, cabin).await;
        let lost = app.buyer().hold(2, cabin).await;
        let message = lost.json()["error"]["message"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(
            message.starts_with("Deck ") && message.contains(", cabin "),
            "{message}"
        );
    }
);
