//! `holdfast-bench best [DATABASE_URL]`: "find me the best N seats" as an
//! on-sale asks for it. A thousand buyers (each its own session) send
//! `POST /best-available` for 2–4 seats at the same moment, first over one
//! category of a few hundred seats (most are told NO_BLOCK or SOLD_OUT,
//! many after losing races), then over the whole arena (each gets a
//! block); then a thousand more over 32 connections. Beside each, a thousand `/healthz`
//! at the same concurrency: what the machine answers when nothing is done.

use std::sync::Arc;

use crate::throughput::{client, spread, start_with, Run};

const BUYERS: usize = 1_000;

pub async fn main(url: Option<String>) -> bool {
    let (base, _state) = start_with(url, |c| c.max_places_per_buyer = 8).await;
    let rounds: [(&str, serde_json::Value, usize); 3] = [
        (
            "category A only, 1,000 at once",
            serde_json::json!({ "categories": ["A"] }),
            BUYERS,
        ),
        ("whole arena, 1,000 at once", serde_json::json!({}), BUYERS),
        ("whole arena, 32 connections", serde_json::json!({}), 32),
    ];
    for (name, filter, concurrency) in rounds {
        let buyers = Arc::new(sessions(&base, BUYERS).await);
        let limit = healthz(&base, concurrency).await;
        let run = ask(&base, buyers, filter, concurrency).await;
        run.print(&format!("best-available, {name}"));
        limit.print(&format!("  /healthz, {concurrency} at once (the limit)"));
    }
    true
}

/// `n` buyers, each with its session open.
async fn sessions(base: &str, n: usize) -> Vec<reqwest::Client> {
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let c = client();
        let _ = c.get(format!("{base}/api/bookings")).send().await;
        out.push(c);
    }
    out
}

/// Every buyer asks once for 2, 3 or 4 seats; served = held.
async fn ask(
    base: &str,
    buyers: Arc<Vec<reqwest::Client>>,
    filter: serde_json::Value,
    concurrency: usize,
) -> Run {
    let base = base.to_string();
    spread(buyers.len(), concurrency, move |i| {
        let (buyers, base, mut body) = (buyers.clone(), base.clone(), filter.clone());
        async move {
            body["quantity"] = serde_json::json!(2 + i % 3);
            buyers[i]
                .post(format!("{base}/api/events/1/best-available"))
                .header("Idempotency-Key", uuid::Uuid::new_v4().to_string())
                .json(&body)
                .send()
                .await
                .is_ok_and(|r| r.status() == 200)
        }
    })
    .await
}

async fn healthz(base: &str, concurrency: usize) -> Run {
    let c = client();
    let url = format!("{base}/healthz");
    spread(BUYERS, concurrency, move |_| {
        let (c, url) = (c.clone(), url.clone());
        async move { c.get(&url).send().await.is_ok_and(|r| r.status() == 200) }
    })
    .await
}
