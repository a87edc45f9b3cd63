//! Cross-site requests change nothing (CSRF), whatever cookie they carry;
//! same-site browsers and non-browser clients work; every answer carries
//! the security headers.

use crate::common;

use common::{new_key, Buyer, TestApp};
use reqwest::header::HeaderMap;
use serde_json::json;

/// A browser tab on another site, sharing the buyer's cookies.
fn from_elsewhere(buyer: &Buyer, origin: &str, site: &str) -> reqwest::RequestBuilder {
    buyer
        .http
        .post(format!("{}/api/events/1/seats/200/hold", buyer.base))
        .header("Idempotency-Key", new_key())
        .header("Origin", origin)
        .header("Sec-Fetch-Site", site)
}

on_both_backends!(
    cross_site_writes_are_refused_and_change_nothing,
    |app: TestApp| async move {
        let buyer = app.buyer();
        buyer.open_session().await;
        for (origin, site) in [
            ("https://evil.example", "cross-site"),
            ("https://shop.example.com", "same-site"),
            ("https://evil.example", "none-given"),
        ] {
            let r = from_elsewhere(&buyer, origin, site).send().await.unwrap();
            assert_eq!(r.status(), 403, "{origin} {site}");
            let body: serde_json::Value = r.json().await.unwrap();
            assert_eq!(body["error"]["code"], "FORBIDDEN");
        }
        // A cross-site form post to the console's sign-in, and to an admin action.
        let form = buyer
            .http
            .post(format!("{}/api/admin/login", app.base))
            .header("Origin", "https://evil.example")
            .header("Sec-Fetch-Site", "cross-site")
            .json(&json!({ "password": holdfast::server::config::TEST_ADMIN_PASSWORD }))
            .send()
            .await
            .unwrap();
        assert_eq!(form.status(), 403);
        assert_eq!(app.scalar("select count(*) from booking").await, 0);

        // The same request from this site's own page works…
        let own = buyer
            .http
            .post(format!("{}/api/events/1/seats/200/hold", app.base))
            .header("Idempotency-Key", new_key())
            .header("Origin", app.base.clone())
            .header("Sec-Fetch-Site", "same-origin")
            .send()
            .await
            .unwrap();
        assert_eq!(own.status(), 200);
        // …and so does an integrator's client, which sends no Origin.
        assert_eq!(app.buyer().hold(1, 201).await.status, 200);
        assert_eq!(app.scalar("select count(*) from booking").await, 2);
    }
);

on_both_backends!(
    answers_carry_the_security_headers,
    |app: TestApp| async move {
        for path in ["/", "/api/events", "/events/1", "/api/nothing-here"] {
            let r = reqwest::get(format!("{}{path}", app.base)).await.unwrap();
            let h: &HeaderMap = r.headers();
            let csp = h["content-security-policy"].to_str().unwrap();
            assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
            assert!(csp.contains("'wasm-unsafe-eval'"), "{path}: {csp}");
            assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
            assert_eq!(h["referrer-policy"], "strict-origin-when-cross-origin");
            assert_eq!(h["x-frame-options"], "DENY");
        }
    }
);
