//! Demo data, loaded on first start when the database has no events: a
//! concert in a 10,000-seat arena (two bowls around a stage, four price
//! categories, a standing floor), the cruise line of `sailing::fleet` (a
//! ship sailing weekly, a ferry sailing daily), and
//! a night in Hà Nội's opera house priced in đồng (a currency without
//! decimals, in the Asia/Ho_Chi_Minh zone).
//! Idempotent: each event is inserted with `on conflict (slug) do nothing`,
//! and its seats only when that insert happened, all in one transaction.
//!
//! (Over 350 lines on purpose: most of it is the three venues' data, one
//! function each, read side by side.)

use super::platform::db::{Db, Tx};
use super::sailing::fleet;
use crate::platform::clock::At;
use crate::platform::db;
use holdfast_model::EventId;

/// Exactly this many seats in the arena (the last upper row is trimmed).
pub const ARENA_SEATS: usize = 10_000;
pub const ARENA_SLUG: &str = "arena-concert";
pub const CRUISE_SLUG: &str = "aurora-cruise";
pub const HANOI_SLUG: &str = "hanoi-opera-night";

pub struct SeatSpec {
    pub category: String,
    pub level: Option<String>,
    pub section: String,
    pub row: String,
    pub number: i64,
    pub label: String,
    pub x: f64,
    pub y: f64,
}

struct EventSpec {
    slug: &'static str,
    name: &'static str,
    kind: &'static str,
    venue: &'static str,
    starts_at: &'static str,
    time_zone: &'static str,
    currency: &'static str,
    categories: Vec<(&'static str, &'static str, i64, &'static str)>,
    seats: Vec<SeatSpec>,
    ga: Vec<(&'static str, &'static str, i64)>,
}

/// In this order, so a fresh database numbers them alike: the arena (1),
/// the Aurora's first sailing (2), the opera house (3), the other sailings.
pub async fn load_demo_data(db: &Db, now_ms: At) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    insert_event(&mut tx, &arena(), now_ms).await?;
    db::commit(tx).await?;
    let mut tx = db.begin().await?;
    fleet::insert_first_sailing(&mut tx, now_ms).await?;
    db::commit(tx).await?;
    let mut tx = db.begin().await?;
    insert_event(&mut tx, &hanoi(), now_ms).await?;
    db::commit(tx).await?;
    let mut tx = db.begin().await?;
    fleet::insert_other_sailings(&mut tx, now_ms).await?;
    db::commit(tx).await
}

async fn insert_event(tx: &mut Tx, spec: &EventSpec, now_ms: At) -> Result<(), sqlx::Error> {
    let starts_at = chrono::DateTime::parse_from_rfc3339(spec.starts_at)
        .map(|d| At::from_ms(d.timestamp_millis()))
        .unwrap_or(now_ms);
    let inserted: Option<(EventId,)> = sqlx::query_as(
        "insert into event (slug, name, kind, venue, starts_at, currency, published, created_at, time_zone)
         values ($1, $2, $3, $4, $5, $6, 1, $7, $8)
         on conflict (slug) do nothing returning id",
    )
    .bind(spec.slug)
    .bind(spec.name)
    .bind(spec.kind)
    .bind(spec.venue)
    .bind(starts_at)
    .bind(spec.currency)
    .bind(now_ms)
    .bind(spec.time_zone)
    .fetch_optional(&mut **tx)
    .await?;
    let Some((event_id,)) = inserted else {
        return Ok(());
    };
    insert_layout(tx, event_id, &spec.categories, &spec.seats, &spec.ga).await
}

