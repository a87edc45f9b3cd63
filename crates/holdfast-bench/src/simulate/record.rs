//! What the simulation keeps: live counters for the progress bar, latency
//! samples per step, every acknowledged hold, and each buyer's outcome.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Step {
    /// Joining the waiting room, and each look at the place.
    Queue,
    /// From joining the waiting room to being let in.
    Admitted,
    /// The event page's HTML, as a browser asks for it (compressed).
    Page,
    /// With an empty cache: the script, wasm, stylesheet and the drawing.
    Assets,
    /// The status letters of every seat.
    Map,
    Hold,
    Release,
    Pay,
    Checkout,
    Poll,
    /// From the sandbox's "paid" to the booking page showing BOOKED.
    Confirmed,
}

pub const STEPS: [Step; 11] = [
    Step::Queue,
    Step::Admitted,
    Step::Page,
    Step::Assets,
    Step::Map,
    Step::Hold,
    Step::Release,
    Step::Pay,
    Step::Checkout,
    Step::Poll,
    Step::Confirmed,
];

#[derive(Default)]
pub struct Samples(pub [Vec<Duration>; STEPS.len()]);

impl Samples {
    pub fn add(&mut self, step: Step, took: Duration) {
        self.0[step as usize].push(took);
    }

    pub fn merge(&mut self, other: Samples) {
        for (mine, theirs) in self.0.iter_mut().zip(other.0) {
            mine.extend(theirs);
        }
    }
}

/// Counters shared by every buyer.
#[derive(Default)]
pub struct Tally {
    pub buyers_done: AtomicU64,
    pub hold_attempts: AtomicU64,
    pub holds: AtomicU64,
    pub conflicts: AtomicU64,
    pub paid: AtomicU64,
    pub booked: AtomicU64,
    pub rate_limited: AtomicU64,
    pub server_errors: AtomicU64,
    /// 5xx answers not in the API's error shape.
    pub bad_errors: AtomicU64,
    pub unreachable: AtomicU64,
    /// 409 IDEMPOTENCY_KEY_IN_USE, asked again.
    pub in_flight: AtomicU64,
    /// Buyers let in from the waiting room.
    pub admitted: AtomicU64,
    /// The first few answers outside the error shape, for the report.
    pub examples: std::sync::Mutex<Vec<String>>,
    /// The first few 5xx answers (step, status, error code), for the report.
    pub server_error_examples: std::sync::Mutex<Vec<String>>,
    /// 500 answers (a fault, where a failover must answer 503).
    pub internal_errors: AtomicU64,
    /// The outage a crash made: the longest stretch between two accepted
    /// holds or payments with requests refused (a 5xx, or no answer) in it.
    pub outage: std::sync::Mutex<Outage>,
}

#[derive(Default, Clone, Copy)]
pub struct Outage {
    /// The last hold or payment accepted.
    pub last_accepted: Option<Instant>,
    /// Whether a request was refused since then.
    pub refused_since: bool,
    /// The longest such stretch so far.
    pub longest: Duration,
}

impl Tally {
    pub fn add(&self, counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    pub fn example(&self, what: String) {
        let mut examples = self.examples.lock().expect("examples");
        if examples.len() < 5 {
            examples.push(what);
        }
    }

    pub fn server_error(&self, what: String) {
        self.add(&self.server_errors);
        let mut examples = self.server_error_examples.lock().expect("examples");
        if examples.len() < 5 {
            examples.push(what);
        }
    }

    /// A request refused (5xx, or nothing answered).
    pub fn refused(&self) {
        self.outage.lock().expect("outage").refused_since = true;
    }

    /// A hold or payment accepted: ends a stretch with refusals in it.
    pub fn accepted_write(&self) {
        let mut outage = self.outage.lock().expect("outage");
        let now = Instant::now();
        if let (Some(last), true) = (outage.last_accepted, outage.refused_since) {
            outage.longest = outage.longest.max(now.duration_since(last));
        }
        outage.last_accepted = Some(now);
        outage.refused_since = false;
    }

    pub fn get(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }
}

/// A hold the server acknowledged with 200: it must exist afterwards,
/// whatever crashed in between.
#[derive(Clone, Debug)]
pub struct Ack {
    pub booking_id: String,
    pub seats: Vec<i64>,
    /// Index of the instance that answered.
    pub target: usize,
    pub sent: Instant,
    pub acked: Instant,
    /// When, by the wall clock: to find the answer in the servers' and
    /// the database's logs.
    pub acked_at: std::time::SystemTime,
}

/// A wall-clock moment as the logs print it (UTC, to the millisecond).
pub fn time_of_day(t: std::time::SystemTime) -> String {
    let ms = t
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() % 86_400_000);
    format!(
        "{:02}:{:02}:{:02}.{:03}Z",
        ms / 3_600_000,
        ms / 60_000 % 60,
        ms / 1000 % 60,
        ms % 1000
    )
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Booked(String),
    /// Paid, but the money went back (the seats were gone).
    Refunded(String),
    /// Paid, and the booking had not settled after a minute.
    Unsettled(String),
    Declined,
    Released,
    Abandoned,
    PaidTooLate,
    /// Every try met taken seats.
    GaveUp,
    /// The map showed nothing left on arrival.
    SawSoldOut,
    /// An answer the journey does not expect (status, error code).
    Refused(u16, String),
    /// No instance answered.
    Unanswered,
}

impl Outcome {
    pub fn name(&self) -> &'static str {
        match self {
            Outcome::Booked(_) => "booked",
            Outcome::Refunded(_) => "refunded",
            Outcome::Unsettled(_) => "unsettled",
            Outcome::Declined => "declined",
            Outcome::Released => "released",
            Outcome::Abandoned => "abandoned",
            Outcome::PaidTooLate => "paid too late",
            Outcome::GaveUp => "gave up",
            Outcome::SawSoldOut => "saw sold out",
            Outcome::Refused(..) => "refused",
            Outcome::Unanswered => "unanswered",
        }
    }
}
