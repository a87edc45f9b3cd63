//! The second step of signing in, for the roles that move money (plain
//! HTML). After their mailed link, such a person gives their password and
//! a code from their authenticator app; the first time, they set both:
//! the page shows a new secret as a QR code (kept in the session until a
//! code from it is read back), then their recovery codes, once.

use axum::extract::State;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Extension, Form, Router};
use holdfast_app::i18n::{Locale, Msg};
use holdfast_core::admin::auth::Admin;
use holdfast_core::admin::team::Member;
use holdfast_core::admin::two_factor::{self, MIN_PASSWORD};
use holdfast_core::platform::client_addr::ClientAddr;
use holdfast_core::ticket::image::qr_svg;
use holdfast_core::{ApiError, AppState};
use holdfast_model::seat_drawing::escape;
use holdfast_web::HttpError;
use serde::Deserialize;
use tower_sessions::Session;

use crate::server::language::Lang;
use crate::server::operations_layout::OpsPage;

/// Where the secret being set up waits for its first code.
const ENROLMENT_KEY: &str = "two_factor_enrolment";

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/admin/two-factor", get(page).post(verify))
        .route("/admin/two-factor/enrol", post(enrol))
}

fn page_of(l: Locale) -> OpsPage<'static> {
    OpsPage {
        l,
        title: l.t(Msg::TwoFactorTitle),
        intro: "",
    }
}

/// The member who owes the second factor, or where to send the browser.
async fn owing(
    state: &AppState,
    session: &Session,
) -> Result<Result<(Member, Admin), Response>, ApiError> {
    let now = state.clock.now();
    if let Some(owing) = state.admin.owing_second_factor(session, now).await? {
        return Ok(Ok(owing));
    }
    let signed_in = state.admin.session_is_admin(session, now).await;
    Ok(Err(Redirect::to(if signed_in {
        "/admin"
    } else {
        "/admin/sign-in"
    })
    .into_response()))
}

async fn page(
    State(state): State<AppState>,
    session: Session,
    Lang(l): Lang,
) -> Result<Response, HttpError> {
    let (member, admin) = match owing(&state, &session).await? {
        Ok(owing) => owing,
        Err(elsewhere) => return Ok(elsewhere),
    };
    Ok(page_of(l)
        .html(&form(&state, &session, l, member, &admin, None).await?)
        .into_response())
}

