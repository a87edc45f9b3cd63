//! The waiting room: arrivals get places in arrival order, admission follows
//! that order at no more than the configured rate (however many instances
//! step it), nobody holds without an admission while the room is on, and
//! tokens cannot be forged, shared, moved to another event or kept past
//! their expiry.

use crate::common;

use std::collections::HashSet;

use common::{Buyer, TestApp};
use futures::future::join_all;
use holdfast_core::waiting_room::admit::{admit_due, MAX_STEP_MS};
use holdfast_core::waiting_room::join::join;
use holdfast_model::{BuyerId, EventId};
use reqwest::Method;
use serde_json::{json, Value};

const ARRIVALS: usize = 20_000;
const WAVE: usize = 500;
const PER_MINUTE: i64 = 1_200;

async fn room(app: &TestApp, event: i64, enabled: bool, per_minute: i64) -> Value {
    let a = app
        .admin()
        .send(
            Method::PUT,
            &format!("/api/admin/events/{event}/queue"),
            &[],
            Some(json!({ "enabled": enabled, "admitPerMinute": per_minute })),
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.text);
    a.json()
}

async fn admitted_through(app: &TestApp, event: i64) -> i64 {
    app.scalar(&format!(
        "select admitted_through from waiting_room where event_id = {event}"
    ))
    .await
}

/// Steps admission like the workers of `instances` servers racing each
/// other, once per simulated second.
async fn step(app: &TestApp, event: i64, instances: usize) -> i64 {
    app.clock.advance_ms(1_000);
    let steps = join_all((0..instances).map(|_| admit_due(&app.state, EventId(event)))).await;
    steps.into_iter().map(|s| s.expect("admission step")).sum()
}

async fn join_http(buyer: &Buyer, event: i64) -> Value {
    let a = buyer
        .post(&format!("/api/events/{event}/queue"), None, None)
        .await;
    assert_eq!(a.status, 200, "{}", a.text);
    a.json()
}

/// A published event of four seats in one row: its id and seat ids.
async fn tiny_event(app: &TestApp) -> (i64, Vec<i64>) {
    let admin = app.admin();
    let created = admin
    .post(
    "/api/admin/events",
    None,
    Some(json!({
        "name": "Tiny room", "kind": "concert", "venue": "Attic",
        "startsAt": "2027-06-01T20:00:00Z", "currency": "EUR",
        "categories": [ { "code": "A", "name": "Seats", "priceCents": 2000, "color": "#c0392b" } ],
        "sections": [ { "name": "Attic", "category": "A", "rows": 1, "seatsPerRow": 4, "x": 0, "y": 0 } ]
    })),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.text);
    let event = created.json()["eventId"].as_i64().unwrap();
    let published = admin
        .post(&format!("/api/admin/events/{event}/publish"), None, None)
        .await;
    assert_eq!(published.status, 200, "{}", published.text);
    let seats: Vec<i64> = sqlx::query_as::<_, (i64,)>(&format!(
        "select id from seat where event_id = {event} order by id"
    ))
    .fetch_all(app.state.db.reader())
    .await
    .unwrap()
    .into_iter()
    .map(|r| r.0)
    .collect();
    (event, seats)
}

