//! Property test: random sequences of hold / cancel / clock moves / sweeps,
//! run through the use-case functions against a real database and against a
//! small in-memory model of the rules; after every step both must agree on
//! every booking's status and on which seats each booking owns.

use crate::common;

use std::collections::{BTreeSet, HashMap};

use holdfast_core::booking::hold::hold_seats;
use holdfast_core::booking::release::{cancel_hold, expire_due_holds};
use holdfast_core::platform::clock::Clock;
use holdfast_core::waiting_room::admit;
use holdfast_model::{BookingId, BuyerId, EventId, SeatId};
use proptest::prelude::*;

const TTL: i64 = 300_000;

#[derive(Debug, Clone)]
enum Op {
    Hold { buyer: usize, seats: Vec<i64> },
    Cancel { buyer: usize, nth: usize },
    Advance { ms: i64 },
    Sweep,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..3usize, proptest::collection::vec(1..9i64, 1..4)).prop_map(|(buyer, seats)| Op::Hold { buyer, seats }),
        2 => (0..3usize, 0..6usize).prop_map(|(buyer, nth)| Op::Cancel { buyer, nth }),
        2 => prop_oneof![Just(1_000i64), Just(150_000), Just(TTL)].prop_map(|ms| Op::Advance { ms }),
        1 => Just(Op::Sweep),
    ]
}

#[derive(Debug, Clone, PartialEq)]
struct Booking {
    buyer: usize,
    status: &'static str,
    until: i64,
    seats: BTreeSet<i64>,
}

#[derive(Default)]
struct Model {
    now: i64,
    bookings: Vec<Booking>,
}

impl Model {
    fn live_owner(&self, seat: i64) -> Option<usize> {
        self.bookings
            .iter()
            .position(|b| b.status == "HELD" && b.seats.contains(&seat))
    }

    fn hold(&mut self, buyer: usize, seats: &[i64]) -> bool {
        let set: BTreeSet<i64> = seats.iter().copied().collect();
        if set.len() != seats.len() {
            return false;
        }
        let owners: Vec<usize> = set.iter().filter_map(|s| self.live_owner(*s)).collect();
        if owners.iter().any(|&o| self.bookings[o].until > self.now) {
            return false;
        }
        let mine: usize = self
            .bookings
            .iter()
            .filter(|b| b.buyer == buyer && b.status == "HELD" && b.until > self.now)
            .map(|b| b.seats.len())
            .sum();
        if mine + set.len() > 10 {
            return false;
        }
        for o in owners {
            self.bookings[o].status = "EXPIRED";
        }
        self.bookings.push(Booking {
            buyer,
            status: "HELD",
            until: self.now + TTL,
            seats: set,
        });
        true
    }

    fn cancel(&mut self, i: usize) -> bool {
        let b = &mut self.bookings[i];
        if b.status == "HELD" && b.until > self.now {
            b.status = "CANCELLED";
            true
        } else {
            false
        }
    }

    fn sweep(&mut self) -> u64 {
        let now = self.now;
        let mut n = 0;
        for b in self
            .bookings
            .iter_mut()
            .filter(|b| b.status == "HELD" && b.until <= now)
        {
            b.status = "EXPIRED";
            n += 1;
        }
        n
    }
}

async fn run(backend: common::Backend, ops: Vec<Op>) -> Result<(), TestCaseError> {
    let app = common::spawn_app(backend).await;
    let state = &app.state;
    let start = app.clock.now().ms();
    let mut model = Model::default();
    let mut ids: Vec<(BookingId, usize)> = Vec::new();
    for op in ops {
        model.now = app.clock.now().ms() - start;
        match op {
            Op::Hold { buyer, seats } => {
                let admitted = admit(state, &BuyerId(format!("buyer-{buyer}")), EventId(1), None)
                    .await
                    .unwrap();
                let ids_of: Vec<SeatId> = seats.iter().copied().map(SeatId).collect();
                let got = hold_seats(state, &admitted, &ids_of, None).await;
                let want = model.hold(buyer, &seats);
                prop_assert_eq!(
                    got.is_ok(),
                    want,
                    "hold {:?} by {}: {:?}",
                    seats,
                    buyer,
                    got
                );
                if let Ok(holdfast_core::booking::Idempotent::Fresh(r)) = got {
                    ids.push((r.booking_id, buyer));
                }
            }
            Op::Cancel { buyer, nth } => {
                let mine: Vec<usize> = (0..ids.len()).filter(|i| ids[*i].1 == buyer).collect();
                if let Some(&i) = mine.get(nth) {
                    let got =
                        cancel_hold(state, &BuyerId(format!("buyer-{buyer}")), &ids[i].0).await;
                    prop_assert_eq!(got.is_ok(), model.cancel(i));
                }
            }
            Op::Advance { ms } => app.clock.advance_ms(ms),
            Op::Sweep => {
                let got = expire_due_holds(state, 1000).await.expect("sweep");
                prop_assert_eq!(got, model.sweep());
            }
        }
        let rows: Vec<(BookingId, String)> = sqlx::query_as("select id, status from booking")
            .fetch_all(state.db.reader())
            .await
            .expect("bookings");
        let statuses: HashMap<BookingId, String> = rows.into_iter().collect();
        for (i, (id, _)) in ids.iter().enumerate() {
            prop_assert_eq!(
                statuses.get(id).map(String::as_str),
                Some(model.bookings[i].status)
            );
            let live: Vec<(i64,)> = sqlx::query_as("select seat_id from booking_seat where booking_id = $1 and live = 1 order by seat_id")
                .bind(id)
                .fetch_all(state.db.reader())
                .await
                .expect("seats");
            let live: BTreeSet<i64> = live.into_iter().map(|r| r.0).collect();
            let want = if model.bookings[i].status == "HELD" {
                model.bookings[i].seats.clone()
            } else {
                BTreeSet::new()
            };
            prop_assert_eq!(live, want);
        }
        prop_assert_eq!(statuses.len(), ids.len());
        prop_assert!(app.invariants().await.is_empty());
    }
    Ok(())
}

fn check(backend: common::Backend) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let config = ProptestConfig {
        cases: 12,
        ..ProptestConfig::default()
    };
    proptest!(config, |(ops in proptest::collection::vec(op(), 1..30))| {
        rt.block_on(run(backend, ops))?;
    });
}

#[test]
fn the_database_follows_the_model_on_sqlite() {
    check(common::Backend::Sqlite);
}

#[test]
fn the_database_follows_the_model_on_postgres() {
    if common::wants_postgres() {
        check(common::Backend::Postgres);
    }
}
