//! The second factor of the roles that move money: set at the first
//! sign-in (a password and an authenticator's code read back), then asked
//! after every mailed link; a code works once, a recovery code once, wrong
//! ones are throttled like passwords, and a role that comes to move money
//! asks for it from the next request.

use crate::common::{self, Buyer, TestApp};

use holdfast_core::admin::two_factor::code_at;
use reqwest::StatusCode;
use serde_json::json;

const PASSWORD: &str = "correct horse battery";

fn browser(app: &TestApp) -> Buyer {
    common::browser_without_redirects(&app.base)
}

async fn post_form(browser: &Buyer, path: &str, form: &[(&str, &str)]) -> common::Answer {
    let r = browser
        .http
        .post(format!("{}{path}", browser.base))
        .header("origin", browser.base.clone())
        .form(form)
        .send()
        .await
        .expect("form");
    common::Answer {
        status: r.status(),
        text: r.text().await.expect("body"),
    }
}

async fn is_admin(browser: &Buyer) -> bool {
    browser.is_admin().await
}

/// The newest link of `kind` (`join`, `sign-in`) mailed to `email`.
async fn link(app: &TestApp, email: &str, kind: &str) -> String {
    app.dispatch_outbox().await;
    let mail = app
        .admin()
        .get(&format!("/api/admin/mailbox?recipient={email}"))
        .await
        .json();
    let body = mail[0]["body"].as_str().expect("a mail").to_string();
    let prefix = format!("/admin/{kind}/");
    let at = body.find(&prefix).expect("the link");
    body[at..].split_whitespace().next().unwrap().to_string()
}

/// A person invited with `role` who opened their invitation in `browser`.
async fn joined(app: &TestApp, email: &str, role: &str) -> Buyer {
    let invited = app
        .admin()
        .post(
            "/api/admin/team/invitations",
            None,
            Some(json!({ "email": email, "role": role })),
        )
        .await;
    assert_eq!(invited.status, 201, "{}", invited.text);
    let b = browser(app);
    let joined = post_form(&b, &link(app, email, "join").await, &[]).await;
    assert_eq!(joined.status, StatusCode::SEE_OTHER);
    b
}

/// A browser signed in with a mailed link (its second factor still owed).
async fn linked(app: &TestApp, email: &str) -> Buyer {
    let b = browser(app);
    let asked = post_form(&b, "/admin/sign-in", &[("email", email)]).await;
    assert_eq!(asked.status, 200);
    let opened = post_form(&b, &link(app, email, "sign-in").await, &[]).await;
    assert_eq!(opened.status, StatusCode::SEE_OTHER);
    b
}

/// Sets the second factor on the enrolment page: the secret and the
/// recovery codes.
async fn enrol(app: &TestApp, b: &Buyer) -> (String, Vec<String>) {
    let page = b.get("/admin/two-factor").await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(page.text.contains("<svg"), "a QR code to scan");
    let secret = between(&page.text, "data-testid=\"totp-secret\">", "<");
    let code = code_at(&secret, app.state.clock.now()).unwrap();
    let done = post_form(
        b,
        "/admin/two-factor/enrol",
        &[("password", PASSWORD), ("code", &code)],
    )
    .await;
    assert_eq!(done.status, 200, "{}", done.text);
    let list = between(&done.text, "data-testid=\"recovery-codes\">", "</ol>");
    let codes: Vec<String> = list
        .split("<code>")
        .skip(1)
        .map(|c| c.split('<').next().unwrap().to_string())
        .collect();
    assert_eq!(codes.len(), 10);
    (secret, codes)
}

fn between(text: &str, from: &str, to: &str) -> String {
    let start = text
        .find(from)
        .unwrap_or_else(|| panic!("{from} in {text}"))
        + from.len();
    text[start..].split(to).next().unwrap().to_string()
}

