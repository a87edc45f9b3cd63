//! Sales as an organizer reads them: per price category and section (seats
//! sold, held, in payment, free, and the value sold), then per standing
//! area — each line's counts add up to its places, and the lines' counts
//! to the dashboard's tiles (a hold whose time is up counts as free, as
//! there).

use crate::platform::clock::At;
use crate::{ApiError, AppState};
use holdfast_model::console::SalesLine;
use holdfast_model::{BookingStatus, EventId};

/// One category's seats in one section, as read.
#[derive(sqlx::FromRow)]
struct SeatLine {
    category: String,
    section: String,
    places: i64,
    sold: i64,
    held: i64,
    in_payment: i64,
    sold_cents: i64,
}

/// One standing area, as read.
#[derive(sqlx::FromRow)]
struct AreaLine {
    name: String,
    category: String,
    capacity: i64,
    sold: i64,
    held: i64,
    in_payment: i64,
    sold_cents: i64,
}

/// The event's sales lines: seats by category and section in the order
/// they were laid out, then standing areas.
pub async fn sales(
    state: &AppState,
    event_id: EventId,
    now: At,
) -> Result<Vec<SalesLine>, ApiError> {
    let (booked, held, pending) = (
        BookingStatus::Booked.sql(),
        BookingStatus::Held.sql(),
        BookingStatus::PaymentPending.sql(),
    );
    // A seat counts for the booking that has it live; a hold whose time is
    // up (not yet swept) leaves it free.
    let count = |status: &str| {
        format!(
            "cast(coalesce(sum(case when b.status = {status} and (b.status <> {held} or b.held_until > $2) then 1 else 0 end), 0) as bigint)"
        )
    };
    let sql = format!(
        "select c.name as category, s.section, count(*) as places,
                {sold} as sold, {held_n} as held, {pending_n} as in_payment,
                cast(coalesce(sum(case when b.status = {booked} then bs.price_cents else 0 end), 0) as bigint) as sold_cents
         from seat s
         join price_category c on c.id = s.category_id
         left join booking_seat bs on bs.seat_id = s.id and bs.live = 1
         left join booking b on b.id = bs.booking_id
         where s.event_id = $1
         group by c.name, s.section
         order by min(s.id)",
        sold = count(&booked),
        held_n = count(&held),
        pending_n = count(&pending),
    );
    let seats: Vec<SeatLine> = sqlx::query_as(&sql)
        .bind(event_id)
        .bind(now)
        .fetch_all(state.db.reader())
        .await?;
    let quantity = |status: &str| {
        format!(
            "cast(coalesce(sum(case when b.status = {status} and (b.status <> {held} or b.held_until > $2) then b.ga_quantity else 0 end), 0) as bigint)"
        )
    };
    let sql = format!(
        "select a.name, c.name as category, a.capacity,
                {sold} as sold, {held_n} as held, {pending_n} as in_payment,
                cast(coalesce(sum(case when b.status = {booked} then b.amount_cents else 0 end), 0) as bigint) as sold_cents
         from ga_area a
         join price_category c on c.id = a.category_id
         left join booking b on b.ga_area_id = a.id
         where a.event_id = $1
         group by a.id, a.name, c.name, a.capacity
         order by a.id",
        sold = quantity(&booked),
        held_n = quantity(&held),
        pending_n = quantity(&pending),
    );
    let areas: Vec<AreaLine> = sqlx::query_as(&sql)
        .bind(event_id)
        .bind(now)
        .fetch_all(state.db.reader())
        .await?;
    let seat_lines = seats.into_iter().map(|l| SalesLine {
        free: l.places - l.sold - l.held - l.in_payment,
        category: l.category,
        section: l.section,
        standing: false,
        places: l.places,
        sold: l.sold,
        held: l.held,
        in_payment: l.in_payment,
        sold_cents: l.sold_cents,
    });
    let area_lines = areas.into_iter().map(|a| SalesLine {
        // Places of lapsed holds not yet given back count as free.
        free: a.capacity - a.sold - a.held - a.in_payment,
        category: a.category,
        section: a.name,
        standing: true,
        places: a.capacity,
        sold: a.sold,
        held: a.held,
        in_payment: a.in_payment,
        sold_cents: a.sold_cents,
    });
    Ok(seat_lines.chain(area_lines).collect())
}
