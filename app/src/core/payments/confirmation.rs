//! The confirmation a buyer receives when a booking is paid: what for
//! (the event, its place, its time in the event's own zone), which places
//! by the names the map and the booking page use, and what was paid; in the
//! language the buyer paid in. Read inside the transaction that books, so
//! it says what was booked.

use crate::core::event_time::local_start;
use crate::core::platform::clock::At;
use crate::core::platform::db::Tx;
use crate::i18n::{format, Locale, Msg};
use crate::model::money::Money;
use crate::model::BookingId;
use crate::model::EventKind;
use sqlx::AnyConnection;

/// The confirmation of a paid booking, in its buyer's language: (subject,
/// text).
pub async fn confirmation(
    tx: &mut Tx,
    booking_id: &BookingId,
    price: Money,
) -> Result<(String, String), sqlx::Error> {
    let l = crate::core::buyer_language::of_booking(tx, booking_id).await?;
    let subject = l.t(Msg::MailConfirmedSubject).to_string();
    let amount = price.format(l);
    let mut text = l.fill(
        Msg::MailPaid,
        &[("booking", &booking_id), ("amount", &amount)],
    );
    text.push('\n');
    let Some((kind, about)) = about(tx, booking_id, l).await? else {
        return Ok((subject, text));
    };
    text.push_str(&format!(
        "\n{about}\n{}\n{}\n",
        l.t(Msg::MailShowQr),
        kind.farewell(l)
    ));
    Ok((subject, text))
}

/// What a booking is for, as every mail about it says it: the event, its
/// place and its time in the event's zone, then each place by name (and
/// the standing places). `None` for a booking without its event.
pub async fn about(
    conn: &mut AnyConnection,
    booking_id: &BookingId,
    l: Locale,
) -> Result<Option<(EventKind, String)>, sqlx::Error> {
    #[derive(sqlx::FromRow)]
    struct Booked {
        name: String,
        kind: String,
        venue: String,
        starts_at: At,
        time_zone: String,
        /// Standing places.
        ga_quantity: i64,
    }
    let event: Option<Booked> = sqlx::query_as(
        "select e.name, e.kind, e.venue, e.starts_at, e.time_zone, b.ga_quantity
         from booking b join event e on e.id = b.event_id where b.id = $1",
    )
    .bind(booking_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(Booked {
        name,
        kind,
        venue,
        starts_at,
        time_zone: zone,
        ga_quantity: standing,
    }) = event
    else {
        return Ok(None);
    };
    let seats: Vec<(String, String, i64, i64, i64)> = sqlx::query_as(
        "select s.section, s.row_label, s.number, bs.guests,
                case when exists (select 1 from cabin c where c.seat_id = s.id) then 1 else 0 end
         from booking_seat bs join seat s on s.id = bs.seat_id
         where bs.booking_id = $1 order by s.id",
    )
    .bind(booking_id)
    .fetch_all(&mut *conn)
    .await?;
    let kind = EventKind::parse(&kind).unwrap_or(EventKind::Concert);
    let local = local_start(starts_at, &zone);
    let when = format::when(l, &local.at, &local.abbreviation).unwrap_or_default();
    let mut text = format!("{name}\n{venue} · {when}\n\n");
    for (section, row, number, guests, cabin) in seats {
        text.push_str(&kind.name_place(l, cabin == 1, &section, &row, number));
        if cabin == 1 {
            text.push_str(" · ");
            text.push_str(&l.plural(guests, Msg::GuestOne, Msg::GuestMany));
        }
        text.push('\n');
    }
    if standing > 0 {
        text.push_str(&l.plural(standing, Msg::StandingOne, Msg::StandingMany));
        text.push('\n');
    }
    Ok(Some((kind, text)))
}
