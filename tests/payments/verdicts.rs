//! A model checker over the orders in which a booking's money events can
//! arrive. For one booking — a seat, or standing places — it applies every
//! sequence (within a bound) of: the buyer starting to pay, paid verdict A,
//! paid verdict B (another event id for the same money), an unpaid verdict,
//! a duplicate of each, a reconciliation tick, the hold expiring (the clock
//! moved), an admin release, an admin refund, another buyer taking the
//! freed places, the outbox dispatched (and the provider's own events
//! delivered), and a refund or a dispute made outside Holdfast — some of
//! them fired two at once. After every step the invariants hold
//! (`core::invariants`: one live booking per seat, standing places add up,
//! paid ⇔ BOOKED, refunded ⇒ REFUNDED, no email twice), the provider never
//! refunds a payment twice; once everything settled, money that arrived is
//! exactly one ticket or exactly one refund, and no money is no ticket.
//!
//! The bounded run is part of the test command. The long run:
//!
//! ```sh
//! HOLDFAST_VERDICT_DEPTH=3 HOLDFAST_VERDICT_RANDOM=5000 \
//!   cargo test --features holdfast/ssr,holdfast-app/ssr --test integration verdicts:: -- --nocapture
//! ```
//!
//! `HOLDFAST_VERDICT_DEPTH`: every sequence up to this length (default 2);
//! `HOLDFAST_VERDICT_RANDOM`: this many random longer ones with pairs fired
//! at once (default 40); `HOLDFAST_VERDICT_SEED` repeats a random run.

use crate::common;

use std::sync::Mutex;

use common::{Backend, Buyer, TestApp};
use holdfast_core::admin::{actions, auth::Admin};
use holdfast_core::booking::release::expire_due_holds;
use holdfast_core::payments::sandbox::{Delivery, Sender};
use holdfast_core::payments::{outbox, reconcile, webhook};
use holdfast_core::platform::clock::Clock;
use serde_json::json;

/// The steps, and `STEPS` listing each once (the orders are drawn from it).
macro_rules! steps {
    ($($step:ident),+ $(,)?) => {
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        enum Step {
            $($step),+
        }

        const STEPS: &[Step] = &[$(Step::$step),+];
    };
}

steps!(
    Pay,
    PaidA,
    PaidB,
    Unpaid,
    DupA,
    DupB,
    DupUnpaid,
    Reconcile,
    Expire,
    AdminRelease,
    AdminRefund,
    OtherBuyer,
    Dispatch,
    RefundedOutside,
    Disputed,
);

use Step::*;

#[derive(Debug, Clone, Copy)]
enum Move {
    One(Step),
    /// Two steps fired at once.
    Together(Step, Step),
}

#[derive(Debug, Clone)]
struct Sequence {
    standing: bool,
    moves: Vec<Move>,
}

/// Which verdict a body is (its event id is kept, so duplicates are exact).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    A,
    B,
    Unpaid,
}

/// What this sequence's world looks like from outside Holdfast.
#[derive(Default)]
struct World {
    /// (session id, payment intent, amount, currency) once a checkout exists.
    session: Option<(String, String, i64, String)>,
    sent: Vec<(Verdict, String)>,
    /// A paid verdict was sent: money arrived at the provider.
    money_in: bool,
    /// Money went back or was disputed outside Holdfast.
    money_out_outside: bool,
}

struct Case<'a> {
    app: &'a TestApp,
    event: i64,
    seat: i64,
    area: i64,
    standing: bool,
    buyer: Buyer,
    booking: String,
    world: Mutex<World>,
}

const ADMIN: &str = "model-checker";

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A small deterministic generator (xorshift64*), so a seed repeats a run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn step(&mut self) -> Step {
        STEPS[self.below(STEPS.len() as u64) as usize]
    }
}

