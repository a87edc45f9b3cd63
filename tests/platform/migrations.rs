//! The two migration folders describe one schema: after all migrations, the
//! SQLite and the Postgres database have the same tables, the same columns
//! (and which may be null), the same explicitly created indexes, and the
//! same quoted values in their CHECKs and defaults (the status sets). And a
//! SQLite database with bookings in it keeps them, and every reference
//! between them, through the table rebuild of migration 6.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use sqlx::migrate::Migrator;
use sqlx::{AnyPool, Row};

#[derive(Debug, Default, PartialEq)]
struct Table {
    /// column → may be null
    columns: BTreeMap<String, bool>,
    indexes: BTreeSet<String>,
    /// Every quoted value in the table's CHECKs and defaults.
    literals: BTreeSet<String>,
}

type Shape = BTreeMap<String, Table>;

fn quoted(sql: &str) -> BTreeSet<String> {
    let without_comments: String = sql
        .lines()
        .map(|l| l.split("--").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    without_comments
        .split('\'')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

async fn pool(url: &str) -> AnyPool {
    sqlx::any::install_default_drivers();
    sqlx::any::AnyPoolOptions::new()
        .max_connections(1)
        .connect(url)
        .await
        .expect("connect")
}

/// The names a query lists for one table (`$1`).
async fn names_for(db: &AnyPool, sql: &str, table: &str) -> BTreeSet<String> {
    let rows: Vec<(String,)> = sqlx::query_as(sql).bind(table).fetch_all(db).await.unwrap();
    rows.into_iter().map(|r| r.0).collect()
}

async fn sqlite_shape(db: &AnyPool) -> Shape {
    let tables: Vec<(String, String)> = sqlx::query_as(
        "select name, sql from sqlite_schema where type = 'table'
         and name not like 'sqlite_%' and name <> '_sqlx_migrations'",
    )
    .fetch_all(db)
    .await
    .unwrap();
    let mut shape = Shape::new();
    for (name, sql) in tables {
        let mut t = Table {
            literals: quoted(&sql),
            ..Table::default()
        };
        let columns = sqlx::query("select name, \"notnull\", pk from pragma_table_info($1)")
            .bind(&name)
            .fetch_all(db)
            .await
            .unwrap();
        for c in columns {
            let not_null: i64 = c.get(1);
            let pk: i64 = c.get(2);
            t.columns.insert(c.get(0), not_null == 0 && pk == 0);
        }
        t.indexes = names_for(db, "select name from sqlite_schema where type = 'index' and tbl_name = $1 and sql is not null", &name).await;
        shape.insert(name, t);
    }
    shape
}

async fn postgres_shape(db: &AnyPool) -> Shape {
    let tables: Vec<(String,)> = sqlx::query_as(
        "select table_name::text from information_schema.tables
         where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> '_sqlx_migrations'",
    )
    .fetch_all(db)
    .await
    .unwrap();
    let mut shape = Shape::new();
    for (name,) in tables {
        let mut t = Table::default();
        let columns: Vec<(String, String, Option<String>)> = sqlx::query_as(
            "select column_name::text, is_nullable::text, column_default::text
             from information_schema.columns where table_schema = 'public' and table_name = $1",
        )
        .bind(&name)
        .fetch_all(db)
        .await
        .unwrap();
        for (column, nullable, default) in columns {
            t.columns.insert(column, nullable == "YES");
            t.literals.extend(quoted(&default.unwrap_or_default()));
        }
        let checks: Vec<(String,)> = sqlx::query_as(
            "select pg_get_constraintdef(c.oid) from pg_constraint c join pg_class t on t.oid = c.conrelid
             where t.relname = $1 and c.contype = 'c'",
        )
        .bind(&name)
        .fetch_all(db)
        .await
        .unwrap();
        for (check,) in checks {
            t.literals.extend(quoted(&check));
        }
        t.indexes = names_for(db, "select i.relname::text from pg_index x join pg_class i on i.oid = x.indexrelid
             join pg_class t on t.oid = x.indrelid
             where t.relname = $1 and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)", &name).await;
        shape.insert(name, t);
    }
    shape
}

#[tokio::test]
async fn sqlite_and_postgres_migrations_define_the_same_schema() {
    if !common::wants_postgres() {
        return;
    }
    let (sqlite_url, _tmp) = common::fresh_database(common::Backend::Sqlite).await;
    let (pg_url, _) = common::fresh_database(common::Backend::Postgres).await;
    let sqlite = holdfast_core::platform::db::Db::connect(&sqlite_url, 2)
        .await
        .unwrap();
    sqlite.migrate().await.unwrap();
    let pg = holdfast_core::platform::db::Db::connect(&pg_url, 2)
        .await
        .unwrap();
    pg.migrate().await.unwrap();
    let lite = sqlite_shape(sqlite.reader()).await;
    let post = postgres_shape(pg.reader()).await;
    assert!(lite.len() >= 20, "{:?}", lite.keys());
    assert_eq!(
        lite.keys().collect::<Vec<_>>(),
        post.keys().collect::<Vec<_>>(),
        "the same tables"
    );
    for (name, table) in &lite {
        assert_eq!(
            table, &post[name],
            "table {name}: SQLite (left) and Postgres (right)"
        );
    }
}

/// Migration 6 rebuilds `booking` and the three tables referring to it on
/// SQLite: bookings, seats, payments and promos stay, and so do the
/// references (the foreign keys still name `booking`, and hold).
#[tokio::test]
async fn the_sqlite_table_rebuild_keeps_bookings_and_their_references() {
    let dir = tempdir::TempDir::new("holdfast-migrate").unwrap();
    let url = format!("sqlite://{}/m.db?mode=rwc", dir.path().display());
    let db = pool(&url).await;
    sqlx::query("pragma foreign_keys = on")
        .execute(&db)
        .await
        .unwrap();
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations/sqlite");
    let all = Migrator::new(folder.as_path()).await.unwrap();
    let mut before = Migrator::new(folder.as_path()).await.unwrap();
    before.migrations = all
        .migrations
        .iter()
        .filter(|m| m.version < 6)
        .cloned()
        .collect::<Vec<_>>()
        .into();
    before.run(&db).await.unwrap();
    for sql in [
        "insert into event (id, slug, name, kind, venue, starts_at, currency, created_at) values (1, 'e', 'E', 'concert', 'V', 0, 'EUR', 0)",
        "insert into price_category (id, event_id, code, name, price_cents, color) values (1, 1, 'A', 'A', 100, '#000')",
        "insert into seat (id, event_id, category_id, section, row_label, number, label, x, y) values (1, 1, 1, 'A', '1', 1, 'A-1-1', 0, 0)",
        "insert into booking (id, event_id, buyer_id, status, held_until, amount_cents, currency, created_at, updated_at) values ('b1', 1, 'u', 'BOOKED', 0, 100, 'EUR', 0, 0)",
        "insert into booking_seat (booking_id, seat_id, event_id, price_cents, live) values ('b1', 1, 1, 100, 1)",
        "insert into payment (booking_id, provider, status, amount_cents, currency, created_at, updated_at) values ('b1', 'sandbox', 'paid', 100, 'EUR', 0, 0)",
        "insert into promo_campaign (id, name, kind, created_at) values (1, 'P', 'single', 0)",
        "insert into booking_promo (booking_id, code, campaign_id, discount_cents, created_at) values ('b1', 'C', 1, 0, 0)",
    ] {
        sqlx::query(sql).execute(&db).await.expect(sql);
    }
    all.run(&db).await.unwrap();
    for (table, n) in [
        ("booking", 1),
        ("booking_seat", 1),
        ("payment", 1),
        ("booking_promo", 1),
    ] {
        let (count,): (i64,) = sqlx::query_as(&format!("select count(*) from {table}"))
            .fetch_one(&db)
            .await
            .unwrap();
        assert_eq!(count, n, "{table}");
    }
    let broken = sqlx::query("pragma foreign_key_check")
        .fetch_all(&db)
        .await
        .unwrap();
    assert!(broken.is_empty(), "{} broken references", broken.len());
    let children: Vec<(String,)> = sqlx::query_as(
        "select name from sqlite_schema where type = 'table'
         and (sql like '%references booking (id)%' or sql like '%references \"booking\"%')",
    )
    .fetch_all(&db)
    .await
    .unwrap();
    let mut names: Vec<String> = children.into_iter().map(|r| r.0).collect();
    names.sort();
    for rebuilt in ["booking_promo", "booking_seat", "payment"] {
        assert!(
            names.iter().any(|n| n == rebuilt),
            "{rebuilt} refers to booking: {names:?}"
        );
    }
    // The new states are allowed, the CHECKs hold, the live index is back.
    sqlx::query("update booking set status = 'DISPUTED' where id = 'b1'")
        .execute(&db)
        .await
        .unwrap();
    assert!(sqlx::query("update payment set status = 'PAID'")
        .execute(&db)
        .await
        .is_err());
    sqlx::query("insert into booking (id, event_id, buyer_id, status, held_until, amount_cents, currency, created_at, updated_at) values ('b2', 1, 'u', 'HELD', 0, 100, 'EUR', 0, 0)")
        .execute(&db)
        .await
        .unwrap();
    let twice = sqlx::query("insert into booking_seat (booking_id, seat_id, event_id, price_cents, live) values ('b2', 1, 1, 100, 1)")
        .execute(&db)
        .await;
    assert!(twice.is_err(), "one live booking per seat");
    assert!(
        sqlx::query("delete from booking where id = 'b1'")
            .execute(&db)
            .await
            .is_err(),
        "a booking with seats cannot vanish"
    );
}

/// What the tables store reads back typed, on both backends: an amount and
/// its code as `Money` (Stripe's lower-case codes too), a status as the
/// machine's state. A code Holdfast does not sell in, or a name the machine
/// does not know, is refused as a corrupt row, never read as something else.
#[tokio::test]
async fn stored_money_and_states_read_back_typed_or_not_at_all() {
    use holdfast_model::money::{Currency, Money};
    use holdfast_model::{BookingStatus, PaymentStatus};
    let mut backends = vec![common::Backend::Sqlite];
    if common::wants_postgres() {
        backends.push(common::Backend::Postgres);
    }
    for backend in backends {
        let (url, _tmp) = common::fresh_database(backend).await;
        let db = holdfast_core::platform::db::Db::connect(&url, 2)
            .await
            .unwrap();
        let db = db.reader();
        let eur = Currency::of("EUR").unwrap();
        let read: Money =
            sqlx::query_as("select cast(4500 as bigint) as amount_cents, 'eur' as currency")
                .fetch_one(db)
                .await
                .unwrap();
        assert_eq!(read, Money::new(4500, eur), "{backend:?}");
        let bound: (Currency,) = sqlx::query_as("select $1 as currency")
            .bind(eur)
            .fetch_one(db)
            .await
            .unwrap();
        assert_eq!(bound.0, eur, "a currency is stored as its code");
        let unknown = sqlx::query_as::<_, Money>(
            "select cast(1 as bigint) as amount_cents, 'XYZ' as currency",
        )
        .fetch_one(db)
        .await;
        assert!(unknown.is_err(), "{backend:?}: XYZ read as {unknown:?}");
        let (held, paid): (BookingStatus, PaymentStatus) = sqlx::query_as("select 'HELD', 'paid'")
            .fetch_one(db)
            .await
            .unwrap();
        assert_eq!((held, paid), (BookingStatus::Held, PaymentStatus::Paid));
        let lower = sqlx::query_as::<_, (BookingStatus,)>("select 'held'")
            .fetch_one(db)
            .await;
        assert!(lower.is_err(), "{backend:?}: 'held' read as {lower:?}");
    }
}
