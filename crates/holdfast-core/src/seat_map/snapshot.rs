//! The serialised seat map: rebuilt when something changed (at most once
//! per `max_staleness`) or when a hold in it ran out, served with an ETag.

use crate::platform::clock::At;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::{EventSeatMap, Live, Occupancy, Rendered, Seat};
use crate::platform::compressed::{Compressed, Effort};
use holdfast_model::{EventId, SeatStatus, SeatStatuses};

impl EventSeatMap {
    /// The serialised snapshot, rebuilt when something changed (at most once
    /// per `max_staleness`) or when a hold in it has since expired.
    pub fn snapshot(&self, now_ms: At, max_staleness: Duration) -> Arc<Rendered> {
        let mut live = self.live();
        if let Some(r) = &live.rendered {
            let unchanged = r.version == live.version;
            let exact = unchanged && now_ms < live.exact_until;
            // Writes pouring in are batched: at most one rebuild per
            // `max_staleness`. A hold running out is rare and rebuilt at once.
            let throttled =
                !unchanged && live.built_at.is_some_and(|b| b.elapsed() < max_staleness);
            if exact || throttled {
                return r.clone();
            }
        }
        live.builds += 1;
        let rendered = Arc::new(self.render(&live, now_ms));
        live.exact_until = live
            .occupancy
            .iter()
            .filter_map(|o| match o {
                Occupancy::Held(until) if *until > now_ms => Some(*until),
                _ => None,
            })
            .min()
            .unwrap_or(At::from_ms(i64::MAX));
        live.rendered = Some(rendered.clone());
        live.built_at = Some(Instant::now());
        rendered
    }

    fn render(&self, live: &Live, now_ms: At) -> Rendered {
        let seat_statuses: Vec<SeatStatus> =
            live.occupancy.iter().map(|o| o.status(now_ms)).collect();
        let statuses = SeatStatuses {
            event_id: self.event_id,
            version: live.version,
            statuses: seat_statuses.iter().map(|s| s.code()).collect(),
        };
        let statuses = serde_json::to_vec(&statuses).unwrap_or_default();
        Rendered {
            version: live.version,
            etag: format!("\"{}-{}.{}\"", self.event_id, live.version, live.builds),
            statuses: Compressed::new(statuses, Effort::Fast),
            json: OnceLock::new(),
            seats: self.seats.clone(),
            seat_statuses,
            event_id: self.event_id,
        }
    }
}

impl Rendered {
    /// The full JSON of `GET …/seats` at this version, made on first ask.
    pub fn json(&self) -> &Compressed {
        self.json.get_or_init(|| {
            #[derive(Serialize)]
            #[serde(rename_all = "camelCase")]
            struct Row<'a> {
                #[serde(flatten)]
                seat: &'a Seat,
                status: SeatStatus,
            }
            #[derive(Serialize)]
            #[serde(rename_all = "camelCase")]
            struct Body<'a> {
                event_id: EventId,
                version: u64,
                seats: Vec<Row<'a>>,
            }
            let body = Body {
                event_id: self.event_id,
                version: self.version,
                seats: self
                    .seats
                    .iter()
                    .zip(&self.seat_statuses)
                    .map(|(seat, status)| Row {
                        seat,
                        status: *status,
                    })
                    .collect(),
            };
            Compressed::new(serde_json::to_vec(&body).unwrap_or_default(), Effort::Fast)
        })
    }
}
