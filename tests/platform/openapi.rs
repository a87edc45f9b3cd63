//! `GET /api/openapi.json` stays in step with the router: every route the
//! router registers under `/api` is documented with its methods, nothing
//! is documented that the router lacks, and every documented operation is
//! answered by a real handler (not the catch-all "no such endpoint").

use crate::common;

use std::collections::BTreeSet;

use serde_json::Value;

/// (METHOD, path with `{}` for each parameter) from the router's source.
fn registered_routes() -> BTreeSet<(String, String)> {
    let source = std::fs::read_to_string("src/server/api/mod.rs").expect("router source");
    let mut routes = BTreeSet::new();
    for chunk in source.split(".route(").skip(1) {
        let Some(path) = chunk
            .trim_start()
            .strip_prefix('"')
            .and_then(|r| r.split('"').next())
        else {
            continue;
        };
        if !path.starts_with("/api/") || path.contains('*') {
            continue;
        }
        // The handler expression runs to the end of this `.route(…)`.
        let handlers = chunk.split("\n        .").next().unwrap_or(chunk);
        for method in ["get", "post", "put", "delete", "patch"] {
            let called = handlers.contains(&format!(" {method}("))
                || handlers.contains(&format!("({method}("))
                || handlers.contains(&format!(".{method}("))
                || handlers.contains(&format!("\n            {method}("));
            if called {
                routes.insert((method.to_uppercase(), normalise(path)));
            }
        }
    }
    routes
}

fn normalise(path: &str) -> String {
    let mut out = String::new();
    let mut in_param = false;
    for c in path.chars() {
        match c {
            '{' => {
                in_param = true;
                out.push_str("{}");
            }
            '}' => in_param = false,
            _ if in_param => {}
            _ => out.push(c),
        }
    }
    out
}

fn documented(doc: &Value) -> BTreeSet<(String, String)> {
    let mut ops = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in item.as_object().expect("path item").keys() {
            ops.insert((method.to_uppercase(), normalise(path)));
        }
    }
    ops
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_document_matches_the_router() {
    let app = common::spawn_app(common::Backend::Sqlite).await;
    let answer = app.buyer().get("/api/openapi.json").await;
    assert_eq!(answer.status, 200);
    let doc = answer.json();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));

    let routes = registered_routes();
    assert!(routes.len() > 20, "the router source was read: {routes:?}");
    let ops = documented(&doc);
    let undocumented: Vec<_> = routes.difference(&ops).collect();
    let phantom: Vec<_> = ops.difference(&routes).collect();
    assert!(
        undocumented.is_empty(),
        "routes missing from the document: {undocumented:?}"
    );
    assert!(phantom.is_empty(), "documented but not routed: {phantom:?}");

    // Every documented schema reference resolves.
    let text = doc.to_string();
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    for part in text.split("#/components/schemas/").skip(1) {
        let name = part.split('"').next().unwrap();
        assert!(schemas.contains_key(name), "unresolved schema {name}");
    }

    // Each operation reaches its handler: never the catch-all.
    let http = reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(5))
        .build()
        .unwrap();
    for (method, path) in &ops {
        let concrete = path
            .replacen("{}", "1", 1)
            .replace(
                "/bookings/{}",
                "/bookings/00000000-0000-4000-8000-000000000000",
            )
            .replace("{}", "1");
        let url = format!("{}{concrete}", app.base);
        let request = match method.as_str() {
            "GET" => http.get(&url),
            "POST" => http.post(&url),
            "DELETE" => http.delete(&url),
            "PUT" => http.put(&url),
            other => panic!("unexpected method {other}"),
        };
        let response = request.send().await.expect("answer");
        let status = response.status().as_u16();
        assert_ne!(status, 405, "{method} {concrete}");
        if status == 404 {
            let body: Value = response.json().await.unwrap_or(Value::Null);
            assert_ne!(
                body["error"]["message"], "endpoint not found",
                "{method} {concrete} fell through to the catch-all"
            );
        }
    }
}

// The links that let clients (and the fuzzer's stateful phase) go from a
// hold to its booking point at documented operations.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn links_lead_from_a_hold_to_its_booking() {
    let app = common::spawn_app(common::Backend::Sqlite).await;
    let doc = app.buyer().get("/api/openapi.json").await.json();
    let links = &doc["paths"]["/api/events/{eventId}/holds"]["post"]["responses"]["200"]["links"];
    let links = links.as_object().expect("the hold answer has links");
    assert!(links.contains_key("PayBooking"), "{links:?}");
    for link in links.values() {
        let target = link["operationRef"].as_str().unwrap();
        let pointer = target.trim_start_matches('#');
        assert!(doc.pointer(pointer).is_some(), "{target} resolves");
        assert_eq!(link["parameters"]["bookingId"], "$response.body#/bookingId");
    }
}
