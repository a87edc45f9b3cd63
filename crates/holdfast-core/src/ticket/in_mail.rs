//! A confirmation's tickets as mail carries them: one QR code per seat or
//! standing place (the door admits each alone), as inline PNGs captioned
//! with the place's name.

use crate::payments::mail::InlineImage;
use crate::{ApiError, AppState};
use holdfast_model::i18n::Msg;
use holdfast_model::{BookingId, EventKind, SeatId};

pub async fn images(
    state: &AppState,
    booking_id: &BookingId,
) -> Result<Vec<InlineImage>, ApiError> {
    let l = crate::buyer_language::of_booking_now(&state.db, booking_id).await?;
    let seats: Vec<(SeatId, String, String, i64, String, i64)> = sqlx::query_as(
        "select s.id, s.section, s.row_label, s.number, e.kind,
                case when exists (select 1 from cabin c where c.seat_id = s.id) then 1 else 0 end
         from booking_seat bs
         join seat s on s.id = bs.seat_id join event e on e.id = s.event_id
         where bs.booking_id = $1 order by s.id",
    )
    .bind(booking_id)
    .fetch_all(state.db.reader())
    .await?;
    let (standing,): (i64,) = sqlx::query_as("select ga_quantity from booking where id = $1")
        .bind(booking_id)
        .fetch_one(state.db.reader())
        .await?;
    let ids: Vec<SeatId> = seats.iter().map(|s| s.0).collect();
    let names = seats
        .iter()
        .map(|(_, section, row, number, kind, cabin)| {
            let kind = EventKind::parse(kind).unwrap_or(EventKind::Concert);
            kind.name_place(l, *cabin == 1, section, row, *number)
        })
        .chain((1..=standing).map(|n| l.fill(Msg::StandingPlaceNumber, &[("n", &n)])));
    Ok(super::door::units(&ids, standing)
        .into_iter()
        .zip(names)
        .enumerate()
        .filter_map(|(i, (unit, caption))| {
            let token = state.tickets.unit_token(booking_id, &unit);
            Some(InlineImage {
                cid: format!("ticket-{}@holdfast", i + 1),
                caption,
                png: super::image::qr_png(&token)?,
            })
        })
        .collect())
}
