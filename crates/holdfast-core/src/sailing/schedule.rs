//! A sailing made from a route and a departure: an event (kind cruise,
//! named by its slug once), its price categories, its inventory copied
//! from the ship's plan in two statements (the places as seats, the
//! cabins' shapes and occupancy beside them) and its itinerary.

use crate::platform::clock::At;
use crate::platform::db::Tx;
use holdfast_model::EventId;

/// A price category of a sailing: a cabin's price for up to two guests,
/// and what each guest beyond two adds.
pub struct FareSpec {
    pub code: &'static str,
    pub name: &'static str,
    pub price_cents: i64,
    pub extra_guest_cents: i64,
    pub color: &'static str,
}

pub struct PortCallSpec {
    pub port: &'static str,
    pub country: &'static str,
    pub arrives_at: Option<At>,
    pub departs_at: Option<At>,
}

pub struct SailingSpec {
    pub slug: String,
    pub name: String,
    /// What the event list names as the place: the ship and the route.
    pub venue: String,
    pub route_id: i64,
    pub ship_id: i64,
    pub departs_at: At,
    pub arrives_at: At,
    pub time_zone: &'static str,
    pub currency: &'static str,
    pub fares: Vec<FareSpec>,
    pub itinerary: Vec<PortCallSpec>,
}

/// Inserts the sailing once (by slug); `None` when it was there already.
pub async fn insert_sailing(
    tx: &mut Tx,
    spec: &SailingSpec,
    now: At,
) -> Result<Option<EventId>, sqlx::Error> {
    let inserted: Option<(EventId,)> = sqlx::query_as(
        "insert into event (slug, name, kind, venue, starts_at, currency, published, created_at, time_zone)
         values ($1, $2, 'cruise', $3, $4, $5, 1, $6, $7)
         on conflict (slug) do nothing returning id",
    )
    .bind(&spec.slug)
    .bind(&spec.name)
    .bind(&spec.venue)
    .bind(spec.departs_at)
    .bind(spec.currency)
    .bind(now)
    .bind(spec.time_zone)
    .fetch_optional(&mut **tx)
    .await?;
    let Some((event_id,)) = inserted else {
        return Ok(None);
    };
    for fare in &spec.fares {
        sqlx::query(
            "insert into price_category (event_id, code, name, price_cents, color, extra_guest_cents)
             values ($1, $2, $3, $4, $5, $6)",
        )
        .bind(event_id)
        .bind(fare.code)
        .bind(fare.name)
        .bind(fare.price_cents)
        .bind(fare.color)
        .bind(fare.extra_guest_cents)
        .execute(&mut **tx)
        .await?;
    }
    // The plan's places in plan order: a deck's seats, then the next deck's.
    sqlx::query(
        "insert into seat (event_id, category_id, level, section, row_label, number, label, x, y)
         select $1, c.id, p.deck, p.deck, p.corridor, p.number,
                case when p.kind = 'cabin' then 'Cabin ' || cast(p.number as text)
                     else 'Seat ' || p.corridor || cast(p.number as text) end,
                p.x, p.y
         from ship_place p join price_category c on c.event_id = $1 and c.code = p.category
         where p.ship_id = $2 order by p.id",
    )
    .bind(event_id)
    .bind(spec.ship_id)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "insert into cabin (seat_id, side, width, depth, min_guests, max_guests, accessible)
         select s.id, p.side, p.width, p.depth, p.min_guests, p.max_guests, p.accessible
         from seat s join ship_place p
           on p.ship_id = $2 and p.deck = s.level and p.corridor = s.row_label
              and p.number = s.number and p.kind = 'cabin'
         where s.event_id = $1",
    )
    .bind(event_id)
    .bind(spec.ship_id)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "insert into sailing (event_id, route_id, ship_id, departs_at, arrives_at)
         values ($1, $2, $3, $4, $5)",
    )
    .bind(event_id)
    .bind(spec.route_id)
    .bind(spec.ship_id)
    .bind(spec.departs_at)
    .bind(spec.arrives_at)
    .execute(&mut **tx)
    .await?;
    for (position, call) in spec.itinerary.iter().enumerate() {
        sqlx::query(
            "insert into port_call (event_id, position, port, country, arrives_at, departs_at)
             values ($1, $2, $3, $4, $5, $6)",
        )
        .bind(event_id)
        .bind(position as i64)
        .bind(call.port)
        .bind(call.country)
        .bind(call.arrives_at)
        .bind(call.departs_at)
        .execute(&mut **tx)
        .await?;
    }
    Ok(Some(event_id))
}
