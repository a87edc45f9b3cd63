//! A map of one row of seats for the map's unit tests.

use std::sync::Arc;

use super::{EventSeatMap, Occupancy, Seat};
use holdfast_model::{EventId, SeatId};

/// Seats 1 to `n` in row A of section S, all free.
pub fn row_of(n: i64) -> Arc<EventSeatMap> {
    let seats = (1..=n)
        .map(|i| Seat {
            id: SeatId(i),
            label: format!("S-A-{i}"),
            level: None,
            section: "S".into(),
            row: "A".into(),
            number: i,
            x: i as f64,
            y: 0.0,
            category: "A".into(),
            price_cents: 100,
        })
        .collect();
    Arc::new(EventSeatMap::new(
        EventId(1),
        holdfast_model::money::Currency::of("EUR").unwrap(),
        seats,
        vec![Occupancy::Free; n as usize],
    ))
}