/// Every sequence of single steps up to `depth` long, for seats and
/// standing, from a fresh hold and from a checkout already under way (so
/// the bound is spent on what follows the pay step).
fn exhaustive(depth: u32) -> Vec<Sequence> {
    let mut out = Vec::new();
    for standing in [false, true] {
        for prefix in [&[][..], &[Move::One(Pay)][..]] {
            for len in 1..=depth {
                let total = (STEPS.len() as u64).pow(len);
                for mut code in 0..total {
                    let mut moves = prefix.to_vec();
                    for _ in 0..len {
                        moves.push(Move::One(STEPS[(code % STEPS.len() as u64) as usize]));
                        code /= STEPS.len() as u64;
                    }
                    out.push(Sequence { standing, moves });
                }
            }
        }
    }
    out
}

/// Longer random sequences, mostly starting with the buyer paying, with
/// about one move in four firing two steps at once.
fn random(n: u64, seed: u64) -> Vec<Sequence> {
    let mut rng = Rng(seed | 1);
    (0..n)
        .map(|_| {
            let len = 3 + rng.below(8);
            let mut moves = Vec::new();
            if rng.below(5) > 0 {
                moves.push(Move::One(Pay));
            }
            for _ in 0..len {
                moves.push(if rng.below(4) == 0 {
                    Move::Together(rng.step(), rng.step())
                } else {
                    Move::One(rng.step())
                });
            }
            Sequence {
                standing: rng.below(2) == 1,
                moves,
            }
        })
        .collect()
}

/// A fresh event for one sequence: one seat and a standing area of two.
async fn fresh_event(app: &TestApp) -> (i64, i64, i64) {
    let db = app.state.db.writer();
    let now = app.clock.now().ms();
    let slug = format!("checker-{}", uuid::Uuid::new_v4().simple());
    let (event,): (i64,) = sqlx::query_as(
        "insert into event (slug, name, kind, venue, starts_at, currency, published, created_at, on_sale_at)
         values ($1, 'Model checker', 'concert', 'Lab', $2, 'EUR', 1, $3, 0) returning id",
    )
    .bind(&slug)
    .bind(now + 86_400_000)
    .bind(now)
    .fetch_one(db)
    .await
    .expect("event");
    let (category,): (i64,) = sqlx::query_as(
        "insert into price_category (event_id, code, name, price_cents, color)
         values ($1, 'A', 'Stalls', 4500, '#336699') returning id",
    )
    .bind(event)
    .fetch_one(db)
    .await
    .expect("category");
    let (seat,): (i64,) = sqlx::query_as(
        "insert into seat (event_id, category_id, section, row_label, number, label, x, y)
         values ($1, $2, 'A', '1', 1, 'A-1-1', 10, 10) returning id",
    )
    .bind(event)
    .bind(category)
    .fetch_one(db)
    .await
    .expect("seat");
    let (area,): (i64,) = sqlx::query_as(
        "insert into ga_area (event_id, category_id, name, capacity, remaining)
         values ($1, $2, 'Floor', 2, 2) returning id",
    )
    .bind(event)
    .bind(category)
    .fetch_one(db)
    .await
    .expect("standing area");
    (event, seat, area)
}

async fn hold(buyer: &Buyer, event: i64, seat: i64, area: i64, standing: bool) -> common::Answer {
    if standing {
        buyer
            .post(
                &format!("/api/events/{event}/general-admission/{area}/hold"),
                Some(&common::new_key()),
                Some(json!({ "quantity": 2 })),
            )
            .await
    } else {
        buyer.hold_many(event, &[seat]).await
    }
}

