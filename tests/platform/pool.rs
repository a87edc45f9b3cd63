//! The database pool: what a connection leaves behind when it comes back.

use crate::common::{self, Backend};
use holdfast_core::platform::db::Db;
use std::time::Duration;

for_each_backend!(a_transaction_dropped_half_way_lets_go_of_its_locks);

/// A transaction dropped without commit or rollback (a request cancelled
/// half way) holds its row locks until its ROLLBACK reaches the database.
/// The pool sends it as the connection comes back, not at the connection's
/// next use, which may come much later. The dropping side has a pool of
/// its own, which nothing else uses: no one else's statement can flush the
/// ROLLBACK for it.
async fn a_transaction_dropped_half_way_lets_go_of_its_locks(backend: Backend) {
    if matches!(backend, Backend::Postgres) && !common::wants_postgres() {
        return;
    }
    let app = common::spawn_app(backend).await;
    let event = app.scalar("select min(id) from event").await;
    let touch = "update event set name = name where id = $1";

    let dropping = Db::connect(&app.database_url, 1).await.expect("pool");
    let mut tx = dropping.begin().await.expect("begin");
    let locked = sqlx::query(touch)
        .bind(event)
        .execute(&mut *tx)
        .await
        .expect("lock the row");
    assert_eq!(locked.rows_affected(), 1);
    drop(tx);

    let other = Db::connect(&app.database_url, 1).await.expect("pool");
    let waited = tokio::time::timeout(Duration::from_secs(20), async {
        let mut tx = other.begin().await.expect("begin");
        if matches!(backend, Backend::Postgres) {
            sqlx::query("set local lock_timeout = '5s'")
                .execute(&mut *tx)
                .await
                .expect("lock timeout");
        }
        let r = sqlx::query(touch).bind(event).execute(&mut *tx).await;
        tx.commit().await.expect("commit");
        r
    })
    .await
    .expect("the other writer is not kept waiting");
    assert!(
        waited.is_ok(),
        "the dropped transaction still held the row: {waited:?}"
    );
}
