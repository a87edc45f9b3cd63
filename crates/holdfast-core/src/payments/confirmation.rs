//! The confirmation a buyer receives when a booking is paid: what for
//! (the event, its place, its time in the event's own zone), which places
//! by the names the map and the booking page use, and what was paid; in the
//! language the buyer paid in. Read inside the transaction that books, so
//! it says what was booked.

use crate::event_time::local_start;
use crate::platform::clock::At;
use crate::platform::db::Tx;
use holdfast_model::i18n::{format, Locale, Msg};
use holdfast_model::money::Money;
use holdfast_model::EventKind;
use holdfast_model::{BookingId, SeatId};
use sqlx::AnyConnection;

/// The confirmation of a paid booking, in its buyer's language.
pub struct Confirmation {
    pub subject: String,
    pub text: String,
    /// The booking's seats, in seat order, as read for the text (`None`
    /// for a booking without its event, whose places were not read).
    pub seats: Option<Vec<SeatId>>,
}

pub async fn confirmation(
    tx: &mut Tx,
    booking_id: &BookingId,
    price: Money,
) -> Result<Confirmation, sqlx::Error> {
    let booked = booked(tx, booking_id).await?;
    let l = match &booked {
        Some(b) => b.language.unwrap_or_default(),
        None => crate::buyer_language::of_booking(tx, booking_id).await?,
    };
    let subject = l.t(Msg::MailConfirmedSubject).to_string();
    let amount = price.format(l);
    let mut text = l.fill(
        Msg::MailPaid,
        &[("booking", &booking_id), ("amount", &amount)],
    );
    text.push('\n');
    let Some(booked) = booked else {
        return Ok(Confirmation {
            subject,
            text,
            seats: None,
        });
    };
    let seats = booked.places.iter().map(|p| p.seat).collect();
    let (kind, about) = booked.about(l);
    text.push_str(&format!(
        "\n{about}\n{}\n{}\n",
        l.t(Msg::MailShowQr),
        kind.farewell(l)
    ));
    Ok(Confirmation {
        subject,
        text,
        seats: Some(seats),
    })
}

/// What a booking is for, as every mail about it says it: the event, its
/// place and its time in the event's zone, then each place by name (and
/// the standing places). `None` for a booking without its event.
pub async fn about(
    conn: &mut AnyConnection,
    booking_id: &BookingId,
    l: Locale,
) -> Result<Option<(EventKind, String)>, sqlx::Error> {
    Ok(booked(conn, booking_id).await?.map(|b| b.about(l)))
}

/// A booking as its mails name it, read in one statement.
struct Booked {
    /// The language its buyer said they read, if they said.
    language: Option<Locale>,
    name: String,
    kind: EventKind,
    venue: String,
    starts_at: At,
    time_zone: String,
    /// Standing places.
    standing: i64,
    /// In seat order.
    places: Vec<Place>,
}

/// A seat or cabin of a booking, by the names the map uses.
struct Place {
    seat: SeatId,
    section: String,
    row: String,
    number: i64,
    guests: i64,
    cabin: bool,
}

/// One row per place (one row without a place for standing places only).
#[derive(sqlx::FromRow)]
struct BookedRow {
    language: Option<String>,
    name: String,
    kind: String,
    venue: String,
    starts_at: At,
    time_zone: String,
    ga_quantity: i64,
    seat_id: Option<SeatId>,
    section: Option<String>,
    row_label: Option<String>,
    number: Option<i64>,
    guests: Option<i64>,
    cabin: i64,
}

async fn booked(
    conn: &mut AnyConnection,
    booking_id: &BookingId,
) -> Result<Option<Booked>, sqlx::Error> {
    let rows: Vec<BookedRow> = sqlx::query_as(
        "select lang.language, e.name, e.kind, e.venue, e.starts_at, e.time_zone, b.ga_quantity,
                s.id as seat_id, s.section, s.row_label, s.number, bs.guests,
                case when exists (select 1 from cabin c where c.seat_id = s.id) then 1 else 0 end
                    as cabin
         from booking b join event e on e.id = b.event_id
         left join buyer_language lang on lang.buyer_id = b.buyer_id
         left join booking_seat bs on bs.booking_id = b.id
         left join seat s on s.id = bs.seat_id
         where b.id = $1 order by s.id",
    )
    .bind(booking_id)
    .fetch_all(&mut *conn)
    .await?;
    let Some(first) = rows.first() else {
        return Ok(None);
    };
    let mut booked = Booked {
        language: first.language.as_deref().and_then(Locale::parse),
        name: first.name.clone(),
        kind: EventKind::parse(&first.kind).unwrap_or(EventKind::Concert),
        venue: first.venue.clone(),
        starts_at: first.starts_at,
        time_zone: first.time_zone.clone(),
        standing: first.ga_quantity,
        places: Vec::with_capacity(rows.len()),
    };
    for r in rows {
        if let (Some(seat), Some(section), Some(row), Some(number)) =
            (r.seat_id, r.section, r.row_label, r.number)
        {
            booked.places.push(Place {
                seat,
                section,
                row,
                number,
                guests: r.guests.unwrap_or(1),
                cabin: r.cabin == 1,
            });
        }
    }
    Ok(Some(booked))
}

impl Booked {
    fn about(self, l: Locale) -> (EventKind, String) {
        let kind = self.kind;
        let local = local_start(self.starts_at, &self.time_zone);
        let when = format::when(l, &local.at, &local.abbreviation).unwrap_or_default();
        let mut text = format!("{}\n{} · {when}\n\n", self.name, self.venue);
        for p in self.places {
            text.push_str(&kind.name_place(l, p.cabin, &p.section, &p.row, p.number));
            if p.cabin {
                text.push_str(" · ");
                text.push_str(&l.plural(p.guests, Msg::GuestOne, Msg::GuestMany));
            }
            text.push('\n');
        }
        if self.standing > 0 {
            text.push_str(&l.plural(self.standing, Msg::StandingOne, Msg::StandingMany));
            text.push('\n');
        }
        (kind, text)
    }
}