/// Inserts categories, seats and general-admission areas of one event. Also
/// used by the admin's event setup.
pub async fn insert_layout(
    tx: &mut Tx,
    event_id: EventId,
    categories: &[(&str, &str, i64, &str)],
    seats: &[SeatSpec],
    ga: &[(&str, &str, i64)],
) -> Result<(), sqlx::Error> {
    let mut category_ids = std::collections::HashMap::new();
    for (code, name, price, color) in categories {
        let (id,): (i64,) = sqlx::query_as(
            "insert into price_category (event_id, code, name, price_cents, color)
             values ($1, $2, $3, $4, $5) returning id",
        )
        .bind(event_id)
        .bind(*code)
        .bind(*name)
        .bind(*price)
        .bind(*color)
        .fetch_one(&mut **tx)
        .await?;
        category_ids.insert(code.to_string(), id);
    }
    for chunk in seats.chunks(400) {
        let mut sql = String::from(
            "insert into seat (event_id, category_id, level, section, row_label, number, label, x, y) values ",
        );
        for i in 0..chunk.len() {
            let b = i * 9;
            if i > 0 {
                sql.push(',');
            }
            sql.push_str(&format!(
                "(${},${},${},${},${},${},${},${},${})",
                b + 1,
                b + 2,
                b + 3,
                b + 4,
                b + 5,
                b + 6,
                b + 7,
                b + 8,
                b + 9
            ));
        }
        let mut q = sqlx::query(&sql);
        for s in chunk {
            q = q
                .bind(event_id)
                .bind(category_ids.get(&s.category).copied().unwrap_or_default())
                .bind(s.level.clone())
                .bind(s.section.clone())
                .bind(s.row.clone())
                .bind(s.number)
                .bind(s.label.clone())
                .bind(s.x)
                .bind(s.y);
        }
        q.execute(&mut **tx).await?;
    }
    for (name, category, capacity) in ga {
        sqlx::query(
            "insert into ga_area (event_id, category_id, name, capacity, remaining)
             values ($1, $2, $3, $4, $4)",
        )
        .bind(event_id)
        .bind(category_ids.get(*category).copied().unwrap_or_default())
        .bind(*name)
        .bind(*capacity)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// The arena: a stage at the top, a lower bowl of 8 sections and an upper
/// bowl of 12 sections fanned around it; seats per row grow with the radius.
fn arena() -> EventSpec {
    let (cx, cy) = (1000.0, 110.0);
    let mut seats = Vec::new();
    let bowls = [
        ("L", 8usize, 190.0, 33usize),
        ("U", 12usize, 560.0, 38usize),
    ];
    let (from, to) = (12.0_f64.to_radians(), 168.0_f64.to_radians());
    for (prefix, sections, inner, rows) in bowls {
        let span = (to - from) / sections as f64;
        let gap = 1.0_f64.to_radians();
        for s in 0..sections {
            let section = format!("{prefix}{}", s + 1);
            let (a0, a1) = (
                from + s as f64 * span + gap,
                from + (s + 1) as f64 * span - gap,
            );
            let central = (s as f64 + 0.5 - sections as f64 / 2.0).abs() < sections as f64 / 4.0;
            for r in 0..rows {
                let radius = inner + r as f64 * 10.0;
                let count = ((a1 - a0) * radius / 9.0).floor().max(1.0) as usize;
                let category = match (prefix, r) {
                    ("L", r) if r < 12 && central => "A",
                    ("L", _) => "B",
                    ("U", r) if r < 14 => "C",
                    _ => "D",
                };
                for n in 0..count {
                    // Number seats left to right as seen from the stage.
                    let t = if count == 1 {
                        0.5
                    } else {
                        n as f64 / (count - 1) as f64
                    };
                    let angle = a1 - t * (a1 - a0);
                    let row = (r + 1).to_string();
                    seats.push(SeatSpec {
                        category: category.to_string(),
                        level: None,
                        label: format!("{section}-{row}-{}", n + 1),
                        section: section.clone(),
                        row,
                        number: n as i64 + 1,
                        x: round1(cx + radius * angle.cos()),
                        y: round1(cy + radius * angle.sin()),
                    });
                }
            }
        }
    }
    seats.truncate(ARENA_SEATS);
    debug_assert_eq!(seats.len(), ARENA_SEATS);
    EventSpec {
        slug: ARENA_SLUG,
        name: "Northern Lights Live — Arena Tour",
        kind: "concert",
        venue: "Harbour Arena",
        starts_at: "2027-03-14T19:30:00Z",
        time_zone: "Europe/Oslo",
        currency: "EUR",
        categories: vec![
            ("A", "Category A", 12000, "#b42318"),
            ("B", "Category B", 8500, "#1d4ed8"),
            ("C", "Category C", 5500, "#047857"),
            ("D", "Category D", 3500, "#7c3aed"),
            ("FLOOR", "Standing floor", 6500, "#a16207"),
        ],
        seats,
        ga: vec![("Standing floor", "FLOOR", 2000)],
    }
}

/// The opera house: stalls in straight rows A–M facing the stage (the first
/// three rows the dearest), a balcony of six rows behind them.
fn hanoi() -> EventSpec {
    let mut seats = Vec::new();
    // Blocks numbered as the house numbers them: 1 the stalls, 2 the
    // balcony (a number reads the same in both languages).
    let parts = [("1", 13usize, 28usize, 200.0), ("2", 6, 32, 560.0)];
    for (section, rows, per_row, top) in parts {
        for r in 0..rows {
            let row = ((b'A' + r as u8) as char).to_string();
            let category = match (section, r) {
                ("1", r) if r < 3 => "VIP",
                ("1", _) => "STALLS",
                _ => "BALCONY",
            };
            for n in 0..per_row {
                let x = 1000.0 + (n as f64 - (per_row - 1) as f64 / 2.0) * 22.0;
                seats.push(SeatSpec {
                    category: category.to_string(),
                    level: None,
                    label: format!("{section}-{row}-{}", n + 1),
                    section: section.to_string(),
                    row: row.clone(),
                    number: n as i64 + 1,
                    x: round1(x),
                    y: top + r as f64 * 24.0,
                });
            }
        }
    }
    EventSpec {
        slug: HANOI_SLUG,
        name: "Đêm nhạc Hà Nội — Hanoi Jazz Night",
        kind: "concert",
        venue: "Nhà hát Lớn Hà Nội (Hanoi Opera House)",
        starts_at: "2027-09-18T13:00:00Z",
        time_zone: "Asia/Ho_Chi_Minh",
        currency: "VND",
        categories: vec![
            ("VIP", "Hạng VIP", 2_500_000, "#b42318"),
            ("STALLS", "Hạng A", 1_500_000, "#1d4ed8"),
            ("BALCONY", "Ban công", 850_000, "#047857"),
        ],
        seats,
        ga: vec![],
    }
}

fn round1(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_arena_has_exactly_ten_thousand_distinct_seats() {
        let a = arena();
        assert_eq!(a.seats.len(), ARENA_SEATS);
        let labels: std::collections::HashSet<_> = a.seats.iter().map(|s| &s.label).collect();
        assert_eq!(labels.len(), ARENA_SEATS);
    }

    #[test]
    fn seats_do_not_overlap_on_the_map() {
        for spec in [arena(), hanoi()] {
            let mut points: Vec<_> = spec.seats.iter().map(|s| (s.x, s.y)).collect();
            points.sort_by(|a, b| a.partial_cmp(b).unwrap());
            points.dedup();
            assert_eq!(points.len(), spec.seats.len(), "{}", spec.slug);
        }
    }
}
