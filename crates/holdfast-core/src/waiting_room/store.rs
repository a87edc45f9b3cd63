//! The only SQL that reads or writes waiting rooms: the room's row
//! (`waiting_room`: on or off, rate, numbers issued, the admission
//! watermark), its admission steps (`admission_step`) and the buyers'
//! places in its queue (`queue_entry`). The use cases around it decide;
//! this file knows the tables.

use crate::platform::clock::At;
use crate::platform::db::{Db, Tx};
use holdfast_model::{BuyerId, EventId};

/// A room as a status read sees it, with its event's on-sale time and
/// zone; the room's columns are `None` when the event never had one.
#[derive(sqlx::FromRow)]
pub struct RoomRow {
    pub on_sale_at: At,
    pub time_zone: String,
    pub enabled: Option<i64>,
    pub admit_per_minute: Option<i64>,
    pub issued: Option<i64>,
    pub admitted_through: Option<i64>,
}

/// A room as an admission step reads it, under its row lock.
#[derive(sqlx::FromRow)]
pub struct LockedRoom {
    pub enabled: i64,
    pub admit_per_minute: i64,
    pub issued: i64,
    pub admitted_through: i64,
    pub last_admit_at: At,
}

pub async fn room(db: &Db, event_id: EventId) -> Result<Option<RoomRow>, sqlx::Error> {
    sqlx::query_as(
        "select e.on_sale_at, e.time_zone, w.enabled, w.admit_per_minute, w.issued, w.admitted_through
         from event e left join waiting_room w on w.event_id = e.id
         where e.id = $1",
    )
    .bind(event_id)
    .fetch_optional(db.reader())
    .await
}

/// Only the room's row is locked (never the event's: holds reference it).
pub async fn lock_room(
    tx: &mut Tx,
    db: &Db,
    event_id: EventId,
) -> Result<Option<LockedRoom>, sqlx::Error> {
    sqlx::query_as(&format!(
        "select enabled, admit_per_minute, issued, admitted_through, last_admit_at
         from waiting_room where event_id = $1{}",
        db.lock_row()
    ))
    .bind(event_id)
    .fetch_optional(&mut **tx)
    .await
}

/// Rooms on with buyers still waiting.
pub async fn rooms_with_a_queue(db: &Db) -> Result<Vec<EventId>, sqlx::Error> {
    let rooms: Vec<(EventId,)> = sqlx::query_as(
        "select event_id from waiting_room where enabled = 1 and admitted_through < issued",
    )
    .fetch_all(db.reader())
    .await?;
    Ok(rooms.into_iter().map(|r| r.0).collect())
}

/// Switches the room on or off at a rate, making it if need be.
pub async fn set_room(
    tx: &mut Tx,
    event_id: EventId,
    enabled: bool,
    admit_per_minute: i64,
    now: At,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into waiting_room (event_id, enabled, admit_per_minute, updated_at) values ($1, $2, $3, $4)
         on conflict (event_id) do update set enabled = excluded.enabled,
             admit_per_minute = excluded.admit_per_minute, updated_at = excluded.updated_at",
    )
    .bind(event_id)
    .bind(i64::from(enabled))
    .bind(admit_per_minute)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Opens a room at `per_minute` for every published event whose on-sale
/// is at most `lead_ms` away (or began within the last minute) and that
/// has no room yet; the events whose room opened.
pub async fn open_rooms_before_on_sale(
    db: &Db,
    per_minute: i64,
    now: At,
    lead_ms: i64,
) -> Result<Vec<EventId>, sqlx::Error> {
    let opened: Vec<(EventId,)> = sqlx::query_as(
        "insert into waiting_room (event_id, enabled, admit_per_minute, updated_at)
         select id, 1, $1, $2 from event
         where published = 1 and on_sale_at > $2 - 60000 and on_sale_at <= $2 + $3
         on conflict (event_id) do nothing
         returning event_id",
    )
    .bind(per_minute)
    .bind(now)
    .bind(lead_ms)
    .fetch_all(db.writer())
    .await?;
    Ok(opened.into_iter().map(|r| r.0).collect())
}

/// The last place admitted at or before `at` (0 when none).
pub async fn admitted_through_at<'e, E>(
    executor: E,
    event_id: EventId,
    at: At,
) -> Result<i64, sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let (through,): (i64,) = sqlx::query_as(
        "select cast(coalesce(max(through_position), 0) as bigint) from admission_step
         where event_id = $1 and admitted_at <= $2",
    )
    .bind(event_id)
    .bind(at)
    .fetch_one(executor)
    .await?;
    Ok(through)
}

/// Of the buyers at places `after` < place <= `through`, those who are
/// still choosing: no live booking on the event (a hold of theirs
/// already counts against the free places, so it is not counted twice).
pub async fn still_choosing<'e, E>(
    executor: E,
    event_id: EventId,
    after: i64,
    through: i64,
    now: At,
) -> Result<i64, sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let sql = format!(
        "select count(*) from queue_entry q
         where q.event_id = $1 and q.position > $2 and q.position <= $3
           and not exists (select 1 from booking b
                           where b.buyer_id = q.buyer_id and b.event_id = q.event_id and {})",
        holdfast_model::BookingStatus::owns_places_sql("b", "$4")
    );
    let (n,): (i64,) = sqlx::query_as(&sql)
        .bind(event_id)
        .bind(after)
        .bind(through)
        .bind(now)
        .fetch_one(executor)
        .await?;
    Ok(n)
}

