//! The confirmation a buyer receives when a booking is paid: what for
//! (the event, its place, its time in the event's own zone), which places
//! by the names the map and the booking page use, and what was paid. Read
//! inside the transaction that books, so it says what was booked.

use crate::core::event_time::local_start;
use crate::core::platform::db::Tx;
use crate::i18n::Locale;
use crate::model::{format_price, format_when, EventKind};

/// The confirmation's text for a paid booking.
pub async fn confirmation_text(
    tx: &mut Tx,
    booking_id: &str,
    amount_cents: i64,
    currency: &str,
) -> Result<String, sqlx::Error> {
    let event: Option<(String, String, String, i64, String, i64)> = sqlx::query_as(
        "select e.name, e.kind, e.venue, e.starts_at, e.time_zone, b.ga_quantity
         from booking b join event e on e.id = b.event_id where b.id = $1",
    )
    .bind(booking_id)
    .fetch_optional(&mut **tx)
    .await?;
    let seats: Vec<(String, String, i64)> = sqlx::query_as(
        "select s.section, s.row_label, s.number from booking_seat bs join seat s on s.id = bs.seat_id
         where bs.booking_id = $1 order by s.id",
    )
    .bind(booking_id)
    .fetch_all(&mut **tx)
    .await?;
    let mut text = format!(
        "Booking {booking_id} is paid ({}). Your tickets are ready.\n",
        format_price(amount_cents, currency)
    );
    let Some((name, kind, venue, starts_at, zone, standing)) = event else {
        return Ok(text);
    };
    let kind = EventKind::parse(&kind).unwrap_or(EventKind::Concert);
    let local = local_start(starts_at, &zone);
    let when = format_when(&local.at, &local.abbreviation).unwrap_or_default();
    text.push_str(&format!("\n{name}\n{venue} · {when}\n\n"));
    for (section, row, number) in seats {
        text.push_str(&kind.place_name(Locale::En, &section, &row, number));
        text.push('\n');
    }
    match standing {
        0 => {}
        1 => text.push_str("1 standing place\n"),
        n => text.push_str(&format!("{n} standing places\n")),
    }
    text.push_str(&format!(
        "\nShow the QR code of this booking (My bookings) at the door.\n{}\n",
        kind.farewell(Locale::En)
    ));
    Ok(text)
}
