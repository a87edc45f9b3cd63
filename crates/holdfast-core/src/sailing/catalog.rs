//! Reading sailings: a route's voyages by date with their fares from
//! (`GET /api/sailings`), and one with its itinerary and fares per
//! category (`GET /api/sailings/{id}`). Free places come from the live
//! seat maps, as the event list's do.

use crate::event_time::local_start;
use crate::platform::clock::{rfc3339, At};
use crate::{ApiError, AppState};
use holdfast_model::sailing::{
    Fare, PortCall, RouteRef, SailingDetail, SailingStatus, SailingSummary,
};
use holdfast_model::EventId;

/// The longest route code a filter may name.
const MAX_ROUTE_CODE: usize = 64;

#[derive(sqlx::FromRow)]
struct SailingRow {
    id: EventId,
    name: String,
    currency: String,
    time_zone: String,
    route_code: String,
    route_name: String,
    ship: String,
    departs_at: At,
    arrives_at: At,
    cancelled_at: Option<At>,
    cancel_reason: Option<String>,
}

const SELECT: &str = "select e.id, e.name, e.currency, e.time_zone, r.code as route_code,
            r.name as route_name, sh.name as ship, sl.departs_at, sl.arrives_at,
            sl.cancelled_at, sl.cancel_reason
     from sailing sl join event e on e.id = sl.event_id
     join route r on r.id = sl.route_id join ship sh on sh.id = sl.ship_id
     where e.published = 1";

/// Every published sailing in departure order, or a route's.
pub async fn list(state: &AppState, route: Option<&str>) -> Result<Vec<SailingSummary>, ApiError> {
    if let Some(code) = route {
        if code.is_empty() || code.len() > MAX_ROUTE_CODE {
            return Err(ApiError::unprocessable(
                format!("route must be a route code of 1 to {MAX_ROUTE_CODE} characters"),
                "route",
            ));
        }
    }
    let rows: Vec<SailingRow> = sqlx::query_as(&format!(
        "{SELECT} and (cast($1 as text) is null or r.code = $1) order by sl.departs_at, e.id"
    ))
    .bind(route)
    .fetch_all(state.db.reader())
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        out.push(summary(state, row).await?.0);
    }
    Ok(out)
}

/// One sailing with its ports and fares; 404 for an event that is no sailing.
pub async fn detail(state: &AppState, id: EventId) -> Result<SailingDetail, ApiError> {
    let row: SailingRow = sqlx::query_as(&format!("{SELECT} and e.id = $1"))
        .bind(id)
        .fetch_optional(state.db.reader())
        .await?
        .ok_or(ApiError::NotFound("sailing"))?;
    let zone = row.time_zone.clone();
    let (summary, fares) = summary(state, row).await?;
    let calls: Vec<(String, String, Option<At>, Option<At>)> = sqlx::query_as(
        "select port, country, arrives_at, departs_at from port_call
         where event_id = $1 order by position",
    )
    .bind(id)
    .fetch_all(state.db.reader())
    .await?;
    let local = |at: Option<At>| at.map(|at| local_start(at, &zone).at);
    Ok(SailingDetail {
        summary,
        itinerary: calls
            .into_iter()
            .map(|(port, country, arrives, departs)| PortCall {
                port,
                country,
                arrives_at: local(arrives),
                departs_at: local(departs),
            })
            .collect(),
        fares,
    })
}

/// Whether the event is a sailing (its pages and bookings say so).
pub async fn is_sailing(state: &AppState, id: EventId) -> Result<bool, ApiError> {
    let row: Option<(i64,)> = sqlx::query_as("select 1 from sailing where event_id = $1")
        .bind(id)
        .fetch_optional(state.db.reader())
        .await?;
    Ok(row.is_some())
}

async fn summary(
    state: &AppState,
    row: SailingRow,
) -> Result<(SailingSummary, Vec<Fare>), ApiError> {
    let map = state
        .seat_maps
        .get(&state.db, row.id)
        .await?
        .ok_or(ApiError::NotFound("sailing"))?;
    let now = state.clock.now();
    let free = map.free_mask(now);
    let categories: Vec<(String, String, i64, i64)> = sqlx::query_as(
        "select code, name, price_cents, extra_guest_cents from price_category
         where event_id = $1 order by price_cents desc, code",
    )
    .bind(row.id)
    .fetch_all(state.db.reader())
    .await?;
    let fares: Vec<Fare> = categories
        .into_iter()
        .map(|(code, name, price_cents, extra_guest_cents)| {
            let mut fare = Fare {
                code,
                name,
                price_cents,
                extra_guest_cents,
                place_count: 0,
                available_count: 0,
                min_guests: 1,
                max_guests: 1,
            };
            let mut occupancy: Option<(i64, i64)> = None;
            for (i, seat) in map.seats.iter().enumerate() {
                if seat.category != fare.code {
                    continue;
                }
                fare.place_count += 1;
                fare.available_count += free[i] as i64;
                let (lo, hi) = map
                    .cabins
                    .get(&seat.id)
                    .map_or((1, 1), |c| (c.min_guests, c.max_guests));
                occupancy = Some(occupancy.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))));
            }
            (fare.min_guests, fare.max_guests) = occupancy.unwrap_or((1, 1));
            fare
        })
        .collect();
    let status = if row.cancelled_at.is_some() {
        SailingStatus::Cancelled
    } else if row.departs_at <= now {
        SailingStatus::Departed
    } else {
        SailingStatus::Scheduled
    };
    let departs = local_start(row.departs_at, &row.time_zone);
    let summary = SailingSummary {
        id: row.id,
        name: row.name,
        route: RouteRef {
            code: row.route_code,
            name: row.route_name,
        },
        ship: row.ship,
        departs_at: rfc3339(row.departs_at),
        arrives_at: rfc3339(row.arrives_at),
        local_departs_at: departs.at,
        local_arrives_at: local_start(row.arrives_at, &row.time_zone).at,
        time_zone_abbreviation: departs.abbreviation,
        time_zone: row.time_zone,
        nights: nights(row.departs_at, row.arrives_at),
        status,
        cancel_reason: row.cancel_reason,
        currency: row.currency,
        from_cents: fares
            .iter()
            .filter(|f| f.available_count > 0)
            .map(|f| f.price_cents)
            .min(),
        place_count: map.seats.len() as i64,
        available_count: free.iter().filter(|f| **f).count() as i64,
    };
    Ok((summary, fares))
}

/// Nights aboard: a day trip has none; a week's cruise seven.
fn nights(departs: At, arrives: At) -> i64 {
    ((arrives - departs) as f64 / 86_400_000.0).round() as i64
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_week_from_saturday_evening_to_saturday_morning_is_seven_nights() {
        use crate::platform::clock::At;
        let d = At::from_ms(0);
        assert_eq!(super::nights(d, d + 160 * 3_600_000), 7);
        assert_eq!(super::nights(d, d + 3 * 3_600_000), 0);
    }
}
