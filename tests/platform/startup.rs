//! An instance starting in a process that already serves pages (the tests,
//! the bench) must not stall them. Leptos suppresses every resource whose
//! future is first polled while any thread of the process generates a route
//! list, and such a resource never loads (leptos-rs/leptos#4773): a page
//! rendered meanwhile would never finish.

use crate::common;

use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn pages_finish_while_other_instances_start() {
    let serving = common::spawn_app(common::Backend::Sqlite).await;
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(15))
        .build()
        .expect("client");
    let (done, starting_done) = tokio::sync::watch::channel(false);
    let starting = tokio::spawn(async move {
        let mut others = Vec::new();
        for _ in 0..10 {
            others.push(common::spawn_app(common::Backend::Sqlite).await);
        }
        let _ = done.send(true);
        others.len()
    });
    let mut pages = 0;
    while !*starting_done.borrow() {
        let readers = (0..4).map(|_| {
            let client = client.clone();
            let url = format!("{}/", serving.base);
            async move {
                let page = client.get(url).send().await?;
                page.text().await
            }
        });
        for page in futures::future::join_all(readers).await {
            let page = page.expect("the page finished within 15 s");
            assert!(
                page.contains("Northern Lights Live"),
                "the event list loaded: {page}"
            );
            pages += 1;
        }
    }
    assert_eq!(starting.await.expect("instances started"), 10);
    assert!(pages > 0);
}
