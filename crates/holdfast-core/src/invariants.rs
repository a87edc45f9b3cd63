//! The invariants of docs/ARCHITECTURE.md, evaluated against the database: by tests
//! after every concurrent scenario, and (later) by the admin canary.

use super::platform::db::{Backend, Db};
use crate::platform::clock::At;
use holdfast_model::BookingStatus::{self, Booked, Cancelled, Expired};
use holdfast_model::PaymentStatus::{self, Disputed, Paid, RefundPending, Refunded};

/// Every violation found, in words; empty when all hold.
pub async fn violations(db: &Db, now: At) -> Result<Vec<String>, sqlx::Error> {
    let mut out = Vec::new();

    // 1. At most one live booking per seat (the index forbids it; this
    //    checks the index is there and that nothing bypassed it).
    let owning = BookingStatus::owns_places_sql("b", "$1");
    let sql = format!(
        "select bs.seat_id, count(*) from booking_seat bs join booking b on b.id = bs.booking_id
         where {owning} group by bs.seat_id having count(*) > 1"
    );
    let doubles: Vec<(i64, i64)> = sqlx::query_as(&sql)
        .bind(now)
        .fetch_all(db.reader())
        .await?;
    out.extend(
        doubles
            .into_iter()
            .map(|(s, n)| format!("seat {s} is in {n} live bookings")),
    );

    // `live` agrees with the booking's status: live seats only in live
    // bookings, and a live booking owns all of its seats.
    let sql = format!(
        "select b.id, b.status, bs.seat_id from booking_seat bs join booking b on b.id = bs.booking_id
         where (bs.live = 1 and b.status not in {}) or (bs.live = 0 and {owning})",
        BookingStatus::sql_list(&BookingStatus::LIVE)
    );
    let mismatched: Vec<(String, String, i64)> = sqlx::query_as(&sql)
        .bind(now)
        .fetch_all(db.reader())
        .await?;
    out.extend(
        mismatched
            .into_iter()
            .map(|(b, s, seat)| format!("booking {b} ({s}) disagrees with its seat {seat}")),
    );

    // 2. General admission: remaining = capacity − places of live bookings,
    //    never negative.
    let sql = format!(
        "select a.id, a.capacity, a.remaining,
                cast(coalesce((select sum(b.ga_quantity) from booking b where b.ga_area_id = a.id
                     and b.status in {}), 0) as bigint)
         from ga_area a",
        BookingStatus::sql_list(&BookingStatus::LIVE)
    );
    let areas: Vec<(i64, i64, i64, i64)> = sqlx::query_as(&sql).fetch_all(db.reader()).await?;
    for (id, capacity, remaining, taken) in areas {
        if remaining < 0 || remaining + taken != capacity {
            out.push(format!(
                "standing area {id}: capacity {capacity}, remaining {remaining}, in bookings {taken}"
            ));
        }
    }
    // A booking's places (what the buyer's limit sums) are the places it
    // claimed: its seats, or its standing places.
    let miscounted: Vec<(String, i64, i64)> = sqlx::query_as(
        "select b.id, b.places, cast(b.ga_quantity + (select count(*) from booking_seat bs
                                                     where bs.booking_id = b.id) as bigint)
         from booking b
         where b.places <> b.ga_quantity + (select count(*) from booking_seat bs
                                           where bs.booking_id = b.id)",
    )
    .fetch_all(db.reader())
    .await?;
    out.extend(miscounted.into_iter().map(|(b, places, claimed)| {
        format!("booking {b} counts {places} places but claimed {claimed}")
    }));
    // Postgres' claims read the places a buyer ever claimed for an event
    // as a bound on the places they own: it must never be less.
    if db.backend == Backend::Postgres {
        let sql = format!(
            "select o.buyer_id, o.event_id, o.n, cast(coalesce(be.placed, 0) as bigint)
             from (select b.buyer_id, b.event_id, cast(sum(b.places) as bigint) as n
                   from booking b where {owning} group by b.buyer_id, b.event_id) as o
             left join buyer_event be on be.buyer_id = o.buyer_id and be.event_id = o.event_id
             where coalesce(be.placed, 0) < o.n"
        );
        let short: Vec<(String, i64, i64, i64)> = sqlx::query_as(&sql)
            .bind(now)
            .fetch_all(db.reader())
            .await?;
        out.extend(short.into_iter().map(|(buyer, event, n, placed)| {
            format!("buyer {buyer} owns {n} places of event {event} but placed {placed}")
        }));
    }
    // 3 and 5. Every successful payment ends as exactly one booking or
    //    exactly one refund, and no ticket stands without money: the
    //    payment's state and the booking's agree (paid ⇔ BOOKED; a refund
    //    under way ⇒ an ended booking and one refund in the outbox;
    //    refunded ⇒ REFUNDED; disputed ⇒ DISPUTED, or REFUNDED if the money
    //    had gone back first); all its refunds at the provider, part
    //    refunds included, never above what was paid. The booking's own
    //    refunds under way (an organizer's part refunds, keyed
    //    `refund-<booking>-rp_<id>`, aside) are counted once, then joined:
    //    counted per payment, the outbox would be read once for every
    //    payment, a cost that grows with the square of an on-sale's
    //    bookings.
    let money = PaymentStatus::sql_list(&[Paid, RefundPending, Refunded, Disputed]);
    let sql = format!(
        "select p.booking_id, p.status, b.status, cast(coalesce(o.n, 0) as bigint)
         from payment p join booking b on b.id = p.booking_id
         left join (select booking_id, count(*) as n from outbox
                    where kind = 'refund' and delivered_at is null
                      and dedupe_key not like '%-rp!_%' escape '!' group by booking_id) o
           on o.booking_id = p.booking_id
         where p.status in {money} or b.status in {}",
        BookingStatus::sql_list(&[Booked, BookingStatus::Refunded, BookingStatus::Disputed])
    );
    let payments: Vec<(String, String, String, i64)> =
        sqlx::query_as(&sql).fetch_all(db.reader()).await?;
    for (booking, paid, status, pending_refunds) in payments {
        let pair = (PaymentStatus::parse(&paid), BookingStatus::parse(&status));
        let ok = match pair {
            (Some(Paid), Some(Booked)) => true,
            (Some(RefundPending), Some(Expired | Cancelled)) => pending_refunds == 1,
            (Some(Refunded), Some(BookingStatus::Refunded)) => true,
            (Some(Disputed), Some(BookingStatus::Disputed | BookingStatus::Refunded)) => true,
            _ => false,
        };
        if !ok {
            out.push(format!(
                "booking {booking} is {status} with its payment {paid}"
            ));
        }
    }
    let sql = format!(
        "select b.id from booking b left join payment p on p.booking_id = b.id
         where b.status in {} and p.booking_id is null",
        BookingStatus::sql_list(&[Booked, BookingStatus::Refunded, BookingStatus::Disputed])
    );
    let booked_unpaid: Vec<(String,)> = sqlx::query_as(&sql).fetch_all(db.reader()).await?;
    out.extend(
        booked_unpaid
            .into_iter()
            .map(|(b,)| format!("booking {b} is settled without any payment")),
    );
    let over_refunded: Vec<(String, i64, i64)> = sqlx::query_as(
        "select r.payment_intent_id, cast(sum(r.amount_cents) as bigint), max(s.amount_cents)
         from sandbox_refund r join sandbox_session s on s.payment_intent_id = r.payment_intent_id
         group by r.payment_intent_id having sum(r.amount_cents) > max(s.amount_cents)",
    )
    .fetch_all(db.reader())
    .await?;
    out.extend(over_refunded.into_iter().map(|(pi, refunded, paid)| {
        format!("payment {pi} was refunded {refunded} of the {paid} paid")
    }));
    let over_given: Vec<(String, i64, i64)> = sqlx::query_as(
        "select p.booking_id, p.refunded_cents + cast(coalesce(sum(r.amount_cents), 0) as bigint), p.amount_cents
         from payment p left join refund_part r on r.booking_id = p.booking_id and r.sent_at is null
         group by p.booking_id, p.refunded_cents, p.amount_cents
         having p.refunded_cents + cast(coalesce(sum(r.amount_cents), 0) as bigint) > p.amount_cents",
    )
    .fetch_all(db.reader())
    .await?;
    out.extend(
        over_given
            .into_iter()
            .map(|(b, given, paid)| format!("booking {b} gave back {given} of the {paid} paid")),
    );
    // No buyer gets the same email twice (a resend by the admin is asked for).
    let twice: Vec<(String, String, i64)> = sqlx::query_as(
        "select booking_id, subject, count(*) from mailbox
         where booking_id is not null and dedupe_key not like 'resend-%'
           and dedupe_key not like 'refunded-part-%'
         group by booking_id, subject having count(*) > 1",
    )
    .fetch_all(db.reader())
    .await?;
    out.extend(
        twice
            .into_iter()
            .map(|(b, subject, n)| format!("booking {b} was mailed \"{subject}\" {n} times")),
    );
    // Every booking's history ends where the booking stands, each step
    // starts where the one before it ended, and every step names a cause.
    let astray: Vec<(String, String, Option<String>)> = sqlx::query_as(
        "select b.id, b.status, h.to_status from booking b
         left join booking_history h
           on h.id = (select max(id) from booking_history where booking_id = b.id)
         where h.to_status is null or h.to_status <> b.status",
    )
    .fetch_all(db.reader())
    .await?;
    out.extend(astray.into_iter().map(|(b, status, last)| match last {
        Some(last) => format!("booking {b} is {status} but its history ends at {last}"),
        None => format!("booking {b} has no history"),
    }));
    let broken: Vec<(String, i64)> = sqlx::query_as(
        "select h.booking_id, h.id from booking_history h
         where h.cause = 'unrecorded'
            or (h.from_status is not null and h.from_status is distinct from (
                 select p.to_status from booking_history p
                 where p.booking_id = h.booking_id and p.id < h.id order by p.id desc limit 1))",
    )
    .fetch_all(db.reader())
    .await?;
    out.extend(broken.into_iter().map(|(b, step)| {
        format!("booking {b}'s history step {step} has no cause or skips a status")
    }));
    Ok(out)
}
