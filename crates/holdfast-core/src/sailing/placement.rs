//! Where a moved booking's places go on another sailing of the same ship,
//! with no I/O. The rules, in order (the first that places every party of
//! the booking wins):
//!
//! 1. the same cabins (deck, corridor, number), when all are free;
//! 2. the same category on the same deck, kept together (each next party
//!    nearest the one placed before it);
//! 3. the same category anywhere, still kept together where it can be;
//! 4. a higher category, the cheapest that has room, at no extra charge.
//!
//! A place fits a party within its occupancy. Larger parties choose first,
//! so a small party never takes the one cabin a large one needed.

use holdfast_model::SeatId;

/// A place of the booking, as it was on the sailing it leaves.
#[derive(Debug, Clone, PartialEq)]
pub struct Party {
    pub seat: SeatId,
    pub deck: String,
    pub corridor: String,
    pub number: i64,
    pub category: String,
    /// What the category costs on the sailing it goes to (the upgrade rule
    /// compares with it).
    pub category_price_cents: i64,
    pub guests: i64,
}

/// A free place of the sailing a booking goes to.
#[derive(Debug, Clone, PartialEq)]
pub struct Room {
    pub seat: SeatId,
    pub deck: String,
    pub corridor: String,
    pub number: i64,
    pub category: String,
    pub price_cents: i64,
    pub min_guests: i64,
    pub max_guests: i64,
}

impl Room {
    fn fits(&self, party: &Party) -> bool {
        (self.min_guests..=self.max_guests).contains(&party.guests)
    }
}

/// Which rule placed the booking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    SameCabins,
    SameDeck,
    SameCategory,
    Upgraded,
}

impl Fit {
    pub const fn as_str(self) -> &'static str {
        match self {
            Fit::SameCabins => "same cabins",
            Fit::SameDeck => "same category, same deck",
            Fit::SameCategory => "same category",
            Fit::Upgraded => "higher category",
        }
    }
}

/// Every party's new place: (the seat it leaves, the seat it gets).
#[derive(Debug, Clone, PartialEq)]
pub struct Placement {
    pub fit: Fit,
    pub moves: Vec<(SeatId, SeatId)>,
}

/// The booking's parties placed among `free` by the first rule that places
/// them all; `None` when no rule does (the buyer is offered a refund).
pub fn place(parties: &[Party], free: &[Room]) -> Option<Placement> {
    if parties.is_empty() {
        return None;
    }
    if let Some(moves) = same_cabins(parties, free) {
        return Some(Placement {
            fit: Fit::SameCabins,
            moves,
        });
    }
    let rules: [(Fit, &Cost); 3] = [
        (Fit::SameDeck, &|p, r, near| {
            (r.category == p.category && r.deck == p.deck).then(|| (0, 0, distance(p, r, near)))
        }),
        (Fit::SameCategory, &|p, r, near| {
            (r.category == p.category)
                .then(|| (0, i64::from(r.deck != p.deck), distance(p, r, near)))
        }),
        (Fit::Upgraded, &|p, r, near| {
            (r.price_cents > p.category_price_cents).then(|| {
                (
                    r.price_cents,
                    i64::from(r.deck != p.deck),
                    distance(p, r, near),
                )
            })
        }),
    ];
    rules.into_iter().find_map(|(fit, cost)| {
        nearest_each(parties, free, cost).map(|moves| Placement { fit, moves })
    })
}

/// What a room costs a party, lowest first, or `None` when the rule does
/// not allow it: (price rank, deck change, distance).
type Cost = dyn Fn(&Party, &Room, Option<&Room>) -> Option<(i64, i64, i64)>;

fn same_cabins(parties: &[Party], free: &[Room]) -> Option<Vec<(SeatId, SeatId)>> {
    parties
        .iter()
        .map(|p| {
            free.iter()
                .find(|r| {
                    r.deck == p.deck
                        && r.corridor == p.corridor
                        && r.number == p.number
                        && r.category == p.category
                        && r.fits(p)
                })
                .map(|r| (p.seat, r.seat))
        })
        .collect()
}

/// How far a room is from where the party should be: beside the party
/// placed before it (kept together), else where it was. Another corridor
/// counts as far.
fn distance(p: &Party, r: &Room, near: Option<&Room>) -> i64 {
    let (deck, corridor, number) = match near {
        Some(n) => (&n.deck, &n.corridor, n.number),
        None => (&p.deck, &p.corridor, p.number),
    };
    let apart = (r.number - number).abs();
    if &r.deck != deck {
        10_000 + apart
    } else if &r.corridor != corridor {
        1_000 + apart
    } else {
        apart
    }
}

