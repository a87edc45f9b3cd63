//! Outbox email over SMTP (lettre) against a small SMTP server on 127.0.0.1
//! that records what it receives: the confirmation goes to the address the
//! checkout collected, exactly once however often the dispatcher runs, a
//! relay that refuses leaves the mail in the outbox until it accepts, and a
//! send cut short by a crash is not repeated (at most once).

use crate::common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use common::{Backend, TestApp};
use holdfast_core::payments::sandbox::Delivery;
use mail_parser::MimeHeaders;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// One received message: the envelope recipients and the DATA text.
#[derive(Debug, Clone)]
struct Received {
    recipients: Vec<String>,
    data: String,
}

#[derive(Default)]
struct Relay {
    received: Mutex<Vec<Received>>,
    /// Answers `451` to MAIL FROM while set (a relay that is down).
    refusing: AtomicBool,
}

/// Speaks just enough SMTP (RFC 5321) for a client: greeting, EHLO, MAIL,
/// RCPT, DATA, RSET, NOOP, QUIT.
async fn start_relay() -> (String, Arc<Relay>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("smtp://{}", listener.local_addr().unwrap());
    let relay = Arc::new(Relay::default());
    let shared = relay.clone();
    tokio::spawn(async move {
        loop {
            let Ok((socket, _)) = listener.accept().await else {
                return;
            };
            let relay = shared.clone();
            tokio::spawn(async move {
                let (read, mut write) = socket.into_split();
                let mut lines = BufReader::new(read).lines();
                let _ = write.write_all(b"220 relay.test ESMTP\r\n").await;
                let mut current = Received {
                    recipients: Vec::new(),
                    data: String::new(),
                };
                while let Ok(Some(line)) = lines.next_line().await {
                    let verb = line.get(..4).unwrap_or("").to_ascii_uppercase();
                    let answer: &[u8] = match verb.as_str() {
                        "EHLO" | "HELO" => b"250-relay.test\r\n250 8BITMIME\r\n",
                        "MAIL" if relay.refusing.load(Ordering::SeqCst) => {
                            b"451 4.3.0 try again later\r\n"
                        }
                        "MAIL" | "RSET" | "NOOP" => {
                            current.recipients.clear();
                            b"250 OK\r\n"
                        }
                        "RCPT" => {
                            let to = line[line.find('<').unwrap_or(0)..]
                                .trim_matches(|c| c == '<' || c == '>')
                                .to_string();
                            current.recipients.push(to);
                            b"250 OK\r\n"
                        }
                        "DATA" => {
                            let _ = write.write_all(b"354 go ahead\r\n").await;
                            let mut data = String::new();
                            while let Ok(Some(l)) = lines.next_line().await {
                                if l == "." {
                                    break;
                                }
                                // A line the client dot-stuffed (RFC 5321 4.5.2).
                                data.push_str(
                                    l.strip_prefix('.')
                                        .filter(|_| l.starts_with(".."))
                                        .unwrap_or(&l),
                                );
                                data.push('\n');
                            }
                            current.data = data;
                            relay.received.lock().unwrap().push(current.clone());
                            b"250 queued\r\n"
                        }
                        "QUIT" => {
                            let _ = write.write_all(b"221 bye\r\n").await;
                            return;
                        }
                        _ => b"502 not here\r\n",
                    };
                    if write.write_all(answer).await.is_err() {
                        return;
                    }
                }
            });
        }
    });
    (url, relay)
}

async fn app_with_relay(backend: Backend) -> Option<(TestApp, Arc<Relay>)> {
    if matches!(backend, Backend::Postgres) && !common::wants_postgres() {
        return None;
    }
    let (url, relay) = start_relay().await;
    let (db, tmp) = common::fresh_database(backend).await;
    let app = common::spawn_on(&db, tmp, |c| c.smtp_url = Some(url)).await;
    Some((app, relay))
}

/// Hold, pay, and pay on the sandbox page with an email address.
async fn buy(app: &TestApp, seat: i64) -> String {
    app.book(&[seat], "ada@example.com", Delivery::Twice)
        .await
        .1
}

async fn confirmation_sent_once_over_smtp(backend: Backend) {
    let Some((app, relay)) = app_with_relay(backend).await else {
        return;
    };
    let booking = buy(&app, 120).await;
    app.dispatch_outbox().await;
    app.dispatch_outbox().await;
    let got = relay.received.lock().unwrap().clone();
    assert_eq!(got.len(), 1, "one mail, however often it runs: {got:?}");
    assert_eq!(got[0].recipients, vec!["ada@example.com".to_string()]);
    assert!(got[0].data.contains("Subject: Your booking is confirmed"));
    assert!(Letter::of(&got[0]).text.contains(&booking));
    let channel: (String, String) =
        sqlx::query_as("select channel, recipient from mailbox where booking_id = $1")
            .bind(&booking)
            .fetch_one(app.state.db.reader())
            .await
            .unwrap();
    assert_eq!(channel, ("smtp".into(), "ada@example.com".into()));
    app.assert_invariants().await;
}

