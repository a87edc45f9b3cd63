//! Seat changes between instances on one Postgres: every instance NOTIFYs
//! its committed changes on a channel and LISTENs for the others', so a
//! buyer's stream shows changes made on any instance. SQLite runs as one
//! process and needs none of this. The database stays the authority; a lost
//! notification only makes a map stale until its next change or reload.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use sqlx::postgres::PgListener;
use tokio::sync::mpsc;

use super::{Occupancy, SeatMaps};
use crate::platform::clock::{At, SharedClock};
use crate::platform::db::Db;
use holdfast_model::{EventId, SeatId};

const CHANNEL: &str = "holdfast_seats";
/// Postgres caps a payload at 8,000 bytes; this many changes stay below it.
const CHANGES_PER_NOTICE: usize = 200;
/// How long the sender gathers changes after the first before it sends:
/// what a map on another instance lags behind at most, on top of the trip.
const GATHER: std::time::Duration = std::time::Duration::from_millis(2);

#[derive(Serialize, Deserialize)]
struct Notice {
    origin: String,
    /// The notice's place in the sender's order: Postgres delivers one of
    /// several identical notifications of a transaction, and this keeps
    /// every notice distinct.
    #[serde(default)]
    seq: u64,
    event: EventId,
    /// (seat, kind, held until): kind 0 free, 1 held, 2 in checkout, 3 booked.
    changes: Vec<(SeatId, u8, At)>,
}

fn encode(o: Occupancy) -> (u8, At) {
    match o {
        Occupancy::Free => (0, At::default()),
        Occupancy::Held(until) => (1, until),
        Occupancy::Pending => (2, At::default()),
        Occupancy::Booked => (3, At::default()),
    }
}

fn decode(kind: u8, until: At) -> Occupancy {
    match kind {
        1 => Occupancy::Held(until),
        2 => Occupancy::Pending,
        3 => Occupancy::Booked,
        _ => Occupancy::Free,
    }
}

/// Starts the sender and the listener for this instance.
pub async fn start(
    url: &str,
    db: Db,
    maps: Arc<SeatMaps>,
    clock: SharedClock,
) -> Result<(), sqlx::Error> {
    let origin = uuid::Uuid::new_v4().to_string();
    let mut listener = PgListener::connect(url).await?;
    listener.listen(CHANNEL).await?;
    let (tx, mut rx) = mpsc::unbounded_channel::<(EventId, Vec<(SeatId, Occupancy)>)>();
    maps.fan_out_to(tx);

    let me = origin.clone();
    tokio::spawn(async move {
        // One sender keeps this instance's notices in the order it committed.
        // Whatever queues up within `GATHER` of a first change goes out
        // together, in one statement: one round trip (and one NOTIFY, which
        // wakes every instance's listener) per commit would fall further
        // behind for as long as an on-sale's rush lasts and cost every hold
        // a trip; one per window does not.
        while let Some(first) = rx.recv().await {
            tokio::time::sleep(GATHER).await;
            let mut pending = vec![first];
            while let Ok(more) = rx.try_recv() {
                pending.push(more);
            }
            send(&db, &notices(&me, coalesce(pending))).await;
        }
    });
    tokio::spawn(async move {
        loop {
            match listener.recv().await {
                Ok(n) => {
                    let Ok(notice) = serde_json::from_str::<Notice>(n.payload()) else {
                        continue;
                    };
                    if notice.origin == origin {
                        continue;
                    }
                    let changes: Vec<(SeatId, Occupancy)> = notice
                        .changes
                        .into_iter()
                        .map(|(s, k, u)| (s, decode(k, u)))
                        .collect();
                    maps.apply_here(notice.event, &changes, clock.now());
                }
                Err(e) => {
                    // PgListener reconnects by itself; notices sent meanwhile
                    // are lost, so drop the maps and let them reload.
                    tracing::warn!(error = %e, "seat listener interrupted; maps will reload");
                    maps.forget_all();
                    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                }
            }
        }
    });
    Ok(())
}

/// Consecutive batches of the same event become one, in commit order.
fn coalesce(
    batches: Vec<(EventId, Vec<(SeatId, Occupancy)>)>,
) -> Vec<(EventId, Vec<(SeatId, Occupancy)>)> {
    let mut out: Vec<(EventId, Vec<(SeatId, Occupancy)>)> = Vec::new();
    for (event, changes) in batches {
        match out.last_mut() {
            Some((e, all)) if *e == event => all.extend(changes),
            _ => out.push((event, changes)),
        }
    }
    out
}

/// The notices (payloads) for `batches`, at most `CHANGES_PER_NOTICE`
/// changes each, in commit order.
fn notices(origin: &str, batches: Vec<(EventId, Vec<(SeatId, Occupancy)>)>) -> Vec<String> {
    let mut out = Vec::new();
    for (event, changes) in batches {
        for chunk in changes.chunks(CHANGES_PER_NOTICE) {
            let notice = Notice {
                origin: origin.to_string(),
                seq: out.len() as u64,
                event,
                changes: chunk
                    .iter()
                    .map(|(s, o)| {
                        let (k, u) = encode(*o);
                        (*s, k, u)
                    })
                    .collect(),
            };
            out.extend(serde_json::to_string(&notice).ok());
        }
    }
    out
}

/// NOTIFYs the notices in one statement, in their order (Postgres delivers
/// a transaction's notifications in the order they were sent).
async fn send(db: &Db, notices: &[String]) {
    if let Err(e) = sqlx::query(
        "select pg_notify($1, n.payload)
         from json_array_elements_text(cast($2 as json)) with ordinality as n(payload, i)
         order by n.i",
    )
    .bind(CHANNEL)
    .bind(serde_json::Value::from(notices).to_string())
    .execute(db.writer())
    .await
    {
        tracing::warn!(error = %e, "seat change not sent to other instances");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consecutive_batches_of_an_event_travel_together_in_order() {
        let b = |e: i64, s: i64| {
            (
                EventId(e),
                vec![(SeatId(s), Occupancy::Held(At::from_ms(9)))],
            )
        };
        let out = coalesce(vec![b(1, 10), b(1, 11), b(2, 20), b(1, 12), b(1, 13)]);
        let seats: Vec<(i64, Vec<i64>)> = out
            .into_iter()
            .map(|(e, c)| (e.0, c.into_iter().map(|x| x.0 .0).collect()))
            .collect();
        assert_eq!(
            seats,
            vec![(1, vec![10, 11]), (2, vec![20]), (1, vec![12, 13])]
        );
    }
}
