//! After the run: wait for the payments in flight to settle, then check
//! every invariant through the database and `/api/admin/invariants`, that
//! every hold the servers acknowledged exists, and that the workers of all
//! instances did nothing twice.

use std::time::{Duration, Instant};

use holdfast_core::invariants;
use holdfast_core::platform::clock::{Clock, SystemClock};
use holdfast_core::platform::db::Db;
use holdfast_model::BookingStatus;

use super::options::Options;
use super::record::{time_of_day, Ack};

/// Waits (at most `limit`) until no paid checkout waits for its booking,
/// no refund waits in the outbox and the sandbox has delivered every
/// event. Returns what still waits.
pub async fn settle(db: &Db, limit: Duration) -> Result<i64, sqlx::Error> {
    let started = Instant::now();
    loop {
        let sql = format!(
            "select (select count(*) from sandbox_session s join booking b on b.id = s.booking_id
                     where s.payment_status = 'paid' and b.status not in {})
                  + (select count(*) from outbox where delivered_at is null)
                  + (select count(*) from sandbox_delivery where delivered_at is null)",
            BookingStatus::sql_list(&[BookingStatus::Booked, BookingStatus::Refunded])
        );
        let (waiting,): (i64,) = sqlx::query_as(&sql).fetch_one(db.reader()).await?;
        if waiting == 0 || started.elapsed() > limit {
            return Ok(waiting);
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// Every failed check, in words.
pub async fn verify(
    db: &Db,
    opts: &Options,
    acks: &[Ack],
    booked: &[String],
) -> Result<Vec<String>, sqlx::Error> {
    let now = SystemClock.now();
    let mut failures = invariants::violations(db, now).await?;

    // Acknowledged holds exist, with all their seats.
    for ack in acks {
        let (n,): (i64,) = sqlx::query_as(
            "select count(*) from booking_seat bs join booking b on b.id = bs.booking_id
             where b.id = $1 and b.event_id = $2",
        )
        .bind(&ack.booking_id)
        .bind(opts.event)
        .fetch_one(db.reader())
        .await?;
        if n != ack.seats.len() as i64 {
            failures.push(format!(
                "hold {} was acknowledged with {} seats by instance {} at {} \
                 ({} ms after it was sent); the database has {n}",
                ack.booking_id,
                ack.seats.len(),
                ack.target,
                time_of_day(ack.acked_at),
                ack.acked.duration_since(ack.sent).as_millis(),
            ));
        }
    }
    // Bookings buyers saw BOOKED stay BOOKED.
    for id in booked {
        let status: Option<(String,)> = sqlx::query_as("select status from booking where id = $1")
            .bind(id)
            .fetch_optional(db.reader())
            .await?;
        if status.as_ref().map(|s| s.0.as_str()) != Some(BookingStatus::Booked.as_str()) {
            failures.push(format!(
                "booking {id} was shown BOOKED and is now {status:?}"
            ));
        }
    }
    // Money never stays without a ticket.
    let sql = format!(
        "select s.booking_id from sandbox_session s join booking b on b.id = s.booking_id
         where s.payment_status = 'paid' and b.status <> {}
           and not exists (select 1 from sandbox_refund r where r.payment_intent_id = s.payment_intent_id)",
        BookingStatus::Booked.sql()
    );
    let kept: Vec<(String,)> = sqlx::query_as(&sql).fetch_all(db.reader()).await?;
    failures.extend(
        kept.into_iter()
            .map(|(b,)| format!("booking {b}: paid, neither booked nor refunded")),
    );
    // Nothing twice: one confirmation mail per booking and subject.
    let twice: Vec<(String, String, i64)> = sqlx::query_as(
        "select booking_id, subject, count(*) from mailbox where booking_id is not null group by booking_id, subject having count(*) > 1",
    )
    .fetch_all(db.reader())
    .await?;
    failures.extend(
        twice
            .into_iter()
            .map(|(b, s, n)| format!("booking {b}: mail {s:?} sent {n} times")),
    );
    // No seat sold beyond the event's seats.
    let sql = format!(
        "select (select count(*) from booking_seat bs join booking b on b.id = bs.booking_id
                 where b.event_id = $1 and b.status = {}),
                (select count(*) from seat where event_id = $1)",
        BookingStatus::Booked.sql()
    );
    let (sold, seats): (i64, i64) = sqlx::query_as(&sql)
        .bind(opts.event)
        .fetch_one(db.reader())
        .await?;
    if sold > seats {
        failures.push(format!("{sold} seats booked of {seats}"));
    }
    Ok(failures)
}

/// Asks each instance for its own invariant report.
pub async fn ask_instances(opts: &Options) -> Vec<String> {
    let http = reqwest::Client::new();
    let mut failures = Vec::new();
    for base in &opts.targets {
        let r = http
            .get(format!("{base}/api/admin/invariants"))
            .bearer_auth(&opts.admin_token)
            .send()
            .await;
        match r {
            Ok(r) if r.status().is_success() => {
                let body: serde_json::Value = r.json().await.unwrap_or_default();
                if body["ok"] != serde_json::Value::Bool(true) {
                    failures.push(format!("{base}/api/admin/invariants: {body}"));
                }
            }
            Ok(r) => failures.push(format!(
                "{base}/api/admin/invariants answered {}",
                r.status()
            )),
            Err(e) => failures.push(format!("{base}/api/admin/invariants: {e}")),
        }
    }
    failures
}