async fn a_refusing_relay_keeps_the_mail_in_the_outbox(backend: Backend) {
    let Some((app, relay)) = app_with_relay(backend).await else {
        return;
    };
    relay.refusing.store(true, Ordering::SeqCst);
    let booking = buy(&app, 121).await;
    assert_eq!(app.dispatch_outbox().await, 0);
    let pending = app
        .scalar("select count(*) from outbox where delivered_at is null and kind = 'email'")
        .await;
    assert_eq!(pending, 1, "the confirmation waits in the outbox");
    assert_eq!(app.scalar("select count(*) from mailbox").await, 0);

    relay.refusing.store(false, Ordering::SeqCst);
    app.clock.advance_ms(5_000); // past the retry backoff
    assert_eq!(app.dispatch_outbox().await, 1);
    let got = relay.received.lock().unwrap().clone();
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(Letter::of(&got[0]).text.contains(&booking));
}

/// A received mail taken apart: its plain text, its HTML, its inline images
/// (Content-ID, type, bytes).
struct Letter {
    text: String,
    html: String,
    images: Vec<(String, String, Vec<u8>)>,
}

impl Letter {
    fn of(received: &Received) -> Letter {
        let message = mail_parser::MessageParser::default()
            .parse(received.data.as_bytes())
            .expect("a MIME message");
        Letter {
            text: message.body_text(0).expect("a text part").into_owned(),
            html: message.body_html(0).expect("an HTML part").into_owned(),
            images: message
                .attachments()
                .map(|a| {
                    let kind = a
                        .content_type()
                        .map(|t| format!("{}/{}", t.ctype(), t.subtype().unwrap_or_default()))
                        .unwrap_or_default();
                    (
                        a.content_id().unwrap_or_default().to_string(),
                        kind,
                        a.contents().to_vec(),
                    )
                })
                .collect(),
        }
    }
}