impl Case<'_> {
    async fn start<'a>(app: &'a TestApp, standing: bool) -> Case<'a> {
        let (event, seat, area) = fresh_event(app).await;
        let buyer = app.buyer();
        let held = hold(&buyer, event, seat, area, standing).await;
        assert_eq!(held.status, 200, "{}", held.text);
        let booking = held.json()["bookingId"].as_str().unwrap().to_string();
        Case {
            app,
            event,
            seat,
            area,
            standing,
            buyer,
            booking,
            world: Mutex::new(World::default()),
        }
    }

    fn session(&self) -> Option<(String, String, i64, String)> {
        self.world.lock().unwrap().session.clone()
    }

    async fn run(&self, m: Move) {
        match m {
            Move::One(s) => self.step(s).await,
            Move::Together(a, b) => {
                futures::join!(self.step(a), self.step(b));
            }
        }
    }

    async fn step(&self, step: Step) {
        let app = self.app;
        let admin = Admin::bootstrap(ADMIN, None);
        match step {
            Pay => {
                let path = format!("/api/bookings/{}/pay", self.booking);
                let a = self.buyer.post(&path, Some(&common::new_key()), None).await;
                assert!(a.status != 500, "pay: {}", a.text);
                if a.status == 200 {
                    let row: (String, String, i64, String) = sqlx::query_as(
                        "select id, payment_intent_id, amount_cents, currency from sandbox_session where booking_id = $1",
                    )
                    .bind(&self.booking)
                    .fetch_one(app.state.db.reader())
                    .await
                    .unwrap();
                    self.world.lock().unwrap().session = Some(row);
                }
            }
            PaidA | PaidB => {
                let Some(session) = self.session() else {
                    return;
                };
                // The buyer pays on the provider's page, if it is still open
                // (reconciliation may have expired it: then nobody can pay
                // and no paid verdict exists). Its own events are dropped:
                // the verdicts this sequence orders are sent instead.
                let _ = app
                    .sandbox()
                    .complete(
                        &session.0,
                        true,
                        Delivery::Once,
                        Some("buyer@example.com"),
                        Sender::Worker,
                    )
                    .await;
                sqlx::query("update sandbox_delivery set delivered_at = 0 where delivered_at is null and body like $1")
                    .bind(format!("%{}%", session.0))
                    .execute(app.state.db.writer())
                    .await
                    .unwrap();
                let (paid,): (String,) =
                    sqlx::query_as("select payment_status from sandbox_session where id = $1")
                        .bind(&session.0)
                        .fetch_one(app.state.db.reader())
                        .await
                        .unwrap();
                if paid != "paid" {
                    return;
                }
                self.world.lock().unwrap().money_in = true;
                let verdict = if step == PaidA {
                    Verdict::A
                } else {
                    Verdict::B
                };
                self.send_new(verdict, &session).await;
            }
            Unpaid => {
                let Some(session) = self.session() else {
                    return;
                };
                self.send_new(Verdict::Unpaid, &session).await;
            }
            DupA | DupB | DupUnpaid => {
                let wanted = match step {
                    DupA => Verdict::A,
                    DupB => Verdict::B,
                    _ => Verdict::Unpaid,
                };
                let body = {
                    let w = self.world.lock().unwrap();
                    w.sent
                        .iter()
                        .find(|(v, _)| *v == wanted)
                        .map(|(_, b)| b.clone())
                };
                if let Some(body) = body {
                    self.deliver(&body).await;
                }
            }
            Reconcile => {
                retry("reconcile", || reconcile::reconcile_due(&app.state)).await;
            }
            Expire => {
                let ms = app.state.payments.settings.checkout_ttl_ms + 600_000;
                app.clock.advance_ms(ms);
                retry("expire", || expire_due_holds(&app.state, 1000)).await;
            }
            AdminRelease | AdminRefund => {
                let act = if step == AdminRelease {
                    actions::Act::Release
                } else {
                    actions::Act::Refund
                };
                let _ = actions::act(&app.state, &admin, &self.booking.as_str().into(), act).await;
            }
            OtherBuyer => {
                let other = app.buyer();
                let a = hold(&other, self.event, self.seat, self.area, self.standing).await;
                assert!(
                    a.status == 200 || a.status == 409,
                    "another buyer: {} {}",
                    a.status,
                    a.text
                );
            }
            Dispatch => {
                retry("outbox", || outbox::dispatch_due(&app.state)).await;
                retry("provider events", || app.sandbox().deliver_due()).await;
            }
            RefundedOutside | Disputed => {
                let (Some(session), true) = (self.session(), self.world.lock().unwrap().money_in)
                else {
                    return;
                };
                self.world.lock().unwrap().money_out_outside = true;
                let object = if step == Disputed {
                    json!({ "id": "du_checker", "object": "dispute", "amount": session.2,
                            "payment_intent": session.1, "status": "needs_response" })
                } else {
                    json!({ "id": "ch_checker", "object": "charge", "amount": session.2,
                            "amount_refunded": session.2, "refunded": true, "payment_intent": session.1,
                            "refunds": { "object": "list", "data": [{ "id": "re_dashboard", "object": "refund" }] } })
                };
                let kind = if step == Disputed {
                    "charge.dispute.created"
                } else {
                    "charge.refunded"
                };
                let body = json!({ "id": format!("evt_chk_{}", uuid::Uuid::new_v4().simple()),
                                   "object": "event", "type": kind, "data": { "object": object } })
                .to_string();
                self.deliver(&body).await;
            }
        }
    }

    /// Sends a verdict for the first time (a second `PaidA` sends the same
    /// event again, as a provider retry would).
    async fn send_new(&self, verdict: Verdict, session: &(String, String, i64, String)) {
        let existing = {
            let w = self.world.lock().unwrap();
            w.sent
                .iter()
                .find(|(v, _)| *v == verdict)
                .map(|(_, b)| b.clone())
        };
        let body = match existing {
            Some(b) => b,
            None => {
                let (kind, paid) = match verdict {
                    Verdict::A => ("checkout.session.completed", true),
                    Verdict::B => ("checkout.session.async_payment_succeeded", true),
                    Verdict::Unpaid => ("checkout.session.expired", false),
                };
                let body = json!({
                    "id": format!("evt_chk_{}", uuid::Uuid::new_v4().simple()),
                    "object": "event", "type": kind,
                    "data": { "object": {
                        "id": session.0, "object": "checkout.session",
                        "client_reference_id": self.booking, "metadata": { "booking_id": self.booking },
                        "payment_intent": session.1, "amount_total": session.2,
                        "currency": session.3.to_lowercase(),
                        "payment_status": if paid { "paid" } else { "unpaid" },
                        "status": if paid { "complete" } else { "expired" },
                    } },
                })
                .to_string();
                self.world
                    .lock()
                    .unwrap()
                    .sent
                    .push((verdict, body.clone()));
                body
            }
        };
        self.deliver(&body).await;
    }

    /// Delivers a signed event to the webhook as the provider does: a
    /// failure (a deadlock victim on Postgres) is sent again later.
    async fn deliver(&self, body: &str) -> String {
        let app = self.app;
        for _ in 0..5 {
            let header = app.sign(body);
            match webhook::receive(&app.state, Some(&header), body.as_bytes()).await {
                Ok(outcome) => return outcome,
                Err(e) => {
                    eprintln!("webhook failed, the provider retries: {e}");
                    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                }
            }
        }
        panic!("the webhook keeps failing for {body}");
    }

    /// After every step: the invariants, and never two refunds at the provider.
    async fn check(&self, seq: &Sequence, done: usize) {
        let v = self.app.invariants().await;
        assert!(
            v.is_empty(),
            "after {done} move(s) of {seq:?}: invariants violated: {v:?}"
        );
        if let Some(session) = self.session() {
            let refunds = self.refunds_at_provider(&session.1).await;
            assert!(
                refunds <= 1,
                "after {done} move(s) of {seq:?}: {refunds} refunds"
            );
        }
    }

    async fn refunds_at_provider(&self, intent: &str) -> i64 {
        let (n,): (i64,) =
            sqlx::query_as("select count(*) from sandbox_refund where payment_intent_id = $1")
                .bind(intent)
                .fetch_one(self.app.state.db.reader())
                .await
                .unwrap();
        n
    }

    /// Once every worker has run: money is one ticket or one refund.
    async fn settled(&self, seq: &Sequence) {
        for step in [Expire, Reconcile, Dispatch, Dispatch] {
            self.step(step).await;
        }
        self.check(seq, seq.moves.len()).await;
        let app = self.app;
        let status = app.status_of(&self.booking).await;
        let payment: Option<(String,)> =
            sqlx::query_as("select status from payment where booking_id = $1")
                .bind(&self.booking)
                .fetch_optional(app.state.db.reader())
                .await
                .unwrap();
        let payment = payment.map(|p| p.0);
        let (money_in, outside) = {
            let w = self.world.lock().unwrap();
            (w.money_in, w.money_out_outside)
        };
        let refunds = match self.session() {
            Some(s) => self.refunds_at_provider(&s.1).await,
            None => 0,
        };
        let what = format!("{seq:?} ended {status} / {payment:?} with {refunds} refund(s)");
        assert_ne!(payment.as_deref(), Some("refund_pending"), "{what}");
        if !money_in {
            assert_ne!(status, "BOOKED", "a ticket without money: {what}");
            assert_eq!(refunds, 0, "a refund of nothing: {what}");
            return;
        }
        let booked = status == "BOOKED" && payment.as_deref() == Some("paid");
        let refunded = status == "REFUNDED" && payment.as_deref() == Some("refunded");
        let disputed = payment.as_deref() == Some("disputed");
        let ok = if outside {
            booked || refunded || disputed
        } else {
            (booked && refunds == 0) || (refunded && refunds == 1)
        };
        assert!(ok, "money is not exactly one ticket or one refund: {what}");
    }
}

