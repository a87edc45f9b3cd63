//! The cabins of a sailing's map: who may sleep in each (`min_guests` to
//! `max_guests`) and what a guest beyond two adds. Loaded with the map (an
//! arena has none); a hold prices a cabin's party from here without a
//! query.

use std::collections::HashMap;

use super::EventSeatMap;
use crate::platform::db::Db;
use crate::ApiError;
use holdfast_model::{EventId, SeatId};

/// A cabin is priced for up to this many guests; each one more adds the
/// category's supplement.
pub const GUESTS_IN_PRICE: i64 = 2;

#[derive(Debug, Clone, Copy, PartialEq, sqlx::FromRow)]
pub struct Cabin {
    pub min_guests: i64,
    pub max_guests: i64,
    pub extra_guest_cents: i64,
    /// Its size on the deck plan (along the ship, across it).
    pub width: f64,
    pub depth: f64,
    /// Step-free access.
    pub accessible: bool,
}

impl Cabin {
    /// The party a hold gets when it names none: two, within the cabin's
    /// occupancy.
    pub fn usual_party(&self) -> i64 {
        GUESTS_IN_PRICE.clamp(self.min_guests, self.max_guests)
    }

    /// The cabin's price for `guests`, from its price for up to two.
    pub fn price_for(&self, base_cents: i64, guests: i64) -> i64 {
        base_cents + self.extra_guest_cents * (guests - GUESTS_IN_PRICE).max(0)
    }
}

/// A place as a hold claims it: its price for its party.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PricedPlace {
    pub seat: SeatId,
    pub price_cents: i64,
    /// 1 for a seat; the party for a cabin.
    pub guests: i64,
}

impl EventSeatMap {
    /// Prices the seats (ascending, known to the map) for the parties asked
    /// (`guests`: per seat, absent for the usual party). A seat sits one;
    /// a cabin its occupancy, or the hold is refused on `guests`.
    pub fn priced(
        &self,
        ids: &[SeatId],
        guests: &HashMap<SeatId, i64>,
    ) -> Result<Vec<PricedPlace>, ApiError> {
        if let Some(stray) = guests.keys().find(|id| !ids.contains(id)) {
            return Err(ApiError::unprocessable(
                format!("guests names seat {stray}, which the hold does not"),
                "guests",
            ));
        }
        ids.iter()
            .map(|id| {
                let base = self.seat(*id).map_or(0, |s| s.price_cents);
                let asked = guests.get(id).copied();
                let Some(cabin) = self.cabins.get(id) else {
                    return match asked {
                        None | Some(1) => Ok(PricedPlace {
                            seat: *id,
                            price_cents: base,
                            guests: 1,
                        }),
                        Some(_) => Err(ApiError::unprocessable(
                            format!("seat {id} is a seat for one person"),
                            "guests",
                        )),
                    };
                };
                let party = asked.unwrap_or_else(|| cabin.usual_party());
                if !(cabin.min_guests..=cabin.max_guests).contains(&party) {
                    return Err(ApiError::unprocessable(
                        format!(
                            "cabin {id} sleeps {} to {} guests",
                            cabin.min_guests, cabin.max_guests
                        ),
                        "guests",
                    ));
                }
                Ok(PricedPlace {
                    seat: *id,
                    price_cents: cabin.price_for(base, party),
                    guests: party,
                })
            })
            .collect()
    }
}

/// The cabins of an event's seats.
pub async fn load(db: &Db, event_id: EventId) -> Result<HashMap<SeatId, Cabin>, sqlx::Error> {
    let rows: Vec<(SeatId, i64, i64, i64, f64, f64, i32)> = sqlx::query_as(
        "select c.seat_id, c.min_guests, c.max_guests, p.extra_guest_cents, c.width, c.depth,
                c.accessible
         from cabin c join seat s on s.id = c.seat_id
         join price_category p on p.id = s.category_id
         where s.event_id = $1",
    )
    .bind(event_id)
    .fetch_all(db.reader())
    .await?;
    Ok(rows
        .into_iter()
        .map(
            |(seat, min_guests, max_guests, extra_guest_cents, width, depth, accessible)| {
                (
                    seat,
                    Cabin {
                        min_guests,
                        max_guests,
                        extra_guest_cents,
                        width,
                        depth,
                        accessible: accessible == 1,
                    },
                )
            },
        )
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cabin_is_priced_for_two_and_each_guest_beyond_adds_the_supplement() {
        let cabin = Cabin {
            min_guests: 1,
            max_guests: 4,
            extra_guest_cents: 30_000,
            width: 40.0,
            depth: 40.0,
            accessible: false,
        };
        assert_eq!(cabin.price_for(149_000, 1), 149_000);
        assert_eq!(cabin.price_for(149_000, 2), 149_000);
        assert_eq!(cabin.price_for(149_000, 3), 179_000);
        assert_eq!(cabin.price_for(149_000, 4), 209_000);
        assert_eq!(cabin.usual_party(), 2);
        let single = Cabin {
            max_guests: 1,
            extra_guest_cents: 0,
            ..cabin
        };
        assert_eq!(single.usual_party(), 1);
        let family = Cabin {
            min_guests: 3,
            max_guests: 5,
            ..cabin
        };
        assert_eq!(family.usual_party(), 3);
    }
}
