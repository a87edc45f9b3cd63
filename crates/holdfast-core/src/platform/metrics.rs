//! The names of what Holdfast counts (Prometheus, via the `metrics`
//! facade; the server installs the exporter and serves `GET /metrics`).
//! Counting happens where the outcome is decided — in the use cases — so
//! the REST API and the pages' server functions count alike.

use metrics::{counter, gauge};

/// A hold (seats or standing places) was asked for; `outcome` says how it
/// ended: `held`, `conflict`, `sold_out`, `limit`, `rejected`, `error`.
pub fn hold_attempt(outcome: &'static str) {
    counter!("holdfast_hold_attempts_total", "outcome" => outcome).increment(1);
}

pub fn holds_expired(n: u64) {
    counter!("holdfast_holds_expired_total").increment(n);
}

/// `started`, `booked`, `failed` (ended unpaid), `late_retaken`,
/// `late_refund_queued`, `refunded`, `paid_again` (a duplicate verdict),
/// `refunded_outside` and `disputed` (money back outside Holdfast).
pub fn payment(event: &'static str) {
    counter!("holdfast_payments_total", "event" => event).increment(1);
}

pub fn webhook(kind: &str, outcome: &str) {
    counter!(
        "holdfast_webhook_events_total",
        "type" => kind.to_string(),
        "outcome" => outcome.to_string()
    )
    .increment(1);
}

/// Live seat-map and console streams; the guard counts one while it lives.
pub struct SseClient;

impl SseClient {
    pub fn open() -> SseClient {
        gauge!("holdfast_sse_clients").increment(1.0);
        SseClient
    }
}

impl Drop for SseClient {
    fn drop(&mut self) {
        gauge!("holdfast_sse_clients").decrement(1.0);
    }
}

/// Mails given up after their last attempt (the outbox's dead letters).
pub fn outbox_dead_letter() {
    counter!("holdfast_outbox_dead_letters_total").increment(1);
}

/// Live streams refused at the caps (`stream_slots`).
pub fn stream_refused() {
    counter!("holdfast_sse_refused_total").increment(1);
}

/// Buyers let in from waiting rooms.
pub fn admitted(n: i64) {
    counter!("holdfast_queue_admitted_total").increment(n.max(0) as u64);
}

/// Seat-map or hold requests refused for want of an admission.
pub fn admission_refused() {
    counter!("holdfast_admission_refused_total").increment(1);
}

/// Promo codes: `applied`, `unknown`, `exhausted`, `handed_out`.
pub fn promo(outcome: &'static str) {
    counter!("holdfast_promo_total", "outcome" => outcome).increment(1);
}

/// A job's interval, for the overdue alert (`time() - last success > 3 ×
/// interval`).
pub fn job_interval(job: &'static str, every: std::time::Duration) {
    gauge!("holdfast_job_interval_seconds", "task" => job).set(every.as_secs_f64());
}

/// A job's run ended (here, holding its lease); a success moves its
/// last-success time.
pub fn job_run(job: &'static str, ok: bool, at: super::clock::At) {
    let outcome = if ok { "ok" } else { "failed" };
    counter!("holdfast_job_runs_total", "task" => job, "outcome" => outcome).increment(1);
    if ok {
        job_succeeded_at(job, at);
    }
}

pub fn job_succeeded_at(job: &'static str, at: super::clock::At) {
    gauge!("holdfast_job_last_success_timestamp_seconds", "task" => job)
        .set(at.ms() as f64 / 1000.0);
}

/// A transaction rolled back for contention, run again.
pub fn db_retry(why: super::retry::Contention) {
    counter!("holdfast_db_retries_total", "cause" => why.as_str()).increment(1);
}

/// The series a panel divides or sums before anything happened: each at
/// 0 from the start, so a rate reads 0 instead of "no data".
pub fn start_series() {
    use super::retry::Contention;
    for why in [
        Contention::Serialization,
        Contention::Deadlock,
        Contention::Busy,
    ] {
        counter!("holdfast_db_retries_total", "cause" => why.as_str()).increment(0);
        counter!("holdfast_db_retries_exhausted_total", "cause" => why.as_str()).increment(0);
    }
    counter!("holdfast_outbox_dead_letters_total").increment(0);
}

/// A transaction that lost every retry: the client heard 503.
pub fn db_retries_exhausted(why: super::retry::Contention) {
    counter!("holdfast_db_retries_exhausted_total", "cause" => why.as_str()).increment(1);
}

/// A payment provider's delivery arrived (before its signature is checked).
pub fn webhook_received() {
    counter!("holdfast_webhook_received_total").increment(1);
}

/// A delivery answered with an error: `signature`, `invalid` (not an
/// event we can read) or `error` (ours: it will be delivered again).
pub fn webhook_failed(reason: &'static str) {
    counter!("holdfast_webhook_failures_total", "reason" => reason).increment(1);
}

/// How long a transaction waited for its connection (and `BEGIN`).
pub fn pool_wait(pool: &'static str, waited: std::time::Duration) {
    metrics::histogram!("holdfast_db_pool_wait_seconds", "pool" => pool)
        .record(waited.as_secs_f64());
}