async fn retry<T, E: std::fmt::Display, F, Fut>(what: &str, f: F)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = Result<T, E>>,
{
    for _ in 0..5 {
        match f().await {
            Ok(_) => return,
            Err(e) => {
                eprintln!("{what} failed, runs again: {e}");
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
        }
    }
    panic!("{what} keeps failing");
}

/// A fresh database for every this-many sequences (each sequence has its
/// own event, seat, standing area and buyers).
const PER_DATABASE: usize = 150;

async fn explore(backend: Backend) {
    let depth = env_number("HOLDFAST_VERDICT_DEPTH", 2) as u32;
    let random_n = env_number("HOLDFAST_VERDICT_RANDOM", 40);
    let seed = env_number(
        "HOLDFAST_VERDICT_SEED",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos() as u64,
    );
    let mut sequences = exhaustive(depth);
    sequences.extend(random(random_n, seed));
    let started = std::time::Instant::now();
    let mut steps = 0;
    for batch in sequences.chunks(PER_DATABASE) {
        let (url, tmp) = common::fresh_database(backend).await;
        let app = common::spawn_on(&url, tmp, |c| c.demo_data = false).await;
        for seq in batch {
            let case = Case::start(&app, seq.standing).await;
            for (i, m) in seq.moves.iter().enumerate() {
                case.run(*m).await;
                case.check(seq, i + 1).await;
                steps += match m {
                    Move::One(_) => 1,
                    Move::Together(..) => 2,
                };
            }
            case.settled(seq).await;
        }
        app.state.db.close().await;
    }
    println!(
        "model checker ({backend:?}): {} sequences ({} exhaustive to depth {depth}, {random_n} random, seed {seed}), {steps} steps, 0 violations, {:.1} s",
        sequences.len(),
        sequences.len() as u64 - random_n,
        started.elapsed().as_secs_f64()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_order_of_verdicts_keeps_money_and_tickets_agreed_sqlite() {
    explore(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_order_of_verdicts_keeps_money_and_tickets_agreed_postgres() {
    if !common::wants_postgres() {
        return;
    }
    explore(Backend::Postgres).await;
}