/// Each party, largest first, gets the cheapest-costing unused room that
/// fits it; `None` when one finds none.
fn nearest_each(parties: &[Party], free: &[Room], cost: &Cost) -> Option<Vec<(SeatId, SeatId)>> {
    let mut order: Vec<&Party> = parties.iter().collect();
    order.sort_by_key(|p| std::cmp::Reverse(p.guests));
    let mut used = vec![false; free.len()];
    let mut last: Option<&Room> = None;
    let mut moves = Vec::with_capacity(parties.len());
    for party in order {
        let (i, room) = free
            .iter()
            .enumerate()
            .filter(|(i, r)| !used[*i] && r.fits(party))
            .filter_map(|(i, r)| cost(party, r, last).map(|c| (c, i, r)))
            .min_by_key(|(c, i, _)| (*c, *i))
            .map(|(_, i, r)| (i, r))?;
        used[i] = true;
        last = Some(room);
        moves.push((party.seat, room.seat));
    }
    // In the booking's own order.
    moves.sort_by_key(|(from, _)| parties.iter().position(|p| p.seat == *from));
    Some(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn party(seat: i64, deck: &str, number: i64, category: &str, guests: i64) -> Party {
        Party {
            seat: SeatId(seat),
            deck: deck.into(),
            corridor: "P".into(),
            number,
            category: category.into(),
            category_price_cents: price(category),
            guests,
        }
    }

    fn price(category: &str) -> i64 {
        match category {
            "IN" => 100,
            "OV" => 200,
            _ => 300,
        }
    }

    fn room(seat: i64, deck: &str, number: i64, category: &str, max: i64) -> Room {
        Room {
            seat: SeatId(seat),
            deck: deck.into(),
            corridor: "P".into(),
            number,
            category: category.into(),
            price_cents: price(category),
            min_guests: 1,
            max_guests: max,
        }
    }

    /// How `place` placed the parties: the fit, and (from, to) seat ids.
    fn placed(parties: &[Party], free: &[Room]) -> (Fit, Vec<(i64, i64)>) {
        let placed = place(parties, free).expect("a placement");
        let moves = placed.moves.iter().map(|(a, b)| (a.0, b.0)).collect();
        (placed.fit, moves)
    }

    #[test]
    fn the_same_cabins_when_they_are_free() {
        let parties = [party(1, "5", 10, "IN", 2), party(2, "5", 11, "IN", 2)];
        let free = [
            room(100, "5", 9, "IN", 2),
            room(101, "5", 10, "IN", 2),
            room(102, "5", 11, "IN", 2),
        ];
        assert_eq!(
            placed(&parties, &free),
            (Fit::SameCabins, vec![(1, 101), (2, 102)])
        );
    }

    #[test]
    fn else_the_same_category_on_the_deck_kept_together() {
        let parties = [party(1, "5", 10, "IN", 2), party(2, "5", 11, "IN", 2)];
        // Cabin 10 is gone; 40 and 41 sit together, 12 alone.
        let free = [
            room(100, "6", 10, "IN", 2),
            room(101, "5", 12, "IN", 2),
            room(102, "5", 30, "IN", 2),
            room(103, "5", 13, "IN", 2),
        ];
        assert_eq!(
            placed(&parties, &free),
            (Fit::SameDeck, vec![(1, 101), (2, 103)])
        );
    }

    #[test]
    fn else_another_deck_then_a_higher_category_the_cheapest_first() {
        let parties = [party(1, "5", 10, "OV", 3)];
        let other_deck = [room(100, "7", 10, "OV", 3), room(101, "5", 10, "IN", 3)];
        assert_eq!(place(&parties, &other_deck).unwrap().fit, Fit::SameCategory);
        let only_higher = [
            room(100, "5", 10, "IN", 4),
            room(101, "7", 1, "SU", 4),
            room(102, "6", 1, "SU", 2),
        ];
        // The only higher cabin that sleeps three; never a cheaper one.
        assert_eq!(
            placed(&parties, &only_higher),
            (Fit::Upgraded, vec![(1, 101)])
        );
    }

    #[test]
    fn a_party_only_goes_where_it_fits_and_larger_parties_choose_first() {
        // The four-berth cabin must go to the party of four even though
        // the party of two comes first in the booking.
        let parties = [party(1, "5", 10, "IN", 2), party(2, "5", 11, "IN", 4)];
        let free = [room(100, "5", 10, "IN", 4), room(101, "5", 20, "IN", 2)];
        assert_eq!(placed(&parties, &free).1, vec![(1, 101), (2, 100)]);
        // Nowhere sleeps five: a refund is offered.
        assert_eq!(place(&[party(3, "5", 1, "IN", 5)], &free), None);
        assert_eq!(place(&[], &free), None);
    }
}