on_both_backends!(
    twenty_thousand_arrivals_are_admitted_in_order_within_the_rate,
    |app: TestApp| async move {
        room(&app, 1, true, PER_MINUTE).await;
        // Arrivals in waves: everyone in a wave arrives at once, after
        // everyone of the wave before.
        let mut place_of: Vec<(usize, i64)> = Vec::with_capacity(ARRIVALS);
        for wave in 0..ARRIVALS / WAVE {
            app.clock.advance_ms(1);
            let joined = join_all((0..WAVE).map(|i| {
                let state = app.state.clone();
                let buyer = format!("sim-{}", wave * WAVE + i);
                async move { join(&state, &BuyerId(buyer), EventId(1)).await }
            }))
            .await;
            for (i, status) in joined.into_iter().enumerate() {
                let status = status.expect("join");
                assert!(!status.admitted && status.position > 0, "{status:?}");
                let place = status.queue_token.as_deref().expect("a signed place");
                let place: i64 = place.split('.').nth(2).unwrap().parse().unwrap();
                place_of.push((wave * WAVE + i, place));
            }
        }
        let places: HashSet<i64> = place_of.iter().map(|p| p.1).collect();
        assert_eq!(places.len(), ARRIVALS, "every arrival has its own place");
        assert_eq!(
            app.scalar("select count(*) from queue_entry where event_id = 1")
                .await,
            ARRIVALS as i64
        );
        assert_eq!(
            (*places.iter().min().unwrap(), *places.iter().max().unwrap()),
            (1, ARRIVALS as i64)
        );
        for w in 1..ARRIVALS / WAVE {
            let earlier = place_of[(w - 1) * WAVE..w * WAVE].iter().map(|p| p.1).max();
            let later = place_of[w * WAVE..(w + 1) * WAVE].iter().map(|p| p.1).min();
            assert!(earlier < later, "wave {w} was placed before wave {}", w - 1);
        }
        // Joining again keeps the place, also many times at once.
        let first = place_of.iter().find(|p| p.0 == 123).unwrap().1;
        let again_buyer = BuyerId::from("sim-123");
        let again = join_all((0..100).map(|_| join(&app.state, &again_buyer, EventId(1)))).await;
        assert!(again.iter().all(|s| s.as_ref().unwrap().position == first));
        // A newcomer joining many times at once gets one place.
        let eager_buyer = BuyerId::from("eager");
        let eager = join_all((0..100).map(|_| join(&app.state, &eager_buyer, EventId(1)))).await;
        let eager: HashSet<i64> = eager.into_iter().map(|s| s.unwrap().position).collect();
        assert_eq!(eager, HashSet::from([ARRIVALS as i64 + 1]));
        assert_eq!(
            app.scalar("select issued from waiting_room where event_id = 1")
                .await,
            ARRIVALS as i64 + 1
        );

        // Three instances step the room for three simulated minutes.
        let burst = PER_MINUTE * MAX_STEP_MS / 60_000;
        let mut total = 0;
        for second in 1..=180i64 {
            total += step(&app, 1, 3).await;
            assert_eq!(total, admitted_through(&app, 1).await);
            assert!(
                total <= PER_MINUTE * second / 60 + burst,
                "{total} admitted after {second} s, the rate allows {}",
                PER_MINUTE * second / 60 + burst
            );
            assert!(
                total >= PER_MINUTE * (second - 1) / 60,
                "admission stalled at {second} s: {total}"
            );
        }
        // An instance whose clock reads earlier than the last step (it
        // waited for the lock meanwhile) lets nobody in, and never out.
        app.clock.advance_ms(-1_500);
        assert_eq!(admit_due(&app.state, EventId(1)).await.unwrap(), 0);
        assert_eq!(admitted_through(&app, 1).await, total);
        app.clock.advance_ms(1_500);
        // Admitted are exactly the first places.
        let rooms = &app.state.waiting_rooms;
        rooms.forget(EventId(1));
        for (buyer, place) in place_of.iter().step_by(7) {
            let s = holdfast_core::waiting_room::current_status(
                &app.state,
                &BuyerId(format!("sim-{buyer}")),
                EventId(1),
                None,
            )
            .await
            .unwrap()
            .unwrap();
            assert_eq!(
                s.admitted,
                *place <= total,
                "place {place}, {total} admitted: {s:?}"
            );
            if !s.admitted {
                assert_eq!(s.position, place - total);
                assert!(s.estimated_wait_ms >= s.position * 60_000 / PER_MINUTE - 1);
            }
        }
        app.assert_invariants().await;
    }
);