/// The steps after `since`: (through position, admitted at), by position.
pub async fn steps_since(
    db: &Db,
    event_id: EventId,
    since: At,
) -> Result<Vec<(i64, At)>, sqlx::Error> {
    sqlx::query_as(
        "select through_position, admitted_at from admission_step
         where event_id = $1 and admitted_at > $2 order by through_position",
    )
    .bind(event_id)
    .bind(since)
    .fetch_all(db.reader())
    .await
}

/// When the step that let `place` in happened (the first step through it).
pub async fn admitted_at(
    tx: &mut Tx,
    event_id: EventId,
    place: i64,
) -> Result<Option<At>, sqlx::Error> {
    let step: Option<(At,)> = sqlx::query_as(
        "select admitted_at from admission_step where event_id = $1 and through_position >= $2
         order by through_position limit 1",
    )
    .bind(event_id)
    .bind(place)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(step.map(|s| s.0))
}

/// One admission step: the watermark moves by `admit`, the rate's credit
/// starts at `next_since`, and the step is written down when it let
/// anybody in (an admission expires a fixed time after its step).
pub async fn record_step(
    tx: &mut Tx,
    event_id: EventId,
    admitted_through: i64,
    admit: i64,
    next_since: At,
    now: At,
) -> Result<(), sqlx::Error> {
    sqlx::query("update waiting_room set admitted_through = admitted_through + $2, last_admit_at = $3 where event_id = $1")
        .bind(event_id)
        .bind(admit)
        .bind(next_since)
        .execute(&mut **tx)
        .await?;
    if admit > 0 {
        sqlx::query("insert into admission_step (event_id, through_position, admitted_at) values ($1, $2, $3)")
            .bind(event_id)
            .bind(admitted_through + admit)
            .bind(now)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// Takes `count` new numbers of the room; the last of them, or `None`
/// when the room is off.
pub async fn issue_numbers(
    tx: &mut Tx,
    event_id: EventId,
    count: i64,
) -> Result<Option<i64>, sqlx::Error> {
    let issued: Option<(i64,)> = sqlx::query_as(
        "update waiting_room set issued = issued + $2 where event_id = $1 and enabled = 1 returning issued",
    )
    .bind(event_id)
    .bind(count)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(issued.map(|i| i.0))
}

/// The places these buyers already have in the queue.
pub async fn places_of(
    tx: &mut Tx,
    event_id: EventId,
    buyers: &[&BuyerId],
) -> Result<Vec<(BuyerId, i64)>, sqlx::Error> {
    let mut kept = Vec::new();
    for chunk in buyers.chunks(200) {
        let sql = format!(
            "select buyer_id, position from queue_entry where event_id = $1 and buyer_id in ({})",
            (0..chunk.len())
                .map(|i| format!("${}", i + 2))
                .collect::<Vec<_>>()
                .join(",")
        );
        let mut q = sqlx::query_as::<_, (BuyerId, i64)>(&sql).bind(event_id);
        for buyer in chunk {
            q = q.bind(*buyer);
        }
        kept.extend(q.fetch_all(&mut **tx).await?);
    }
    Ok(kept)
}

/// Moves a buyer from place `old` to `place` (the back of the queue);
/// `false` when another instance moved them first.
pub async fn move_to(
    tx: &mut Tx,
    event_id: EventId,
    buyer: &BuyerId,
    old: i64,
    place: i64,
    now: At,
) -> Result<bool, sqlx::Error> {
    let moved = sqlx::query(
        "update queue_entry set position = $3, joined_at = $4
         where event_id = $1 and buyer_id = $2 and position = $5",
    )
    .bind(event_id)
    .bind(buyer)
    .bind(place)
    .bind(now)
    .bind(old)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    Ok(moved == 1)
}

/// Gives newcomers their places: (buyer, place, joined at). The same buyer
/// joining on another instance at the same moment keeps the place written
/// first; the number given here then stays unused (a gap the admission
/// steps over). The buyers whose place was written.
pub async fn insert_places(
    tx: &mut Tx,
    event_id: EventId,
    newcomers: &[(&BuyerId, i64, At)],
) -> Result<Vec<BuyerId>, sqlx::Error> {
    let mut written = Vec::new();
    for chunk in newcomers.chunks(200) {
        let values = (0..chunk.len())
            .map(|i| format!("($1, ${}, ${}, ${})", 3 * i + 2, 3 * i + 3, 3 * i + 4))
            .collect::<Vec<_>>()
            .join(",");
        let sql = format!(
            "insert into queue_entry (event_id, buyer_id, position, joined_at) values {values}
             on conflict (event_id, buyer_id) do nothing returning buyer_id"
        );
        let mut q = sqlx::query_as::<_, (BuyerId,)>(&sql).bind(event_id);
        for (buyer, place, now) in chunk {
            q = q.bind(*buyer).bind(*place).bind(*now);
        }
        written.extend(q.fetch_all(&mut **tx).await?.into_iter().map(|w| w.0));
    }
    Ok(written)
}

/// The buyer's place in the event's queue, if they have one.
pub async fn position_of<'e, E>(
    executor: E,
    event_id: EventId,
    buyer: &BuyerId,
) -> Result<Option<i64>, sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let row: Option<(i64,)> =
        sqlx::query_as("select position from queue_entry where event_id = $1 and buyer_id = $2")
            .bind(event_id)
            .bind(buyer)
            .fetch_optional(executor)
            .await?;
    Ok(row.map(|r| r.0))
}
