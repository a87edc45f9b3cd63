//! The demo line: the MS Aurora, a cruise ship of three cabin decks
//! sailing the Norwegian fjords from Bergen every Saturday (7 nights), and
//! the MV Sea Star, a fast ferry between Pohang and Ulleungdo island once
//! a day each way, with seats in two lounges and a few private rooms — the
//! trip home from a remote island that the cruise seed's author took.
//!
//! (Over 200 lines on purpose: the two ships' plans and their routes' ports
//! and fares, read side by side.)

use super::plan::{insert_route, insert_ship, PlaceKind, PlaceSpec, ShipSpec, Side};
use super::schedule::{insert_sailing, FareSpec, PortCallSpec, SailingSpec};
use crate::platform::clock::At;
use crate::platform::db::Tx;
use crate::seed::CRUISE_SLUG;

pub const AURORA_ROUTE: &str = "NORWAY-7N";
pub const FERRY_OUT: &str = "POHANG-ULLEUNG";
pub const FERRY_BACK: &str = "ULLEUNG-POHANG";

const HOUR: i64 = 3_600_000;
const DAY: i64 = 24 * HOUR;

/// The Aurora's first sailing (the demo's cruise event, id 2 on a fresh
/// database: the arena, this, the opera house, then the other sailings).
pub async fn insert_first_sailing(tx: &mut Tx, now: At) -> Result<(), sqlx::Error> {
    let (ship, route) = aurora_route(tx, now).await?;
    insert_sailing(tx, &aurora_sailing(ship, route, 0), now).await?;
    Ok(())
}

/// The Aurora's next three weekly sailings and a week of the ferry both ways.
pub async fn insert_other_sailings(tx: &mut Tx, now: At) -> Result<(), sqlx::Error> {
    let (ship, route) = aurora_route(tx, now).await?;
    for week in 1..4 {
        insert_sailing(tx, &aurora_sailing(ship, route, week), now).await?;
    }
    let ferry = insert_ship(tx, &sea_star(), now).await?;
    let out = insert_route(tx, FERRY_OUT, "Pohang → Ulleungdo", ferry).await?;
    let back = insert_route(tx, FERRY_BACK, "Ulleungdo → Pohang", ferry).await?;
    for day in 0..7 {
        insert_sailing(tx, &ferry_sailing(ferry, out, day, true), now).await?;
        insert_sailing(tx, &ferry_sailing(ferry, back, day, false), now).await?;
    }
    Ok(())
}

async fn aurora_route(tx: &mut Tx, now: At) -> Result<(i64, i64), sqlx::Error> {
    let ship = insert_ship(tx, &aurora(), now).await?;
    let route = insert_route(
        tx,
        AURORA_ROUTE,
        "Norwegian Fjords, Bergen round trip",
        ship,
    )
    .await?;
    Ok((ship, route))
}

fn at(rfc3339: &str) -> At {
    At::from_ms(
        chrono::DateTime::parse_from_rfc3339(rfc3339)
            .map(|d| d.timestamp_millis())
            .unwrap_or(0),
    )
}

/// The Aurora: decks 5–7, each with outside cabins along port and
/// starboard and two rows of inside cabins back to back between the
/// corridors. Suites on deck 7's port side; ocean-view cabins on deck 5's
/// starboard; four accessible cabins amidships on every deck (by the lifts).
fn aurora() -> ShipSpec {
    let mut places = Vec::new();
    for (d, deck) in [5i64, 6, 7].into_iter().enumerate() {
        let top = 40.0 + d as f64 * 300.0;
        let rows = [
            (
                "Port",
                Side::Port,
                34.0,
                44.0,
                30,
                if deck == 7 { "SUITE" } else { "BALCONY" },
            ),
            ("Inside port", Side::Inside, 94.0, 36.0, 20, "INSIDE"),
            ("Inside starboard", Side::Inside, 130.0, 36.0, 20, "INSIDE"),
            (
                "Starboard",
                Side::Starboard,
                190.0,
                44.0,
                30,
                if deck == 5 { "OCEAN" } else { "BALCONY" },
            ),
        ];
        let mut number = deck * 1000 + 1;
        for (corridor, side, dy, depth, per_row, category) in rows {
            let pitch = 1500.0 / per_row as f64;
            for i in 0..per_row {
                let (min_guests, max_guests) = match category {
                    "SUITE" => (1, 4),
                    "INSIDE" if i % 4 == 3 => (1, 4),
                    "INSIDE" => (1, 2),
                    "BALCONY" if i % 5 == 4 => (1, 4),
                    _ => (1, 3),
                };
                places.push(PlaceSpec {
                    deck: format!("Deck {deck}"),
                    kind: PlaceKind::Cabin,
                    corridor: corridor.to_string(),
                    side,
                    number,
                    category,
                    x: 250.0 + pitch / 2.0 + i as f64 * pitch,
                    y: top + dy,
                    width: pitch - 4.0,
                    depth,
                    min_guests,
                    max_guests,
                    accessible: side != Side::Inside && (i == 14 || i == 15),
                });
                number += 1;
            }
        }
    }
    ShipSpec {
        slug: "ms-aurora",
        name: "MS Aurora",
        places,
    }
}

