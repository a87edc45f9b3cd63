//! The console's Team page (plain HTML, an owner's): the people on the
//! team with their roles and events, the form to invite someone, the
//! invitations still open, and the API keys — made (the secret shown on the
//! answer page, once) and revoked. Each form is the same use case as the
//! admin API's (`core::admin::team`, `core::admin::keys`).

use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Router};
use holdfast_app::i18n::{Locale, Msg};
use holdfast_core::admin::audit_detail::role_words;
use holdfast_core::admin::{console, keys, team, two_factor};
use holdfast_core::{ApiError, AppState};
use holdfast_model::console::team::{
    ApiKeyView, Grant, NewApiKey, NewInvitation, Role, Team, TeamMember,
};
use holdfast_model::console::AdminEvent;
use holdfast_model::i18n::format;
use holdfast_model::seat_drawing::escape;
use holdfast_model::EventId;
use holdfast_web::caller::{may, Allowed};
use holdfast_web::HttpError;
use serde::Deserialize;

use crate::server::language::Lang;
use crate::server::operations_layout::{notice, OpsPage};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/admin/team", get(page))
        .route("/admin/team/invite", post(invite))
        .route("/admin/team/{personId}/role", post(change))
        .route("/admin/team/{personId}/remove", post(remove))
        .route("/admin/team/keys", post(create_key))
        .route("/admin/team/keys/{keyId}/revoke", post(revoke_key))
}

fn page_of(l: Locale) -> OpsPage<'static> {
    OpsPage {
        l,
        title: l.t(Msg::TeamTitle),
        intro: l.t(Msg::TeamIntro),
    }
}

#[derive(Deserialize, Default)]
struct Said {
    #[serde(default)]
    invited: Option<String>,
}

async fn page(
    State(state): State<AppState>,
    admin: Result<Allowed<may::Team>, HttpError>,
    Lang(l): Lang,
    Query(said): Query<Said>,
) -> Result<Response, HttpError> {
    let p = page_of(l);
    p.for_admin(&admin, async {
        let top = said.invited.map_or(String::new(), |email| {
            notice(&l.fill(Msg::TeamInvitedNotice, &[("email", &email)]))
        });
        Ok(format!("{top}{}", whole(&state, l, None).await?))
    })
    .await
}

/// The page's sections; `extra` goes first (a refusal, a new key's secret).
async fn whole(state: &AppState, l: Locale, extra: Option<&str>) -> Result<String, ApiError> {
    let members = team::list(state).await?;
    let events = console::all_events(state).await?;
    let keys = keys::list(&state.db).await?;
    Ok(format!(
        "{}{}{}{}",
        extra.unwrap_or_default(),
        people(l, &members, &events),
        invite_form(l, &events),
        key_section(l, &keys, &events),
    ))
}

/// A form's role and events: `role`, then `scope` (`all` or `some`) and one
/// `event` per ticked event.
fn grant_of(fields: &[(String, String)]) -> Result<Grant, ApiError> {
    let value = |name: &str| {
        fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    let role = value("role")
        .and_then(Role::parse)
        .ok_or_else(|| ApiError::unprocessable("choose a role", "role"))?;
    let event_ids = if value("scope") == Some("some") {
        let ids: Result<Vec<EventId>, _> = fields
            .iter()
            .filter(|(k, _)| k == "event")
            .map(|(_, v)| v.parse::<EventId>())
            .collect();
        Some(ids.map_err(|_| ApiError::unprocessable("an event that is not one", "eventIds"))?)
    } else {
        None
    };
    Ok(Grant { role, event_ids })
}

fn field<'a>(fields: &'a [(String, String)], name: &str) -> &'a str {
    fields
        .iter()
        .find(|(k, _)| k == name)
        .map_or("", |(_, v)| v.as_str())
}

