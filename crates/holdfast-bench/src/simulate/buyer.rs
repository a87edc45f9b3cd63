//! One buyer's journey, as the seat-map page walks it: look at the map,
//! pick seats in the best section they can get, hold (falling back on the
//! suggestions of a 409), then abandon, pay late, or pay — and watch the
//! booking until it settles.
//!
//! (Over 350 lines on purpose: one journey, read top to bottom as a buyer
//! walks it; splitting it would scatter the steps.)

use std::collections::HashSet;
use std::time::{Duration, Instant};

use holdfast_model::{outcome_watch, BookingStatus};
use reqwest::{Client, RequestBuilder};
use serde_json::{json, Value};

use super::options::Options;
use super::record::{Ack, Outcome, Samples, Step, Tally};
use super::view::{SeatView, View};
use crate::stats::Rng;

/// An HTTP answer: status and JSON body (`Null` when it had none).
struct Answer {
    status: u16,
    body: Value,
}

/// A buyer holding seats on their way to pay, and what they will do there.
pub struct Checkout {
    booking: String,
    /// Pays after the hold has run out.
    late: bool,
    /// The card is declined on the provider's page.
    declined: bool,
    /// How the provider delivers its webhook: once, twice or delayed.
    delivery: &'static str,
}

pub struct Buyer<'a> {
    pub http: &'a Client,
    pub targets: &'a [String],
    /// The instance this buyer talks to; moves on when it is unreachable.
    pub home: usize,
    pub cookie: Option<String>,
    /// The admission token, once the waiting room let this buyer in.
    pub admission: Option<String>,
    /// What the event page names (script, wasm, stylesheet, drawing).
    pub assets: &'a [String],
    pub samples: &'a mut Samples,
    pub tally: &'a Tally,
    pub opts: &'a Options,
}

