use super::*;
use crate::format_price;

#[test]
fn amounts_read_in_their_currency_s_own_digits() {
    assert_eq!(format_price(4500, "EUR"), "€45.00");
    assert_eq!(format_price(850_000, "VND"), "₫850,000");
    assert_eq!(format_price(5_000, "JPY"), "¥5,000");
    assert_eq!(format_price(12_500, "BHD"), "BHD 12.500");
    assert_eq!(format_price(-250, "EUR"), "-€2.50");
    assert_eq!(format_price(5, "EUR"), "€0.05");
    assert_eq!(format_price(4500, "USD"), "US$45.00");
    let eur = Currency::of("EUR").unwrap();
    assert_eq!(Money::new(17_000, eur).to_string(), "€170.00");
    assert_eq!(Money::parse("30,5", eur), Some(Money::new(3050, eur)));
    assert_eq!(Money::of(1, "XYZ"), None);
}

#[test]
fn an_amount_typed_back_reads_as_itself() {
    for (minor, code, text) in [
        (3000, "EUR", "30.00"),
        (5, "EUR", "0.05"),
        (850_000, "VND", "850000"),
        (12_500, "BHD", "12.500"),
        (5_000, "JPY", "5000"),
    ] {
        assert_eq!(amount_text(minor, code), text);
        assert_eq!(parse_amount(text, code), Some(minor));
    }
}

#[test]
fn typed_amounts_become_minor_units_by_the_currency() {
    assert_eq!(parse_amount("30", "EUR"), Some(3000));
    assert_eq!(parse_amount("30,5", "EUR"), Some(3050));
    assert_eq!(parse_amount("30.05", "EUR"), Some(3005));
    assert_eq!(parse_amount("850000", "VND"), Some(850_000));
    assert_eq!(parse_amount("850000.5", "VND"), None, "no đồng fractions");
    assert_eq!(parse_amount("12.5", "BHD"), Some(12_500));
    assert_eq!(parse_amount("1.234", "EUR"), None);
    assert_eq!(parse_amount("-3", "EUR"), None);
    assert_eq!(parse_amount("", "EUR"), None);
    assert_eq!(parse_amount("abc", "EUR"), None);
}

#[test]
fn the_table_is_sorted_and_knows_stripe_s_minimums() {
    assert!(CURRENCIES.windows(2).all(|w| w[0].code < w[1].code));
    assert_eq!(min_charge("EUR"), 50);
    assert_eq!(min_charge("JPY"), 50);
    assert_eq!(min_charge("GBP"), 30);
    assert!(currency("XYZ").is_none());
    assert_eq!(charge_step("EUR"), 1);
    assert_eq!(charge_step("BHD"), 10);
    assert_eq!(charge_step("HUF"), 100);
    assert_eq!(Currency::of("VND").unwrap().min_charge().minor(), 15_000);
}

#[test]
fn discounts_keep_stripe_s_minimum_and_steps() {
    let m = |minor, code| Money::of(minor, code).unwrap();
    let off = |price: Money, percent, amount| price.discount(percent, amount).minor();
    assert_eq!(off(m(10_000, "EUR"), 10, 0), 1_000);
    assert_eq!(off(m(10_000, "EUR"), 0, 2_500), 2_500);
    assert_eq!(off(m(10_000, "EUR"), 100, 0), 10_000 - 50);
    assert_eq!(off(m(40, "EUR"), 50, 0), 0);
    // The floor is the currency's own: 15,000 đồng, 0.30 GBP.
    assert_eq!(off(m(850_000, "VND"), 100, 0), 850_000 - 15_000);
    assert_eq!(off(m(10_000, "GBP"), 100, 0), 10_000 - 30);
    // Three decimals: whole tens of fils only.
    assert_eq!(off(m(12_345, "BHD"), 10, 0), 1_230);
}
