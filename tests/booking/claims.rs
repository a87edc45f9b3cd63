//! The claim transaction (`core::booking::store::claim`) under contention,
//! on SQLite and Postgres: 500 claims fired at once over seats that overlap
//! in random subsets, some of them still owned by holds whose time is up.
//! Afterwards every acknowledged hold exists with exactly its seats, no seat
//! is live twice, every refusal changed nothing, and a retry with the same
//! key answers what the first request was told. Group commit is on (the
//! crowd's claims share commits, each behind its own savepoint).

use crate::common;

use std::collections::{HashMap, HashSet};

use common::{new_key, TestApp};
use futures::future::join_all;
use holdfast_core::platform::clock::Clock;
use rand::seq::SliceRandom;
use rand::Rng;
use serde_json::json;

/// The contested seats: 80 seats of the arena.
fn pool() -> Vec<i64> {
    (400..480).collect()
}

/// The same hold again with the same key: a win replays the same booking,
/// a refusal (never stored under the key) is decided again, the same way.
async fn retry_answers_as_before(
    buyer: &common::Buyer,
    seats: &[i64],
    key: &str,
    first: &common::Answer,
) {
    let again = buyer
        .post(
            "/api/events/1/holds",
            Some(key),
            Some(json!({ "seatIds": seats })),
        )
        .await;
    assert_eq!(again.status, first.status, "{}", again.text);
    if first.status == 200 {
        assert_eq!(again.json()["bookingId"], first.json()["bookingId"]);
    }
}

fn seat_ids(answer: &common::Answer) -> HashSet<i64> {
    answer.json()["seatIds"]
        .as_array()
        .expect("seatIds")
        .iter()
        .map(|v| v.as_i64().expect("seat id"))
        .collect()
}