/// The verification form when the member has a second factor, else the
/// enrolment form (with the session's pending secret); `refusal` first.
async fn form(
    state: &AppState,
    session: &Session,
    l: Locale,
    member: Member,
    admin: &Admin,
    refusal: Option<&str>,
) -> Result<String, ApiError> {
    let refusal = refusal.map_or(String::new(), |why| {
        format!(r#"<p class="error" role="alert">{}</p>"#, escape(why))
    });
    if two_factor::stored(&state.db, member).await?.is_some() {
        return Ok(format!(
            r#"{refusal}<p>{intro}</p><form method="post" action="/admin/two-factor" class="grant"><label>{password} <input type="password" name="password" required autocomplete="current-password"></label><label>{code} <input name="code" required inputmode="numeric" autocomplete="one-time-code"></label><button>{go}</button></form>"#,
            intro = escape(l.t(Msg::TwoFactorVerifyIntro)),
            password = escape(l.t(Msg::TwoFactorPassword)),
            code = escape(l.t(Msg::TwoFactorCode)),
            go = escape(l.t(Msg::TwoFactorVerifyButton)),
        ));
    }
    let secret = match session
        .get::<String>(ENROLMENT_KEY)
        .await
        .map_err(ApiError::internal)?
    {
        Some(secret) => secret,
        None => {
            let secret = two_factor::new_secret();
            session
                .insert(ENROLMENT_KEY, &secret)
                .await
                .map_err(ApiError::internal)?;
            secret
        }
    };
    let uri = two_factor::otpauth_uri(&secret, &admin.actor);
    Ok(format!(
        r#"{refusal}<p>{intro}</p><figure class="totp-qr">{qr}</figure><p>{key_l} <code data-testid="totp-secret">{secret}</code></p><form method="post" action="/admin/two-factor/enrol" class="grant"><label>{password} <input type="password" name="password" required minlength="{MIN_PASSWORD}" autocomplete="new-password"></label><label>{code} <input name="code" required inputmode="numeric" autocomplete="one-time-code"></label><button>{go}</button></form>"#,
        intro = escape(l.t(Msg::TwoFactorEnrolIntro)),
        qr = qr_svg(&uri).unwrap_or_default(),
        key_l = escape(l.t(Msg::TwoFactorKey)),
        secret = escape(&secret),
        password = escape(&l.fill(Msg::TwoFactorNewPassword, &[("n", &MIN_PASSWORD)])),
        code = escape(l.t(Msg::TwoFactorCode)),
        go = escape(l.t(Msg::TwoFactorEnrolButton)),
    ))
}

#[derive(Deserialize)]
struct Given {
    password: String,
    code: String,
}

async fn verify(
    State(state): State<AppState>,
    session: Session,
    client: Option<Extension<ClientAddr>>,
    Lang(l): Lang,
    Form(given): Form<Given>,
) -> Result<Response, HttpError> {
    let (member, admin) = match owing(&state, &session).await? {
        Ok(owing) => owing,
        Err(elsewhere) => return Ok(elsewhere),
    };
    let client = client.map(|Extension(c)| c.limit_key());
    let now = state.clock.now();
    let given = state
        .admin
        .give_second_factor(&session, client, member, &given.password, &given.code, now)
        .await;
    match given {
        Ok(()) => Ok(Redirect::to("/admin").into_response()),
        Err(e) => refused(&state, &session, l, member, &admin, &e).await,
    }
}

async fn enrol(
    State(state): State<AppState>,
    session: Session,
    client: Option<Extension<ClientAddr>>,
    Lang(l): Lang,
    Form(given): Form<Given>,
) -> Result<Response, HttpError> {
    let (member, admin) = match owing(&state, &session).await? {
        Ok(owing) => owing,
        Err(elsewhere) => return Ok(elsewhere),
    };
    let client = client.map(|Extension(c)| c.limit_key());
    let Some(secret) = session
        .get::<String>(ENROLMENT_KEY)
        .await
        .map_err(ApiError::internal)?
    else {
        return Ok(Redirect::to("/admin/two-factor").into_response());
    };
    let now = state.clock.now();
    let enrolled = match state.admin.count_failure(client) {
        Ok(()) => {
            two_factor::enrol(
                &state.db,
                member,
                &secret,
                &given.password,
                &given.code,
                now,
            )
            .await
        }
        Err(e) => Err(e),
    };
    match enrolled {
        Ok(codes) => {
            state.admin.forget_failure(client);
            session
                .remove::<String>(ENROLMENT_KEY)
                .await
                .map_err(ApiError::internal)?;
            state.admin.second_factor_given(&session).await?;
            let list: String = codes
                .iter()
                .map(|c| format!("<li><code>{}</code></li>", escape(c)))
                .collect();
            Ok(page_of(l)
                .html(&format!(
                    r#"<h2>{title}</h2><p>{intro}</p><ol class="recovery-codes" data-testid="recovery-codes">{list}</ol><p><a href="/admin">{go}</a></p>"#,
                    title = escape(l.t(Msg::TwoFactorCodesTitle)),
                    intro = escape(l.t(Msg::TwoFactorCodesIntro)),
                    go = escape(l.t(Msg::TwoFactorToConsole)),
                ))
                .into_response())
        }
        Err(e) => {
            if !matches!(e, ApiError::Forbidden | ApiError::RateLimited { .. }) {
                // Not a wrong code: nothing guessed.
                state.admin.forget_failure(client);
            }
            refused(&state, &session, l, member, &admin, &e).await
        }
    }
}

async fn refused(
    state: &AppState,
    session: &Session,
    l: Locale,
    member: Member,
    admin: &Admin,
    e: &ApiError,
) -> Result<Response, HttpError> {
    let why = match e {
        ApiError::Forbidden => l.t(Msg::TwoFactorWrong).to_string(),
        other => other.for_buyer(l),
    };
    let body = form(state, session, l, member, admin, Some(&why)).await?;
    Ok(page_of(l).refused(e, &body))
}
