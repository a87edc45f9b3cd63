//! The rebooking bench's line: a ship of `N + 200` cabins on a weekly
//! route, written straight to the database, and the cabins of a sailing.

use holdfast_core::platform::clock::At;
use holdfast_core::sailing::plan::{self, PlaceKind, PlaceSpec, ShipSpec, Side};
use holdfast_core::sailing::schedule::{self, FareSpec, SailingSpec};

use super::{Options, DAY};
use crate::throughput::client;

/// The bench ship (10 decks of cabins), its route and three weekly
/// sailings, straight into the database (the world the benchmark needs;
/// everything measured goes through the instances).
pub(super) async fn setup(o: &Options) -> Result<(i64, i64, i64), sqlx::Error> {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&o.database).await?;
    let now = At::from_ms(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64),
    );
    let per_deck = (o.bookings + 200).div_ceil(10);
    let mut places = Vec::new();
    for deck in 0..10i64 {
        for i in 0..per_deck as i64 {
            let (category, max_guests) = match i % 10 {
                0..=3 => ("INSIDE", 2),
                4..=6 => ("OCEAN", 3),
                7 | 8 => ("BALCONY", 3),
                _ => ("SUITE", 4),
            };
            places.push(PlaceSpec {
                deck: format!("Deck {}", deck + 3),
                kind: PlaceKind::Cabin,
                corridor: if i % 2 == 0 { "Port" } else { "Starboard" }.into(),
                side: if i % 2 == 0 {
                    Side::Port
                } else {
                    Side::Starboard
                },
                number: (deck + 3) * 1000 + i,
                category,
                x: 10.0 + (i / 2) as f64 * 12.0,
                y: 40.0 + deck as f64 * 100.0 + (i % 2) as f64 * 50.0,
                width: 10.0,
                depth: 40.0,
                min_guests: 1,
                max_guests,
                accessible: false,
            });
        }
    }
    let mut tx = pool.begin().await?;
    let ship = plan::insert_ship(
        &mut tx,
        &ShipSpec {
            slug: "ms-bench",
            name: "MS Bench",
            places,
        },
        now,
    )
    .await?;
    let route = plan::insert_route(&mut tx, "BENCH-7N", "Bench route, 7 nights", ship).await?;
    let mut ids = Vec::new();
    for week in 0..3 {
        let departs = now + (30 + week * 7) * DAY;
        let spec = SailingSpec {
            slug: format!("ms-bench-{}", departs.ms()),
            name: format!("MS Bench — week {}", week + 1),
            venue: "MS Bench · Bench route".into(),
            route_id: route,
            ship_id: ship,
            departs_at: departs,
            arrives_at: departs + 7 * DAY,
            time_zone: "UTC",
            currency: "EUR",
            fares: [
                ("INSIDE", 50_000),
                ("OCEAN", 70_000),
                ("BALCONY", 90_000),
                ("SUITE", 150_000),
            ]
            .into_iter()
            .map(|(code, price_cents)| FareSpec {
                code,
                name: code,
                price_cents,
                extra_guest_cents: 10_000,
                color: "#336699",
            })
            .collect(),
            itinerary: Vec::new(),
        };
        let id = schedule::insert_sailing(&mut tx, &spec, now)
            .await?
            .map(|e| e.0)
            .unwrap_or_default();
        ids.push(id);
    }
    tx.commit().await?;
    Ok((ids[0], ids[1], ids[2]))
}

pub(super) async fn cabins_of(o: &Options, sailing: i64) -> Vec<i64> {
    let c = client();
    let drawn: serde_json::Value = match c
        .get(format!("{}/api/events/{sailing}/seats", o.targets[0]))
        .send()
        .await
    {
        Ok(r) => r.json().await.unwrap_or_default(),
        Err(_) => serde_json::Value::Null,
    };
    drawn["seats"]
        .as_array()
        .map(|seats| seats.iter().filter_map(|s| s["id"].as_i64()).collect())
        .unwrap_or_default()
}