fn aurora_sailing(ship_id: i64, route_id: i64, week: i64) -> SailingSpec {
    let departs = at("2027-06-05T16:00:00Z") + week * 7 * DAY;
    let call = |port, arrive: Option<i64>, depart: Option<i64>| PortCallSpec {
        port,
        country: "Norway",
        arrives_at: arrive.map(|h| departs + h * HOUR),
        departs_at: depart.map(|h| departs + h * HOUR),
    };
    let date = chrono::DateTime::from_timestamp_millis(departs.ms())
        .map(|d| d.format("%Y-%m-%d").to_string())
        .unwrap_or_default();
    SailingSpec {
        slug: if week == 0 {
            CRUISE_SLUG.to_string()
        } else {
            format!("aurora-norway-{date}")
        },
        name: "MS Aurora — Norwegian Fjords".into(),
        venue: "MS Aurora (Bergen round trip)".into(),
        route_id,
        ship_id,
        departs_at: departs,
        arrives_at: departs + 160 * HOUR,
        time_zone: "Europe/Oslo",
        currency: "EUR",
        fares: vec![
            fare("SUITE", "Suite", 240_000, 45_000, "#92400e"),
            fare("BALCONY", "Balcony cabin", 149_000, 35_000, "#1d4ed8"),
            fare("OCEAN", "Ocean view cabin", 109_000, 25_000, "#047857"),
            fare("INSIDE", "Inside cabin", 79_000, 20_000, "#6b21a8"),
        ],
        itinerary: vec![
            call("Bergen", None, Some(0)),
            call("Geiranger", Some(15), Some(24)),
            call("Ålesund", Some(38), Some(46)),
            call("Flåm", Some(63), Some(72)),
            call("Stavanger", Some(111), Some(119)),
            call("Kristiansand", Some(135), Some(143)),
            call("Bergen", Some(160), None),
        ],
    }
}

fn fare(
    code: &'static str,
    name: &'static str,
    price_cents: i64,
    extra_guest_cents: i64,
    color: &'static str,
) -> FareSpec {
    FareSpec {
        code,
        name,
        price_cents,
        extra_guest_cents,
        color,
    }
}

/// The Sea Star: the main saloon on deck 1 (rows A–J of 20 seats across
/// the ship, an aisle in the middle), the priority lounge on deck 2 (rows
/// A–D of 16) and six private rooms for 2–4 beside it.
fn sea_star() -> ShipSpec {
    let mut places = Vec::new();
    let lounges = [
        ("Deck 1", "ECONOMY", 10usize, 20usize),
        ("Deck 2", "PRIORITY", 4, 16),
    ];
    for (d, (deck, category, rows, across)) in lounges.into_iter().enumerate() {
        let top = 40.0 + d as f64 * 560.0;
        for r in 0..rows {
            let row = holdfast_model::console::seating::row_label(r);
            for j in 0..across {
                let aisle = if j >= across / 2 { 24.0 } else { 0.0 };
                places.push(PlaceSpec {
                    deck: deck.to_string(),
                    kind: PlaceKind::Seat,
                    corridor: row.clone(),
                    side: match j {
                        0 => Side::Port,
                        j if j == across - 1 => Side::Starboard,
                        _ => Side::Inside,
                    },
                    number: j as i64 + 1,
                    category,
                    x: 300.0 + r as f64 * 40.0,
                    y: top + 30.0 + j as f64 * 22.0 + aisle,
                    width: 30.0,
                    depth: 18.0,
                    min_guests: 1,
                    max_guests: 1,
                    accessible: r == 0 && (j == 0 || j == across - 1),
                });
            }
        }
    }
    for k in 0..6 {
        let port = k < 3;
        places.push(PlaceSpec {
            deck: "Deck 2".into(),
            kind: PlaceKind::Cabin,
            corridor: if port { "Port" } else { "Starboard" }.into(),
            side: if port { Side::Port } else { Side::Starboard },
            number: 201 + k,
            category: "ROOM",
            x: 560.0 + (k % 3) as f64 * 90.0,
            y: 600.0 + if port { 40.0 } else { 330.0 },
            width: 84.0,
            depth: 60.0,
            min_guests: 1,
            max_guests: 4,
            accessible: k == 0,
        });
    }
    ShipSpec {
        slug: "sea-star",
        name: "MV Sea Star",
        places,
    }
}