impl Buyer<'_> {
    fn base(&self) -> &str {
        &self.targets[self.home % self.targets.len()]
    }

    /// Sends one request, as a browser with a flaky network would: an
    /// unreachable instance → the next one; a 503 or a 429 → again after
    /// `Retry-After` (so a failover's seconds are waited out); another 5xx
    /// → again shortly; a key in flight → again after 2 s. Retries reuse
    /// the request as built, so a step keeps its Idempotency-Key. `None`
    /// when nothing answered.
    async fn send(
        &mut self,
        step: Step,
        build: impl Fn(&Client, &str) -> RequestBuilder,
    ) -> Option<Answer> {
        for _ in 0..24 {
            let mut req = build(self.http, self.base());
            if let Some(c) = &self.cookie {
                req = req.header("Cookie", c);
            }
            if let Some(t) = &self.admission {
                req = req.header("Admission-Token", t);
            }
            let t = Instant::now();
            let r = match req.send().await {
                Ok(r) => r,
                Err(_) => {
                    self.tally.add(&self.tally.unreachable);
                    self.tally.refused();
                    self.home += 1;
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    continue;
                }
            };
            if let Some(c) = r
                .headers()
                .get_all("set-cookie")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .find(|v| v.starts_with("holdfast_session="))
            {
                self.cookie = c.split(';').next().map(str::to_string);
            }
            let status = r.status().as_u16();
            let retry_after = r
                .headers()
                .get("retry-after")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse::<u64>().ok());
            // The page and the map are the browser's to parse, not the
            // simulator's: reading them is enough (parsing per buyer
            // would make the load generator the bottleneck on a machine
            // it shares with the servers).
            let body: Value =
                if matches!(step, Step::Page | Step::Assets | Step::Map) && status < 400 {
                    let _ = r.bytes().await;
                    Value::Null
                } else {
                    r.json().await.unwrap_or(Value::Null)
                };
            self.samples.add(step, t.elapsed());
            match status {
                429 => {
                    self.tally.add(&self.tally.rate_limited);
                    let wait = retry_after.unwrap_or(1).min(2);
                    tokio::time::sleep(Duration::from_secs(wait)).await;
                }
                // The same key still in flight elsewhere (or left by a
                // process that died holding it): ask again in a moment.
                409 if body.pointer("/error/code").and_then(Value::as_str)
                    == Some("IDEMPOTENCY_KEY_IN_USE") =>
                {
                    self.tally.add(&self.tally.in_flight);
                    tokio::time::sleep(Duration::from_secs(2)).await;
                }
                500..=599 => {
                    self.tally.refused();
                    if status == 500 {
                        self.tally.add(&self.tally.internal_errors);
                    }
                    let code = body.pointer("/error/code").and_then(Value::as_str);
                    self.tally.server_error(format!(
                        "{step:?}: {status} {}",
                        code.unwrap_or("(no code)")
                    ));
                    // The sandbox's pages are HTML; the API answers in its error shape.
                    if step != Step::Checkout && body.pointer("/error/code").is_none() {
                        self.tally.add(&self.tally.bad_errors);
                        self.tally.example(format!("{step:?}: {status} {body}"));
                    }
                    let wait = match (status, retry_after) {
                        (503, Some(secs)) => Duration::from_secs(secs.clamp(1, 2)),
                        _ => Duration::from_millis(300),
                    };
                    tokio::time::sleep(wait).await;
                }
                _ => {
                    if matches!(step, Step::Hold | Step::Pay) && status < 400 {
                        self.tally.accepted_write();
                    }
                    return Some(Answer { status, body });
                }
            }
        }
        None
    }

    /// The buyer at the seat map: queue, page, status, holds. `Ok` when they
    /// hold seats and go on to pay (what they will do there drawn now), or
    /// how their journey ended.
    pub async fn choose(
        &mut self,
        rng: &mut Rng,
        views: &SeatView,
        acks: &mut Vec<Ack>,
    ) -> Result<Checkout, Outcome> {
        let opts = self.opts;
        let event = opts.event;
        if opts.waiting_room > 0 {
            match self.wait_in_line().await {
                Some(true) => {}
                Some(false) => return Err(Outcome::SawSoldOut),
                None => return Err(Outcome::Unanswered),
            }
        }
        // The page, as a browser opens it: the HTML; with an empty cache
        // what it names; then every seat's status letter. (Which seats to
        // try comes from the simulator's shared view: parsing per buyer
        // would make the load generator the bottleneck.)
        let asks = crate::browser::CHROMIUM_ASKS;
        self.send(Step::Page, |c, base| {
            c.get(format!("{base}/events/{event}"))
                .header("Accept-Encoding", asks)
        })
        .await;
        if rng.chance(opts.cold_cache) {
            let assets = self.assets;
            for path in assets {
                self.send(Step::Assets, |c, base| {
                    c.get(format!("{base}{path}"))
                        .header("Accept-Encoding", asks)
                })
                .await;
            }
        }
        self.send(Step::Map, |c, base| {
            c.get(format!("{base}/api/events/{event}/seats/status"))
                .header("Accept-Encoding", asks)
        })
        .await;

        let size = [1, 2, 2, 2, 2, 3, 3, 4, 4, 1][rng.below(10)];
        let mut known_taken: HashSet<i64> = HashSet::new();
        let mut next: Option<Vec<i64>> = None;
        let mut held: Option<(String, Vec<i64>)> = None;
        for attempt in 0..opts.tries {
            // The map as it is now: after the wait in line and the page,
            // and after each refusal (the live map keeps itself current).
            let view = views.now();
            let Some(seats) = next.take().or_else(|| pick(&view, size, rng, &known_taken)) else {
                return Err(if attempt == 0 {
                    Outcome::SawSoldOut
                } else {
                    Outcome::GaveUp
                });
            };
            let key = uuid::Uuid::new_v4().to_string();
            let sent = Instant::now();
            let body = json!({ "seatIds": seats });
            self.tally.add(&self.tally.hold_attempts);
            let Some(a) = self
                .send(Step::Hold, |c, base| {
                    c.post(format!("{base}/api/events/{event}/holds"))
                        .header("Idempotency-Key", &key)
                        .json(&body)
                })
                .await
            else {
                return Err(Outcome::Unanswered);
            };
            match a.status {
                200 => {
                    let id = a.body["bookingId"].as_str().unwrap_or_default().to_string();
                    self.tally.add(&self.tally.holds);
                    acks.push(Ack {
                        booking_id: id.clone(),
                        seats: seats.clone(),
                        target: self.home % self.targets.len(),
                        sent,
                        acked: Instant::now(),
                        acked_at: std::time::SystemTime::now(),
                    });
                    held = Some((id, seats));
                    break;
                }
                409 => {
                    self.tally.add(&self.tally.conflicts);
                    let err = &a.body["error"];
                    for s in err["seatIds"].as_array().into_iter().flatten() {
                        known_taken.extend(s.as_i64());
                    }
                    known_taken.extend(seats.iter().copied());
                    next = err["suggestions"]
                        .as_array()
                        .and_then(|s| s.first())
                        .and_then(Value::as_array)
                        .map(|s| s.iter().filter_map(Value::as_i64).collect::<Vec<_>>())
                        .filter(|s| s.len() == size);
                }
                _ => return Err(refused(&a)),
            }
        }
        let Some((booking, _seats)) = held else {
            return Err(Outcome::GaveUp);
        };

        if rng.chance(opts.abandon) {
            if rng.chance(0.5) {
                let a = self
                    .send(Step::Release, |c, base| {
                        c.delete(format!("{base}/api/bookings/{booking}"))
                    })
                    .await;
                return Err(match a {
                    Some(a) if a.status == 200 => Outcome::Released,
                    // Sent again after an instance died: the first one may
                    // have released it and lost its answer. The booking says.
                    Some(a) if code(&a) == "INVALID_STATE" && self.released(&booking).await => {
                        Outcome::Released
                    }
                    Some(a) => refused(&a),
                    None => Outcome::Unanswered,
                });
            }
            return Err(Outcome::Abandoned);
        }
        // Drawn in the order the buyer meets them.
        let late = rng.chance(opts.late);
        let declined = rng.chance(opts.declined);
        Ok(Checkout {
            booking,
            late,
            declined,
            delivery: if rng.chance(opts.twice) {
                "twice"
            } else if rng.chance(opts.delayed) {
                "delayed"
            } else {
                "once"
            },
        })
    }

    /// The buyer who holds seats: pays (late, if so drawn), goes through
    /// the provider's page, then watches the booking on the return page
    /// until it settles.
    pub async fn settle(&mut self, checkout: Checkout) -> Outcome {
        let opts = self.opts;
        let Checkout {
            booking,
            late,
            declined,
            delivery,
        } = checkout;
        if late {
            tokio::time::sleep(opts.hold_ttl + Duration::from_millis(1500)).await;
        }
        let key = uuid::Uuid::new_v4().to_string();
        let Some(a) = self
            .send(Step::Pay, |c, base| {
                c.post(format!("{base}/api/bookings/{booking}/pay"))
                    .header("Idempotency-Key", &key)
            })
            .await
        else {
            return Outcome::Unanswered;
        };
        match (a.status, code(&a)) {
            (200, _) => {}
            // Past `heldUntil`: HOLD_EXPIRED, or INVALID_STATE once the
            // sweeper has already expired the hold.
            (409, "HOLD_EXPIRED" | "INVALID_STATE") => return Outcome::PaidTooLate,
            _ => return refused(&a),
        }
        let session = a.body["checkoutSessionId"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let outcome = if declined { "declined" } else { "paid" };
        let form = [
            ("outcome", outcome),
            ("delivery", delivery),
            ("email", "buyer@example.com"),
        ];
        let Some(a) = self
            .send(Step::Checkout, |c, base| {
                c.post(format!("{base}/sandbox/checkout/{session}/complete"))
                    .form(&form)
            })
            .await
        else {
            return Outcome::Unanswered;
        };
        // 409: already completed — by this buyer's earlier attempt, whose
        // answer was lost with a crashed instance. The booking page tells.
        if a.status >= 400 && a.status != 409 {
            return refused(&a);
        }
        if !declined {
            self.tally.add(&self.tally.paid);
        }

        // The return page: the booking's status until it settles, asked as
        // the page asks (`model::outcome_watch`, `ui/buyer/booking_page`).
        let paid_at = Instant::now();
        let mut asked = paid_at;
        let ms = |t: Instant| t.elapsed().as_secs_f64() * 1000.0;
        while paid_at.elapsed() < Duration::from_secs(60) {
            tokio::time::sleep(Duration::from_millis(outcome_watch::TICK_MS)).await;
            if !outcome_watch::ask_now(Some(ms(paid_at)), ms(asked)) {
                continue;
            }
            asked = Instant::now();
            let Some(a) = self
                .send(Step::Poll, |c, base| {
                    c.get(format!("{base}/api/bookings/{booking}"))
                })
                .await
            else {
                continue;
            };
            let status = a.body["status"].as_str().and_then(BookingStatus::parse);
            match status {
                Some(BookingStatus::Booked) => {
                    self.samples.add(Step::Confirmed, paid_at.elapsed());
                    self.tally.add(&self.tally.booked);
                    return Outcome::Booked(booking);
                }
                Some(BookingStatus::Refunded) => return Outcome::Refunded(booking),
                Some(BookingStatus::Expired) if declined => return Outcome::Declined,
                Some(BookingStatus::Held | BookingStatus::PaymentPending) => {}
                _ => return refused(&a),
            }
        }
        Outcome::Unsettled(booking)
    }
}

