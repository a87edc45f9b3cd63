//! The buyer's language: pages in English or Vietnamese, chosen by the
//! remembered switch, else `Accept-Language`, else English; money and
//! times written as the language writes them; the REST API English
//! whatever the browser asks.

use crate::common;

use common::TestApp;
use holdfast_core::payments::sandbox::Delivery;
use reqwest::header::{ACCEPT_LANGUAGE, COOKIE, LOCATION, SET_COOKIE, VARY};
use reqwest::redirect::Policy;

/// A page as a browser asking for `language` gets it (no cookies kept).
async fn page(app: &TestApp, path: &str, headers: &[(&str, &str)]) -> (u16, String, String) {
    let mut req = reqwest::Client::new().get(format!("{}{path}", app.base));
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let r = req.send().await.expect("GET");
    let vary = r
        .headers()
        .get_all(VARY)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect::<Vec<_>>()
        .join(", ");
    (r.status().as_u16(), r.text().await.expect("body"), vary)
}

async fn hanoi(app: &TestApp) -> i64 {
    app.scalar("select id from event where currency = 'VND'")
        .await
}

on_both_backends!(
    a_vietnamese_browser_gets_vietnamese_pages_and_dong,
    |app: TestApp| async move {
        let vi = [(ACCEPT_LANGUAGE.as_str(), "vi-VN,vi;q=0.9,en;q=0.5")];
        let (status, home, vary) = page(&app, "/", &vi).await;
        assert_eq!(status, 200);
        assert!(home.contains(r#"<html lang="vi""#), "html lang");
        assert!(
            vary.contains("Accept-Language") && vary.contains("Cookie"),
            "{vary}"
        );
        for words in [
            "Đang mở bán",
            "Vé của tôi",
            "Hòa nhạc",
            "Du thuyền",
            "Nhà hát Lớn Hà Nội",
        ] {
            assert!(home.contains(words), "{words} on the home page");
        }
        // The Hà Nội night at 20:00 in Hà Nội, a Saturday, whatever the
        // server's zone; counts grouped the Vietnamese way.
        assert!(
            home.contains("20:00 UTC+07, Thứ Bảy 18/09/2027"),
            "the start in Vietnamese"
        );
        assert!(home.contains("Còn 10.000 / 10.000 chỗ"), "counts with dots");
        for english in ["On sale", "My bookings", ">Concert<", " of 556 available"] {
            assert!(!home.contains(english), "{english} left in English");
        }

        let event = hanoi(&app).await;
        let (_, map, _) = page(&app, &format!("/events/{event}"), &vi).await;
        for words in [
            "Lựa chọn của bạn",
            "2.500.000 ₫",
            "850.000 ₫",
            "Giữ chỗ",
            "Tìm chỗ tốt nhất",
        ] {
            assert!(map.contains(words), "{words} on the event page");
        }
        assert!(!map.contains("Your selection") && !map.contains("Hold seats"));

        // The same pages in English, by default and when asked.
        for headers in [&[][..], &[(ACCEPT_LANGUAGE.as_str(), "en-GB,vi;q=0.5")][..]] {
            let (_, home, _) = page(&app, "/", headers).await;
            assert!(home.contains(r#"<html lang="en""#));
            assert!(home.contains("On sale") && home.contains("556 of 556 available"));
            assert!(home.contains("Sat 18 September 2027, 20:00 UTC+07"));
            let (_, map, _) = page(&app, &format!("/events/{event}"), headers).await;
            assert!(map.contains("₫2,500,000") && map.contains("Your selection"));
        }

        // The API speaks English to integrators, whatever the browser asks.
        let buyer = app.buyer();
        let refused = buyer
            .send(
                reqwest::Method::POST,
                &format!("/api/events/{event}/seats/999999999/hold"),
                &[("Idempotency-Key", &common::new_key()), vi[0]],
                None,
            )
            .await;
        assert_eq!(refused.status, 404, "{}", refused.text);
        assert!(refused.json()["error"]["message"]
            .as_str()
            .unwrap()
            .is_ascii());
    }
);

on_both_backends!(
    the_switch_remembers_the_choice_and_goes_back_only_here,
    |app: TestApp| async move {
        let client = reqwest::Client::builder()
            .redirect(Policy::none())
            .build()
            .unwrap();
        let switch = |query: &str| client.get(format!("{}/lang?{query}", app.base)).send();

        let r = switch("to=vi&back=%2Fevents%2F2%3Fx%3D1").await.unwrap();
        assert_eq!(r.status(), 303);
        assert_eq!(r.headers()[LOCATION], "/events/2?x=1");
        let cookie = r.headers()[SET_COOKIE].to_str().unwrap().to_string();
        assert!(cookie.starts_with("holdfast_lang=vi;"), "{cookie}");
        assert!(cookie.contains("Max-Age=31536000") && cookie.contains("Path=/"));

        // The choice wins over the browser's language.
        let (_, home, _) = page(
            &app,
            "/",
            &[
                (COOKIE.as_str(), "holdfast_lang=vi"),
                (ACCEPT_LANGUAGE.as_str(), "en"),
            ],
        )
        .await;
        assert!(home.contains(r#"<html lang="vi""#) && home.contains("Đang mở bán"));
        let (_, home, _) = page(
            &app,
            "/",
            &[
                (COOKIE.as_str(), "holdfast_lang=en"),
                (ACCEPT_LANGUAGE.as_str(), "vi"),
            ],
        )
        .await;
        assert!(home.contains(r#"<html lang="en""#) && home.contains("On sale"));

        // Never elsewhere: another host, a scheme, or nothing goes home.
        for back in [
            "%2F%2Fevil.example%2F",
            "https%3A%2F%2Fevil.example",
            "%2F%5Cevil.example",
            "",
        ] {
            let r = switch(&format!("to=en&back={back}")).await.unwrap();
            assert_eq!(r.status(), 303);
            assert_eq!(r.headers()[LOCATION], "/", "back={back}");
        }
        // A language Holdfast does not speak: the API's error shape, no cookie.
        for query in ["to=klingon", "", "to="] {
            let r = switch(query).await.unwrap();
            assert_eq!(r.status(), 400, "{query}");
            assert!(r.headers().get(SET_COOKIE).is_none());
            let body: serde_json::Value = r.json().await.unwrap();
            assert_eq!(body["error"]["code"], "VALIDATION");
        }
    }
);

on_both_backends!(
    a_buyer_who_pays_in_vietnamese_is_written_to_in_vietnamese,
    |app: TestApp| async move {
        let event = hanoi(&app).await;
        let seat = app.first_seat(event).await;
        let buyer = app.buyer();
        let booking = buyer.held_booking(event, seat).await;
        let key = common::new_key();
        let paid = buyer
            .send(
                reqwest::Method::POST,
                &format!("/api/bookings/{booking}/pay"),
                &[
                    ("Idempotency-Key", &key),
                    (ACCEPT_LANGUAGE.as_str(), "vi-VN"),
                ],
                None,
            )
            .await;
        app.pay_on_sandbox(&paid, "khach@example.vn", Delivery::Once)
            .await;
        app.deliver_events().await;
        assert_eq!(app.status_of(&booking).await, "BOOKED");
        app.dispatch_outbox().await;
        let mail = |booking: String| {
            let db = app.state.db.clone();
            async move {
                let rows: Vec<(String, String)> = sqlx::query_as(
                    "select subject, body from mailbox where booking_id = $1 order by id",
                )
                .bind(booking)
                .fetch_all(db.reader())
                .await
                .unwrap();
                rows
            }
        };
        let sent = mail(booking.clone()).await;
        assert_eq!(sent.len(), 1, "{sent:?}");
        let (subject, body) = &sent[0];
        assert_eq!(subject, "Đơn đặt chỗ của bạn đã được xác nhận");
        for words in [
            "đã được thanh toán (2.500.000 ₫)",
            "Đêm nhạc Hà Nội — Hanoi Jazz Night",
            "Nhà hát Lớn Hà Nội (Hanoi Opera House) · 20:00 UTC+07, Thứ Bảy 18/09/2027",
            "Khu 1, hàng A, ghế 1",
            "Chúc bạn xem biểu diễn vui vẻ!",
        ] {
            assert!(body.contains(words), "{words} in {body}");
        }
        assert!(
            !body.contains("Section") && !body.contains("Enjoy"),
            "{body}"
        );
        // The API still names the seat in English for integrators.
        let view = buyer.get(&format!("/api/bookings/{booking}")).await.json();
        assert_eq!(view["seats"][0]["name"], "Section 1, row A, seat 1");

        // The organizer refunds it: that mail is Vietnamese too.
        app.refund_by_admin(&booking).await;
        app.dispatch_outbox().await;
        app.deliver_events().await;
        app.dispatch_outbox().await;
        assert_eq!(app.status_of(&booking).await, "REFUNDED");
        let sent = mail(booking.clone()).await;
        assert_eq!(sent.len(), 2, "{sent:?}");
        assert_eq!(sent[1].0, "Khoản thanh toán của bạn đã được hoàn lại");
        assert!(
            sent[1]
                .1
                .starts_with("Ban tổ chức đã hủy đơn đặt chỗ của bạn và hoàn lại toàn bộ tiền."),
            "{}",
            sent[1].1
        );
        // It says what the booking was for, and where to see it, in Vietnamese.
        assert!(
            sent[1].1.contains("Đơn đặt chỗ của bạn, trên mọi thiết bị"),
            "{}",
            sent[1].1
        );
        assert!(
            sent[1].1.contains(&format!("/bookings/{booking}")),
            "{}",
            sent[1].1
        );

        // A buyer who never said otherwise is written to in English.
        let (_, english) = app.book(&[5], "fan@example.com", Delivery::Once).await;
        app.dispatch_outbox().await;
        let sent = mail(english).await;
        assert_eq!(sent[0].0, "Your booking is confirmed");
        app.assert_invariants().await;
    }
);