async fn invite(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::Team>,
    Lang(l): Lang,
    Form(fields): Form<Vec<(String, String)>>,
) -> Result<Response, HttpError> {
    let email = field(&fields, "email").to_string();
    let sent = match grant_of(&fields) {
        Ok(grant) => {
            let new = NewInvitation {
                email: email.clone(),
                role: grant.role,
                event_ids: grant.event_ids,
            };
            team::invite(&state, &admin, &new, l).await
        }
        Err(e) => Err(e),
    };
    match sent {
        Ok(sent) => Ok(Redirect::to(&format!(
            "/admin/team?invited={}",
            holdfast_model::percent::encode(&sent.email)
        ))
        .into_response()),
        Err(e) => refused(&state, l, &e).await,
    }
}

async fn change(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::Team>,
    Path(person): Path<String>,
    Lang(l): Lang,
    Form(fields): Form<Vec<(String, String)>>,
) -> Result<Response, HttpError> {
    let person = id(&person, "team member")?;
    let changed = match grant_of(&fields) {
        Ok(grant) => team::change(&state, &admin, person, &grant)
            .await
            .map(|_| ()),
        Err(e) => Err(e),
    };
    match changed {
        Ok(()) => Ok(Redirect::to("/admin/team").into_response()),
        Err(e) => refused(&state, l, &e).await,
    }
}

async fn remove(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::Team>,
    Path(person): Path<String>,
    Lang(l): Lang,
) -> Result<Response, HttpError> {
    let person = id(&person, "team member")?;
    match team::remove(&state, &admin, person).await {
        Ok(()) => Ok(Redirect::to("/admin/team").into_response()),
        Err(e) => refused(&state, l, &e).await,
    }
}

async fn create_key(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::Team>,
    Lang(l): Lang,
    Form(fields): Form<Vec<(String, String)>>,
) -> Result<Response, HttpError> {
    let made = match grant_of(&fields) {
        Ok(grant) => {
            let new = NewApiKey {
                name: field(&fields, "name").to_string(),
                role: grant.role,
                event_ids: grant.event_ids,
            };
            keys::create(&state, &admin, &new).await
        }
        Err(e) => Err(e),
    };
    match made {
        // The secret is on this answer and nowhere else: no redirect.
        Ok(made) => {
            let shown = format!(
                r#"<section class="new-key" role="status"><p>{said}</p><p><code data-testid="key-secret">{secret}</code></p></section>"#,
                said = escape(&l.fill(Msg::KeySecretOnce, &[("name", &made.key.name)])),
                secret = escape(&made.secret),
            );
            Ok(page_of(l)
                .html_for(&admin, &whole(&state, l, Some(&shown)).await?)
                .into_response())
        }
        Err(e) => refused(&state, l, &e).await,
    }
}

async fn revoke_key(
    State(state): State<AppState>,
    Allowed(admin, _): Allowed<may::Team>,
    Path(key): Path<String>,
    Lang(l): Lang,
) -> Result<Response, HttpError> {
    let key = id(&key, "API key")?;
    match keys::revoke(&state, &admin, key).await {
        Ok(_) => Ok(Redirect::to("/admin/team").into_response()),
        Err(e) => refused(&state, l, &e).await,
    }
}

/// The page again, with why a form was refused (and the refusal's status).
async fn refused(state: &AppState, l: Locale, e: &ApiError) -> Result<Response, HttpError> {
    let why = format!(
        r#"<p class="error" role="alert">{}</p>"#,
        escape(&e.for_buyer(l))
    );
    Ok(page_of(l).refused(e, &whole(state, l, Some(&why)).await?))
}

