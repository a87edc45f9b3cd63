//! Teams and roles: every admin operation of the OpenAPI document called
//! as every role (API keys of each role, for every event and for one), the
//! console's server functions each naming a permission, and a person's
//! life on the team — invited, joined, signed in, refused, removed —
//! across two instances.

use crate::common::{self, browser_without_redirects, Buyer, TestApp};

use std::collections::{BTreeMap, BTreeSet};

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

/// Each role's permissions, as docs/API.md's table says (written here, not
/// read from the code it checks).
fn role_allows(role: &str, permission: &str) -> bool {
    let granted: &[&str] = match role {
        "owner" => return true,
        "manager" => &[
            "list_events",
            "event_setup",
            "refunds",
            "bookings",
            "check_in",
            "reports",
            "exports",
        ],
        "box_office" => &["list_events", "bookings", "check_in"],
        "door" => &["list_events", "check_in"],
        "read_only" => &["list_events", "reports"],
        other => panic!("no role {other}"),
    };
    granted.contains(&permission)
}

const ROLES: [&str; 5] = ["owner", "manager", "box_office", "door", "read_only"];

/// The permission each admin operation needs: a route added without a line
/// here fails `every_admin_operation_answers_each_role_as_its_permission_says`.
const OPERATIONS: &[(&str, &str, &str)] = &[
    ("GET", "/api/admin/audit", "reports"),
    ("GET", "/api/admin/bookings/{bookingId}/history", "bookings"),
    ("GET", "/api/admin/bookings/{bookingId}/refunds", "bookings"),
    ("POST", "/api/admin/bookings/{bookingId}/refunds", "refunds"),
    (
        "POST",
        "/api/admin/bookings/{bookingId}/{action}",
        "bookings",
    ),
    ("GET", "/api/admin/events", "list_events"),
    ("POST", "/api/admin/events", "event_setup"),
    (
        "GET",
        "/api/admin/events/{eventId}/attendees.csv",
        "exports",
    ),
    ("GET", "/api/admin/events/{eventId}/dashboard", "reports"),
    ("GET", "/api/admin/events/{eventId}/layout", "event_setup"),
    ("PUT", "/api/admin/events/{eventId}/layout", "event_setup"),
    ("PUT", "/api/admin/events/{eventId}/on-sale", "event_setup"),
    ("POST", "/api/admin/events/{eventId}/publish", "event_setup"),
    ("GET", "/api/admin/events/{eventId}/queue", "reports"),
    ("PUT", "/api/admin/events/{eventId}/queue", "event_setup"),
    (
        "PUT",
        "/api/admin/events/{eventId}/refund-policy",
        "event_setup",
    ),
    ("GET", "/api/admin/events/{eventId}/sales", "reports"),
    ("GET", "/api/admin/events/{eventId}/stream", "reports"),
    (
        "POST",
        "/api/admin/events/{eventId}/unpublish",
        "event_setup",
    ),
    ("GET", "/api/admin/holds", "operations"),
    ("GET", "/api/admin/invariants", "operations"),
    ("GET", "/api/admin/jobs", "operations"),
    ("POST", "/api/admin/jobs/{jobName}/run", "operations"),
    ("GET", "/api/admin/keys", "team"),
    ("POST", "/api/admin/keys", "team"),
    ("DELETE", "/api/admin/keys/{keyId}", "team"),
    ("GET", "/api/admin/mailbox", "operations"),
    ("GET", "/api/admin/promos", "event_setup"),
    ("POST", "/api/admin/promos", "event_setup"),
    (
        "POST",
        "/api/admin/sailings/{sailingId}/cancel",
        "event_setup",
    ),
    (
        "GET",
        "/api/admin/sailings/{sailingId}/rebooking",
        "reports",
    ),
    (
        "GET",
        "/api/admin/sailings/{sailingId}/rebooking/stream",
        "reports",
    ),
    ("GET", "/api/admin/team", "team"),
    ("POST", "/api/admin/team/invitations", "team"),
    ("PUT", "/api/admin/team/{personId}", "team"),
    ("DELETE", "/api/admin/team/{personId}", "team"),
    ("POST", "/api/admin/tickets/{token}/check-in", "check_in"),
];

/// Operations anybody may call, admin or not (signing in and out).
const OPEN: &[(&str, &str)] = &[
    ("POST", "/api/admin/login"),
    ("POST", "/api/admin/logout"),
    ("GET", "/api/admin/session"),
];

/// (method, path) → the permission the document declares (its security
/// requirement's scope).
fn declared(doc: &Value) -> BTreeMap<(String, String), Option<String>> {
    let mut ops = BTreeMap::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("path item") {
            let scopes: BTreeSet<String> = op["security"]
                .as_array()
                .into_iter()
                .flatten()
                .flat_map(|req| req.as_object().into_iter().flatten())
                .flat_map(|(_, scopes)| scopes.as_array().into_iter().flatten())
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect();
            assert!(scopes.len() <= 1, "{method} {path} declares {scopes:?}");
            ops.insert(
                (method.to_uppercase(), path.clone()),
                scopes.into_iter().next(),
            );
        }
    }
    ops
}

