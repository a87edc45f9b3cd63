//! The waiting room under a crowd, over HTTP: arrivals joining (each a new
//! client, so a new session and a new place: two writes), the same joins
//! through the use case alone, buyers refreshing their place (the signed
//! place and the room's in-memory picture: the only database read is the
//! session), and the gate turning away seat-map requests without an
//! admission (no database at all).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use holdfast_core::admin::auth::Admin;
use holdfast_core::waiting_room::join::join;
use holdfast_core::waiting_room::setup;
use holdfast_core::AppState;
use holdfast_model::{BuyerId, EventId};

use super::throughput::{loop_gets, spread};

const ARRIVALS: usize = 10_000;
const CONNS: usize = 64;

pub async fn run(base: &str, state: &AppState, event: i64) {
    let event = EventId(event);
    let admin = Admin::bootstrap("bench", None);
    // A slow room: everybody keeps waiting, as in an on-sale's first minute.
    setup::configure(state, &admin, event, true, 1)
        .await
        .expect("room on");

    let url = format!("{base}/api/events/{event}/queue");
    // The last buyers to arrive go on to refresh their place.
    let waiting: Arc<Mutex<Vec<reqwest::Client>>> = Arc::default();
    let joins = {
        let (url, waiting) = (url.clone(), waiting.clone());
        spread(ARRIVALS, CONNS, move |i| {
            let (url, waiting) = (url.clone(), waiting.clone());
            async move {
                let client = reqwest::Client::builder()
                    .cookie_store(true)
                    .build()
                    .expect("client");
                let served = match client.post(&url).send().await {
                    Ok(r) => r.status().is_success() && r.bytes().await.is_ok(),
                    Err(_) => false,
                };
                if i >= ARRIVALS - CONNS {
                    waiting.lock().expect("clients").push(client);
                }
                served
            }
        })
        .await
    };
    joins.print(&format!(
        "queue joins, {ARRIVALS} new buyers, {CONNS} conns"
    ));

    // The same joins without HTTP or sessions: what the batched writer of
    // places allows by itself.
    let bare = {
        let state = state.clone();
        spread(ARRIVALS, CONNS, move |i| {
            let state = state.clone();
            async move {
                join(&state, &BuyerId(format!("bench-buyer-{i}")), event)
                    .await
                    .is_ok()
            }
        })
        .await
    };
    bare.print(&format!("queue joins, use case (no HTTP), {CONNS} tasks"));

    let dur = Duration::from_secs(5);
    let clients = std::mem::take(&mut *waiting.lock().expect("clients"));
    let r = loop_gets(clients, &url, None, dur, &[200]).await;
    r.print("queue status (signed place), 64 conns");
    let strangers = (0..CONNS).map(|_| reqwest::Client::new()).collect();
    let seats = format!("{base}/api/events/{event}/seats");
    let r = loop_gets(strangers, &seats, None, dur, &[403]).await;
    r.print("seat map refused at the gate (403), 64 conns");

    let (places, admitted): (i64, i64) =
        sqlx::query_as("select issued, admitted_through from waiting_room where event_id = $1")
            .bind(event)
            .fetch_one(state.db.reader())
            .await
            .expect("room");
    println!(
        "queue: {places} places handed out for {} arrivals, {admitted} admitted",
        2 * ARRIVALS
    );
    setup::configure(state, &admin, event, false, 1)
        .await
        .expect("room off");
}
