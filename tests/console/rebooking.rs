//! A sailing cancelled by the line, on SQLite and Postgres: a full ship's
//! bookings (mixed parties) moved to the route's next sailing or offered
//! a refund, each once; the buyer's three choices; the job killed mid-way
//! and resumed by another instance while buyers hold places on the next
//! sailing; two instances racing for the job.

use crate::common;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use common::{Answer, Backend, Buyer, TestApp};
use futures::future::join_all;
use holdfast_core::payments::sandbox::Delivery;
use holdfast_core::platform::clock::SharedClock;
use holdfast_core::platform::jobs::{Job, Runner};
use holdfast_core::sailing::rebooking;
use holdfast_core::AppState;
use serde_json::{json, Value};

/// The demo cruise's first three sailings (the first is event 2).
async fn sailings(app: &TestApp) -> (i64, i64, i64) {
    let rows: Vec<(i64,)> = sqlx::query_as(
        "select event_id from sailing where route_id = (select route_id from sailing where event_id = 2)
         order by departs_at",
    )
    .fetch_all(app.state.db.reader())
    .await
    .unwrap();
    (rows[0].0, rows[1].0, rows[2].0)
}

/// A sailing's cabins: (seat id, min guests, max guests), in id order.
async fn cabins(app: &TestApp, sailing: i64) -> Vec<(i64, i64, i64)> {
    sqlx::query_as(
        "select s.id, c.min_guests, c.max_guests from cabin c join seat s on s.id = c.seat_id
         where s.event_id = $1 order by s.id",
    )
    .bind(sailing)
    .fetch_all(app.state.db.reader())
    .await
    .unwrap()
}

/// A buyer holds cabins for parties and starts paying; the sandbox takes
/// the money (its events are delivered by the caller): (buyer, booking).
async fn book(app: &TestApp, sailing: i64, parties: &[(i64, i64)]) -> (Buyer, String) {
    let buyer = app.buyer();
    let seats: Vec<i64> = parties.iter().map(|p| p.0).collect();
    let guests: Vec<Value> = parties
        .iter()
        .map(|(seat, n)| json!({ "seatId": seat, "count": n }))
        .collect();
    let held = buyer
        .post(
            &format!("/api/events/{sailing}/holds"),
            Some(&common::new_key()),
            Some(json!({ "seatIds": seats, "guests": guests })),
        )
        .await;
    assert_eq!(held.status, 200, "{}", held.text);
    let booking = held.json()["bookingId"].as_str().unwrap().to_string();
    let paid = buyer.pay(&booking).await;
    app.pay_on_sandbox(&paid, "passenger@example.com", Delivery::Once)
        .await;
    (buyer, booking)
}

/// Books every group of cabins, `at_once` buyers at a time; then delivers
/// the payments' events: the bookings, BOOKED.
async fn book_all(app: &TestApp, sailing: i64, groups: &[Vec<(i64, i64)>]) -> Vec<(Buyer, String)> {
    let mut out = Vec::new();
    for chunk in groups.chunks(20) {
        out.extend(join_all(chunk.iter().map(|g| book(app, sailing, g))).await);
    }
    app.deliver_events().await;
    for (_, booking) in &out {
        assert_eq!(app.status_of(booking).await, "BOOKED");
    }
    out
}

/// Parties for cabins: each within the cabin's occupancy, sizes mixed.
fn parties(cabins: &[(i64, i64, i64)], per_booking: usize) -> Vec<Vec<(i64, i64)>> {
    cabins
        .chunks(per_booking)
        .enumerate()
        .map(|(i, group)| {
            group
                .iter()
                .enumerate()
                .map(|(j, (seat, min, max))| (*seat, min + ((i + j) as i64 % (max - min + 1))))
                .collect()
        })
        .collect()
}

async fn cancel(app: &TestApp, sailing: i64, reason: &str) -> Answer {
    app.admin()
        .post(
            &format!("/api/admin/sailings/{sailing}/cancel"),
            None,
            Some(json!({ "reason": reason })),
        )
        .await
}

/// Runs the rebooking job's batches until nothing is left.
async fn rebook_all(state: &AppState) -> usize {
    let mut total = 0;
    loop {
        let n = rebooking::run(state, 64).await.expect("rebooking runs");
        if n == 0 {
            return total;
        }
        total += n;
    }
}

/// A booking's places: (seat, event, guests, category code, category
/// price, cabin deck/corridor/number, cabin max guests).
#[derive(Debug, Clone, sqlx::FromRow)]
struct Place {
    seat_id: i64,
    event_id: i64,
    guests: i64,
    price: i64,
    level: String,
    row_label: String,
    number: i64,
    max_guests: i64,
}