/// An API key made by the bootstrap owner: its secret.
async fn key(app: &TestApp, role: &str, events: Option<Vec<i64>>) -> String {
    let made = app
        .admin()
        .post(
            "/api/admin/keys",
            None,
            Some(json!({ "name": format!("{role} {events:?}"), "role": role, "eventIds": events })),
        )
        .await;
    assert_eq!(made.status, 201, "{}", made.text);
    let secret = made.json()["secret"].as_str().unwrap().to_string();
    assert!(!made.json()["key"].to_string().contains(&secret));
    secret
}

fn bearer(app: &TestApp, secret: &str) -> Buyer {
    app.client_with(&[("authorization", &format!("Bearer {secret}"))])
}

/// The answer's status only: streams answer their headers and go on, so
/// their bodies are never read.
async fn status(client: &Buyer, method: &str, path: &str) -> StatusCode {
    let method = Method::from_bytes(method.as_bytes()).unwrap();
    let mut req = client
        .http
        .request(method.clone(), format!("{}{path}", client.base));
    if method == Method::POST || method == Method::PUT {
        req = req.json(&json!({}));
    }
    req.send().await.expect("request").status()
}

/// A path of the document with its parameters filled.
fn filled(path: &str, ids: &Ids) -> String {
    path.replace("{eventId}", &ids.event.to_string())
        .replace("{sailingId}", &ids.sailing.to_string())
        .replace("{bookingId}", &ids.booking)
        .replace("{action}", "resend")
        .replace("{jobName}", "no-such-job")
        .replace("{keyId}", "999999")
        .replace("{personId}", "999999")
        .replace("{token}", "not-a-ticket")
        + if path.ends_with("/mailbox") {
            "?recipient=nobody@example.com"
        } else {
            ""
        }
}

struct Ids {
    event: i64,
    sailing: i64,
    booking: String,
}

on_both_backends!(
    every_admin_operation_answers_each_role_as_its_permission_says,
    |app: TestApp| async move {
        let doc = app.buyer().get("/api/openapi.json").await.json();
        let declared = declared(&doc);
        // The document and this table agree, operation by operation.
        let admin_ops: BTreeMap<_, _> = declared
            .iter()
            .filter(|((_, path), _)| path.starts_with("/api/admin/"))
            .filter(|((m, p), _)| !OPEN.contains(&(m.as_str(), p.as_str())))
            .map(|(op, scope)| (op.clone(), scope.clone()))
            .collect();
        let table: BTreeMap<_, _> = OPERATIONS
            .iter()
            .map(|(m, p, s)| ((m.to_string(), p.to_string()), Some(s.to_string())))
            .collect();
        assert_eq!(
            admin_ops, table,
            "every admin operation declares the permission this test expects"
        );
        for (m, p) in OPEN {
            assert_eq!(declared[&(m.to_string(), p.to_string())], None);
        }

        let sailings = app.buyer().get("/api/sailings").await.json();
        let sailing = sailings[0]["id"].as_i64().expect("a sailing");
        let (_, booking, _) = app.hold_and_pay(&[5]).await;
        let ids = Ids {
            event: 1,
            sailing,
            booking,
        };
        for role in ROLES {
            let every = bearer(&app, &key(&app, role, None).await);
            // The same role on another event only.
            let elsewhere = bearer(&app, &key(&app, role, Some(vec![sailing])).await);
            for (method, path, permission) in OPERATIONS {
                let url = filled(path, &ids);
                let got = status(&every, method, &url).await;
                if role_allows(role, permission) {
                    assert!(
                        got != StatusCode::FORBIDDEN && got != StatusCode::UNAUTHORIZED,
                        "{role} may {method} {path} ({permission}): {got}"
                    );
                } else {
                    assert_eq!(got, StatusCode::FORBIDDEN, "{role} {method} {path}");
                }
                // On event 1 (its booking, its pages) or on every event, a
                // grant for the sailing alone is refused; on the sailing
                // it is the role that decides.
                let on_sailing = path.contains("{sailingId}");
                let narrowed = *permission == "list_events" || path.contains("{token}");
                let got = status(&elsewhere, method, &url).await;
                if !role_allows(role, permission) || (!on_sailing && !narrowed) {
                    assert_eq!(
                        got,
                        StatusCode::FORBIDDEN,
                        "{role} on the sailing only: {method} {path}"
                    );
                } else {
                    assert!(
                        got != StatusCode::FORBIDDEN && got != StatusCode::UNAUTHORIZED,
                        "{role} on the sailing only may {method} {path}: {got}"
                    );
                }
            }
            // The list of events is narrowed to the grant's.
            let listed = elsewhere.get("/api/admin/events").await.json();
            let listed: Vec<i64> = listed
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["id"].as_i64().unwrap())
                .collect();
            assert_eq!(listed, vec![sailing], "{role}");
        }

        // A person removed from the team: every operation 401, on every
        // instance.
        let invited = app
            .admin()
            .post(
                "/api/admin/team/invitations",
                None,
                Some(json!({ "email": "gone@example.com", "role": "read_only" })),
            )
            .await;
        assert_eq!(invited.status, 201, "{}", invited.text);
        let link = mailed_link(&app, "gone@example.com", "/admin/join/").await;
        let gone = browser_without_redirects(&app.base);
        assert_eq!(
            post_form(&gone, &link, "").await.status,
            StatusCode::SEE_OTHER
        );
        assert_eq!(
            status(&gone, "GET", "/api/admin/events/1/sales").await,
            StatusCode::OK
        );
        let person = app.admin().get("/api/admin/team").await.json()["members"][0]["id"]
            .as_i64()
            .unwrap();
        let removed = app
            .admin()
            .delete(&format!("/api/admin/team/{person}"))
            .await;
        assert_eq!(removed.status, 204);
        for (method, path, _) in OPERATIONS {
            let got = status(&gone, method, &filled(path, &ids)).await;
            assert_eq!(got, StatusCode::UNAUTHORIZED, "removed: {method} {path}");
        }

        // Refunding is more than looking after a booking.
        let box_office = bearer(&app, &key(&app, "box_office", None).await);
        let refund = box_office
            .post(
                &format!("/api/admin/bookings/{}/refund", ids.booking),
                None,
                None,
            )
            .await;
        assert_eq!(refund.status, 403, "{}", refund.text);
        assert_eq!(refund.code(), "FORBIDDEN");

        // Each refusal is in the audit log: who, from where, what.
        let audit = app.admin().get("/api/admin/audit").await.json();
        let refusal = audit
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["action"] == "refused" && a["detail"].as_str().unwrap().contains("refunds"))
            .expect("the refused refund is audited");
        assert!(refusal["actor"]
            .as_str()
            .unwrap()
            .starts_with("key:box_office"));
        assert_eq!(refusal["client"], "127.0.0.1");
    }
);

