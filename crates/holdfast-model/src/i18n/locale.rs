//! Which language a page speaks: the buyer's choice (the `holdfast_lang`
//! cookie, set by the language switch), else the browser's
//! `Accept-Language`, else English. The server decides and writes it into
//! `<html lang>`; the hydrated page reads it back from there, so both
//! render the same words.

use serde::{Deserialize, Serialize};

/// The cookie that remembers a buyer's choice of language.
pub const COOKIE: &str = "holdfast_lang";

/// A language Holdfast's pages speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Locale {
    #[default]
    En,
    Vi,
}

impl Locale {
    pub const ALL: [Locale; 2] = [Locale::En, Locale::Vi];

    /// The BCP 47 tag (`<html lang>`, the cookie's value).
    pub fn tag(self) -> &'static str {
        match self {
            Locale::En => "en",
            Locale::Vi => "vi",
        }
    }

    /// The language's name in itself, as the switch offers it.
    pub fn native_name(self) -> &'static str {
        match self {
            Locale::En => "English",
            Locale::Vi => "Tiếng Việt",
        }
    }

    /// "vi", "vi-VN", "EN-us" → the language; anything else → `None`.
    pub fn parse(tag: &str) -> Option<Locale> {
        let primary = tag.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Locale::En),
            "vi" => Some(Locale::Vi),
            _ => None,
        }
    }

    /// The best of our languages for an `Accept-Language` header: the
    /// highest weight among those we speak (the first of equals); `None`
    /// when it names none of them.
    pub fn from_accept_language(header: &str) -> Option<Locale> {
        let mut best: Option<(f32, Locale)> = None;
        for item in header.split(',') {
            let mut parts = item.split(';');
            let Some(locale) = parts.next().and_then(Locale::parse) else {
                continue;
            };
            let weight = parts
                .find_map(|p| p.trim().strip_prefix("q="))
                .map_or(Some(1.0), |q| q.trim().parse::<f32>().ok())
                .unwrap_or(0.0);
            if weight > 0.0 && best.is_none_or(|(w, _)| weight > w) {
                best = Some((weight, locale));
            }
        }
        best.map(|(_, l)| l)
    }

    /// The language for a request: the remembered choice, else the
    /// browser's, else English.
    pub fn choose(cookie_header: Option<&str>, accept_language: Option<&str>) -> Locale {
        Locale::said(cookie_header, accept_language).unwrap_or_default()
    }

    /// The language a request names, if it names one we speak.
    fn said(cookie_header: Option<&str>, accept_language: Option<&str>) -> Option<Locale> {
        let chosen = cookie_header.and_then(|h| {
            h.split(';')
                .filter_map(|c| c.trim().split_once('='))
                .find(|(name, _)| *name == COOKIE)
                .and_then(|(_, value)| Locale::parse(value))
        });
        chosen.or_else(|| accept_language.and_then(Locale::from_accept_language))
    }

    /// The language of a request's headers.
    #[cfg(feature = "ssr")]
    pub fn of_headers(headers: &http::HeaderMap) -> Locale {
        Locale::said_in(headers).unwrap_or_default()
    }

    /// The language a request's headers name, if any (an API call that
    /// says nothing leaves a buyer's language as it was).
    #[cfg(feature = "ssr")]
    pub fn said_in(headers: &http::HeaderMap) -> Option<Locale> {
        let text = |name| headers.get(name).and_then(|v| v.to_str().ok());
        Locale::said(
            text(http::header::COOKIE),
            text(http::header::ACCEPT_LANGUAGE),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::Locale;

    #[test]
    fn the_remembered_choice_comes_before_the_browser_s() {
        assert_eq!(Locale::choose(None, None), Locale::En);
        assert_eq!(
            Locale::choose(None, Some("vi-VN,vi;q=0.9,en;q=0.8")),
            Locale::Vi
        );
        assert_eq!(
            Locale::choose(Some("a=1; holdfast_lang=en"), Some("vi")),
            Locale::En
        );
        assert_eq!(
            Locale::choose(Some("holdfast_lang=vi"), Some("en")),
            Locale::Vi
        );
        assert_eq!(
            Locale::choose(Some("holdfast_lang=klingon"), Some("vi")),
            Locale::Vi,
            "an unknown choice falls back to the browser's"
        );
    }

    #[test]
    fn the_browser_s_weights_decide() {
        assert_eq!(
            Locale::from_accept_language("fr, vi;q=0.5, en;q=0.4"),
            Some(Locale::Vi)
        );
        assert_eq!(
            Locale::from_accept_language("en-GB;q=0.3, vi;q=0.7"),
            Some(Locale::Vi)
        );
        assert_eq!(Locale::from_accept_language("en-US,vi"), Some(Locale::En));
        assert_eq!(
            Locale::from_accept_language("vi;q=0, en;q=0.1"),
            Some(Locale::En)
        );
        assert_eq!(Locale::from_accept_language("de, fr"), None);
        assert_eq!(Locale::from_accept_language("*"), None);
        assert_eq!(Locale::from_accept_language(""), None);
    }
}
