//! The dashboard's logs, under their own tab: the webhook inbox, the mail
//! that left, and what admins did (who, from which address) — each with
//! an empty state that says what would appear.

use leptos::prelude::*;

use crate::i18n::{t, use_locale, Msg};
use crate::model::console::Dashboard;
use crate::ui::console::words;

/// The three logs of the dashboard `d`.
pub fn logs(d: Dashboard) -> impl IntoView {
    let l = use_locale();
    let webhooks = if d.webhooks.is_empty() {
        view! { <p class="empty">{t(Msg::NoWebhooksYet)}</p> }.into_any()
    } else {
        view! {
            <table class="webhooks">
                <thead><tr><th>{t(Msg::ColEvent)}</th><th>{t(Msg::ColType)}</th><th>{t(Msg::ColBooking)}</th><th>{t(Msg::ColOutcome)}</th><th>{t(Msg::ColReceived)}</th></tr></thead>
                <tbody>{d.webhooks.into_iter().map(|w| view! {
                    <tr><td>{w.event_id}</td><td>{w.kind}</td><td>{w.booking_id.map(|b| words::short(&b)).unwrap_or_default()}</td><td>{words::outcome(l, &w.outcome)}</td><td>{words::when(l, &w.at_local, &w.received_at)}</td></tr>
                }).collect_view()}</tbody>
            </table>
        }
        .into_any()
    };
    let mail = if d.mail.is_empty() {
        view! { <p class="empty">{t(Msg::NoMailYet)}</p> }.into_any()
    } else {
        view! {
            <table class="mail">
                <thead><tr><th>{t(Msg::ColBooking)}</th><th>{t(Msg::ColTo)}</th><th>{t(Msg::ColSubject)}</th><th>{t(Msg::ColChannel)}</th><th>{t(Msg::ColAt)}</th></tr></thead>
                <tbody>{d.mail.into_iter().map(|m| view! {
                    <tr><td>{words::short(&m.booking_id)}</td><td>{m.recipient}</td><td>{m.subject}</td><td>{words::channel(l, &m.channel)}</td><td>{words::when(l, &m.at_local, &m.at)}</td></tr>
                }).collect_view()}</tbody>
            </table>
        }
        .into_any()
    };
    let audit = if d.audit.is_empty() {
        view! { <p class="empty">{t(Msg::NoAuditYet)}</p> }.into_any()
    } else {
        view! {
            <table class="audit">
                <thead><tr><th>{t(Msg::ColWho)}</th><th>{t(Msg::ColFromAddress)}</th><th>{t(Msg::ColWhat)}</th><th>{t(Msg::ColBooking)}</th><th>{t(Msg::ColDetail)}</th><th>{t(Msg::ColWhen)}</th></tr></thead>
                <tbody>{d.audit.into_iter().map(|a| view! {
                    <tr><td>{words::actor(l, &a.actor)}</td><td class="client">{a.client.unwrap_or_default()}</td><td>{words::action(l, &a.action)}</td><td>{a.booking_id.map(|b| words::short(&b)).unwrap_or_default()}</td><td>{if a.detail_words.is_empty() { a.detail } else { a.detail_words }}</td><td>{words::when(l, &a.at_local, &a.at)}</td></tr>
                }).collect_view()}</tbody>
            </table>
        }
        .into_any()
    };
    view! {
        <h2>{t(Msg::WebhookInbox)}</h2>
        {webhooks}
        <h2>{t(Msg::MailHeading)}</h2>
        {mail}
        <h2>{t(Msg::AuditHeading)}</h2>
        {audit}
    }
}
