//! How a notification leaves: through SMTP (lettre) when `SMTP_URL` is set
//! and the buyer's address is known (the one the provider's checkout
//! collected), otherwise into the local mailbox table only. Either way the
//! mailbox keeps a row per dedupe key: it is the log the admin console and
//! the tests read, and what stops a second delivery of the same mail.
//!
//! Over SMTP a mail is a `Letter`: its plain text, the same as HTML (links
//! clickable), and — for a confirmation — each ticket's QR code as an
//! inline PNG the HTML shows (`multipart/alternative` of text and a
//! `multipart/related` HTML with its images).

use holdfast_model::seat_drawing::escape;
use lettre::message::{header::ContentType, Attachment, Mailbox, MultiPart, SinglePart};
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
    pub async fn send(&self, to: &str, letter: &Letter) -> Result<(), String> {
        let Mailer::Smtp { transport, from } = self else {
            return Ok(());
        };
        let to: Mailbox = to.parse().map_err(|e| format!("recipient {to:?}: {e}"))?;
        let html = letter.html();
        let body = if letter.images.is_empty() {
            MultiPart::alternative_plain_html(letter.text.clone(), html)
        } else {
            let related = letter.images.iter().fold(
                MultiPart::related().singlepart(SinglePart::html(html)),
                |related, image| {
                    related.singlepart(Attachment::new_inline(image.cid.clone()).body(
                        image.png.clone(),
                        ContentType::parse("image/png").expect("a MIME type"),
                    ))
                },
            );
            MultiPart::alternative()
                .singlepart(SinglePart::plain(letter.text.clone()))
                .multipart(related)
        };
        let message = Message::builder()
            .from(from.clone())
            .to(to)
            .subject(&letter.subject)
            .multipart(body)
            .map_err(|e| e.to_string())?;
        transport
            .send(message)
            .await
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}

/// A mail as it is sent: its words, and the images its HTML shows.
#[derive(Debug, Clone, Default)]
pub struct Letter {
    pub subject: String,
    /// The plain text (also what the mailbox keeps).
    pub text: String,
    pub images: Vec<InlineImage>,
}

/// An image the HTML part shows by its `cid`, with a caption.
#[derive(Debug, Clone)]
pub struct InlineImage {
    pub cid: String,
    pub caption: String,
    pub png: Vec<u8>,
}

impl Letter {
    /// The text as HTML: a paragraph per blank-line block, its lines kept,
    /// web addresses as links; then the images, each with its caption.
    pub fn html(&self) -> String {
        let mut html = String::from(
            r#"<!DOCTYPE html><html><body style="font-family:system-ui,sans-serif;line-height:1.45;color:#1f2933;max-width:36rem">"#,
        );
        for block in self.text.split("\n\n").filter(|b| !b.trim().is_empty()) {
            let lines: Vec<String> = block.trim().lines().map(linked).collect();
            html.push_str(&format!("<p>{}</p>", lines.join("<br>")));
        }
        for image in &self.images {
            html.push_str(&format!(
                r#"<figure style="margin:1rem 0"><img src="cid:{}" alt="{}" width="220" height="220"><figcaption>{}</figcaption></figure>"#,
                escape(&image.cid),
                escape(&image.caption),
                escape(&image.caption),
            ));
        }
        html.push_str("</body></html>");
        html
    }
}

/// A line of text as HTML, its web addresses as links.
fn linked(line: &str) -> String {
    line.split(' ')
        .map(|word| {
            if word.starts_with("https://") || word.starts_with("http://") {
                format!(r#"<a href="{0}">{0}</a>"#, escape(word))
            } else {
                escape(word)
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_keeps_the_words_links_them_and_shows_the_images() {
        let letter = Letter {
            subject: "s".into(),
            text: "Paid <3 & more\nsecond line\n\nhttps://x.test/bookings/1".into(),
            images: vec![InlineImage {
                cid: "ticket-1@holdfast".into(),
                caption: "Row A, seat 1".into(),
                png: vec![],
            }],
        };
        let html = letter.html();
        assert!(
            html.contains("<p>Paid &lt;3 &amp; more<br>second line</p>"),
            "{html}"
        );
        assert!(
            html.contains(r#"<a href="https://x.test/bookings/1">"#),
            "{html}"
        );
        assert!(
            html.contains(r#"<img src="cid:ticket-1@holdfast" alt="Row A, seat 1""#),
            "{html}"
        );
    }
}