async fn places(app: &TestApp, booking: &str) -> Vec<Place> {
    sqlx::query_as(
        "select bs.seat_id, s.event_id, bs.guests, pc.price_cents as price, s.level, s.row_label,
                s.number, c.max_guests
         from booking_seat bs join seat s on s.id = bs.seat_id
         join price_category pc on pc.id = s.category_id join cabin c on c.seat_id = s.id
         where bs.booking_id = $1 and bs.live = 1 order by bs.seat_id",
    )
    .bind(booking)
    .fetch_all(app.state.db.reader())
    .await
    .unwrap()
}

async fn event_of(app: &TestApp, booking: &str) -> i64 {
    let (e,): (i64,) = sqlx::query_as("select event_id from booking where id = $1")
        .bind(booking)
        .fetch_one(app.state.db.reader())
        .await
        .unwrap();
    e
}

on_both_backends!(
    a_full_ship_cancelled_moves_every_booking_once_or_offers_a_refund,
    |app: TestApp| async move {
        let (a, b, _) = sailings(&app).await;
        let on_a = cabins(&app, a).await;
        let on_b = cabins(&app, b).await;
        assert_eq!(on_a.len(), on_b.len());
        // The next sailing is partly sold: its first 60 cabins.
        book_all(&app, b, &parties(&on_b[..60], 3)).await;
        // Every cabin of the sailing to cancel, three to a booking.
        let booked = book_all(&app, a, &parties(&on_a, 3)).await;
        assert_eq!(booked.len(), 100);
        // Some parties named their guests: they follow their cabins.
        let (namer, named) = &booked[30];
        let manifest_places = places(&app, named).await;
        let guests: Vec<Value> = manifest_places
            .iter()
            .flat_map(|p| {
                (0..p.guests).map(move |i| {
                    json!({ "seatId": p.seat_id, "fullName": format!("Guest {} {i}", p.seat_id), "birthDate": "1980-02-03" })
                })
            })
            .collect();
        let put = namer
            .send(
                reqwest::Method::PUT,
                &format!("/api/bookings/{named}/guests"),
                &[],
                Some(json!({ "guests": guests })),
            )
            .await;
        assert_eq!(put.status, 200, "{}", put.text);
        let before: HashMap<String, Vec<Place>> = {
            let mut m = HashMap::new();
            for (_, id) in &booked {
                m.insert(id.clone(), places(&app, id).await);
            }
            m
        };

        let cancelled = cancel(&app, a, "Storm warning: force 10 in the North Sea").await;
        assert_eq!(cancelled.status, 202, "{}", cancelled.text);
        assert_eq!(cancelled.json()["left"], 100);
        assert_eq!(rebook_all(&app.state).await, 100);

        let progress = app
            .admin()
            .get(&format!("/api/admin/sailings/{a}/rebooking"))
            .await
            .json();
        assert_eq!(progress["left"], 0, "{progress}");
        let (moved, offered) = (
            progress["moved"].as_i64().unwrap(),
            progress["refundOffered"].as_i64().unwrap(),
        );
        assert_eq!(moved + offered, 100, "{progress}");
        // 240 cabins were free for 300: some could not go.
        assert!(moved >= 60 && offered >= 20, "{progress}");
        assert_eq!(progress["toSailingId"], b);

        let mut same_cabins = 0;
        for (_, id) in &booked {
            let was = &before[id];
            let now = places(&app, id).await;
            assert_eq!(app.status_of(id).await, "BOOKED");
            assert_eq!(now.len(), was.len(), "{id}: every party keeps a place");
            if event_of(&app, id).await == a {
                // Offered a refund: nothing moved.
                assert_eq!(
                    now.iter().map(|p| p.seat_id).collect::<Vec<_>>(),
                    was.iter().map(|p| p.seat_id).collect::<Vec<_>>()
                );
                continue;
            }
            let mut sizes_was: Vec<i64> = was.iter().map(|p| p.guests).collect();
            let mut sizes_now: Vec<i64> = now.iter().map(|p| p.guests).collect();
            sizes_was.sort();
            sizes_now.sort();
            assert_eq!(sizes_was, sizes_now, "{id}: the parties stay as they were");
            for p in &now {
                assert_eq!(p.event_id, b);
                assert!(
                    p.guests <= p.max_guests,
                    "{id}: a party of {} in {p:?}",
                    p.guests
                );
            }
            // Never a cheaper category than the cheapest paid for.
            let least_paid = was.iter().map(|p| p.price).min().unwrap();
            assert!(
                now.iter().all(|p| p.price >= least_paid),
                "{id}: {was:?} → {now:?}"
            );
            let key = |p: &Place| (p.level.clone(), p.row_label.clone(), p.number);
            if was.iter().map(key).collect::<Vec<_>>() == now.iter().map(key).collect::<Vec<_>>() {
                same_cabins += 1;
            }
        }
        // Bookings whose cabins were still free kept their numbers (the
        // displaced ones, placed nearby in the order paid, take some).
        assert!(same_cabins >= 1, "no booking kept its cabins");

        // The guests moved with their cabins.
        let named_now = places(&app, named).await;
        let guest_seats: Vec<(i64,)> = sqlx::query_as(
            "select distinct seat_id from booking_guest where booking_id = $1 order by seat_id",
        )
        .bind(named)
        .fetch_all(app.state.db.reader())
        .await
        .unwrap();
        let expected: Vec<i64> = named_now.iter().map(|p| p.seat_id).collect();
        assert_eq!(
            guest_seats.into_iter().map(|g| g.0).collect::<Vec<_>>(),
            expected
        );

        // Once: another run moves nothing, mails nobody again.
        let mails = app
            .scalar("select count(*) from outbox where dedupe_key like 'rebooked-%'")
            .await;
        assert_eq!(mails, 100);
        assert_eq!(rebook_all(&app.state).await, 0);
        assert_eq!(
            app.scalar("select count(*) from outbox where dedupe_key like 'rebooked-%'")
                .await,
            100
        );
        assert_eq!(app.scalar("select count(*) from rebooking").await, 100);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    each_buyer_keeps_changes_sailing_or_takes_a_refund_once,
    |app: TestApp| async move {
        let (a, b, c) = sailings(&app).await;
        let on_a = cabins(&app, a).await;
        let party = |i: usize| (on_a[i].0, on_a[i].2.min(3));
        let booked = book_all(&app, a, &[vec![party(0)], vec![party(1)], vec![party(2)]]).await;
        let (keeper, kept) = &booked[0];
        let (changer, changed) = &booked[1];
        let (refunder, refunded) = &booked[2];
        // A hold and a checkout under way on the sailing when it is cancelled.
        let holder = app.buyer();
        let hold = holder.held_booking(a, on_a[3].0).await;
        let payer = app.buyer();
        let pending = payer.held_booking(a, on_a[4].0).await;
        assert_eq!(payer.pay(&pending).await.status, 200);

        // Cancelling: admins only, a reason, once.
        let stranger = app.buyer();
        let path = format!("/api/admin/sailings/{a}/cancel");
        let refused = stranger
            .post(&path, None, Some(json!({ "reason": "x" })))
            .await;
        assert_eq!(refused.status, 401, "{}", refused.text);
        let empty = cancel(&app, a, "  ").await;
        assert_eq!(
            (
                empty.status.as_u16(),
                empty.json()["error"]["fields"][0].as_str()
            ),
            (422, Some("reason"))
        );
        assert_eq!(cancel(&app, 999_999, "fog").await.status, 404);
        assert_eq!(cancel(&app, a, "Gale in the fjords").await.status, 202);
        assert_eq!(cancel(&app, a, "again").await.status, 409);
        // It sells no more, on the API's usual refusal.
        let late = app.buyer().hold(a, on_a[5].0).await;
        assert_eq!(
            (late.status.as_u16(), late.code()),
            (409, "NOT_ON_SALE".to_string())
        );

        // The console's live view: the progress, pushed.
        let mut stream = app
            .admin()
            .http
            .get(format!(
                "{}/api/admin/sailings/{a}/rebooking/stream",
                app.base
            ))
            .send()
            .await
            .unwrap();
        assert_eq!(stream.status(), 200);
        let first = stream.chunk().await.unwrap().unwrap();
        let first = String::from_utf8_lossy(&first);
        assert!(
            first.contains("event: progress") && first.contains("\"left\":5"),
            "{first}"
        );
        drop(stream);

        assert_eq!(rebook_all(&app.state).await, 5);
        assert_eq!(app.status_of(&hold).await, "CANCELLED");
        assert_eq!(app.status_of(&pending).await, "EXPIRED");

        let shown = keeper.get(&format!("/api/bookings/{kept}")).await.json();
        let r = &shown["rebooking"];
        assert_eq!(r["outcome"], "MOVED", "{shown}");
        assert_eq!(r["cancelled"]["id"], a);
        assert_eq!(r["cancelled"]["cancelReason"], "Gale in the fjords");
        assert_eq!(r["movedTo"]["id"], b);
        assert_eq!(r["choices"], json!(["KEEP", "SAILING", "REFUND"]));
        assert!(r["otherSailings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["id"] == c));
        assert_eq!(shown["eventId"], b);

        // Another buyer's booking answers like an unknown one.
        let answer_path = |id: &str| format!("/api/bookings/{id}/rebooking");
        let theirs = stranger
            .post(
                &answer_path(kept),
                None,
                Some(json!({ "choice": "REFUND" })),
            )
            .await;
        assert_eq!(theirs.status, 404, "{}", theirs.text);
        let bad = keeper
            .post(&answer_path(kept), None, Some(json!({ "choice": "MAYBE" })))
            .await;
        assert_eq!(
            (
                bad.status.as_u16(),
                bad.json()["error"]["fields"][0].as_str()
            ),
            (422, Some("choice"))
        );

        // Keep.
        let k = keeper
            .post(&answer_path(kept), None, Some(json!({ "choice": "KEEP" })))
            .await;
        assert_eq!(k.status, 200, "{}", k.text);
        assert_eq!(
            (k.json()["answer"].as_str(), k.json()["choices"].clone()),
            (Some("KEPT"), json!([]))
        );
        let again = keeper
            .post(
                &answer_path(kept),
                None,
                Some(json!({ "choice": "REFUND" })),
            )
            .await;
        assert_eq!(again.status, 409, "{}", again.text);
        assert_eq!(app.status_of(kept).await, "BOOKED");

        // Another sailing: not the cancelled one; the third is.
        let wrong = changer
            .post(
                &answer_path(changed),
                None,
                Some(json!({ "choice": "SAILING", "sailingId": a })),
            )
            .await;
        assert_eq!(wrong.status, 422, "{}", wrong.text);
        let moved = changer
            .post(
                &answer_path(changed),
                None,
                Some(json!({ "choice": "SAILING", "sailingId": c })),
            )
            .await;
        assert_eq!(moved.status, 200, "{}", moved.text);
        assert_eq!(moved.json()["answer"], "CHANGED");
        assert_eq!(event_of(&app, changed).await, c);
        let on_c = places(&app, changed).await;
        assert_eq!(on_c.len(), 1);
        assert_eq!(on_c[0].event_id, c);

        // A refund: everything paid, once at the provider.
        let r = refunder
            .post(
                &answer_path(refunded),
                None,
                Some(json!({ "choice": "REFUND" })),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(app.status_of(refunded).await, "CANCELLED");
        let twice = refunder
            .post(
                &answer_path(refunded),
                None,
                Some(json!({ "choice": "REFUND" })),
            )
            .await;
        assert_eq!(twice.status, 409, "{}", twice.text);
        app.dispatch_outbox().await;
        app.deliver_events().await;
        app.dispatch_outbox().await;
        assert_eq!(app.status_of(refunded).await, "REFUNDED");
        // Once at the provider, for everything paid.
        let refunds: Vec<(i64, i64)> = sqlx::query_as(
            "select r.amount_cents, p.amount_cents from sandbox_refund r
             join payment p on p.payment_intent_id = r.payment_intent_id where p.booking_id = $1",
        )
        .bind(refunded)
        .fetch_all(app.state.db.reader())
        .await
        .unwrap();
        assert_eq!(refunds.len(), 1, "{refunds:?}");
        assert_eq!(refunds[0].0, refunds[0].1, "refunded in full");
        // Each of the three was told once.
        assert_eq!(
            app.scalar("select count(*) from mailbox where dedupe_key like 'rebooked-%'")
                .await,
            3
        );
        app.assert_invariants().await;
    }
);

/// Two instances of Holdfast on one database, moved by one clock.
fn shared(app: &TestApp, clock: SharedClock) -> AppState {
    app.state.with_clock(clock)
}

const LEASE: Duration = Duration::from_secs(10);

async fn killed_mid_way_and_resumed_elsewhere(backend: Backend) {
    if matches!(backend, Backend::Postgres) && !common::wants_postgres() {
        return;
    }
    let one = common::spawn_app(backend).await;
    let two = common::spawn_on(&one.database_url, None, |_| {}).await;
    let manual = one.clock.clone();
    let clock: SharedClock = manual.clone();
    let (a, b, _) = sailings(&one).await;
    let on_a = cabins(&one, a).await;
    let booked = book_all(&one, a, &parties(&on_a[..120], 2)).await;
    assert_eq!(cancel(&one, a, "Fog over the coast").await.status, 202);

    // Instance one's run moves a few bookings and then stops answering,
    // lease and all (a process frozen, then killed).
    let frozen = Job::new(rebooking::JOB, Duration::from_secs(1), |s| async move {
        let n = rebooking::run(&s, 7).await.map_err(|e| e.to_string())?;
        std::future::pending::<()>().await;
        Ok(n as u64)
    });
    let real = holdfast::server::workers::jobs(&holdfast::server::config::Config::for_tests(
        &one.database_url,
    ))
    .into_iter()
    .find(|j| j.name == rebooking::JOB)
    .expect("the rebooking job");
    let runner = |app: &TestApp, name: &str, job: Job| {
        Arc::new(Runner::new(
            shared(app, clock.clone()),
            vec![job],
            name.into(),
            LEASE,
        ))
    };
    let runner_one = runner(&one, "one", frozen.clone());
    let runner_two = runner(&two, "two", frozen);
    runner_one.register().await.unwrap();
    runner_two.register().await.unwrap();

    // Both poll at the same moment: one run starts, and the other
    // instance starts none while its lease lasts.
    let (p1, p2) = tokio::join!(runner_one.poll(), runner_two.poll());
    let started: Vec<_> = p1.unwrap().into_iter().chain(p2.unwrap()).collect();
    assert_eq!(started.len(), 1, "two runs of one job at once");
    assert!(runner_one.poll().await.unwrap().is_empty());
    assert!(runner_two.poll().await.unwrap().is_empty());
    // Wait for the frozen run's seven moves, then kill it.
    for _ in 0..200 {
        if one.scalar("select count(*) from rebooking").await == 7 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(one.scalar("select count(*) from rebooking").await, 7);
    for h in started {
        h.abort();
    }

    // While instance two takes over after the lease, buyers race it for
    // cabins of the next sailing.
    manual.advance_ms((LEASE + Duration::from_secs(1)).as_millis() as i64);
    let on_b = cabins(&one, b).await;
    let racers: Vec<Buyer> = (0..40).map(|_| two.buyer()).collect();
    let holds = racers.iter().enumerate().map(|(i, buyer)| {
        let seat = on_b[(i * 7) % on_b.len()].0;
        async move { buyer.hold(b, seat).await.status.as_u16() }
    });
    let taker = runner(&two, "three", real);
    let (taken, held) = tokio::join!(taker.poll(), join_all(holds));
    let taken = taken.unwrap();
    assert_eq!(
        taken.len(),
        1,
        "another instance takes the abandoned job over"
    );
    for h in taken {
        h.await.unwrap();
    }
    assert!(held.iter().all(|s| *s == 200 || *s == 409), "{held:?}");

    // Every booking handled once; nothing moved or mailed twice.
    assert_eq!(one.scalar("select count(*) from rebooking").await, 60);
    assert_eq!(
        one.scalar("select count(*) from outbox where dedupe_key like 'rebooked-%'")
            .await,
        60
    );
    let abandoned = one
        .scalar("select count(*) from job_run where job = 'rebooking' and outcome = 'abandoned'")
        .await;
    assert_eq!(abandoned, 1);
    for (_, id) in &booked {
        assert_eq!(one.status_of(id).await, "BOOKED");
        assert_eq!(places(&one, id).await.len(), 2);
    }
    let now = clock.now();
    let v = holdfast_core::invariants::violations(&one.state.db, now)
        .await
        .unwrap();
    assert!(v.is_empty(), "{v:?}");
}

for_each_backend!(killed_mid_way_and_resumed_elsewhere);

// A body missing a required field is 422 naming that field (as the
// contract promises for `reason`), one with a field the operation does
// not take is 400 naming it; a body that is not JSON stays 400 on `body`.
// Nothing is cancelled by any of them.
on_both_backends!(a_missing_field_is_named, |app: TestApp| async move {
    let sailing = app.scalar("select max(event_id) from sailing").await;
    let path = format!("/api/admin/sailings/{sailing}/cancel");
    let admin = app.admin();
    let missing = admin.post(&path, None, Some(json!({}))).await;
    assert_eq!(missing.status, 422, "{}", missing.text);
    assert_eq!(missing.json()["error"]["fields"], json!(["reason"]));
    let unknown = admin
        .post(&path, None, Some(json!({ "reason": "storm", "why": "x" })))
        .await;
    assert_eq!(unknown.status, 400, "{}", unknown.text);
    assert_eq!(unknown.json()["error"]["fields"], json!(["why"]));
    let garbage = admin
        .send(
            reqwest::Method::POST,
            &path,
            &[("content-type", "application/json")],
            None,
        )
        .await;
    assert_eq!(garbage.status, 400, "{}", garbage.text);
    let cancelled = app
        .scalar("select count(*) from sailing where cancelled_at is not null")
        .await;
    assert_eq!(cancelled, 0);
});
