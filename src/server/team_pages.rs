//! The pages a person of the organizer's team opens from their mail (plain
//! HTML, nothing in either wasm): an invitation to join, asking for a
//! sign-in link, and opening it. A GET only asks ("Join the team?",
//! "Sign in as …?"): a mail scanner or a prefetch uses nothing. The POST
//! (same-origin only: `protect` refuses another site's form) takes the
//! link and signs this browser in to the console.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::{Extension, Form, Router};
use holdfast_app::i18n::{Locale, Msg};
use holdfast_core::account::link::LinkRefused;
use holdfast_core::account::EmailAddress;
use holdfast_core::admin::audit_detail::role_words;
use holdfast_core::admin::team;
use holdfast_core::platform::client_addr::ClientAddr;
use holdfast_core::{ApiError, AppState};
use holdfast_model::seat_drawing::escape;
use serde::Deserialize;
use tower_sessions::Session;

use crate::server::language::Lang;
use crate::server::operations_layout::OpsPage;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/admin/join/{token}", get(invitation).post(join))
        .route("/admin/sign-in", get(ask_page).post(ask))
        .route("/admin/sign-in/{token}", get(sign_in_page).post(sign_in))
}

fn page(l: Locale, title: Msg) -> OpsPage<'static> {
    OpsPage {
        l,
        title: l.t(title),
        intro: "",
    }
}

async fn invitation(
    State(state): State<AppState>,
    Lang(l): Lang,
    Path(token): Path<String>,
) -> Response {
    let p = page(l, Msg::TeamJoinTitle);
    match team::peek_invitation(&state, &token).await {
        Ok(Ok(offer)) => {
            let said = l.fill(
                Msg::TeamJoinOffer,
                &[
                    ("inviter", &inviter(l, &offer.invited_by)),
                    ("email", &offer.email),
                    ("role", &role_words(l, offer.role)),
                ],
            );
            p.html(&format!(
                r#"<p data-testid="team-offer">{said}</p>
<form method="post" action="/admin/join/{token}"><button type="submit">{button}</button></form>"#,
                said = escape(&said),
                token = escape(&token),
                button = escape(l.t(Msg::TeamJoinButton)),
            ))
            .into_response()
        }
        Ok(Err(refused)) => link_refused(&p, refused),
        Err(e) => p.refused(&e, &notice(l, &e)),
    }
}

async fn join(
    State(state): State<AppState>,
    session: Session,
    Lang(l): Lang,
    Path(token): Path<String>,
) -> Response {
    let p = page(l, Msg::TeamJoinTitle);
    let joined = async {
        match team::join(&state, &token).await? {
            Ok(member) => {
                let now = state.clock.now();
                state.admin.sign_in_person(&session, member, now).await?;
                Ok(Ok(()))
            }
            Err(refused) => Ok(Err(refused)),
        }
    };
    match joined.await {
        Ok(Ok(())) => Redirect::to("/admin").into_response(),
        Ok(Err(refused)) => link_refused(&p, refused),
        Err(e) => p.refused(&e, &notice(l, &e)),
    }
}

async fn ask_page(Lang(l): Lang) -> Response {
    page(l, Msg::TeamSignInTitle)
        .html(&ask_form(l, ""))
        .into_response()
}

fn ask_form(l: Locale, email: &str) -> String {
    format!(
        r#"<p>{intro}</p>
<form method="post" action="/admin/sign-in" class="sign-in"><label>{label} <input type="email" name="email" required autocomplete="email" value="{email}"></label>
<button type="submit">{button}</button></form>
<p><a href="/admin">{password}</a></p>"#,
        intro = escape(l.t(Msg::TeamSignInIntro)),
        label = escape(l.t(Msg::TeamSignInEmail)),
        email = escape(email),
        button = escape(l.t(Msg::TeamSignInSend)),
        password = escape(l.t(Msg::TeamSignInWithPassword)),
    )
}

#[derive(Deserialize)]
struct AskForm {
    email: String,
}

async fn ask(
    State(state): State<AppState>,
    client: Option<Extension<ClientAddr>>,
    Lang(l): Lang,
    Form(form): Form<AskForm>,
) -> Response {
    let p = page(l, Msg::TeamSignInTitle);
    let asked = match EmailAddress::parse(&form.email) {
        Ok(address) => {
            let client = client.map(|Extension(c)| c.limit_key());
            team::ask_sign_in(&state, &address, client, l)
                .await
                .map(|()| address)
        }
        Err(e) => Err(e),
    };
    match asked {
        Ok(address) => p
            .html(&format!(
                r#"<p class="notice" role="status">{}</p>"#,
                escape(&l.fill(Msg::TeamSignInSent, &[("email", &address.as_str())]))
            ))
            .into_response(),
        Err(e) => p.refused(
            &e,
            &format!("{}{}", notice(l, &e), ask_form(l, &form.email)),
        ),
    }
}

async fn sign_in_page(
    State(state): State<AppState>,
    Lang(l): Lang,
    Path(token): Path<String>,
) -> Response {
    let p = page(l, Msg::TeamSignInTitle);
    match team::peek_sign_in(&state, &token).await {
        Ok(Ok(email)) => p
            .html(&format!(
                r#"<p data-testid="team-sign-in">{said}</p>
<form method="post" action="/admin/sign-in/{token}"><button type="submit">{button}</button></form>"#,
                said = escape(&l.fill(Msg::TeamSignInAs, &[("email", &email)])),
                token = escape(&token),
                button = escape(l.t(Msg::TeamSignInButton)),
            ))
            .into_response(),
        Ok(Err(refused)) => link_refused(&p, refused),
        Err(e) => p.refused(&e, &notice(l, &e)),
    }
}

async fn sign_in(
    State(state): State<AppState>,
    session: Session,
    Lang(l): Lang,
    Path(token): Path<String>,
) -> Response {
    let p = page(l, Msg::TeamSignInTitle);
    let signed_in = async {
        match team::open_sign_in(&state, &token).await? {
            Ok(member) => {
                let now = state.clock.now();
                state.admin.sign_in_person(&session, member, now).await?;
                Ok(Ok(()))
            }
            Err(refused) => Ok(Err(refused)),
        }
    };
    match signed_in.await {
        Ok(Ok(())) => Redirect::to("/admin").into_response(),
        Ok(Err(refused)) => link_refused(&p, refused),
        Err(e) => p.refused(&e, &notice(l, &e)),
    }
}

/// Who invited, as the invited person would know them: a person by their
/// address; the bootstrap credentials and API keys as the owner's account.
fn inviter(l: Locale, actor: &str) -> String {
    if actor.contains('@') && !actor.starts_with("key:") {
        actor.to_string()
    } else {
        l.t(Msg::TeamOwnerInviter).to_string()
    }
}

/// 410: the link was used, has expired, or never was.
fn link_refused(p: &OpsPage<'_>, refused: LinkRefused) -> Response {
    let why = match refused {
        LinkRefused::Used => Msg::LinkUsed,
        LinkRefused::Expired => Msg::TeamLinkExpired,
        LinkRefused::Unknown => Msg::LinkUnknown,
    };
    (
        StatusCode::GONE,
        p.html(&format!(
            r#"<p class="notice" role="status">{}</p>"#,
            escape(p.l.t(why))
        )),
    )
        .into_response()
}

fn notice(l: Locale, e: &ApiError) -> String {
    format!(
        r#"<p class="notice" role="alert">{}</p>"#,
        escape(&e.for_buyer(l))
    )
}
