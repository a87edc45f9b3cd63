//! Numbers, money and times as each language writes them. English puts
//! the currency's sign before the amount ("€85.00", "₫850,000"; dollars
//! named by country: "US$45.00", "CA$45.00"; a currency without a sign
//! English readers know by its code: "BHD 12.500"), grouping thousands
//! from four digits on ("€1,840.00", as CLDR's English does); Vietnamese
//! writes "85,00 €" and "850.000 ₫".
//! Amounts stay integers in the currency's minor unit (`model::money`);
//! only their writing changes.

use super::{Locale, Msg};
use crate::money::exponent;

/// How a language writes a number.
struct Digits {
    group: char,
    decimal: char,
    /// The fewest whole digits that get separators.
    group_from: usize,
}

fn digits(locale: Locale) -> Digits {
    match locale {
        Locale::En => Digits {
            group: ',',
            decimal: '.',
            group_from: 4,
        },
        Locale::Vi => Digits {
            group: '.',
            decimal: ',',
            group_from: 4,
        },
    }
}

/// "1234567" → "1,234,567" (by the language's separator).
fn grouped(whole: u64, d: &Digits) -> String {
    let plain = whole.to_string();
    if plain.len() < d.group_from {
        return plain;
    }
    let mut out = String::with_capacity(plain.len() + plain.len() / 3);
    for (i, c) in plain.chars().enumerate() {
        if i > 0 && (plain.len() - i).is_multiple_of(3) {
            out.push(d.group);
        }
        out.push(c);
    }
    out
}

/// A count for people: "12,500" / "12.500".
pub fn count(locale: Locale, n: i64) -> String {
    let sign = if n < 0 { "-" } else { "" };
    format!("{sign}{}", grouped(n.unsigned_abs(), &digits(locale)))
}

/// The currency as Vietnamese names it after an amount: the signs of the
/// currencies its buyers know, otherwise the code.
fn vietnamese_name(code: &str) -> &str {
    match code {
        "VND" => "₫",
        "EUR" => "€",
        "USD" => "US$",
        _ => code,
    }
}

/// The sign English writes before an amount (CLDR's English symbols), if
/// the currency has one English readers know.
fn english_sign(code: &str) -> Option<&'static str> {
    Some(match code {
        "EUR" => "€",
        "GBP" => "£",
        "USD" => "US$",
        "JPY" => "¥",
        "VND" => "₫",
        "KRW" => "₩",
        "INR" => "₹",
        "PHP" => "₱",
        "AUD" => "A$",
        "CAD" => "CA$",
        "NZD" => "NZ$",
        "HKD" => "HK$",
        "MXN" => "MX$",
        "TWD" => "NT$",
        "BRL" => "R$",
        _ => return None,
    })
}

/// An amount in minor units, written in the language: (4500, EUR) →
/// "€45.00" / "45,00 €"; (850000, VND) → "₫850,000" / "850.000 ₫";
/// (12500, BHD) → "BHD 12.500" / "12,500 BHD".
pub fn price(locale: Locale, minor: i64, code: &str) -> String {
    let d = digits(locale);
    let e = exponent(code);
    let unit = 10_u64.pow(e);
    let sign = if minor < 0 { "-" } else { "" };
    let (whole, part) = (minor.unsigned_abs() / unit, minor.unsigned_abs() % unit);
    let number = match e {
        0 => grouped(whole, &d),
        e => format!(
            "{}{}{part:0width$}",
            grouped(whole, &d),
            d.decimal,
            width = e as usize
        ),
    };
    match (locale, english_sign(code)) {
        (Locale::En, Some(sign_of_currency)) => format!("{sign}{sign_of_currency}{number}"),
        (Locale::En, None) => format!("{sign}{code} {number}"),
        (Locale::Vi, _) => format!("{sign}{number} {}", vietnamese_name(code)),
    }
}

/// A moment for people, at the offset it is written with, the zone named:
/// (`2027-06-01T20:00:00+02:00`, "CEST") → "Tue 1 June 2027, 20:00 CEST" /
/// "20:00 CEST, Thứ Ba 01/06/2027". The zone's rules are applied by the
/// server (which knows them all); the browser only prints what it was given.
pub fn when(locale: Locale, local: &str, zone: &str) -> Option<String> {
    use chrono::Datelike;
    let t = chrono::DateTime::parse_from_rfc3339(local).ok()?;
    Some(match locale {
        Locale::En => format!("{} {zone}", t.format("%a %-d %B %Y, %H:%M")),
        Locale::Vi => {
            let day = match t.weekday() {
                chrono::Weekday::Mon => Msg::Monday,
                chrono::Weekday::Tue => Msg::Tuesday,
                chrono::Weekday::Wed => Msg::Wednesday,
                chrono::Weekday::Thu => Msg::Thursday,
                chrono::Weekday::Fri => Msg::Friday,
                chrono::Weekday::Sat => Msg::Saturday,
                chrono::Weekday::Sun => Msg::Sunday,
            };
            format!(
                "{} {zone}, {} {}",
                t.format("%H:%M"),
                day.text(locale),
                t.format("%d/%m/%Y")
            )
        }
    })
}

