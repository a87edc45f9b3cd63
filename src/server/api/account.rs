//! Buyers' accounts over the API: ask for a sign-in link, sign out, and
//! who the session is. The link itself is opened in a browser
//! (`account_pages`).

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use holdfast_app::i18n::Locale;
use holdfast_core::account::{link, session, EmailAddress};
use holdfast_core::platform::client_addr::ClientAddr;
use holdfast_core::platform::error::ErrorBody;
use holdfast_core::AppState;
use holdfast_web::HttpError;
use serde::{Deserialize, Serialize};
use tower_sessions::Session;

use super::extract::JsonBody;

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EmailLinkRequest {
    /// Where the link goes.
    email: String,
}

/// Whether the session is signed in, and as whom.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SignedIn {
    signed_in: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    email: Option<String>,
}

#[utoipa::path(
    post,
    path = "/api/auth/email-link",
    tag = "accounts",
    summary = "Mail a sign-in link (202 whatever the address has)",
    request_body = EmailLinkRequest,
    responses((status = 202, description = "`{ message }`: a link is on its way if the address can receive mail"), (status = 415, body = ErrorBody), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)),
)]
pub async fn email_link(
    State(state): State<AppState>,
    client: Option<Extension<ClientAddr>>,
    session: Session,
    headers: HeaderMap,
    JsonBody(request): JsonBody<EmailLinkRequest>,
) -> Result<Response, HttpError> {
    let address = EmailAddress::parse(&request.email)?;
    let client = client.map(|Extension(c)| c.limit_key());
    // The link is bound to this client's session: opened here, its guest
    // bookings come along without asking.
    let mark = session::browser_mark(&session).await?;
    link::request(
        &state,
        &address,
        client,
        Some(&mark),
        Locale::of_headers(&headers),
    )
    .await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(serde_json::json!({
            "message": "if that address can receive mail, a sign-in link is on its way; it works once, for 15 minutes"
        })),
    )
        .into_response())
}

#[utoipa::path(
    post,
    path = "/api/auth/sign-out",
    tag = "accounts",
    summary = "Sign this session out (it becomes a new guest)",
    responses((status = 200, body = SignedIn)),
)]
pub async fn sign_out(session: Session) -> Result<Json<SignedIn>, HttpError> {
    session::sign_out(&session).await?;
    Ok(Json(SignedIn {
        signed_in: false,
        email: None,
    }))
}

#[utoipa::path(
    get,
    path = "/api/auth/session",
    tag = "accounts",
    summary = "Whether this session is signed in, and to which address",
    responses((status = 200, body = SignedIn)),
)]
pub async fn whoami(session: Session) -> Result<Json<SignedIn>, HttpError> {
    let email = session::signed_in_as(&session).await?;
    Ok(Json(SignedIn {
        signed_in: email.is_some(),
        email,
    }))
}
