//! A ship and its plan: every place on every deck, as each sailing's
//! inventory copies it (`schedule`). A cabin sleeps `min_guests` to
//! `max_guests`; a seat takes one person. Positions are the deck plan's:
//! x along the ship (bow to the right), y across it (port at the top).

use crate::platform::clock::At;
use crate::platform::db::Tx;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlaceKind {
    Cabin,
    Seat,
}

impl PlaceKind {
    pub fn as_str(self) -> &'static str {
        match self {
            PlaceKind::Cabin => "cabin",
            PlaceKind::Seat => "seat",
        }
    }
}

/// Where a place looks out: the sea on the port or starboard side, or
/// nowhere (an inside cabin, a lounge seat).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Port,
    Starboard,
    Inside,
}

impl Side {
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Port => "port",
            Side::Starboard => "starboard",
            Side::Inside => "inside",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct PlaceSpec {
    pub deck: String,
    pub kind: PlaceKind,
    /// The corridor or row it opens on ("Port", "Inside port", "A").
    pub corridor: String,
    pub side: Side,
    pub number: i64,
    /// A category code the sailings price.
    pub category: &'static str,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub depth: f64,
    pub min_guests: i64,
    pub max_guests: i64,
    pub accessible: bool,
}

pub struct ShipSpec {
    pub slug: &'static str,
    pub name: &'static str,
    pub places: Vec<PlaceSpec>,
}

/// Inserts the ship and its plan once (by slug); returns its id either way.
pub async fn insert_ship(tx: &mut Tx, ship: &ShipSpec, now: At) -> Result<i64, sqlx::Error> {
    let inserted: Option<(i64,)> = sqlx::query_as(
        "insert into ship (slug, name, created_at) values ($1, $2, $3)
         on conflict (slug) do nothing returning id",
    )
    .bind(ship.slug)
    .bind(ship.name)
    .bind(now)
    .fetch_optional(&mut **tx)
    .await?;
    let Some((id,)) = inserted else {
        let (id,): (i64,) = sqlx::query_as("select id from ship where slug = $1")
            .bind(ship.slug)
            .fetch_one(&mut **tx)
            .await?;
        return Ok(id);
    };
    const COLUMNS: usize = 14;
    for chunk in ship.places.chunks(300) {
        let mut sql = String::from(
            "insert into ship_place (ship_id, deck, kind, corridor, side, number, category, x, y,
                                     width, depth, min_guests, max_guests, accessible) values ",
        );
        for i in 0..chunk.len() {
            let b = i * COLUMNS;
            let params: Vec<String> = (1..=COLUMNS).map(|p| format!("${}", b + p)).collect();
            if i > 0 {
                sql.push(',');
            }
            sql.push_str(&format!("({})", params.join(",")));
        }
        let mut q = sqlx::query(&sql);
        for p in chunk {
            q = q
                .bind(id)
                .bind(&p.deck)
                .bind(p.kind.as_str())
                .bind(&p.corridor)
                .bind(p.side.as_str())
                .bind(p.number)
                .bind(p.category)
                .bind(p.x)
                .bind(p.y)
                .bind(p.width)
                .bind(p.depth)
                .bind(p.min_guests)
                .bind(p.max_guests)
                .bind(p.accessible as i32);
        }
        q.execute(&mut **tx).await?;
    }
    Ok(id)
}

/// Inserts the route once (by code); returns its id either way.
pub async fn insert_route(
    tx: &mut Tx,
    code: &str,
    name: &str,
    ship_id: i64,
) -> Result<i64, sqlx::Error> {
    sqlx::query(
        "insert into route (code, name, ship_id) values ($1, $2, $3)
         on conflict (code) do nothing",
    )
    .bind(code)
    .bind(name)
    .bind(ship_id)
    .execute(&mut **tx)
    .await?;
    let (id,): (i64,) = sqlx::query_as("select id from route where code = $1")
        .bind(code)
        .fetch_one(&mut **tx)
        .await?;
    Ok(id)
}