fn code(a: &Answer) -> &str {
    a.body
        .pointer("/error/code")
        .and_then(Value::as_str)
        .unwrap_or_default()
}

impl Buyer<'_> {
    /// Whether the buyer's booking is now released (CANCELLED).
    async fn released(&mut self, booking: &str) -> bool {
        let a = self
            .send(Step::Poll, |c, base| {
                c.get(format!("{base}/api/bookings/{booking}"))
            })
            .await;
        a.is_some_and(|a| a.body["status"] == "CANCELLED")
    }

    /// The waiting room: join, then look at the place (with the signed
    /// place, as the page's stream would) until let in. `Some(false)`: sold
    /// out for longer than a hold lasts, so the buyer leaves.
    async fn wait_in_line(&mut self) -> Option<bool> {
        let event = self.opts.event;
        let joined = Instant::now();
        let mut status = self
            .send(Step::Queue, |c, base| {
                c.post(format!("{base}/api/events/{event}/queue"))
            })
            .await?
            .body;
        let place = status["queueToken"].as_str().map(str::to_string);
        let mut sold_out_since: Option<Instant> = None;
        loop {
            if status["admitted"] == true {
                self.admission = status["admissionToken"].as_str().map(str::to_string);
                self.samples.add(Step::Admitted, joined.elapsed());
                self.tally.add(&self.tally.admitted);
                return Some(true);
            }
            if status["soldOut"] == true {
                let since = *sold_out_since.get_or_insert_with(Instant::now);
                if since.elapsed() > self.opts.hold_ttl + Duration::from_secs(2) {
                    return Some(false);
                }
            } else {
                sold_out_since = None;
            }
            if joined.elapsed() > self.opts.time_limit {
                return Some(false);
            }
            let wait = status["estimatedWaitMs"].as_u64().unwrap_or(1000);
            tokio::time::sleep(Duration::from_millis(wait.clamp(200, 1000))).await;
            let place = place.clone();
            status = self
                .send(Step::Queue, |c, base| {
                    let req = c.get(format!("{base}/api/events/{event}/queue"));
                    match &place {
                        Some(p) => req.header("Queue-Token", p),
                        None => req,
                    }
                })
                .await?
                .body;
        }
    }
}

