//! Places for arrivals, in batches. Handing out positions takes the room
//! row's lock until commit, so one transaction per arrival queues every
//! arrival behind one disk flush (the bench measured ~400 joins/s on
//! Postgres). Instead each instance gathers the arrivals that came while
//! the previous batch was being written and gives them their places in one
//! transaction: one counter bump, one multi-row insert, one flush — in the
//! order they arrived.

use std::collections::HashMap;

use tokio::sync::{mpsc, oneshot};

use crate::core::platform::db::Db;
use crate::core::ApiError;
use crate::model::EventId;

/// At most this many arrivals in one transaction.
const BATCH: usize = 500;

struct Arrival {
    event_id: EventId,
    buyer: String,
    now: i64,
    /// The place, or `None` when the room is off.
    reply: oneshot::Sender<Result<Option<i64>, String>>,
}

#[derive(Clone)]
pub struct Arrivals {
    tx: mpsc::UnboundedSender<Arrival>,
}

impl Arrivals {
    /// Starts this instance's writer of places.
    pub fn start(db: Db, admission_ttl_ms: i64) -> Self {
        let (tx, mut rx) = mpsc::unbounded_channel::<Arrival>();
        tokio::spawn(async move {
            while let Some(first) = rx.recv().await {
                let mut batch = vec![first];
                while batch.len() < BATCH {
                    match rx.try_recv() {
                        Ok(more) => batch.push(more),
                        Err(_) => break,
                    }
                }
                let mut by_event: Vec<(EventId, Vec<Arrival>)> = Vec::new();
                for a in batch {
                    match by_event.iter_mut().find(|(e, _)| *e == a.event_id) {
                        Some((_, list)) => list.push(a),
                        None => by_event.push((a.event_id, vec![a])),
                    }
                }
                for (event_id, arrivals) in by_event {
                    place_all(&db, event_id, arrivals, admission_ttl_ms).await;
                }
            }
        });
        Arrivals { tx }
    }

    /// The buyer's place: the one they have, or the next.
    pub async fn place(
        &self,
        event_id: EventId,
        buyer: &str,
        now: i64,
    ) -> Result<Option<i64>, ApiError> {
        let (reply, answer) = oneshot::channel();
        let arrival = Arrival {
            event_id,
            buyer: buyer.to_string(),
            now,
            reply,
        };
        if self.tx.send(arrival).is_err() {
            return Err(ApiError::Busy);
        }
        match answer.await {
            Ok(Ok(place)) => Ok(place),
            Ok(Err(cause)) => Err(ApiError::Internal(cause.into())),
            Err(_) => Err(ApiError::Busy),
        }
    }
}

async fn place_all(db: &Db, event_id: EventId, arrivals: Vec<Arrival>, admission_ttl_ms: i64) {
    let buyers: Vec<(String, i64)> = arrivals.iter().map(|a| (a.buyer.clone(), a.now)).collect();
    let outcome = write_places(db, event_id, &buyers, admission_ttl_ms).await;
    for a in arrivals {
        let answer = match &outcome {
            Ok(places) => Ok(places.get(&a.buyer).copied().flatten()),
            Err(e) => Err(e.to_string()),
        };
        let _ = a.reply.send(answer);
    }
}