/// The confirmation is worth receiving: the event, its place and time, the
/// places, the amount, a link to the booking, in plain text and in HTML,
/// with each ticket's QR code as an inline PNG the HTML shows.
async fn the_confirmation_carries_the_booking_and_its_tickets(backend: Backend) {
    let Some((app, relay)) = app_with_relay(backend).await else {
        return;
    };
    let (_, booking) = app
        .book(&[130, 131], "ada@example.com", Delivery::Once)
        .await;
    app.dispatch_outbox().await;
    let got = relay.received.lock().unwrap().clone();
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0].data.contains("multipart/alternative"),
        "{}",
        got[0].data
    );
    assert!(got[0].data.contains("multipart/related"));
    let letter = Letter::of(&got[0]);
    let (name, venue): (String, String) =
        sqlx::query_as("select name, venue from event where id = 1")
            .fetch_one(app.state.db.reader())
            .await
            .unwrap();
    let amount = app
        .scalar(&format!(
            "select amount_cents from booking where id = '{booking}'"
        ))
        .await;
    let paid = holdfast_model::money::Money::of(amount, "EUR")
        .unwrap()
        .format(holdfast_app::i18n::Locale::En);
    let link = format!("{}/bookings/{booking}", app.base);
    for part in [&letter.text, &letter.html] {
        for said in [&name, &venue, &paid, &link] {
            assert!(part.contains(said.as_str()), "{said:?} missing from {part}");
        }
    }
    assert!(
        letter.html.contains(&format!(r#"<a href="{link}">"#)),
        "{}",
        letter.html
    );
    assert_eq!(letter.images.len(), 2, "one QR code per seat");
    for (i, (seat, (cid, kind, png))) in [130, 131].iter().zip(&letter.images).enumerate() {
        assert_eq!(cid, &format!("ticket-{}@holdfast", i + 1));
        assert_eq!(kind, "image/png");
        assert!(
            letter.html.contains(&format!("cid:{cid}")),
            "{}",
            letter.html
        );
        // The very code the door checks for that seat.
        let token = app
            .state
            .tickets
            .unit_token(&booking.clone().into(), &seat.to_string());
        assert_eq!(
            Some(png.clone()),
            holdfast_core::ticket::image::qr_png(&token)
        );
    }
    app.assert_invariants().await;
}

/// Over a relay, the sign-in link reaches the buyer and no copy kept here
/// carries it.
async fn a_sign_in_link_leaves_no_copy_behind(backend: Backend) {
    let Some((app, relay)) = app_with_relay(backend).await else {
        return;
    };
    let asked = app
        .buyer()
        .post(
            "/api/auth/email-link",
            None,
            Some(serde_json::json!({ "email": "ada@example.com" })),
        )
        .await;
    assert_eq!(asked.status, 202, "{}", asked.text);
    app.dispatch_outbox().await;
    let got = relay.received.lock().unwrap().clone();
    assert_eq!(got[0].recipients, vec!["ada@example.com".to_string()]);
    let letter = Letter::of(&got[0]);
    let at = letter.text.find("/auth/").expect("the link");
    let token = &letter.text[at + 6..at + 6 + 64];
    assert!(letter.html.contains(token));
    let (body,): (String,) =
        sqlx::query_as("select body from mailbox where recipient = 'ada@example.com'")
            .fetch_one(app.state.db.reader())
            .await
            .unwrap();
    let (payload,): (String,) = sqlx::query_as("select payload from outbox where kind = 'email'")
        .fetch_one(app.state.db.reader())
        .await
        .unwrap();
    for kept in [&body, &payload] {
        assert!(!kept.contains(token), "{kept}");
        assert!(
            kept.contains(holdfast_core::payments::outbox::REDACTED),
            "{kept}"
        );
    }
    // The link works.
    let buyer = app.buyer();
    let opened = buyer
        .open_sign_in_link(&format!("/auth/{token}"), false)
        .await;
    assert_eq!(opened.status, 200, "{}", opened.text);
    let me = buyer.get("/api/auth/session").await.json();
    assert_eq!(me["email"], "ada@example.com");
}

for_each_backend!(
    the_confirmation_carries_the_booking_and_its_tickets,
    a_sign_in_link_leaves_no_copy_behind
);

/// A dispatcher that handed the mail to the relay and died before writing it
/// down left the row marked: the next one skips it rather than send it twice.
async fn a_send_cut_short_is_not_sent_again(backend: Backend) {
    let Some((app, relay)) = app_with_relay(backend).await else {
        return;
    };
    let booking = buy(&app, 123).await;
    sqlx::query("update outbox set sending_at = 1 where kind = 'email' and booking_id = $1")
        .bind(&booking)
        .execute(app.state.db.writer())
        .await
        .unwrap();
    assert_eq!(app.dispatch_outbox().await, 1);
    app.clock.advance_ms(120_000);
    assert_eq!(app.dispatch_outbox().await, 0);
    assert!(
        relay.received.lock().unwrap().is_empty(),
        "sent a second time"
    );
    let channel: String = sqlx::query_scalar("select channel from mailbox where booking_id = $1")
        .bind(&booking)
        .fetch_one(app.state.db.reader())
        .await
        .unwrap();
    assert_eq!(channel, "smtp-unconfirmed");
    app.assert_invariants().await;
}

for_each_backend!(confirmation_sent_once_over_smtp);

for_each_backend!(a_send_cut_short_is_not_sent_again);

for_each_backend!(a_refusing_relay_keeps_the_mail_in_the_outbox);

/// A relay that keeps refusing: the mail is tried `MAIL_ATTEMPTS` times,
/// then given up (a dead letter) with the relay's words kept for the
/// operator; it is no longer due, and the metrics count it apart.
async fn a_mail_refused_every_time_is_given_up_with_its_cause(backend: Backend) {
    use holdfast_core::payments::outbox::{self, MAIL_ATTEMPTS};
    let Some((app, relay)) = app_with_relay(backend).await else {
        return;
    };
    relay.refusing.store(true, Ordering::SeqCst);
    buy(&app, 122).await;
    for _ in 0..MAIL_ATTEMPTS + 3 {
        assert_eq!(app.dispatch_outbox().await, 0);
        app.clock.advance_ms(1_100 * 1_000); // past the longest backoff
    }
    let (attempts, failed, cause): (i64, Option<i64>, Option<String>) =
        sqlx::query_as("select attempts, failed_at, last_error from outbox where kind = 'email'")
            .fetch_one(app.state.db.reader())
            .await
            .unwrap();
    assert_eq!(attempts, MAIL_ATTEMPTS, "tried so often, then no more");
    assert!(failed.is_some(), "given up");
    let cause = cause.expect("the cause is kept");
    assert!(
        cause.contains("451") || cause.contains("try again"),
        "{cause}"
    );
    let backlog = outbox::backlog(&app.state).await.unwrap();
    assert_eq!((backlog.waiting, backlog.given_up), (0, 1));
    // The relay comes back: a dead letter stays given up until an operator
    // sends it again.
    relay.refusing.store(false, Ordering::SeqCst);
    assert_eq!(app.dispatch_outbox().await, 0);
    assert!(relay.received.lock().unwrap().is_empty());
}

for_each_backend!(a_mail_refused_every_time_is_given_up_with_its_cause);