crate::on_both_backends!(
    a_manager_sets_the_second_factor_then_gives_it_after_each_link,
    |app: TestApp| async move {
        let manager = joined(&app, "mona@example.com", "manager").await;
        // Joined, but not an admin until the second step.
        assert!(!is_admin(&manager).await);
        assert_eq!(manager.get("/api/admin/events").await.status, 401);
        let landed = manager.get("/admin").await;
        assert_eq!(landed.status, StatusCode::SEE_OTHER);
        let to = manager
            .http
            .get(format!("{}/admin/events/1", manager.base))
            .send()
            .await
            .unwrap();
        assert_eq!(to.headers()["location"], "/admin/two-factor");

        // Refused: a short password, a wrong code; nothing is set.
        let page = manager.get("/admin/two-factor").await;
        let secret = between(&page.text, "data-testid=\"totp-secret\">", "<");
        let code = code_at(&secret, app.state.clock.now()).unwrap();
        let short = post_form(
            &manager,
            "/admin/two-factor/enrol",
            &[("password", "short"), ("code", &code)],
        )
        .await;
        assert_eq!(short.status, 422, "{}", short.text);
        let wrong_code = if code == "000000" { "000001" } else { "000000" };
        let wrong = post_form(
            &manager,
            "/admin/two-factor/enrol",
            &[("password", PASSWORD), ("code", wrong_code)],
        )
        .await;
        assert_eq!(wrong.status, 403, "{}", wrong.text);
        assert!(!is_admin(&manager).await);
        // The same secret is offered again until it is read back.
        let again = manager.get("/admin/two-factor").await;
        assert_eq!(
            between(&again.text, "data-testid=\"totp-secret\">", "<"),
            secret
        );
        let team = app.admin().get("/api/admin/team").await.json();
        assert_eq!(team["members"][0]["twoStepSet"], false);
        let (secret, recovery) = enrol(&app, &manager).await;
        assert!(is_admin(&manager).await);
        let team = app.admin().get("/api/admin/team").await.json();
        assert_eq!(team["members"][0]["twoStepSet"], true);
        let refund = manager
            .post(
                "/api/admin/bookings/00000000-0000-0000-0000-000000000000/refund",
                None,
                None,
            )
            .await;
        assert_eq!(refund.status, 404, "a manager may refund: {}", refund.text);

        // Signed in again by link: the password and a code.
        let later = linked(&app, "mona@example.com").await;
        assert!(!is_admin(&later).await);
        let page = later.get("/admin/two-factor").await;
        assert!(!page.text.contains("totp-secret"), "no new secret once set");
        let used = code_at(&secret, app.state.clock.now()).unwrap();
        let replayed = post_form(
            &later,
            "/admin/two-factor",
            &[("password", PASSWORD), ("code", &used)],
        )
        .await;
        assert_eq!(replayed.status, 403, "a code is taken once");
        app.clock.advance_ms(30_000);
        let fresh = code_at(&secret, app.state.clock.now()).unwrap();
        let bad_password = post_form(
            &later,
            "/admin/two-factor",
            &[("password", "not the password"), ("code", &fresh)],
        )
        .await;
        assert_eq!(bad_password.status, 403);
        let given = post_form(
            &later,
            "/admin/two-factor",
            &[("password", PASSWORD), ("code", &fresh)],
        )
        .await;
        assert_eq!(given.status, StatusCode::SEE_OTHER, "{}", given.text);
        assert!(is_admin(&later).await);

        // A recovery code, once.
        let lost_phone = linked(&app, "mona@example.com").await;
        let rescued = post_form(
            &lost_phone,
            "/admin/two-factor",
            &[("password", PASSWORD), ("code", &recovery[3])],
        )
        .await;
        assert_eq!(rescued.status, StatusCode::SEE_OTHER);
        let reused = linked(&app, "mona@example.com").await;
        let twice = post_form(
            &reused,
            "/admin/two-factor",
            &[("password", PASSWORD), ("code", &recovery[3])],
        )
        .await;
        assert_eq!(twice.status, 403, "{}", twice.text);
        assert!(!is_admin(&reused).await);
        // Wrong codes are throttled like passwords: five a minute from one
        // client, then 429 however right the next one is.
        let wrong = post_form(
            &reused,
            "/admin/two-factor",
            &[("password", PASSWORD), ("code", "000000")],
        )
        .await;
        assert_eq!(wrong.status, 403);
        app.clock.advance_ms(30_000);
        let right = code_at(&secret, app.state.clock.now()).unwrap();
        let throttled = post_form(
            &reused,
            "/admin/two-factor",
            &[("password", PASSWORD), ("code", &right)],
        )
        .await;
        assert_eq!(throttled.status, 429, "{}", throttled.text);
        assert!(!is_admin(&reused).await);
    }
);

crate::on_both_backends!(
    one_code_passes_once_however_many_ask_at_once,
    |app: TestApp| async move {
        let first = joined(&app, "otto@example.com", "owner").await;
        let (secret, _) = enrol(&app, &first).await;
        let mut browsers = Vec::new();
        // As many as the address's links a window allows.
        for _ in 0..3 {
            browsers.push(linked(&app, "otto@example.com").await);
        }
        app.clock.advance_ms(30_000);
        let code = code_at(&secret, app.state.clock.now()).unwrap();
        let form = [("password", PASSWORD), ("code", code.as_str())];
        let answers = futures::future::join_all(
            browsers
                .iter()
                .map(|b| post_form(b, "/admin/two-factor", &form)),
        )
        .await;
        let passed = answers
            .iter()
            .filter(|a| a.status == StatusCode::SEE_OTHER)
            .count();
        assert_eq!(
            passed,
            1,
            "{:?}",
            answers.iter().map(|a| a.status).collect::<Vec<_>>()
        );
        assert!(answers.iter().all(|a| [
            StatusCode::SEE_OTHER,
            StatusCode::FORBIDDEN,
            StatusCode::TOO_MANY_REQUESTS
        ]
        .contains(&a.status)));
    }
);

crate::on_both_backends!(
    a_door_made_manager_owes_the_second_factor_from_the_next_request,
    |app: TestApp| async move {
        let door = joined(&app, "dora@example.com", "door").await;
        assert!(is_admin(&door).await, "the door needs no second factor");
        let team = app.admin().get("/api/admin/team").await.json();
        let person = team["members"][0]["id"].as_i64().unwrap();
        let promoted = app
            .admin()
            .send(
                reqwest::Method::PUT,
                &format!("/api/admin/team/{person}"),
                &[],
                Some(json!({ "role": "manager" })),
            )
            .await;
        assert_eq!(promoted.status, 200, "{}", promoted.text);
        assert!(!is_admin(&door).await);
        let refund = door
            .post(
                "/api/admin/bookings/00000000-0000-0000-0000-000000000000/refund",
                None,
                None,
            )
            .await;
        assert_eq!(refund.status, 401);
        let landed = door.get("/admin/scan").await;
        assert_eq!(
            landed.status, 200,
            "the scanner page itself is not a console page"
        );
        let to = door
            .http
            .get(format!("{}/admin", door.base))
            .send()
            .await
            .unwrap();
        assert_eq!(to.headers()["location"], "/admin/two-factor");
        enrol(&app, &door).await;
        assert!(is_admin(&door).await);
    }
);
