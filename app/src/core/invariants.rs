//! The invariants of DESIGN.md, evaluated against the database: by tests
//! after every concurrent scenario, and (later) by the admin canary.

use super::db::Db;

/// Every violation found, in words; empty when all hold.
pub async fn violations(db: &Db, now: i64) -> Result<Vec<String>, sqlx::Error> {
    let mut out = Vec::new();

    // 1. At most one live booking per seat (the index forbids it; this
    //    checks the index is there and that nothing bypassed it).
    let doubles: Vec<(i64, i64)> = sqlx::query_as(
        "select bs.seat_id, count(*) from booking_seat bs join booking b on b.id = bs.booking_id
         where b.status in ('PAYMENT_PENDING', 'BOOKED') or (b.status = 'HELD' and b.held_until > $1)
         group by bs.seat_id having count(*) > 1",
    )
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
    let mismatched: Vec<(String, String, i64)> = sqlx::query_as(
        "select b.id, b.status, bs.seat_id from booking_seat bs join booking b on b.id = bs.booking_id
         where (bs.live = 1 and b.status not in ('HELD', 'PAYMENT_PENDING', 'BOOKED'))
            or (bs.live = 0 and b.status in ('PAYMENT_PENDING', 'BOOKED'))
            or (bs.live = 0 and b.status = 'HELD' and b.held_until > $1)",
    )
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
    let areas: Vec<(i64, i64, i64, i64)> = sqlx::query_as(
        "select a.id, a.capacity, a.remaining,
                cast(coalesce((select sum(b.ga_quantity) from booking b where b.ga_area_id = a.id
                     and b.status in ('HELD', 'PAYMENT_PENDING', 'BOOKED')), 0) as bigint)
         from ga_area a",
    )
    .fetch_all(db.reader())
    .await?;
    for (id, capacity, remaining, taken) in areas {
        if remaining < 0 || remaining + taken != capacity {
            out.push(format!(
                "standing area {id}: capacity {capacity}, remaining {remaining}, in bookings {taken}"
            ));
        }
    }
    // 3. Every successful payment ends as exactly one booking or exactly one
    //    refund: paid ⇒ BOOKED; refund under way ⇒ a refund in the outbox;
    //    refunded ⇒ REFUNDED with a refund id; BOOKED ⇒ paid; one refund per
    //    payment at the provider (the sandbox's records).
    let payments: Vec<(String, String, String, Option<String>, i64)> = sqlx::query_as(
        "select p.booking_id, p.status, b.status, p.refund_id,
                (select count(*) from outbox o where o.kind = 'refund' and o.booking_id = p.booking_id
                 and o.delivered_at is null)
         from payment p join booking b on b.id = p.booking_id
         where p.status in ('paid', 'refund_pending', 'refunded') or b.status = 'BOOKED'",
    )
    .fetch_all(db.reader())
    .await?;
    for (booking, paid, status, refund, pending_refunds) in payments {
        let ok = match (paid.as_str(), status.as_str()) {
            ("paid", "BOOKED") => true,
            ("refund_pending", "EXPIRED" | "CANCELLED") => pending_refunds == 1,
            ("refunded", "REFUNDED") => refund.is_some(),
            _ => false,
        };
        if !ok {
            out.push(format!(
                "booking {booking} is {status} with its payment {paid}"
            ));
        }
    }
    let booked_unpaid: Vec<(String,)> = sqlx::query_as(
        "select b.id from booking b left join payment p on p.booking_id = b.id
         where b.status in ('BOOKED', 'REFUNDED') and p.booking_id is null",
    )
    .fetch_all(db.reader())
    .await?;
    out.extend(
        booked_unpaid
            .into_iter()
            .map(|(b,)| format!("booking {b} is settled without any payment")),
    );
    let double_refunds: Vec<(String, i64)> = sqlx::query_as(
        "select payment_intent_id, count(*) from sandbox_refund group by payment_intent_id having count(*) > 1",
    )
    .fetch_all(db.reader())
    .await?;
    out.extend(
        double_refunds
            .into_iter()
            .map(|(pi, n)| format!("payment {pi} was refunded {n} times")),
    );
    Ok(out)
}