on_both_backends!(
    a_revoked_key_stops_at_once_on_every_instance,
    |app: TestApp| async move {
        let other = common::spawn_on(&app.database_url, None, |_| {}).await;
        let made = app
            .admin()
            .post(
                "/api/admin/keys",
                None,
                Some(json!({ "name": "box office till 2", "role": "box_office" })),
            )
            .await;
        assert_eq!(made.status, 201, "{}", made.text);
        let secret = made.json()["secret"].as_str().unwrap().to_string();
        let id = made.json()["key"]["id"].as_i64().unwrap();
        let there = bearer(&other, &secret);
        assert_eq!(there.get("/api/admin/events").await.status, 200);

        let revoked = app.admin().delete(&format!("/api/admin/keys/{id}")).await;
        assert_eq!(revoked.status, 200, "{}", revoked.text);
        assert!(revoked.json()["revokedAt"].is_string());
        let after = there.get("/api/admin/events").await;
        assert_eq!(after.status, 403, "the other instance refuses it at once");
        assert_eq!(after.code(), "FORBIDDEN");
        // Revoked again: nothing changes.
        let again = app.admin().delete(&format!("/api/admin/keys/{id}")).await;
        assert_eq!(again.json()["revokedAt"], revoked.json()["revokedAt"]);
        // The list never shows a secret.
        let listed = app.admin().get("/api/admin/keys").await;
        assert!(!listed.text.contains(&secret));
        assert!(!listed.text.contains("hf_"));
    }
);

/// The invitation link mailed to `email`: its path.
async fn mailed_link(app: &TestApp, email: &str, prefix: &str) -> String {
    app.dispatch_outbox().await;
    let mail = app
        .admin()
        .get(&format!("/api/admin/mailbox?recipient={email}"))
        .await;
    assert_eq!(mail.status, 200, "{}", mail.text);
    let body = mail.json()[0]["body"].as_str().expect("a mail").to_string();
    let at = body
        .find(prefix)
        .unwrap_or_else(|| panic!("no {prefix} link in {}", mail.text));
    body[at..].split_whitespace().next().unwrap().to_string()
}