fn ferry_sailing(ship_id: i64, route_id: i64, day: i64, outbound: bool) -> SailingSpec {
    // 09:50 from Pohang, 14:30 back from Ulleungdo (Korea, UTC+9).
    let first = if outbound {
        at("2027-05-01T00:50:00Z")
    } else {
        at("2027-05-01T05:30:00Z")
    };
    let departs = first + day * DAY;
    let arrives = departs + 3 * HOUR + 10 * 60_000;
    let (from, to) = if outbound {
        ("Pohang", "Ulleungdo (Dodong)")
    } else {
        ("Ulleungdo (Dodong)", "Pohang")
    };
    let date = chrono::DateTime::from_timestamp_millis(departs.ms())
        .map(|d| d.format("%Y-%m-%d").to_string())
        .unwrap_or_default();
    SailingSpec {
        slug: format!("sea-star-{}-{date}", if outbound { "out" } else { "back" }),
        name: format!("MV Sea Star — {from} → {to}"),
        venue: "MV Sea Star (ferry)".into(),
        route_id,
        ship_id,
        departs_at: departs,
        arrives_at: arrives,
        time_zone: "Asia/Seoul",
        currency: "KRW",
        fares: vec![
            fare("ROOM", "Private room", 240_000, 60_000, "#92400e"),
            fare("PRIORITY", "Priority lounge seat", 89_000, 0, "#1d4ed8"),
            fare("ECONOMY", "Main saloon seat", 68_500, 0, "#047857"),
        ],
        itinerary: vec![
            PortCallSpec {
                port: from,
                country: "South Korea",
                arrives_at: None,
                departs_at: Some(departs),
            },
            PortCallSpec {
                port: to,
                country: "South Korea",
                arrives_at: Some(arrives),
                departs_at: None,
            },
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_do_not_overlap_on_a_deck_and_cabins_take_parties() {
        for ship in [aurora(), sea_star()] {
            for a in &ship.places {
                assert!(a.min_guests >= 1 && a.max_guests >= a.min_guests);
                if a.kind == PlaceKind::Seat {
                    assert_eq!(a.max_guests, 1, "a seat takes one person");
                }
                for b in &ship.places {
                    if std::ptr::eq(a, b) || a.deck != b.deck {
                        continue;
                    }
                    let apart_x = (a.x - b.x).abs() >= (a.width + b.width) / 2.0;
                    let apart_y = (a.y - b.y).abs() >= (a.depth + b.depth) / 2.0;
                    assert!(
                        apart_x || apart_y,
                        "{} {} overlaps {}",
                        ship.name,
                        a.number,
                        b.number
                    );
                }
            }
        }
        let aurora = aurora();
        assert_eq!(aurora.places.len(), 300);
        assert!(aurora.places.iter().any(|p| p.max_guests == 4));
        assert_eq!(aurora.places.iter().filter(|p| p.accessible).count(), 12);
    }

    #[test]
    fn the_cruise_sails_weekly_and_the_ferry_daily_each_way() {
        let week0 = aurora_sailing(1, 1, 0);
        let week1 = aurora_sailing(1, 1, 1);
        assert_eq!(week1.departs_at - week0.departs_at, 7 * DAY);
        assert_eq!(week0.slug, CRUISE_SLUG);
        assert_ne!(week1.slug, week0.slug);
        let calls = &week0.itinerary;
        assert!(calls.first().unwrap().arrives_at.is_none());
        assert!(calls.last().unwrap().departs_at.is_none());
        assert_eq!(calls.last().unwrap().arrives_at, Some(week0.arrives_at));
        let out = ferry_sailing(2, 2, 0, true);
        let next = ferry_sailing(2, 2, 1, true);
        assert_eq!(next.departs_at - out.departs_at, DAY);
        assert!(out.arrives_at > out.departs_at);
    }
}