/// One transaction for a batch of one event's arrivals: existing places
/// are kept (unless their admission lapsed: back of the queue), new ones
/// are numbered in arrival order.
async fn write_places(
    db: &Db,
    event_id: EventId,
    arrivals: &[(String, i64)],
    admission_ttl_ms: i64,
) -> Result<HashMap<String, Option<i64>>, sqlx::Error> {
    let mut tx = db.begin().await?;
    let mut places: HashMap<String, Option<i64>> = HashMap::new();
    let mut kept: HashMap<String, i64> = HashMap::new();
    for chunk in arrivals.chunks(200) {
        let sql = format!(
            "select buyer_id, position from queue_entry where event_id = $1 and buyer_id in ({})",
            (0..chunk.len())
                .map(|i| format!("${}", i + 2))
                .collect::<Vec<_>>()
                .join(",")
        );
        let mut q = sqlx::query_as::<_, (String, i64)>(&sql).bind(event_id);
        for (buyer, _) in chunk {
            q = q.bind(buyer);
        }
        kept.extend(q.fetch_all(&mut *tx).await?);
    }
    // Who needs a new number, in arrival order, once each.
    let mut newcomers: Vec<(&str, i64, Option<i64>)> = Vec::new();
    for (buyer, now) in arrivals {
        if places.contains_key(buyer) || newcomers.iter().any(|n| n.0 == buyer) {
            continue;
        }
        match kept.get(buyer) {
            Some(&place) if !lapsed(&mut tx, event_id, place, now - admission_ttl_ms).await? => {
                places.insert(buyer.clone(), Some(place));
            }
            old => newcomers.push((buyer, *now, old.copied())),
        }
    }
    if newcomers.is_empty() {
        tx.commit().await?;
        return Ok(places);
    }
    let issued: Option<(i64,)> = sqlx::query_as(
        "update waiting_room set issued = issued + $2 where event_id = $1 and enabled = 1 returning issued",
    )
    .bind(event_id)
    .bind(newcomers.len() as i64)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((last,)) = issued else {
        // The room was switched off: everyone goes straight in.
        tx.rollback().await?;
        return Ok(arrivals.iter().map(|(b, _)| (b.clone(), None)).collect());
    };
    let first = last - newcomers.len() as i64 + 1;
    let mut fresh = Vec::new();
    for (i, (buyer, now, old)) in newcomers.iter().enumerate() {
        let place = first + i as i64;
        match old {
            // Back of the queue after a lapsed admission.
            Some(old) => {
                let moved = sqlx::query(
                    "update queue_entry set position = $3, joined_at = $4
                     where event_id = $1 and buyer_id = $2 and position = $5",
                )
                .bind(event_id)
                .bind(*buyer)
                .bind(place)
                .bind(now)
                .bind(old)
                .execute(&mut *tx)
                .await?
                .rows_affected();
                if moved == 1 {
                    places.insert(buyer.to_string(), Some(place));
                } else {
                    // Another instance moved them first: theirs stands.
                    let theirs = position_of(&mut *tx, event_id, buyer).await?;
                    places.insert(buyer.to_string(), theirs);
                }
            }
            None => fresh.push((*buyer, place, *now)),
        }
    }
    for chunk in fresh.chunks(200) {
        let mut sql = String::from(
            "insert into queue_entry (event_id, buyer_id, position, joined_at) values ",
        );
        for i in 0..chunk.len() {
            if i > 0 {
                sql.push(',');
            }
            sql.push_str(&format!(
                "($1, ${}, ${}, ${})",
                3 * i + 2,
                3 * i + 3,
                3 * i + 4
            ));
        }
        // The same buyer joining on another instance at the same moment
        // keeps the place written first; the number given here stays
        // unused (a gap the admission steps over).
        sql.push_str(" on conflict (event_id, buyer_id) do nothing returning buyer_id");
        let mut q = sqlx::query_as::<_, (String,)>(&sql).bind(event_id);
        for (buyer, place, now) in chunk {
            q = q.bind(*buyer).bind(*place).bind(*now);
        }
        let written: Vec<(String,)> = q.fetch_all(&mut *tx).await?;
        for (buyer, place, _) in chunk {
            if written.iter().any(|w| w.0 == *buyer) {
                places.insert(buyer.to_string(), Some(*place));
            }
        }
    }
    tx.commit().await?;
    // Those who lost the race to another instance: their place from there.
    for (buyer, _, _) in &fresh {
        if !places.contains_key(*buyer) {
            let theirs = position_of(db.writer(), event_id, buyer).await?;
            places.insert(buyer.to_string(), theirs);
        }
    }
    Ok(places)
}

/// The buyer's place in the event's queue, if they have one.
pub async fn position_of<'e, E>(
    executor: E,
    event_id: EventId,
    buyer: &str,
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

/// Whether the admission that let `place` in has lapsed.
async fn lapsed(
    tx: &mut crate::core::platform::db::Tx,
    event_id: EventId,
    place: i64,
    lapsed_before: i64,
) -> Result<bool, sqlx::Error> {
    // The step that let a place in is the first one through it.
    let step: Option<(i64,)> = sqlx::query_as(
        "select admitted_at from admission_step where event_id = $1 and through_position >= $2
         order by through_position limit 1",
    )
    .bind(event_id)
    .bind(place)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(step.is_some_and(|(at,)| at <= lapsed_before))
}