fn people(l: Locale, team: &Team, events: &[AdminEvent]) -> String {
    let rows: String = team
        .members
        .iter()
        .map(|m| member_row(l, m, events))
        .collect();
    let members = if team.members.is_empty() {
        format!("<p>{}</p>", escape(l.t(Msg::TeamNobodyYet)))
    } else {
        format!(
            r#"<table class="job-list team"><thead><tr><th>{email}</th><th>{role}</th><th>{events}</th><th>{two_step}</th><th></th></tr></thead><tbody>{rows}</tbody></table>"#,
            email = escape(l.t(Msg::TeamEmail)),
            role = escape(l.t(Msg::TeamRole)),
            events = escape(l.t(Msg::TeamEvents)),
            two_step = escape(l.t(Msg::TeamTwoStep)),
        )
    };
    let pending: String = team
        .invitations
        .iter()
        .map(|i| {
            format!(
                "<li>{} — {} — {}</li>",
                escape(&i.email),
                escape(&role_words(l, i.role)),
                escape(&scope_words(l, i.event_ids.as_deref(), events)),
            )
        })
        .collect();
    let pending = if pending.is_empty() {
        String::new()
    } else {
        format!(
            "<h2>{}</h2><ul class=\"invitations\">{pending}</ul>",
            escape(l.t(Msg::TeamPendingHeading))
        )
    };
    format!(
        "<h2>{}</h2>{members}{pending}",
        escape(l.t(Msg::TeamPeopleHeading))
    )
}

fn member_row(l: Locale, m: &TeamMember, events: &[AdminEvent]) -> String {
    format!(
        r#"<tr data-person="{id}"><td data-label="{email_l}">{email}</td><td data-label="{role_l}">{role}</td><td data-label="{events_l}">{scope}</td><td data-label="{two_step_l}">{two_step}</td><td><details><summary>{change}</summary><form method="post" action="/admin/team/{id}/role" class="grant">{grant}<button>{save}</button></form></details><form method="post" action="/admin/team/{id}/remove"><button class="danger">{remove}</button></form></td></tr>"#,
        id = m.id,
        email_l = escape(l.t(Msg::TeamEmail)),
        role_l = escape(l.t(Msg::TeamRole)),
        events_l = escape(l.t(Msg::TeamEvents)),
        two_step_l = escape(l.t(Msg::TeamTwoStep)),
        two_step = escape(l.t(match (m.two_step_set, two_factor::needed_by(m.role)) {
            (true, _) => Msg::TwoStepOn,
            (false, true) => Msg::TwoStepOwed,
            (false, false) => Msg::TwoStepNotNeeded,
        })),
        email = escape(&m.email),
        role = escape(&role_words(l, m.role)),
        scope = escape(&scope_words(l, m.event_ids.as_deref(), events)),
        change = escape(l.t(Msg::TeamChange)),
        grant = grant_fields(
            l,
            &format!("p{}", m.id),
            m.role,
            m.event_ids.as_deref(),
            events
        ),
        save = escape(l.t(Msg::TeamSave)),
        remove = escape(l.t(Msg::TeamRemove)),
    )
}

fn invite_form(l: Locale, events: &[AdminEvent]) -> String {
    format!(
        r#"<h2>{heading}</h2><form method="post" action="/admin/team/invite" class="grant invite"><label>{email_l} <input type="email" name="email" required autocomplete="off"></label>{grant}<button>{send}</button></form>"#,
        heading = escape(l.t(Msg::TeamInviteHeading)),
        email_l = escape(l.t(Msg::TeamEmail)),
        grant = grant_fields(l, "invite", Role::Door, None, events),
        send = escape(l.t(Msg::TeamInviteButton)),
    )
}

