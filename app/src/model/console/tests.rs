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