/// A browser posting a form of this site (as its own page does).
async fn post_form(browser: &Buyer, path: &str, form: &str) -> common::Answer {
    let r = browser
        .http
        .post(format!("{}{path}", browser.base))
        .header("content-type", "application/x-www-form-urlencoded")
        .header("origin", browser.base.clone())
        .body(form.to_string())
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

on_both_backends!(
    a_door_volunteer_is_invited_joins_scans_and_is_removed,
    |app: TestApp| async move {
        let other = common::spawn_on(&app.database_url, None, |_| {}).await;
        let invited = app
            .admin()
            .post(
                "/api/admin/team/invitations",
                None,
                Some(json!({ "email": "Vol@Example.com", "role": "door", "eventIds": [1] })),
            )
            .await;
        assert_eq!(invited.status, 201, "{}", invited.text);
        assert_eq!(invited.json()["email"], "vol@example.com");
        let link = mailed_link(&app, "vol@example.com", "/admin/join/").await;

        // A GET only asks; a cross-site post joins nobody.
        let phone = browser_without_redirects(&app.base);
        let asked = phone.get(&link).await;
        assert_eq!(asked.status, 200, "{}", asked.text);
        assert!(asked.text.contains("vol@example.com"));
        assert!(!is_admin(&phone).await);
        let forged = app
            .client_with(&[
                ("origin", "https://evil.example"),
                ("sec-fetch-site", "cross-site"),
            ])
            .post(&link, None, None)
            .await;
        assert_eq!(forged.status, 403, "{}", forged.text);

        // Ten browsers post the link at once: one joins.
        let browsers: Vec<Buyer> = (0..10)
            .map(|_| browser_without_redirects(&app.base))
            .collect();
        let answers =
            futures::future::join_all(browsers.iter().map(|b| post_form(b, &link, ""))).await;
        let joined: Vec<usize> = answers
            .iter()
            .enumerate()
            .filter(|(_, a)| a.status == StatusCode::SEE_OTHER)
            .map(|(i, _)| i)
            .collect();
        let statuses: Vec<_> = answers.iter().map(|a| a.status).collect();
        assert_eq!(joined.len(), 1, "one browser joins: {statuses:?}");
        assert!(answers
            .iter()
            .all(|a| a.status == StatusCode::SEE_OTHER || a.status == StatusCode::GONE));
        let volunteer = &browsers[joined[0]];
        assert!(is_admin(volunteer).await);
        let team = app.admin().get("/api/admin/team").await.json();
        assert_eq!(team["members"].as_array().unwrap().len(), 1);
        assert_eq!(team["members"][0]["role"], "door");
        assert_eq!(team["invitations"].as_array().unwrap().len(), 0);
        let person = team["members"][0]["id"].as_i64().unwrap();

        // The door scans on its event; nothing else.
        let scan = volunteer
            .post("/api/admin/tickets/nope/check-in", None, None)
            .await;
        assert_eq!(scan.status, 404, "{}", scan.text);
        let dashboard = volunteer.get("/api/admin/events/1/dashboard").await;
        assert_eq!(dashboard.status, 403, "{}", dashboard.text);
        let refund = volunteer
            .post(
                "/api/admin/bookings/00000000-0000-0000-0000-000000000000/refund",
                None,
                None,
            )
            .await;
        assert_eq!(refund.status, 403);
        let team_page = volunteer.get("/api/admin/team").await;
        assert_eq!(team_page.status, 403);

        // The audit log names the person and where they were.
        let audit = app.admin().get("/api/admin/audit").await.json();
        let entries = audit.as_array().unwrap();
        assert!(entries
            .iter()
            .any(|a| a["action"] == "team_invite" && a["actor"] == "api-token"));
        assert!(entries
            .iter()
            .any(|a| a["action"] == "team_join" && a["actor"] == "vol@example.com"));
        assert!(entries.iter().any(|a| a["action"] == "refused"
            && a["actor"] == "vol@example.com"
            && a["client"] == "127.0.0.1"));

        // Signed in again later with a mailed link, on the other instance.
        let later = browser_without_redirects(&other.base);
        let asked = post_form(&later, "/admin/sign-in", "email=vol%40example.com").await;
        assert_eq!(asked.status, 200, "{}", asked.text);
        assert!(asked.text.contains("vol@example.com"), "{}", asked.text);
        let strangers = post_form(&later, "/admin/sign-in", "email=nobody%40example.com").await;
        assert_eq!(
            strangers.status, 200,
            "the same answer for an address not on the team"
        );
        // Mailed by the instance that was asked (its clock made it due).
        other.dispatch_outbox().await;
        let link = mailed_link(&app, "vol@example.com", "/admin/sign-in/").await;
        let opened = post_form(&later, &link, "").await;
        assert_eq!(opened.status, StatusCode::SEE_OTHER, "{}", opened.text);
        assert!(is_admin(&later).await);
        let reused = post_form(&browser_without_redirects(&app.base), &link, "").await;
        assert_eq!(reused.status, StatusCode::GONE);
        app.dispatch_outbox().await;
        let none = app
            .admin()
            .get("/api/admin/mailbox?recipient=nobody@example.com")
            .await
            .json();
        assert_eq!(none.as_array().unwrap().len(), 0, "no mail to a stranger");

        // Removed: signed out on both instances at once, and may not come
        // back with an old session.
        let removed = app
            .admin()
            .delete(&format!("/api/admin/team/{person}"))
            .await;
        assert_eq!(removed.status, 204, "{}", removed.text);
        assert!(
            !is_admin(&later).await,
            "the other instance signed them out"
        );
        assert!(!is_admin(volunteer).await);
        assert_eq!(
            volunteer
                .post("/api/admin/tickets/nope/check-in", None, None)
                .await
                .status,
            401
        );
        // Asking for a link after removal mails nothing.
        let before = app
            .admin()
            .get("/api/admin/mailbox?recipient=vol@example.com")
            .await
            .json()
            .as_array()
            .unwrap()
            .len();
        post_form(&later, "/admin/sign-in", "email=vol%40example.com").await;
        other.dispatch_outbox().await;
        let after = app
            .admin()
            .get("/api/admin/mailbox?recipient=vol@example.com")
            .await
            .json()
            .as_array()
            .unwrap()
            .len();
        assert_eq!(before, after);

        // Invited back, the old sessions stay ended.
        let again = app
            .admin()
            .post(
                "/api/admin/team/invitations",
                None,
                Some(json!({ "email": "vol@example.com", "role": "read_only" })),
            )
            .await;
        assert_eq!(again.status, 201, "{}", again.text);
        let link = mailed_link(&app, "vol@example.com", "/admin/join/").await;
        let back = browser_without_redirects(&app.base);
        assert_eq!(
            post_form(&back, &link, "").await.status,
            StatusCode::SEE_OTHER
        );
        assert!(is_admin(&back).await);
        assert!(
            !is_admin(volunteer).await,
            "a session from before the removal"
        );
    }
);

on_both_backends!(
    invitations_refuse_bad_input_escalation_and_old_links,
    |app: TestApp| async move {
        let owner = app.admin();
        let team_before = owner.get("/api/admin/team").await.text;
        for (body, field) in [
            (
                json!({ "email": "not an address", "role": "door" }),
                "email",
            ),
            (
                json!({ "email": "a@example.com", "role": "door", "eventIds": [] }),
                "eventIds",
            ),
            (
                json!({ "email": "a@example.com", "role": "door", "eventIds": [999] }),
                "eventIds",
            ),
        ] {
            let refused = owner
                .post("/api/admin/team/invitations", None, Some(body))
                .await;
            assert!(
                refused.status == 400 || refused.status == 422,
                "{}",
                refused.text
            );
            assert!(refused.text.contains(field), "{}", refused.text);
        }
        for body in [
            json!({ "email": "a@example.com", "role": "superuser" }),
            json!({ "email": "a@example.com", "role": "door", "extra": 1 }),
        ] {
            let refused = owner
                .post("/api/admin/team/invitations", None, Some(body))
                .await;
            assert!(
                refused.status == 400 || refused.status == 422,
                "{}",
                refused.text
            );
        }
        assert_eq!(owner.get("/api/admin/team").await.text, team_before);

        // A manager does not manage the team; an owner of one event does
        // not hand out every event.
        let manager = bearer(&app, &key(&app, "manager", None).await);
        let escalate = manager
            .post(
                "/api/admin/team/invitations",
                None,
                Some(json!({ "email": "boss@example.com", "role": "owner" })),
            )
            .await;
        assert_eq!(escalate.status, 403);
        // An owner of one event does not run the team (nor hand out every
        // event).
        let narrow_owner = bearer(&app, &key(&app, "owner", Some(vec![1])).await);
        for body in [
            json!({ "email": "wide@example.com", "role": "door" }),
            json!({ "email": "door1@example.com", "role": "door", "eventIds": [1] }),
        ] {
            let refused = narrow_owner
                .post("/api/admin/team/invitations", None, Some(body))
                .await;
            assert_eq!(refused.status, 403, "{}", refused.text);
        }
        let wider_key = narrow_owner
            .post(
                "/api/admin/keys",
                None,
                Some(json!({ "name": "all", "role": "read_only" })),
            )
            .await;
        assert_eq!(wider_key.status, 403);
        let invited = owner
            .post(
                "/api/admin/team/invitations",
                None,
                Some(json!({ "email": "door1@example.com", "role": "door", "eventIds": [1] })),
            )
            .await;
        assert_eq!(invited.status, 201, "{}", invited.text);

        // An invitation past its three days joins nobody.
        let link = mailed_link(&app, "door1@example.com", "/admin/join/").await;
        app.clock.advance_ms(3 * 24 * 3600 * 1000 + 1);
        let late = browser_without_redirects(&app.base);
        assert_eq!(late.get(&link).await.status, StatusCode::GONE);
        assert_eq!(post_form(&late, &link, "").await.status, StatusCode::GONE);
        assert!(!is_admin(&late).await);
        let team = owner.get("/api/admin/team").await.json();
        assert_eq!(team["members"].as_array().unwrap().len(), 0);
        // A made-up link neither.
        let made_up = post_form(&late, "/admin/join/0123456789abcdef", "").await;
        assert_eq!(made_up.status, StatusCode::GONE);
    }
);

on_both_backends!(
    nobody_changes_or_removes_themselves,
    |app: TestApp| async move {
        let invited = app
            .admin()
            .post(
                "/api/admin/team/invitations",
                None,
                Some(json!({ "email": "own@example.com", "role": "owner" })),
            )
            .await;
        assert_eq!(invited.status, 201, "{}", invited.text);
        let link = mailed_link(&app, "own@example.com", "/admin/join/").await;
        let owner = browser_without_redirects(&app.base);
        assert_eq!(
            post_form(&owner, &link, "").await.status,
            StatusCode::SEE_OTHER
        );
        // An owner's second factor, set at once.
        let page = owner.get("/admin/two-factor").await.text;
        let secret = page
            .split("data-testid=\"totp-secret\">")
            .nth(1)
            .and_then(|rest| rest.split('<').next())
            .expect("a secret to set")
            .to_string();
        let code =
            holdfast_core::admin::two_factor::code_at(&secret, app.state.clock.now()).unwrap();
        let set = post_form(
            &owner,
            "/admin/two-factor/enrol",
            &format!("password=a+long+enough+password&code={code}"),
        )
        .await;
        assert_eq!(set.status, 200, "{}", set.text);
        let team = owner.get("/api/admin/team").await;
        assert_eq!(team.status, 200, "{}", team.text);
        let me = team.json()["members"][0]["id"].as_i64().unwrap();
        let changed = owner
            .send(
                Method::PUT,
                &format!("/api/admin/team/{me}"),
                &[("origin", &app.base)],
                Some(json!({ "role": "manager" })),
            )
            .await;
        assert_eq!(changed.status, 403, "{}", changed.text);
        let removed = owner
            .send(
                Method::DELETE,
                &format!("/api/admin/team/{me}"),
                &[("origin", &app.base)],
                None,
            )
            .await;
        assert_eq!(removed.status, 403, "{}", removed.text);
        let audit = app.admin().get("/api/admin/audit").await.json();
        let refusals = audit
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["action"] == "refused" && a["actor"] == "own@example.com")
            .count();
        assert_eq!(refusals, 2, "both attempts are in the audit log");
        // The key they made ends when they leave.
        let made = owner
            .send(
                Method::POST,
                "/api/admin/keys",
                &[("origin", &app.base)],
                Some(json!({ "name": "their export", "role": "read_only" })),
            )
            .await;
        assert_eq!(made.status, 201, "{}", made.text);
        let secret = made.json()["secret"].as_str().unwrap().to_string();
        assert_eq!(
            bearer(&app, &secret).get("/api/admin/events").await.status,
            200
        );
        let gone = app.admin().delete(&format!("/api/admin/team/{me}")).await;
        assert_eq!(gone.status, 204);
        assert_eq!(
            bearer(&app, &secret).get("/api/admin/events").await.status,
            403
        );
        assert!(!is_admin(&owner).await);
    }
);