/// A role's select and the events it reaches: every event, or the ticked
/// ones. `id`: unique per form on the page (labels point at their inputs).
fn grant_fields(
    l: Locale,
    id: &str,
    role: Role,
    chosen: Option<&[EventId]>,
    events: &[AdminEvent],
) -> String {
    let options: String = Role::ALL
        .iter()
        .map(|r| {
            format!(
                r#"<option value="{}"{}>{}</option>"#,
                r.as_str(),
                if *r == role { " selected" } else { "" },
                escape(&role_words(l, *r)),
            )
        })
        .collect();
    let boxes: String = events
        .iter()
        .map(|e| {
            let ticked = chosen.is_some_and(|ids| ids.contains(&e.id));
            format!(
                r#"<label class="event-choice"><input type="checkbox" name="event" value="{}"{}> {}</label>"#,
                e.id,
                if ticked { " checked" } else { "" },
                escape(&event_words(l, e)),
            )
        })
        .collect();
    format!(
        r#"<label for="{id}-role">{role_l}</label> <select id="{id}-role" name="role">{options}</select>
<fieldset><legend>{events_l}</legend><label><input type="radio" name="scope" value="all"{all}> {every}</label> <label><input type="radio" name="scope" value="some"{some}> {these}</label><div class="event-choices">{boxes}</div></fieldset>"#,
        role_l = escape(l.t(Msg::TeamRole)),
        events_l = escape(l.t(Msg::TeamEvents)),
        all = if chosen.is_none() { " checked" } else { "" },
        some = if chosen.is_some() { " checked" } else { "" },
        every = escape(l.t(Msg::TeamEveryEvent)),
        these = escape(l.t(Msg::TeamTheseEvents)),
    )
}

fn key_section(l: Locale, keys: &[ApiKeyView], events: &[AdminEvent]) -> String {
    let rows: String = keys
        .iter()
        .map(|k| {
            let state = match &k.revoked_at {
                Some(at) => escape(&l.fill(Msg::KeyRevokedAt, &[("at", at)])),
                None => format!(
                    r#"<form method="post" action="/admin/team/keys/{}/revoke"><button class="danger">{}</button></form>"#,
                    k.id,
                    escape(l.t(Msg::KeyRevoke))
                ),
            };
            format!(
                r#"<tr data-key="{id}"><td data-label="{name_l}">{name}</td><td data-label="{role_l}">{role}</td><td data-label="{events_l}">{scope}</td><td data-label="{by_l}">{by}</td><td>{state}</td></tr>"#,
                id = k.id,
                name_l = escape(l.t(Msg::KeyName)),
                role_l = escape(l.t(Msg::TeamRole)),
                events_l = escape(l.t(Msg::TeamEvents)),
                by_l = escape(l.t(Msg::KeyMadeBy)),
                name = escape(&k.name),
                role = escape(&role_words(l, k.role)),
                scope = escape(&scope_words(l, k.event_ids.as_deref(), events)),
                by = escape(&k.created_by),
            )
        })
        .collect();
    let table = if keys.is_empty() {
        String::new()
    } else {
        format!(r#"<table class="job-list keys"><tbody>{rows}</tbody></table>"#)
    };
    format!(
        r#"<h2>{heading}</h2><p>{intro}</p>{table}<form method="post" action="/admin/team/keys" class="grant"><label>{name_l} <input name="name" required maxlength="80"></label>{grant}<button>{make}</button></form>"#,
        heading = escape(l.t(Msg::KeysHeading)),
        intro = escape(l.t(Msg::KeysIntro)),
        name_l = escape(l.t(Msg::KeyName)),
        grant = grant_fields(l, "key", Role::ReadOnly, None, events),
        make = escape(l.t(Msg::KeyMake)),
    )
}

/// "every event", or the events' names.
fn scope_words(l: Locale, ids: Option<&[EventId]>, events: &[AdminEvent]) -> String {
    match ids {
        None => l.t(Msg::TeamEveryEvent).to_string(),
        Some(ids) => ids
            .iter()
            .map(|id| {
                events
                    .iter()
                    .find(|e| e.id == *id)
                    .map_or_else(|| id.to_string(), |e| event_words(l, e))
            })
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// An event as a person picks it: its name and when it starts (a ship's
/// sailings share a name).
fn event_words(l: Locale, e: &AdminEvent) -> String {
    match format::when(l, &e.starts_at_local, &e.starts_at_zone) {
        Some(when) => format!("{} ({when})", e.name),
        None => e.name.clone(),
    }
}

/// An id in the path; anything else names nothing there is.
fn id(raw: &str, what: &'static str) -> Result<i64, ApiError> {
    raw.parse().map_err(|_| ApiError::NotFound(what))
}