on_both_backends!(
    five_hundred_overlapping_claims_are_all_or_nothing,
    |app: TestApp| async move {
        let pool = pool();
        // Holds that run out before the crowd comes: their seats are free for
        // the map, still owned in the database until a claim expires them.
        let early: Vec<_> = (0..20).map(|_| app.buyer()).collect();
        let mut stale = Vec::new();
        for (i, b) in early.iter().enumerate() {
            let a = b.hold_many(1, &[pool[i * 3], pool[i * 3 + 1]]).await;
            assert_eq!(a.status, 200, "{}", a.text);
            stale.push(a.json()["bookingId"].as_str().unwrap().to_string());
        }
        app.clock.advance_ms(300_001);

        let claims: Vec<(Vec<i64>, String)> = (0..500)
            .map(|_| {
                let mut rng = rand::thread_rng();
                let n = rng.gen_range(1..=4);
                let mut seats: Vec<i64> = pool.choose_multiple(&mut rng, n).copied().collect();
                seats.shuffle(&mut rng);
                (seats, new_key())
            })
            .collect();
        let buyers: Vec<_> = (0..500).map(|_| app.buyer()).collect();
        let answers = join_all(buyers.iter().zip(&claims).map(|(b, (seats, key))| {
            b.post(
                "/api/events/1/holds",
                Some(key),
                Some(json!({ "seatIds": seats })),
            )
        }))
        .await;
        // Group commit was at work: claims of the crowd shared commits.
        assert!(
            app.state.claims.largest_batch() > 1,
            "every claim committed alone"
        );

        let mut acknowledged: HashMap<String, HashSet<i64>> = HashMap::new();
        for (a, (seats, _)) in answers.iter().zip(&claims) {
            match a.status.as_u16() {
                200 => {
                    let wanted: HashSet<i64> = seats.iter().copied().collect();
                    assert_eq!(seat_ids(a), wanted, "a hold answers with its seats");
                    let id = a.json()["bookingId"].as_str().unwrap().to_string();
                    acknowledged.insert(id, wanted);
                }
                409 => assert_eq!(a.code(), "SEAT_TAKEN", "{}", a.text),
                other => panic!("unexpected {other}: {}", a.text),
            }
        }
        assert!(
            acknowledged.len() >= 20,
            "only {} claims won",
            acknowledged.len()
        );

        // Every acknowledged hold is HELD with exactly its seats live.
        for (id, wanted) in &acknowledged {
            let status = app.status_of(id).await;
            assert_eq!(status, "HELD", "{id}");
            let live = app
                .scalar(&format!(
                    "select count(*) from booking_seat where booking_id = '{id}' and live = 1"
                ))
                .await;
            assert_eq!(live as usize, wanted.len(), "{id}");
            for seat in wanted {
                let mine = app
                    .scalar(&format!(
                        "select count(*) from booking_seat
                         where booking_id = '{id}' and seat_id = {seat} and live = 1"
                    ))
                    .await;
                assert_eq!(mine, 1, "{id} lacks seat {seat}");
            }
        }
        // No seat twice, between acknowledged holds or in the database; and
        // nothing live that nobody was told about (besides stale holds whose
        // seats nobody claimed).
        let mut seen = HashSet::new();
        for seats in acknowledged.values() {
            for s in seats {
                assert!(seen.insert(*s), "seat {s} acknowledged twice");
            }
        }
        let live_held = app
            .scalar(
                "select count(*) from booking_seat bs join booking b on b.id = bs.booking_id
                 where bs.live = 1 and b.status = 'HELD' and b.event_id = 1",
            )
            .await;
        let still_stale = app
            .scalar(&format!(
                "select count(*) from booking_seat where live = 1 and booking_id in ({})",
                stale
                    .iter()
                    .map(|s| format!("'{s}'"))
                    .collect::<Vec<_>>()
                    .join(",")
            ))
            .await;
        assert_eq!(live_held as usize, seen.len() + still_stale as usize);
        let distinct = app
            .scalar("select count(distinct seat_id) from booking_seat where live = 1")
            .await;
        let live = app
            .scalar("select count(*) from booking_seat where live = 1")
            .await;
        assert_eq!(live, distinct);
        // A stale hold whose seat was claimed ended as EXPIRED, whole.
        for id in &stale {
            let status = app.status_of(id).await;
            let live = app
                .scalar(&format!(
                    "select count(*) from booking_seat where booking_id = '{id}' and live = 1"
                ))
                .await;
            assert!(
                (status == "HELD" && live == 2) || (status == "EXPIRED" && live == 0),
                "{id}: {status} with {live} live seats"
            );
        }

        // Retries with the same key: a win replays the same booking, a
        // refusal was not stored and is decided again (taken again).
        for ((a, (seats, key)), b) in answers.iter().zip(&claims).zip(&buyers).take(60) {
            retry_answers_as_before(b, seats, key, a).await;
        }
        let bookings_after = app
            .scalar("select count(*) from booking where status = 'HELD'")
            .await;
        assert_eq!(
            bookings_after as usize,
            acknowledged.len() + stale.len()
                - app
                    .scalar("select count(*) from booking where status = 'EXPIRED'")
                    .await as usize,
            "retries added no booking"
        );
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_crowd_on_seats_of_its_own_is_decided_as_one,
    |app: TestApp| async move {
        // A crowd whose claims share no seat and no buyer: on Postgres a
        // batch decides them as a set (`claim_set`), and each must answer
        // as it would alone — held, over the limit, a seat taken behind the
        // map's back (another instance's hold), a stale hold in the way.
        let seats = app.arena_seats().await;
        let stale: Vec<i64> = seats[100..110].to_vec();
        for &seat in &stale {
            assert_eq!(app.buyer().hold(1, seat).await.status, 200);
        }
        app.clock.advance_ms(300_001);
        // Held by "another instance": in the database, not in this map.
        let elsewhere: Vec<i64> = seats[200..210].to_vec();
        for (i, seat) in elsewhere.iter().enumerate() {
            let id = format!("elsewhere-{i}");
            app.tamper(
                &format!(
                    "insert into booking (id, event_id, buyer_id, status, held_until, amount_cents,
                                          currency, ga_area_id, ga_quantity, places, created_at,
                                          updated_at)
                     values ($1, 1, 'someone-else', 'HELD', {until}, 100, 'EUR', null, 0, 1, {now},
                             {now})",
                    until = app.clock.now().ms() + 600_000,
                    now = app.clock.now().ms()
                ),
                &id,
            )
            .await;
            app.tamper(
                &format!(
                    "insert into booking_seat (booking_id, seat_id, event_id, price_cents, guests, live)
                     values ($1, {seat}, 1, 100, 1, 1)"
                ),
                &id,
            )
            .await;
            // The places another instance's claim adds to the buyer's bound.
            app.tamper(
                "insert into buyer_event (buyer_id, event_id, touched_at, claims, placed)
                 values ($1, 1, 0, 1, 1)
                 on conflict (buyer_id, event_id)
                     do update set claims = buyer_event.claims + 1, placed = buyer_event.placed + 1",
                "someone-else",
            )
            .await;
        }
        // Buyers one seat short of the limit of 10.
        let full: Vec<_> = (0..10).map(|_| app.buyer()).collect();
        for (i, b) in full.iter().enumerate() {
            let nine = &seats[300 + 9 * i..309 + 9 * i];
            assert_eq!(b.hold_many(1, nine).await.status, 200);
        }

        // The crowd: (buyer, seats, key, what it must hear).
        let mut crowd = Vec::new();
        for (i, &seat) in stale.iter().enumerate() {
            crowd.push((app.buyer(), vec![seat, seats[1000 + i]], 200));
        }
        for (i, &seat) in elsewhere.iter().enumerate() {
            crowd.push((app.buyer(), vec![seats[1100 + i], seat], 409));
        }
        for (i, b) in full.into_iter().enumerate() {
            crowd.push((b, vec![seats[1200 + 2 * i], seats[1201 + 2 * i]], 422));
        }
        for i in 0..300 {
            let n = 1 + i % 3;
            let first = 2000 + 4 * i;
            crowd.push((app.buyer(), seats[first..first + n].to_vec(), 200));
        }
        let keys: Vec<String> = crowd.iter().map(|_| new_key()).collect();
        let sets_before = app.state.claims.decided_as_sets();
        let answers = join_all(crowd.iter().zip(&keys).map(|((b, seats, _), key)| {
            b.post(
                "/api/events/1/holds",
                Some(key),
                Some(json!({ "seatIds": seats })),
            )
        }))
        .await;
        for ((a, (_, seats, want)), key) in answers.iter().zip(&crowd).zip(&keys) {
            assert_eq!(a.status.as_u16(), *want, "{seats:?} ({key}): {}", a.text);
            match a.status.as_u16() {
                200 => {
                    let id = a.json()["bookingId"].as_str().unwrap().to_string();
                    assert_eq!(app.status_of(&id).await, "HELD");
                    let live = app
                        .scalar(&format!(
                            "select count(*) from booking_seat
                             where booking_id = '{id}' and live = 1 and seat_id in ({})",
                            seats
                                .iter()
                                .map(i64::to_string)
                                .collect::<Vec<_>>()
                                .join(",")
                        ))
                        .await;
                    assert_eq!(live as usize, seats.len(), "{id} has all its seats");
                }
                _ => {
                    let code = a.code();
                    assert!(
                        code == "SEAT_TAKEN" || code == "LIMIT_EXCEEDED",
                        "{}",
                        a.text
                    );
                    // A refusal changed nothing: none of the seats it
                    // asked for is live for anyone but "another instance".
                    let live = app
                        .scalar(&format!(
                            "select count(*) from booking_seat
                             where live = 1 and booking_id not like 'elsewhere-%' and seat_id in ({})",
                            seats.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
                        ))
                        .await;
                    assert_eq!(live, 0, "{seats:?} refused, yet held: {}", a.text);
                }
            }
        }
        // A stale hold in the way was expired by the claim that took its seat.
        let expired = app
            .scalar("select count(*) from booking where status = 'EXPIRED'")
            .await;
        assert_eq!(expired, stale.len() as i64);
        if app.state.db.backend == holdfast_core::platform::db::Backend::Postgres {
            assert!(
                app.state.claims.decided_as_sets() > sets_before,
                "no batch was decided as a set"
            );
        }
        // A retry with the same key replays a win and decides a refusal again.
        for (((b, seats, _), key), a) in crowd.iter().zip(&keys).zip(&answers).step_by(7) {
            retry_answers_as_before(b, seats, key, a).await;
        }
        app.assert_invariants().await;
    }
);

