//! Outbox email over SMTP (lettre) against a small SMTP server on 127.0.0.1
//! that records what it receives: the confirmation goes to the address the
//! checkout collected, exactly once however often the dispatcher runs, a
//! relay that refuses leaves the mail in the outbox until it accepts, and a
//! send cut short by a crash is not repeated (at most once).

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use common::{Backend, TestApp};
use holdfast_app::core::payments::sandbox::Delivery;
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
                                data.push_str(&l);
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
    assert!(got[0].data.contains(&booking));
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
    assert!(got[0].data.contains(&booking));
}

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