/// A moment in a log, at the offset it is written with (the event's
/// zone, named once above the logs): "2 Dec, 06:12:08" / "06:12:08 02/12".
pub fn moment(locale: Locale, local: &str) -> Option<String> {
    let t = chrono::DateTime::parse_from_rfc3339(local).ok()?;
    Some(match locale {
        Locale::En => t.format("%-d %b, %H:%M:%S").to_string(),
        Locale::Vi => t.format("%H:%M:%S %d/%m").to_string(),
    })
}

impl crate::money::Money {
    /// The amount as a language writes it: "€85.00" / "85,00 €",
    /// "₫850,000" / "850.000 ₫".
    pub fn format(self, locale: Locale) -> String {
        price(locale, self.minor(), self.currency().code())
    }
}

/// In English, for mail, the console's messages and the API's words.
impl std::fmt::Display for crate::money::Money {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.format(Locale::En))
    }
}

/// An amount for people in English: (4500, EUR) → "€45.00", (850000, VND)
/// → "₫850,000", (12500, BHD) → "BHD 12.500" (mail, the console, the
/// sandbox's page). Pages write it in the buyer's language: `price`.
pub fn format_price(minor: i64, code: &str) -> String {
    price(Locale::En, minor, code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_written_as_each_language_writes_them() {
        let (en, vi) = (Locale::En, Locale::Vi);
        assert_eq!(price(en, 4500, "EUR"), "€45.00");
        assert_eq!(price(vi, 4500, "EUR"), "45,00 €");
        assert_eq!(price(en, 850_000, "VND"), "₫850,000");
        assert_eq!(price(vi, 850_000, "VND"), "850.000 ₫");
        assert_eq!(price(vi, 4_500_000, "VND"), "4.500.000 ₫");
        assert_eq!(price(en, 5_000, "JPY"), "¥5,000");
        assert_eq!(price(en, 158_000, "EUR"), "€1,580.00");
        assert_eq!(price(en, 125_000, "JPY"), "¥125,000");
        assert_eq!(price(vi, 5_000, "JPY"), "5.000 JPY");
        assert_eq!(price(en, 12_500, "BHD"), "BHD 12.500");
        assert_eq!(price(en, 30_000, "NOK"), "NOK 300.00");
        assert_eq!(price(en, 4_500, "USD"), "US$45.00");
        assert_eq!(price(vi, 4_500, "USD"), "45,00 US$");
        assert_eq!(price(vi, 12_500, "BHD"), "12,500 BHD");
        assert_eq!(price(en, 123_456_789, "EUR"), "€1,234,567.89");
        assert_eq!(price(vi, 123_456_789, "EUR"), "1.234.567,89 €");
        assert_eq!(price(en, -250, "EUR"), "-€2.50");
        assert_eq!(price(vi, 5, "EUR"), "0,05 €");
        assert_eq!(count(vi, 10_000), "10.000");
        assert_eq!(count(en, 10_000), "10,000");
        assert_eq!(count(en, 9_999), "9,999");
        assert_eq!(count(en, 999), "999");
    }

    #[test]
    fn a_log_s_moment_reads_at_its_own_offset() {
        let at = "2026-12-02T06:12:08+01:00";
        assert_eq!(moment(Locale::En, at).unwrap(), "2 Dec, 06:12:08");
        assert_eq!(moment(Locale::Vi, at).unwrap(), "06:12:08 02/12");
        assert_eq!(moment(Locale::En, ""), None);
    }

    #[test]
    fn a_start_reads_in_the_language_with_its_zone() {
        let at = "2027-09-18T20:00:00+07:00";
        assert_eq!(
            when(Locale::En, at, "+07").unwrap(),
            "Sat 18 September 2027, 20:00 +07"
        );
        assert_eq!(
            when(Locale::Vi, at, "+07").unwrap(),
            "20:00 +07, Thứ Bảy 18/09/2027"
        );
        assert_eq!(when(Locale::Vi, "soon", "UTC"), None);
        assert_eq!(
            when(Locale::En, "2027-06-01T20:00:00.000Z", "UTC").unwrap(),
            "Tue 1 June 2027, 20:00 UTC"
        );
        assert_eq!(
            when(Locale::En, "2027-06-01T22:30:00+02:00", "CEST").unwrap(),
            "Tue 1 June 2027, 22:30 CEST"
        );
    }
}