/// How a console server function answers a caller it refuses.
#[derive(Clone, Copy, PartialEq)]
enum Refused {
    /// With the core's refusal as the function's error.
    Error,
    /// With `None` (the page then offers to sign in).
    Nothing,
}

/// The arguments a call of the matrix sends: a form written out
/// (`{booking}` is a booking of event 1), or, for a function that takes a
/// layout or a form, values encoded as the console's wasm encodes them.
#[derive(Clone, Copy)]
enum Args {
    Line(&'static str),
    Built(fn(&str) -> Value),
}

impl Args {
    fn encode(self, booking: &str) -> String {
        match self {
            Args::Line(form) => form.replace("{booking}", booking),
            // serde_qs, as the server functions' URL encoding writes them.
            Args::Built(args) => serde_qs::to_string(&args(booking)).expect("encodable"),
        }
    }
}

/// An event the matrix sets up or edits (for event 1, which sold from a
/// seeded layout, an edit is refused for its own reasons: not a 403).
fn matrix_layout() -> Value {
    json!({
        "name": "Matrix night",
        "kind": "concert",
        "venue": "The Cellar",
        "startsAt": "2027-06-01T20:00:00Z",
        "currency": "EUR",
        "categories": [{ "code": "A", "name": "Stalls", "priceCents": 3000, "color": "#c0392b" }],
        "sections": [{ "name": "Stalls", "category": "A", "rows": 2, "seatsPerRow": 4, "x": 0, "y": 0 }]
    })
}

/// Every console server function, the permission it needs, the arguments
/// the matrix calls it with, and how a refusal shows. A function
/// registered with the server but missing here fails the test.
const SERVER_FUNCTIONS: &[(&str, &str, Args, Refused)] = &[
    (
        "admin_events",
        "ListEvents",
        Args::Line(""),
        Refused::Nothing,
    ),
    (
        "admin_dashboard",
        "Reports",
        Args::Line("event_id=1"),
        Refused::Nothing,
    ),
    (
        "admin_find_bookings",
        "Bookings",
        Args::Line("event_id=1&q=x"),
        Refused::Error,
    ),
    (
        "admin_act",
        "Bookings",
        Args::Line("booking_id={booking}&action=resend&seconds=0"),
        Refused::Error,
    ),
    (
        "admin_refund_part",
        "Refunds",
        Args::Built(|booking| {
            json!({
                "booking_id": booking,
                "ask": { "amountCents": 1, "reason": "matrix", "notifyBuyer": false }
            })
        }),
        Refused::Error,
    ),
    (
        "admin_create_event",
        "EventSetup",
        Args::Built(|_| json!({ "layout": matrix_layout() })),
        Refused::Error,
    ),
    (
        "admin_event_layout",
        "EventSetup",
        Args::Line("event_id=1"),
        Refused::Error,
    ),
    (
        "admin_edit_layout",
        "EventSetup",
        Args::Built(|_| json!({ "event_id": 1, "layout": matrix_layout() })),
        Refused::Error,
    ),
    (
        "admin_set_published",
        "EventSetup",
        Args::Line("event_id=1&published=true"),
        Refused::Error,
    ),
    (
        "admin_room",
        "Reports",
        Args::Line("event_id=1"),
        Refused::Nothing,
    ),
    (
        "admin_set_room",
        "EventSetup",
        Args::Line("event_id=1&enabled=false&admit_per_minute=60"),
        Refused::Error,
    ),
    (
        "admin_move_on_sale",
        "EventSetup",
        Args::Line("event_id=1&at=2020-01-01T00%3A00"),
        Refused::Error,
    ),
    (
        "admin_promos",
        "EventSetup",
        Args::Line("event_id=1"),
        Refused::Nothing,
    ),
    (
        "admin_create_promo",
        "EventSetup",
        Args::Built(
            |_| json!({ "form": { "name": "Matrix", "kind": "single", "eventId": 1, "percentOff": 5 } }),
        ),
        Refused::Error,
    ),
    (
        "admin_check_in",
        "CheckIn",
        Args::Line("token=not-a-ticket&gate=main&event_id=1"),
        Refused::Error,
    ),
];

/// Server functions anybody may call (they say who is signed in, or sign
/// in and out).
const OPEN_SERVER_FUNCTIONS: &[&str] = &["admin_powers", "admin_sign_in", "admin_sign_out"];

/// The permission names of the source (`Permission::EventSetup`) as the
/// document writes them (`event_setup`).
fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// Each console server function names, in its source, the permission this
/// table gives it; a server function of the console that is in neither
/// table fails here.
#[test]
fn every_console_server_function_names_its_permission() {
    let source = std::fs::read_to_string("app/src/server_fns/console.rs").expect("source");
    let mut seen = 0;
    for chunk in source.split("#[server]").skip(1) {
        let name = chunk
            .split("pub async fn ")
            .nth(1)
            .and_then(|rest| rest.split('(').next())
            .expect("a server function");
        let body = chunk.split("\n}\n").next().unwrap();
        seen += 1;
        if OPEN_SERVER_FUNCTIONS.contains(&name) {
            continue;
        }
        let (_, permission, _, _) = SERVER_FUNCTIONS
            .iter()
            .find(|(n, _, _, _)| *n == name)
            .unwrap_or_else(|| panic!("{name} is in no table of tests/console/team.rs"));
        assert!(
            body.contains(&format!("admin(Permission::{permission}"))
                || body.contains(&format!("admin_if(Permission::{permission}")),
            "{name} does not ask for {permission}"
        );
    }
    assert_eq!(seen, SERVER_FUNCTIONS.len() + OPEN_SERVER_FUNCTIONS.len());
}

on_both_backends!(
    every_console_server_function_answers_each_role_as_its_permission_says,
    |app: TestApp| async move {
        // Every console function the server registered is in the tables.
        let registered: Vec<String> = leptos::server_fn::axum::server_fn_paths()
            .map(|(path, _)| path.to_string())
            .filter(|path| path.starts_with("/api/admin_"))
            .collect();
        assert!(!registered.is_empty());
        for path in &registered {
            let known = SERVER_FUNCTIONS
                .iter()
                .map(|(n, _, _, _)| *n)
                .chain(OPEN_SERVER_FUNCTIONS.iter().copied())
                .any(|name| {
                    path.strip_prefix("/api/")
                        .and_then(|rest| rest.strip_prefix(name))
                        .is_some_and(|hash| hash.bytes().all(|b| b.is_ascii_digit()))
                });
            assert!(known, "{path} is a console server function no table names");
        }
        let path_of = |name: &str| {
            registered
                .iter()
                .find(|p| {
                    p.strip_prefix("/api/")
                        .and_then(|rest| rest.strip_prefix(name))
                        .is_some_and(|hash| hash.bytes().all(|b| b.is_ascii_digit()))
                })
                .unwrap_or_else(|| panic!("{name} is registered"))
                .clone()
        };
        let (_, booking, _) = app.hold_and_pay(&[6]).await;
        for role in ROLES {
            let caller = bearer(&app, &key(&app, role, None).await);
            // What the console draws for the role is what the table gives it.
            let powers: Value = caller
                .http
                .post(format!("{}{}", caller.base, path_of("admin_powers")))
                .header("content-type", "application/x-www-form-urlencoded")
                .send()
                .await
                .expect("admin_powers")
                .json()
                .await
                .expect("powers");
            for permission in ["team", "event_setup", "refunds", "bookings", "check_in"] {
                assert_eq!(
                    powers["own_events"][permission],
                    role_allows(role, permission),
                    "{role}'s console powers: {powers}"
                );
            }
            for (name, permission, args, refused_as) in SERVER_FUNCTIONS {
                let answer = caller
                    .http
                    .post(format!("{}{}", caller.base, path_of(name)))
                    .header("content-type", "application/x-www-form-urlencoded")
                    .body(args.encode(&booking))
                    .send()
                    .await
                    .expect("server function");
                let status = answer.status();
                let text = answer.text().await.unwrap();
                let refused = match refused_as {
                    Refused::Error => {
                        if status == StatusCode::FORBIDDEN {
                            assert!(text.contains("FORBIDDEN"), "{name}: {text}");
                        }
                        status == StatusCode::FORBIDDEN
                    }
                    Refused::Nothing => text.trim() == "null",
                };
                assert_eq!(
                    refused,
                    !role_allows(role, &snake(permission)),
                    "{role} calling {name}: {text}"
                );
                // An allowed call reached its use case (arguments the
                // server could not read would fail every role alike).
                if !refused {
                    assert_eq!(status, StatusCode::OK, "{role} calling {name}: {text}");
                }
            }
        }
        // The calls with built arguments did their work for the roles
        // allowed them: an event made by each of the owner and the manager.
        let made = app
            .scalar("select count(*) from event where name = 'Matrix night'")
            .await;
        assert_eq!(made, 2);
    }
);

on_both_backends!(
    the_team_page_invites_changes_roles_and_makes_keys,
    |app: TestApp| async move {
        let owner = browser_without_redirects(&app.base);
        let signed = owner
            .post(
                "/api/admin/login",
                None,
                Some(json!({ "password": holdfast::server::config::TEST_ADMIN_PASSWORD })),
            )
            .await;
        assert_eq!(signed.status, 200, "{}", signed.text);
        let page = owner.get("/admin/team").await;
        assert_eq!(page.status, 200, "{}", page.text);
        assert!(page.text.contains("action=\"/admin/team/invite\""));

        // Invited for two events by ticking them.
        let sent = post_form(
            &owner,
            "/admin/team/invite",
            "email=till%40example.com&role=box_office&scope=some&event=1&event=2",
        )
        .await;
        assert_eq!(sent.status, StatusCode::SEE_OTHER, "{}", sent.text);
        let team = app.admin().get("/api/admin/team").await.json();
        assert_eq!(team["invitations"][0]["role"], "box_office");
        assert_eq!(team["invitations"][0]["eventIds"], json!([1, 2]));
        let refused = post_form(
            &owner,
            "/admin/team/invite",
            "email=x%40example.com&role=king",
        )
        .await;
        assert_eq!(refused.status, 422, "{}", refused.text);
        assert!(refused.text.contains("role=\"alert\""));

        let link = mailed_link(&app, "till@example.com", "/admin/join/").await;
        let till = browser_without_redirects(&app.base);
        assert_eq!(
            post_form(&till, &link, "").await.status,
            StatusCode::SEE_OTHER
        );
        let person = app.admin().get("/api/admin/team").await.json()["members"][0]["id"]
            .as_i64()
            .unwrap();
        // A box office account is not sent to the scanner; the Team page is
        // not theirs.
        assert_eq!(till.get("/admin").await.status, 200);
        assert_eq!(till.get("/admin/team").await.status, 403);

        // Made door for event 1: from the next request on, the console opens
        // on the scanner.
        let changed = post_form(
            &owner,
            &format!("/admin/team/{person}/role"),
            "role=door&scope=some&event=1",
        )
        .await;
        assert_eq!(changed.status, StatusCode::SEE_OTHER, "{}", changed.text);
        let landed = till.get("/admin").await;
        assert_eq!(landed.status, StatusCode::SEE_OTHER);
        assert!(landed.text.is_empty());
        let to = till
            .http
            .get(format!("{}/admin/events/1", till.base))
            .send()
            .await
            .unwrap();
        assert_eq!(to.headers()["location"], "/admin/scan");
        assert_eq!(till.get("/admin/scan").await.status, 200);

        // A key: its secret on the answer page once, never on the page after.
        let made = post_form(
            &owner,
            "/admin/team/keys",
            "name=Door+app&role=door&scope=all",
        )
        .await;
        assert_eq!(made.status, 200, "{}", made.text);
        let secret = made
            .text
            .split("data-testid=\"key-secret\">")
            .nth(1)
            .and_then(|rest| rest.split('<').next())
            .expect("the secret is shown")
            .to_string();
        assert!(secret.starts_with("hf_"));
        assert!(!owner.get("/admin/team").await.text.contains(&secret));
        let door_app = bearer(&app, &secret);
        assert_eq!(
            door_app
                .post("/api/admin/tickets/x/check-in", None, None)
                .await
                .status,
            404
        );
        let key = app.admin().get("/api/admin/keys").await.json()[0]["id"]
            .as_i64()
            .unwrap();
        let revoked = post_form(&owner, &format!("/admin/team/keys/{key}/revoke"), "").await;
        assert_eq!(revoked.status, StatusCode::SEE_OTHER);
        assert_eq!(
            door_app
                .post("/api/admin/tickets/x/check-in", None, None)
                .await
                .status,
            403
        );

        // Removed from the page.
        let removed = post_form(&owner, &format!("/admin/team/{person}/remove"), "").await;
        assert_eq!(removed.status, StatusCode::SEE_OTHER);
        assert!(!is_admin(&till).await);
        // A cross-site form changes nothing.
        let forged = app
            .client_with(&[
                ("origin", "https://evil.example"),
                ("sec-fetch-site", "cross-site"),
            ])
            .post("/admin/team/invite", None, None)
            .await;
        assert_eq!(forged.status, 403);
    }
);
