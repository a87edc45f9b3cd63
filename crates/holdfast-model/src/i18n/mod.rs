//! The buyer's language: `Locale` (which one, chosen per request and kept
//! in `<html lang>`), `Msg` (every sentence, in both languages side by
//! side) and `format` (numbers, money and times as each language writes
//! them). Pages ask the app's `i18n::use_locale()` and write `l.t(Msg::…)`; sentences with
//! values fill named placeholders (`l.fill(Msg::…, &[("n", …)])`), never
//! glue words together. The REST API stays English (codes and messages for
//! integrators); the pages translate its refusals by code.

pub mod format;
mod locale;
mod messages;

pub use locale::{Locale, COOKIE};
pub use messages::Msg;

impl Locale {
    /// A message with no placeholders.
    pub fn t(self, m: Msg) -> &'static str {
        m.text(self)
    }

    /// A message with its `{name}` placeholders filled (in one pass: the
    /// map names 10,000 seats with it).
    pub fn fill(self, m: Msg, values: &[(&str, &dyn std::fmt::Display)]) -> String {
        use std::fmt::Write;
        let mut rest = m.text(self);
        let mut out = String::with_capacity(rest.len() + 16 * values.len());
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let Some(close) = after.find('}') else {
                rest = &rest[open..];
                break;
            };
            let name = &after[..close];
            match values.iter().find(|(n, _)| *n == name) {
                Some((_, value)) => {
                    let _ = write!(out, "{value}");
                }
                None => out.push_str(&rest[open..open + close + 2]),
            }
            rest = &after[close + 1..];
        }
        out.push_str(rest);
        out
    }

    /// A count with its noun: `one` for exactly one in English, `many`
    /// otherwise (Vietnamese nouns do not change); `{n}` is the count,
    /// written in the language.
    pub fn plural(self, n: i64, one: Msg, many: Msg) -> String {
        let m = if n == 1 { one } else { many };
        self.fill(m, &[("n", &format::count(self, n))])
    }

    /// An amount of money, in the language.
    pub fn price(self, minor: i64, currency: &str) -> String {
        format::price(self, minor, currency)
    }

    /// A count, in the language.
    pub fn count(self, n: i64) -> String {
        format::count(self, n)
    }
}

#[cfg(test)]
mod tests {
    use super::{Locale, Msg};

    fn placeholders(text: &str) -> Vec<&str> {
        let mut out: Vec<&str> = text
            .split('{')
            .skip(1)
            .filter_map(|s| s.split_once('}').map(|(name, _)| name))
            .collect();
        out.sort_unstable();
        out
    }

    /// Every message says something in both languages, with the same
    /// placeholders; the Vietnamese is a translation, not the English
    /// left in place.
    #[test]
    fn every_message_is_in_both_catalogues_with_the_same_placeholders() {
        #[cfg(feature = "ssr")]
        let all = Msg::SHARED.iter().chain(Msg::CONSOLE).chain(Msg::SERVER);
        #[cfg(not(feature = "ssr"))]
        let all = Msg::SHARED.iter();
        for m in all {
            let (en, vi) = (m.text(Locale::En), m.text(Locale::Vi));
            assert!(
                !en.trim().is_empty() && !vi.trim().is_empty(),
                "{m:?} is empty"
            );
            assert_eq!(
                placeholders(en),
                placeholders(vi),
                "{m:?}: placeholders differ"
            );
            assert_ne!(en, vi, "{m:?} is not translated");
        }
    }

    #[test]
    fn sentences_are_filled_and_counted_in_the_language() {
        let (en, vi) = (Locale::En, Locale::Vi);
        assert_eq!(en.plural(1, Msg::SeatOne, Msg::SeatMany), "1 seat");
        assert_eq!(en.plural(3, Msg::SeatOne, Msg::SeatMany), "3 seats");
        assert_eq!(vi.plural(3, Msg::SeatOne, Msg::SeatMany), "3 ghế");
        assert_eq!(
            vi.plural(1200, Msg::PlacesLeftOne, Msg::PlacesLeftMany),
            "Còn 1.200 chỗ"
        );
        assert_eq!(
            en.fill(Msg::AvailableOf, &[("available", &5), ("total", &"10")]),
            "5 of 10 available"
        );
        // A placeholder without a value stays as written; a value that
        // looks like a placeholder is not filled again.
        assert_eq!(
            en.fill(Msg::AvailableOf, &[("available", &"{total}")]),
            "{total} of {total} available"
        );
    }
}
