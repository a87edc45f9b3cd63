//! The frame every operations page shares (plain HTML, nothing in either
//! wasm): the layout with the links between the pages, the notice line,
//! and the rule each page follows — the console's sign-in link until the
//! reader is an admin.

use holdfast_web::HttpError;
use std::future::Future;
use std::ops::Deref;

use axum::response::{Html, IntoResponse, Response};
use holdfast_app::i18n::{Locale, Msg};
use holdfast_core::admin::auth::Admin;
use holdfast_core::ApiError;
use holdfast_model::console::team::ConsolePowers;
use holdfast_model::seat_drawing::escape;

/// One operations page: its language, title and the line under it.
pub(crate) struct OpsPage<'a> {
    pub l: Locale,
    pub title: &'a str,
    pub intro: &'a str,
}

impl OpsPage<'_> {
    /// The page around `body`, with no links but the console's (for a
    /// reader whose role is not known here).
    pub fn html(&self, body: &str) -> Html<String> {
        Html(shell(self, None, body))
    }

    /// The page around `body`, linking the pages `admin`'s role reaches.
    pub fn html_for(&self, admin: &Admin, body: &str) -> Html<String> {
        Html(shell(self, Some(admin.console_powers()), body))
    }

    /// What `body` makes for an admin allowed the page; for an admin whose
    /// role does not reach it, a 403 saying so; for anyone else, the way to
    /// sign in (`body` is then never run).
    pub async fn for_admin<T: Deref<Target = Admin>>(
        &self,
        admin: &Result<T, HttpError>,
        body: impl Future<Output = Result<String, HttpError>>,
    ) -> Result<Response, HttpError> {
        match admin {
            Ok(admin) => Ok(self.html_for(admin, &body.await?).into_response()),
            Err(HttpError(ApiError::Forbidden)) => Ok((
                axum::http::StatusCode::FORBIDDEN,
                self.html(&notice(self.l.t(Msg::NotYourRole))),
            )
                .into_response()),
            Err(_) => Ok(self.sign_in()),
        }
    }

    /// The page with the way to sign in, for a reader who is not an admin
    /// (a page whose title needs what only an admin may read asks first).
    pub fn sign_in(&self) -> Response {
        self.html(&sign_in_first(self.l)).into_response()
    }

    /// A form the use case refused: the page again, with the refusal's
    /// status.
    pub fn refused(&self, e: &ApiError, body: &str) -> Response {
        (holdfast_web::status_of(e), self.html(body)).into_response()
    }
}

/// A line saying what just happened (read out by screen readers).
pub(crate) fn notice(text: &str) -> String {
    format!("<p class=\"notice\" role=\"status\">{}</p>", escape(text))
}

fn sign_in_first(l: Locale) -> String {
    format!(
        "<p class=\"notice\">{}<a href=\"/admin\">{}</a></p>",
        escape(l.t(Msg::SignInConsoleFirst)),
        escape(l.t(Msg::SignInLink))
    )
}

/// The operations pages' own layout, inline: the buyer's stylesheet does not
/// carry it. On a phone each job is a card whose cells name their column.
const STYLE: &str = "main.operations{max-width:72rem;margin:0 auto;padding:1rem}\
table.job-list{border-collapse:collapse;width:100%}\
table.job-list th,table.job-list td{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}\
ol.runs{margin:0;padding-left:1.4rem;font-size:.9rem}\
li.run.failed,li.run.abandoned{color:#a40000}\
form.history-lookup{margin-top:1.5rem}dl.rebooking-progress{display:flex;flex-wrap:wrap;gap:1rem}dl.rebooking-progress div{background:#fff;border:1px solid #ddd;border-radius:8px;padding:.75rem 1rem;min-width:9rem}dl.rebooking-progress dd{margin:0;font-size:2rem;font-weight:700}details.cancel-sailing summary{cursor:pointer;color:#8a1c1c;font-weight:600;white-space:nowrap}table.sailing-list td:nth-child(3){white-space:nowrap}details.cancel-sailing form{display:flex;flex-direction:column;gap:.5rem;margin-top:.5rem;max-width:24rem}button.danger{background:#b42318;color:#fff;border:0;border-radius:6px;padding:.6rem 1rem;min-height:44px}fieldset{border:1px solid #ddd;border-radius:6px;margin:.5rem 0}form.grant{display:flex;flex-direction:column;gap:.4rem;max-width:32rem;margin:.5rem 0}form.grant label{display:flex;flex-direction:column;gap:.2rem}form.grant fieldset label{flex-direction:row;align-items:center;gap:.4rem;min-height:32px}form.grant select,form.grant input:not([type=checkbox]):not([type=radio]){min-height:44px;font-size:1rem;padding:0 .5rem}form.grant button{min-height:44px;background:#1d4ed8;color:#fff;border:0;border-radius:6px;padding:.6rem 1rem;font-weight:600;font-size:1rem}.event-choices{display:flex;flex-direction:column;gap:.1rem}fieldset:has(input[value=all]:checked) .event-choices{display:none}figure.totp-qr{margin:1rem 0}section.new-key code{font-size:1.05rem;word-break:break-all;background:#fff7d6;padding:.3rem}section.refund-policy{border-bottom:1px solid #ddd;padding:.5rem 0 1rem}section.refund-policy label{display:inline-block;margin:.3rem .8rem .3rem 0}form.history-lookup input{min-width:12rem}\
@media (max-width:700px){table.job-list thead{display:none}\
table.job-list tr{display:grid;grid-template-columns:1fr 1fr;gap:.2rem .6rem;border-bottom:1px solid #ccc;padding:.6rem 0}\
table.job-list th,table.job-list td{display:block;border:0;padding:0}\
table.job-list td[data-label]::before{content:attr(data-label) \": \";color:#555}\
table.job-list td:nth-child(5){grid-column:1/-1}\
ol.runs li:nth-child(n+4){display:none}button.run-now{min-height:44px}}";

fn shell(page: &OpsPage<'_>, powers: Option<ConsolePowers>, body: &str) -> String {
    let l = page.l;
    let intro = if page.intro.is_empty() {
        String::new()
    } else {
        format!("<p>{}</p>", escape(page.intro))
    };
    format!(
        r#"<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · Holdfast</title><link rel="stylesheet" href="/pkg/holdfast.css"><link rel="icon" href="/favicon.ico"><style>{STYLE}</style></head>
<body><main class="operations"><p class="console-links"><a href="/admin">← Console</a>{links}</p><h1>{title}</h1>{intro}{body}</main></body></html>"#,
        lang = l.tag(),
        title = escape(page.title),
        links = links(l, powers.unwrap_or_default()),
    )
}

/// The other console pages the reader's role reaches.
fn links(l: Locale, powers: ConsolePowers) -> String {
    powers
        .pages()
        .map(|p| format!(" · <a href=\"{}\">{}</a>", p.href, escape(l.t(p.words))))
        .collect()
}
