//! Places for arrivals, in batches. Handing out positions takes the room
//! row's lock until commit, so one transaction per arrival queues every
//! arrival behind one disk flush, and joins go no faster than the disk
//! flushes. Instead each instance gathers the arrivals that came while
//! the previous batch was being written and gives them their places in one
//! transaction: one counter bump, one multi-row insert, one flush — in the
//! order they arrived.

use crate::platform::clock::At;
use crate::platform::db;
use std::collections::HashMap;

use tokio::sync::{mpsc, oneshot};

use crate::platform::db::Db;
use crate::ApiError;
use holdfast_model::BuyerId;
use holdfast_model::EventId;

use super::store;

/// At most this many arrivals in one transaction.
const BATCH: usize = 500;

struct Arrival {
    event_id: EventId,
    buyer: BuyerId,
    now: At,
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
        buyer: &BuyerId,
        now: At,
    ) -> Result<Option<i64>, ApiError> {
        let (reply, answer) = oneshot::channel();
        let arrival = Arrival {
            event_id,
            buyer: buyer.clone(),
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
    let buyers: Vec<(BuyerId, At)> = arrivals.iter().map(|a| (a.buyer.clone(), a.now)).collect();
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
    arrivals: &[(BuyerId, At)],
    admission_ttl_ms: i64,
) -> Result<HashMap<BuyerId, Option<i64>>, sqlx::Error> {
    let mut tx = db.begin().await?;
    let mut places: HashMap<BuyerId, Option<i64>> = HashMap::new();
    let buyers: Vec<&BuyerId> = arrivals.iter().map(|(b, _)| b).collect();
    let kept: HashMap<BuyerId, i64> = store::places_of(&mut tx, event_id, &buyers)
        .await?
        .into_iter()
        .collect();
    // Who needs a new number, in arrival order, once each.
    let mut newcomers: Vec<(&BuyerId, At, Option<i64>)> = Vec::new();
    for (buyer, now) in arrivals {
        if places.contains_key(buyer) || newcomers.iter().any(|n| n.0 == buyer) {
            continue;
        }
        match kept.get(buyer) {
            Some(&place) if !lapsed(&mut tx, event_id, place, *now - admission_ttl_ms).await? => {
                places.insert(buyer.clone(), Some(place));
            }
            old => newcomers.push((buyer, *now, old.copied())),
        }
    }
    if newcomers.is_empty() {
        db::commit(tx).await?;
        return Ok(places);
    }
    let Some(last) = store::issue_numbers(&mut tx, event_id, newcomers.len() as i64).await? else {
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
                let theirs = if store::move_to(&mut tx, event_id, buyer, *old, place, *now).await? {
                    Some(place)
                } else {
                    // Another instance moved them first: theirs stands.
                    store::position_of(&mut *tx, event_id, buyer).await?
                };
                places.insert((*buyer).clone(), theirs);
            }
            None => fresh.push((*buyer, place, *now)),
        }
    }
    let written = store::insert_places(&mut tx, event_id, &fresh).await?;
    for (buyer, place, _) in &fresh {
        if written.contains(*buyer) {
            places.insert((*buyer).clone(), Some(*place));
        }
    }
    db::commit(tx).await?;
    // Those who lost the race to another instance: their place from there.
    for (buyer, _, _) in &fresh {
        if !places.contains_key(*buyer) {
            let theirs = store::position_of(db.writer(), event_id, buyer).await?;
            places.insert((*buyer).clone(), theirs);
        }
    }
    Ok(places)
}

/// Whether the admission that let `place` in has lapsed.
async fn lapsed(
    tx: &mut crate::platform::db::Tx,
    event_id: EventId,
    place: i64,
    lapsed_before: At,
) -> Result<bool, sqlx::Error> {
    let at = store::admitted_at(tx, event_id, place).await?;
    Ok(at.is_some_and(|at| at <= lapsed_before))
}
