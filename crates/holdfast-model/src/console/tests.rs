use super::*;

#[test]
fn a_settlement_reads_in_the_language_with_the_money_in_its_currency() {
    let partly = SettlementReason::PartlyRefundedOutside;
    assert_eq!(
        partly.words(Locale::En, 1_000, "EUR"),
        "paid; €10.00 refunded outside Holdfast, ticket kept"
    );
    assert_eq!(
        SettlementReason::Paid.words(Locale::Vi, 0, "EUR"),
        "đã thanh toán"
    );
}

#[test]
fn the_tiles_count_standing_places_with_the_seats() {
    let line = |standing: bool, sold: i64, held: i64, free: i64| SalesLine {
        category: "A".into(),
        section: "S".into(),
        standing,
        places: sold + held + free,
        sold,
        held,
        in_payment: 1,
        free,
        sold_cents: 0,
    };
    let counts = SeatCounts::of_lines(&[line(false, 0, 2, 10), line(true, 6, 0, 94)]);
    assert_eq!(
        counts,
        SeatCounts {
            available: 104,
            held: 2,
            in_payment: 2,
            booked: 6
        }
    );
}