fn refused(a: &Answer) -> Outcome {
    Outcome::Refused(a.status, code(a).to_string())
}

/// `size` seats next to each other in row order, in the best section that
/// has them (most buyers start at the top; some settle for cheaper seats
/// straight away), avoiding seats known to be taken.
fn pick(view: &View, size: usize, rng: &mut Rng, taken: &HashSet<i64>) -> Option<Vec<i64>> {
    let n = view.sections.len();
    if n == 0 {
        return None;
    }
    // Zipf-like: section k is wanted with weight 1 / (k + 1).
    let first = {
        let total: f64 = (1..=n).map(|k| 1.0 / k as f64).sum();
        let mut x = rng.unit() * total;
        let mut k = 0;
        while k + 1 < n && x > 1.0 / (k + 1) as f64 {
            x -= 1.0 / (k + 1) as f64;
            k += 1;
        }
        k
    };
    for section in view.sections[first..].iter().chain(&view.sections[..first]) {
        let free: Vec<i64> = section
            .iter()
            .copied()
            .filter(|s| !taken.contains(s))
            .collect();
        if free.len() < size {
            continue;
        }
        // Crowds aim at the first seats of a section.
        let start = rng.below((free.len() - size + 1).min(3 * size));
        return Some(free[start..start + size].to_vec());
    }
    None
}