on_both_backends!(
    nobody_holds_or_sees_the_map_without_an_admission,
    |app: TestApp| async move {
        room(&app, 1, true, 60).await;
        let buyers: Vec<Buyer> = (0..100).map(|_| app.buyer()).collect();
        join_all(buyers.iter().map(|b| join_http(b, 1))).await;
        // Before the queue moves, all of them try at once.
        let tries = join_all(
            buyers
                .iter()
                .enumerate()
                .map(|(i, b)| b.hold(1, 100 + i as i64)),
        )
        .await;
        for t in &tries {
            assert_eq!(
                (t.status.as_u16(), t.code()),
                (403, "ADMISSION_REQUIRED".into()),
                "{}",
                t.text
            );
        }
        let map = buyers[0].get("/api/events/1/seats").await;
        assert_eq!(map.status, 403, "{}", map.text);
        // The organizer's tools read it with the admin token; a wrong one does not.
        assert_eq!(app.admin().get("/api/events/1/seats").await.status, 200);
        let wrong = buyers[0]
            .send(
                Method::GET,
                "/api/events/1/seats",
                &[("Authorization", "Bearer nope")],
                None,
            )
            .await;
        assert_eq!(wrong.status, 403);
        assert_eq!(app.scalar("select count(*) from booking").await, 0);

        // One step of one second at 60 a minute: the first (after the
        // catch-up of at most MAX_STEP_MS) are in, in order.
        let admitted = step(&app, 1, 2).await;
        assert!((1..=2).contains(&admitted), "{admitted}");
        let mut held = 0;
        for (i, b) in buyers.iter().enumerate() {
            let status = b.get("/api/events/1/queue").await.json();
            let place = status["queueToken"]
                .as_str()
                .unwrap()
                .split('.')
                .nth(2)
                .unwrap();
            let place: i64 = place.parse().unwrap();
            assert_eq!(status["admitted"], place <= admitted, "{status}");
            let a = b.hold(1, 100 + i as i64).await;
            if status["admitted"] == true {
                assert_eq!(a.status, 200, "{}", a.text);
                assert_eq!(b.get("/api/events/1/seats").await.status, 200);
                held += 1;
            } else {
                assert_eq!(a.status, 403, "{}", a.text);
                assert!(status["position"].as_i64().unwrap() >= 1);
            }
        }
        assert_eq!(held, admitted);
        // Every booking belongs to an admitted place.
        let outside = app
            .scalar(
                "select count(*) from booking b where not exists (
                   select 1 from queue_entry q join waiting_room w on w.event_id = q.event_id
                   where q.buyer_id = b.buyer_id and q.event_id = b.event_id
                     and q.position <= w.admitted_through)",
            )
            .await;
        assert_eq!(outside, 0);
        // The room off: everyone goes straight in.
        room(&app, 1, false, 60).await;
        let late = app.buyer();
        assert_eq!(late.hold(1, 900).await.status, 200);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    forged_shared_moved_and_expired_tokens_are_refused,
    |app: TestApp| async move {
        room(&app, 1, true, 600).await;
        room(&app, 2, true, 600).await;
        let alice = app.buyer();
        let bob = app.buyer();
        let first = join_http(&alice, 1).await;
        assert_eq!(
            join_http(&alice, 1).await["queueToken"],
            first["queueToken"]
        );
        join_http(&bob, 1).await;
        join_http(&alice, 2).await;
        step(&app, 1, 1).await;
        step(&app, 2, 1).await;
        let status = alice.get("/api/events/1/queue").await.json();
        assert_eq!(status["admitted"], true, "{status}");
        let token = status["admissionToken"].as_str().unwrap().to_string();

        let try_with = |who: &Buyer, event: i64, seat: i64, token: String| {
            let who = Buyer {
                base: who.base.clone(),
                http: who.http.clone(),
            };
            async move {
                who.send(
                    Method::POST,
                    &format!("/api/events/{event}/seats/{seat}/hold"),
                    &[
                        ("Admission-Token", &token),
                        ("Idempotency-Key", &common::new_key()),
                    ],
                    None,
                )
                .await
            }
        };
        // A fresh client without cookies: only the header counts.
        let alice_bare = Buyer {
            base: app.base.clone(),
            http: reqwest::Client::new(),
        };
        let forged = {
            let mut t = token.clone();
            let last = t.pop().unwrap();
            t.push(if last == '0' { '1' } else { '0' });
            t
        };
        let later = {
            let mut parts: Vec<String> = token.split('.').map(str::to_string).collect();
            parts[2] = (i64::MAX / 2).to_string();
            parts.join(".")
        };
        for (who, case, event, t) in [
            (&alice, "forged signature", 1, forged),
            (&alice, "extended expiry", 1, later),
            (&bob, "another session's token", 1, token.clone()),
            (&alice_bare, "no session at all", 1, token.clone()),
            (&alice, "another event", 2, token.clone()),
        ] {
            let a = try_with(who, event, 300, t).await;
            assert_eq!(a.status, 403, "{case}: {}", a.text);
            assert_eq!(a.code(), "ADMISSION_REQUIRED", "{case}");
        }
        assert_eq!(app.scalar("select count(*) from booking").await, 0);
        // The genuine token in the header works, for this buyer.
        assert_eq!(try_with(&alice, 1, 300, token.clone()).await.status, 200);

        // Past its expiry it does not, and joining again queues at the back.
        app.clock.advance_ms(900_000);
        app.state.waiting_rooms.forget(EventId(1));
        let a = try_with(&alice, 1, 301, token.clone()).await;
        assert_eq!(a.status, 403, "expired: {}", a.text);
        let status = alice.get("/api/events/1/queue").await.json();
        assert_eq!(status["admissionExpired"], true, "{status}");
        let rejoined = join_http(&alice, 1).await;
        assert_eq!(rejoined["admitted"], false, "{rejoined}");
        let place: i64 = rejoined["queueToken"]
            .as_str()
            .unwrap()
            .split('.')
            .nth(2)
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(place, 3, "behind bob, who joined second");
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_sold_out_room_says_so_and_moves_again_when_seats_return,
    |app: TestApp| async move {
        let (event, seats) = tiny_event(&app).await;
        let admin = app.admin();
        room(&app, event, true, 6_000).await;
        let buyers: Vec<Buyer> = (0..20).map(|_| app.buyer()).collect();
        for b in &buyers {
            join_http(b, event).await;
        }
        // 100 a second allowed, but only 4 places: 4 are let in.
        assert_eq!(step(&app, event, 1).await, 4);
        assert_eq!(step(&app, event, 1).await, 0, "no more than places");
        // The four take all the seats.
        for (b, seat) in buyers.iter().zip(&seats) {
            b.get(&format!("/api/events/{event}/queue")).await;
            let a = b.hold(event, *seat).await;
            assert_eq!(a.status, 200, "{}", a.text);
        }
        app.state.waiting_rooms.forget(EventId(event));
        let waiting = buyers[10]
            .get(&format!("/api/events/{event}/queue"))
            .await
            .json();
        assert_eq!(
            (waiting["soldOut"].clone(), waiting["admitted"].clone()),
            (json!(true), json!(false)),
            "{waiting}"
        );
        // The holds lapse: the seats come back, the queue moves.
        app.clock.advance_ms(301_000);
        holdfast::server::workers::sweep_expired_holds(&app.state)
            .await
            .expect("sweep");
        assert!(step(&app, event, 1).await > 0, "the queue moves again");
        app.state.waiting_rooms.forget(EventId(event));
        let waiting = buyers[10]
            .get(&format!("/api/events/{event}/queue"))
            .await
            .json();
        assert_eq!(waiting["soldOut"], false, "{waiting}");
        let summary = admin
            .get(&format!("/api/admin/events/{event}/queue"))
            .await
            .json();
        assert_eq!(summary["joined"], 20, "{summary}");
        assert!(summary["admitted"].as_i64().unwrap() > 4, "{summary}");
        app.assert_invariants().await;
    }
);

on_both_backends!(
    seats_coming_back_move_the_queue_while_those_let_in_hold,
    |app: TestApp| async move {
        let (event, seats) = tiny_event(&app).await;
        // Before the room opens, someone holds two of the four seats.
        let early = app.buyer();
        for seat in &seats[..2] {
            assert_eq!(early.hold(event, *seat).await.status, 200);
        }
        room(&app, event, true, 6_000).await;
        let buyers: Vec<Buyer> = (0..20).map(|_| app.buyer()).collect();
        for b in &buyers {
            join_http(b, event).await;
        }
        // Two places free: two let in, and both hold.
        app.clock.advance_ms(199_000);
        assert_eq!(step(&app, event, 1).await, 2);
        for (b, seat) in buyers.iter().zip(&seats[2..]) {
            b.get(&format!("/api/events/{event}/queue")).await;
            assert_eq!(b.hold(event, *seat).await.status, 200);
        }
        assert_eq!(step(&app, event, 1).await, 0, "sold out: nobody more");
        // The early holds lapse. The two let in a minute and a half ago
        // hold what they chose (counted in the seats taken): the two seats
        // back are for the next in line, now, not a hold's lifetime later.
        app.clock.advance_ms(100_000);
        holdfast::server::workers::sweep_expired_holds(&app.state)
            .await
            .expect("sweep");
        assert_eq!(step(&app, event, 1).await, 2, "the queue moves at once");
        for (b, seat) in buyers[2..4].iter().zip(&seats[..2]) {
            b.get(&format!("/api/events/{event}/queue")).await;
            let held = b.hold(event, *seat).await;
            assert_eq!(held.status, 200, "{}", held.text);
        }
        app.assert_invariants().await;
    }
);

#[tokio::test]
async fn bad_room_settings_are_refused_and_change_nothing() {
    let app = common::spawn_app(common::Backend::Sqlite).await;
    let admin = app.admin();
    for body in [
        json!({ "enabled": true, "admitPerMinute": 0 }),
        json!({ "enabled": true }),
        json!({ "enabled": "yes", "admitPerMinute": 5 }),
        json!({ "enabled": true, "admitPerMinute": 5, "extra": 1 }),
    ] {
        let a = admin
            .send(
                Method::PUT,
                "/api/admin/events/1/queue",
                &[],
                Some(body.clone()),
            )
            .await;
        assert!(a.status == 400 || a.status == 422, "{body}: {}", a.text);
        assert_eq!(a.json()["error"]["code"], "VALIDATION");
    }
    let a = admin
        .send(
            Method::PUT,
            "/api/admin/events/999/queue",
            &[],
            Some(json!({ "enabled": true, "admitPerMinute": 5 })),
        )
        .await;
    assert_eq!(a.status, 404);
    assert_eq!(app.scalar("select count(*) from waiting_room").await, 0);
    let anonymous = app.buyer();
    let a = anonymous
        .send(
            Method::PUT,
            "/api/admin/events/1/queue",
            &[],
            Some(json!({ "enabled": true, "admitPerMinute": 5 })),
        )
        .await;
    assert_eq!(a.status, 401);
    // With the room off, joining lets you straight in.
    let s = join_http(&anonymous, 1).await;
    assert_eq!(
        (s["admitted"].clone(), s["roomOpen"].clone()),
        (json!(true), json!(false))
    );
}

on_both_backends!(two_instances_share_one_queue, |app: TestApp| async move {
    // A second server on the same database: a place taken on one is the
    // same place on the other, and admission stepped by one lets the
    // buyer in on both.
    let other = common::spawn_on(&app.database_url, None, |_| {}).await;
    room(&app, 1, true, 600).await;
    let buyers: Vec<Buyer> = (0..6).map(|_| app.buyer()).collect();
    for b in &buyers {
        join_http(b, 1).await;
    }
    let late = Buyer {
        base: other.base.clone(),
        http: reqwest::Client::builder()
            .cookie_store(true)
            .build()
            .unwrap(),
    };
    let s = join_http(&late, 1).await;
    assert_eq!(s["position"], 7, "{s}");
    other.clock.advance_ms(1_000);
    let admitted = admit_due(&other.state, EventId(1)).await.unwrap();
    assert_eq!(admitted, 7, "all seven: the allowance is 20");
    // The first server learns it within its picture's age.
    app.state.waiting_rooms.forget(EventId(1));
    let seen = buyers[0].get("/api/events/1/queue").await.json();
    assert_eq!(seen["admitted"], true, "{seen}");
    // A token minted by one instance opens the other (one secret).
    let token = seen["admissionToken"].as_str().unwrap().to_string();
    let via_other = Buyer {
        base: other.base.clone(),
        http: buyers[0].http.clone(),
    };
    let a = via_other
        .send(
            Method::POST,
            "/api/events/1/seats/77/hold",
            &[
                ("Admission-Token", &token),
                ("Idempotency-Key", &common::new_key()),
            ],
            None,
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.text);
    app.assert_invariants().await;
});

on_both_backends!(
    a_room_opens_by_itself_before_the_on_sale,
    |app: TestApp| async move {
        use holdfast_core::platform::clock::Clock;
        use holdfast_core::waiting_room::setup::open_automatic_rooms;
        let on_sale = app.clock.now().ms() + 300_000;
        sqlx::query("update event set on_sale_at = $1 where id = 2")
            .bind(on_sale)
            .execute(app.state.db.writer())
            .await
            .unwrap();
        assert_eq!(
            open_automatic_rooms(&app.state, 600, 600_000)
                .await
                .unwrap(),
            vec![EventId(2)]
        );
        assert!(open_automatic_rooms(&app.state, 600, 600_000)
            .await
            .unwrap()
            .is_empty());
        // An early buyer lines up; nobody is let in before the on-sale.
        let early = app.buyer();
        let s = join_http(&early, 2).await;
        assert_eq!(s["position"], 1, "{s}");
        assert!(s["estimatedWaitMs"].as_i64().unwrap() >= 290_000, "{s}");
        assert_eq!(early.hold(2, 2_000_000).await.code(), "ADMISSION_REQUIRED");
        assert_eq!(step(&app, 2, 1).await, 0);
        app.clock.advance_ms(300_000);
        assert_eq!(step(&app, 2, 1).await, 1, "admission starts at the on-sale");
        // The admin's choice stands: a room switched off is not reopened.
        room(&app, 2, false, 600).await;
        assert!(open_automatic_rooms(&app.state, 600, 600_000)
            .await
            .unwrap()
            .is_empty());
    }
);