on_both_backends!(
    a_crowd_at_a_map_not_loaded_yet_loads_it_once,
    |app: TestApp| async move {
        // As at a restart during an on-sale: the map is not in memory and
        // forty buyers ask for it and hold at once.
        app.state.seat_maps.forget_all();
        let before = app.state.seat_maps.loads();
        let buyers: Vec<_> = (0..40).map(|_| app.buyer()).collect();
        let answers = join_all(
            buyers
                .iter()
                .enumerate()
                .map(|(i, b)| b.hold(1, 900 + i as i64)),
        )
        .await;
        assert!(answers.iter().all(|a| a.status == 200));
        let statuses = join_all(buyers.iter().map(|b| b.get("/api/events/1/seats/status"))).await;
        assert!(statuses.iter().all(|a| a.status == 200));
        assert_eq!(app.state.seat_maps.loads() - before, 1);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    standing_places_claimed_at_once_never_pass_capacity_and_reuse_lapsed_holds,
    |app: TestApp| async move {
        sqlx::query("update ga_area set capacity = 100, remaining = 100")
            .execute(app.state.db.writer())
            .await
            .unwrap();
        let area = app.scalar("select id from ga_area").await;
        let path = format!("/api/events/1/general-admission/{area}/hold");
        // Thirty holds of three places whose time runs out, unswept.
        let early: Vec<_> = (0..30).map(|_| app.buyer()).collect();
        let mut lapsed = Vec::new();
        for b in &early {
            let a = b
                .post(&path, Some(&new_key()), Some(json!({ "quantity": 3 })))
                .await;
            assert_eq!(a.status, 200, "{}", a.text);
            lapsed.push(a.json()["bookingId"].as_str().unwrap().to_string());
        }
        assert_eq!(app.scalar("select remaining from ga_area").await, 10);
        app.clock.advance_ms(300_001);

        let buyers: Vec<_> = (0..200).map(|_| app.buyer()).collect();
        let asks: Vec<(i64, String)> = (0..200)
            .map(|_| (rand::thread_rng().gen_range(1..=4), new_key()))
            .collect();
        let answers = join_all(
            buyers
                .iter()
                .zip(&asks)
                .map(|(b, (qty, key))| b.post(&path, Some(key), Some(json!({ "quantity": qty })))),
        )
        .await;
        let mut acknowledged = 0;
        for (a, (qty, _)) in answers.iter().zip(&asks) {
            match a.status.as_u16() {
                200 => {
                    assert_eq!(a.json()["generalAdmission"]["quantity"], *qty);
                    let id = a.json()["bookingId"].as_str().unwrap().to_string();
                    assert_eq!(app.status_of(&id).await, "HELD");
                    acknowledged += qty;
                }
                409 => assert_eq!(a.code(), "SOLD_OUT", "{}", a.text),
                other => panic!("unexpected {other}: {}", a.text),
            }
        }
        let held = app
            .scalar(
                "select cast(coalesce(sum(ga_quantity), 0) as bigint) from booking
                 where status = 'HELD'",
            )
            .await;
        let remaining = app.scalar("select remaining from ga_area").await;
        for id in &lapsed {
            assert_eq!(app.status_of(id).await, "EXPIRED", "{id}");
        }
        // Only the crowd's holds are live now: what they were told they hold.
        assert_eq!(held, acknowledged);
        assert_eq!(acknowledged + remaining, 100);
        assert!(remaining < 4, "remaining {remaining}");
        // The same key again: the same booking (a win) or sold out again.
        for ((a, (qty, key)), b) in answers.iter().zip(&asks).zip(&buyers).take(40) {
            let again = b
                .post(&path, Some(key), Some(json!({ "quantity": qty })))
                .await;
            assert_eq!(again.status, a.status, "{}", again.text);
            if a.status == 200 {
                assert_eq!(again.json()["bookingId"], a.json()["bookingId"]);
            }
        }
        assert_eq!(app.scalar("select remaining from ga_area").await, remaining);
        app.assert_invariants().await;
    }
);

on_both_backends!(
    one_buyers_standing_claims_at_once_stay_within_the_limit,
    |app: TestApp| async move {
        let area = app.scalar("select id from ga_area").await;
        let path = format!("/api/events/1/general-admission/{area}/hold");
        let buyer = app.buyer();
        // One place first: the session exists before the race.
        let first = buyer
            .post(&path, Some(&new_key()), Some(json!({ "quantity": 1 })))
            .await;
        assert_eq!(first.status, 200, "{}", first.text);
        let keys: Vec<String> = (0..6).map(|_| new_key()).collect();
        let answers = join_all(
            keys.iter()
                .map(|k| buyer.post(&path, Some(k), Some(json!({ "quantity": 3 })))),
        )
        .await;
        let won = answers.iter().filter(|a| a.status == 200).count();
        assert_eq!(won, 3, "1 + 3 × 3 = 10 ≤ 10 < 13");
        assert!(answers
            .iter()
            .filter(|a| a.status != 200)
            .all(|a| a.code() == "LIMIT_EXCEEDED"));
        app.assert_invariants().await;
    }
);

/// Killed mid-batch, the server loses nothing it acknowledged and leaves
/// nothing half-made: every acknowledged hold is HELD with exactly its
/// seats; every booking the crash left has exactly the seats one request
/// asked for; no seat is live twice; the invariants hold; and the server
/// started again shows the acknowledged seats held.
async fn a_crash_mid_batch_loses_nothing_acknowledged(backend: common::Backend) {
    if matches!(backend, common::Backend::Postgres) && !common::wants_postgres() {
        return;
    }
    let (url, _tmp) = common::fresh_database(backend).await;
    let mut server = common::process::Server::start(&url, &[]).await;
    let pool = pool();
    let claims: Vec<Vec<i64>> = (0..500)
        .map(|_| {
            let mut rng = rand::thread_rng();
            let n = rng.gen_range(1..=4);
            pool.choose_multiple(&mut rng, n).copied().collect()
        })
        .collect();
    // No cookies: each request is a buyer of its own.
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(512)
        .build()
        .unwrap();
    let (acked_tx, mut acked_rx) = tokio::sync::mpsc::unbounded_channel();
    let answered = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let tasks: Vec<_> = claims
        .iter()
        .cloned()
        .map(|seats| {
            let (http, acked_tx, answered) = (http.clone(), acked_tx.clone(), answered.clone());
            let url = format!("{}/api/events/1/holds", server.base);
            tokio::spawn(async move {
                let answer = http
                    .post(url)
                    .header("Idempotency-Key", new_key())
                    .json(&json!({ "seatIds": seats }))
                    .send()
                    .await;
                let Ok(answer) = answer else { return };
                answered.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                if answer.status() != 200 {
                    return;
                }
                if let Ok(body) = answer.json::<serde_json::Value>().await {
                    let id = body["bookingId"].as_str().unwrap_or_default().to_string();
                    let _ = acked_tx.send((id, seats));
                }
            })
        })
        .collect();
    drop(acked_tx);
    // The first acknowledgements: batches are committing, more are queued.
    let mut acknowledged: HashMap<String, HashSet<i64>> = HashMap::new();
    while acknowledged.len() < 5 {
        let (id, seats) = acked_rx.recv().await.expect("some claims answered");
        acknowledged.insert(id, seats.into_iter().collect());
    }
    server.child.kill().expect("SIGKILL");
    server.child.wait().unwrap();
    join_all(tasks).await;
    while let Ok((id, seats)) = acked_rx.try_recv() {
        acknowledged.insert(id, seats.into_iter().collect());
    }

    let db = holdfast_core::platform::db::Db::connect(&url, 2)
        .await
        .unwrap();
    let rows: Vec<(String, String, Option<i64>)> = sqlx::query_as(
        "select b.id, b.status, bs.seat_id from booking b
         left join booking_seat bs on bs.booking_id = b.id and bs.live = 1
         where b.event_id = 1",
    )
    .fetch_all(db.reader())
    .await
    .unwrap();
    let mut stored: HashMap<String, (String, HashSet<i64>)> = HashMap::new();
    for (id, status, seat) in rows {
        let entry = stored.entry(id).or_insert((status, HashSet::new()));
        entry.1.extend(seat);
    }
    let answered = answered.load(std::sync::atomic::Ordering::SeqCst);
    assert!(
        answered < claims.len(),
        "the crash came after every claim was answered: nothing was cut short"
    );
    for (id, seats) in &acknowledged {
        let (status, live) = stored.get(id).unwrap_or_else(|| panic!("{id} was lost"));
        assert_eq!((status.as_str(), live), ("HELD", seats), "{id}");
    }
    let asked: HashSet<Vec<i64>> = claims
        .iter()
        .map(|c| {
            let mut c = c.clone();
            c.sort_unstable();
            c
        })
        .collect();
    let mut seen = HashSet::new();
    for (id, (_, live)) in &stored {
        let mut seats: Vec<i64> = live.iter().copied().collect();
        seats.sort_unstable();
        assert!(
            asked.contains(&seats),
            "{id} holds {seats:?}, which nobody asked for"
        );
        for s in seats {
            assert!(seen.insert(s), "seat {s} is live twice");
        }
    }
    let now =
        holdfast_core::platform::clock::Clock::now(&holdfast_core::platform::clock::SystemClock);
    let violations = holdfast_core::invariants::violations(&db, now)
        .await
        .unwrap();
    assert!(violations.is_empty(), "{violations:?}");

    // Started again, the server shows every acknowledged seat held.
    let again = common::process::Server::start(&url, &[]).await;
    let map: serde_json::Value = http
        .get(format!("{}/api/events/1/seats", again.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let held: HashSet<i64> = map["seats"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["status"] == "HELD")
        .filter_map(|s| s["id"].as_i64())
        .collect();
    for seats in acknowledged.values() {
        assert!(
            seats.is_subset(&held),
            "{seats:?} not held after the restart"
        );
    }
}

mod crash_mid_batch {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn sqlite() {
        super::a_crash_mid_batch_loses_nothing_acknowledged(crate::common::Backend::Sqlite).await;
    }
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::a_crash_mid_batch_loses_nothing_acknowledged(crate::common::Backend::Postgres).await;
    }
}

/// SQLite: a commit never stops to copy the write-ahead log back into the
/// database file while the claims behind it wait (the writer's automatic
/// checkpoint is off); a connection of its own does it beside the writer,
/// so the file itself soon holds what was committed (read here with the
/// log ignored: `immutable`).
#[tokio::test]
async fn sqlite_log_is_copied_back_beside_the_writer() {
    use holdfast_core::platform::db::Db;
    let dir = tempdir::TempDir::new("holdfast-wal").unwrap();
    let path = dir.path().join("w.db");
    let db = Db::connect(&format!("sqlite://{}", path.display()), 2)
        .await
        .unwrap();
    let (automatic,): (i64,) = sqlx::query_as("pragma wal_autocheckpoint")
        .fetch_one(db.writer())
        .await
        .unwrap();
    assert_eq!(automatic, 0, "the writer checkpoints by itself");
    sqlx::query("create table filler (x blob)")
        .execute(db.writer())
        .await
        .unwrap();
    // About 2,000 pages of log in 100 commits: twice the point where a
    // commit would checkpoint by default.
    for _ in 0..100 {
        sqlx::query(
            "with recursive n(k) as (select 1 union all select k + 1 from n where k < 20)
             insert into filler select randomblob(4000) from n",
        )
        .execute(db.writer())
        .await
        .unwrap();
    }
    let in_the_file = || async {
        let url = format!("sqlite://{}?immutable=true", path.display());
        let Ok(pool) = sqlx::SqlitePool::connect(&url).await else {
            return 0;
        };
        let n: Result<(i64,), _> = sqlx::query_as("select count(*) from filler")
            .fetch_one(&pool)
            .await;
        pool.close().await;
        n.map(|(n,)| n).unwrap_or(0)
    };
    let mut copied = 0;
    for _ in 0..100 {
        copied = in_the_file().await;
        if copied == 2_000 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(copied, 2_000, "the log was not copied back into the file");
    db.close().await;
}

/// Postgres: the statistics refresh an on-sale leans on
/// (`Db::refresh_statistics`) analyzes a small sample: a histogram of at
/// most 11 bounds where Postgres' default makes 101, so each `analyze` of
/// a busy table takes far less of the cores the claims need.
#[tokio::test]
async fn postgres_statistics_refresh_takes_a_small_sample() {
    if !common::wants_postgres() {
        return;
    }
    let app = common::spawn_app(common::Backend::Postgres).await;
    // 5,000 keys with their answers, from a connection that then closes:
    // its counts of changed rows reach the statistics views as it goes.
    let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect(&app.database_url)
        .await
        .unwrap();
    sqlx::query(
        "insert into idempotency_key
             (buyer_id, key, fingerprint, status_code, response_body, created_at)
         select 'buyer-' || g, 'key-' || g, 'f', 200, repeat('x', 400), g
         from generate_series(1, 5000) g",
    )
    .execute(&mut conn)
    .await
    .unwrap();
    sqlx::Connection::close(conn).await.unwrap();
    let mut analyzed = Vec::new();
    for _ in 0..100 {
        analyzed = app.state.db.refresh_statistics().await.unwrap();
        if analyzed.contains(&"idempotency_key") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(
        analyzed.contains(&"idempotency_key"),
        "5,000 new keys did not make the refresh analyze their table"
    );
    let (bounds,): (i64,) = sqlx::query_as(
        "select cast(coalesce(array_length(histogram_bounds, 1), 0) as bigint) from pg_stats
         where schemaname = current_schema() and tablename = 'idempotency_key'
           and attname = 'created_at'",
    )
    .fetch_one(app.state.db.reader())
    .await
    .unwrap();
    assert!(
        (2..=11).contains(&bounds),
        "the refresh took a histogram of {bounds} bounds: the default sample, not the small one"
    );
}

/// Postgres counts a buyer's places in the claim's one statement, from a
/// snapshot taken before the statement waits for the buyer's lock. A claim
/// of the same buyer that commits during that wait must still count. Here
/// it is made by hand (the buyer's lock taken, the limit's other places
/// held), committed while the buyer's hold waits for the lock: the hold
/// must be refused, and the buyer must own the limit, not one more.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_a_claim_committed_while_the_next_waits_for_the_buyer_counts() {
    if !common::wants_postgres() {
        return;
    }
    let (app, buyer, buyer_id) = a_buyer_holding_seat_one().await;
    let limit = app.state.rules.max_places_per_buyer;
    let mut other = app.state.db.writer().begin().await.unwrap();
    // As a claim does: the counter bumped, the places added to the bound.
    sqlx::query(
        "update buyer_event set claims = claims + 1, placed = placed + $2
         where buyer_id = $1 and event_id = 1",
    )
    .bind(&buyer_id)
    .bind(limit - 1)
    .execute(&mut *other)
    .await
    .unwrap();
    sqlx::query(
        "insert into booking (id, event_id, buyer_id, status, held_until, amount_cents,
                              currency, ga_quantity, places, created_at, updated_at)
         values ('made-by-hand', 1, $1, 'HELD', $2, 0, 'EUR', 0, $4, $3, $3)",
    )
    .bind(&buyer_id)
    .bind(app.state.clock.now().ms() + 600_000)
    .bind(app.state.clock.now().ms())
    .bind(limit - 1)
    .execute(&mut *other)
    .await
    .unwrap();
    sqlx::query(
        "insert into booking_seat (booking_id, seat_id, event_id, price_cents, live)
         select 'made-by-hand', id, 1, 0, 1 from seat
         where event_id = 1 and id > 300 order by id limit $1",
    )
    .bind(limit - 1)
    .execute(&mut *other)
    .await
    .unwrap();
    let waiting = tokio::spawn(async move { buyer.hold(1, 2).await });
    until_someone_waits_on_a_lock(&app).await;
    other.commit().await.unwrap();
    let answer = waiting.await.unwrap();
    assert_eq!(answer.code(), "LIMIT_EXCEEDED", "{}", answer.text);
    let owned = app
        .scalar(&format!(
            "select count(*) from booking_seat bs join booking b on b.id = bs.booking_id
             where bs.live = 1 and b.buyer_id = '{buyer_id}'"
        ))
        .await;
    assert_eq!(owned, limit);
}

/// A claim alone on Postgres is one statement Postgres commits by itself:
/// it looks the Idempotency-Key up in its snapshot and inserts it with the
/// booking. A key another request commits after that snapshot must still
/// win: here it is inserted by hand (someone else's request, another
/// fingerprint) and committed while the hold waits for it. The hold must
/// answer as that key's owner decided (the key was reused for another
/// request), and leave nothing behind: no booking, the seat free.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_a_key_committed_while_a_claim_alone_inserts_it_wins() {
    if !common::wants_postgres() {
        return;
    }
    let (app, buyer, buyer_id) = a_buyer_holding_seat_one().await;
    let key = new_key();
    let mut other = app.state.db.writer().begin().await.unwrap();
    sqlx::query(
        "insert into idempotency_key (buyer_id, key, fingerprint, status_code, response_body,
                                      created_at)
         values ($1, $2, 'another request', 200, '{}', $3)",
    )
    .bind(&buyer_id)
    .bind(&key)
    .bind(app.state.clock.now().ms())
    .execute(&mut *other)
    .await
    .unwrap();
    let waiting = {
        let key = key.clone();
        tokio::spawn(async move {
            buyer
                .post("/api/events/1/seats/2/hold", Some(&key), None)
                .await
        })
    };
    until_someone_waits_on_a_lock(&app).await;
    other.commit().await.unwrap();
    let answer = waiting.await.unwrap();
    assert_eq!(answer.code(), "IDEMPOTENCY_KEY_REUSED", "{}", answer.text);
    assert_eq!(app.scalar("select count(*) from booking").await, 1);
    assert_eq!(
        app.scalar("select count(*) from booking_seat where seat_id = 2 and live = 1")
            .await,
        0
    );
}

/// A Postgres app whose first buyer holds seat 1 (so their rows exist):
/// the app, the buyer, their id.
async fn a_buyer_holding_seat_one() -> (TestApp, common::Buyer, String) {
    let app = common::spawn_app(common::Backend::Postgres).await;
    let buyer = app.buyer();
    assert_eq!(buyer.hold(1, 1).await.status, 200);
    let (buyer_id,): (String,) = sqlx::query_as("select buyer_id from booking")
        .fetch_one(app.state.db.reader())
        .await
        .unwrap();
    (app, buyer, buyer_id)
}

/// Until a session of the database waits on a lock (10 s at most).
async fn until_someone_waits_on_a_lock(app: &TestApp) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while app.state.db.lock_waiters().await.unwrap() == 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "nobody waited on a lock"
        );
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
}
