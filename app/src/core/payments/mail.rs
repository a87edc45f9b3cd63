//! How a notification leaves: through SMTP (lettre) when `SMTP_URL` is set
//! and the buyer's address is known (the one the provider's checkout
//! collected), otherwise into the local mailbox table only. Either way the
//! mailbox keeps a row per dedupe key: it is the log the admin console and
//! the tests read, and what stops a second delivery of the same mail.

use lettre::message::{header::ContentType, Mailbox};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

/// Where mail goes.
pub enum Mailer {
    /// Only the local mailbox table.
    Mailbox,
    Smtp {
        transport: AsyncSmtpTransport<Tokio1Executor>,
        from: Mailbox,
    },
}

impl Mailer {
    /// `smtp://host:port` (plain), `smtp://host?tls=required` (STARTTLS) or
    /// `smtps://host` (TLS), with `user:password@` when the relay wants it.
    pub fn smtp(url: &str, from: &str) -> Result<Mailer, String> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|e| format!("SMTP_URL: {e}"))?
            .timeout(Some(std::time::Duration::from_secs(10)))
            .build();
        let from = from
            .parse()
            .map_err(|e| format!("MAIL_FROM {from:?}: {e}"))?;
        Ok(Mailer::Smtp { transport, from })
    }

    /// The channel a mail to `to` takes: `smtp` only with a real address.
    pub fn channel_for(&self, to: Option<&str>) -> &'static str {
        match (self, to) {
            (Mailer::Smtp { .. }, Some(_)) => "smtp",
            _ => "mailbox",
        }
    }

    /// Sends one mail over SMTP (a no-op for the mailbox-only mailer).
    pub async fn send(&self, to: &str, subject: &str, body: &str) -> Result<(), String> {
        let Mailer::Smtp { transport, from } = self else {
            return Ok(());
        };
        let to: Mailbox = to.parse().map_err(|e| format!("recipient {to:?}: {e}"))?;
        let message = Message::builder()
            .from(from.clone())
            .to(to)
            .subject(subject)
            .header(ContentType::TEXT_PLAIN)
            .body(body.to_string())
            .map_err(|e| e.to_string())?;
        transport
            .send(message)
            .await
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}
