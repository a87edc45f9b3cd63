//! Each price category in the colour its organizer chose: a small style
//! sheet per event (`.seat.cat-A { fill: … }`), weaker than the statuses'
//! rules (`circle.seat.held`, …: one element more), so a taken seat never
//! looks free whatever its category's colour. Plain class selectors: the
//! 10,000 seats of an arena are matched as fast as before. Only well-formed codes and hex
//! colours are written (event setup refuses others; older rows are
//! skipped, their seats drawn in the neutral default).

use crate::model::PriceCategory;

/// The style sheet for these categories.
pub fn category_css(categories: &[PriceCategory]) -> String {
    let mut css = String::new();
    for c in categories {
        let code_ok = !c.code.is_empty()
            && c.code
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_');
        let hex = c.color.strip_prefix('#').unwrap_or("");
        let colour_ok =
            matches!(hex.len(), 3 | 4 | 6 | 8) && hex.chars().all(|ch| ch.is_ascii_hexdigit());
        if code_ok && colour_ok {
            css.push_str(&format!(
                ".seat.cat-{code}{{fill:#{hex}}}.swatch.cat-{code}{{background:#{hex}}}",
                code = c.code
            ));
        }
    }
    css
}

#[cfg(test)]
mod tests {
    use super::category_css;
    use crate::model::PriceCategory;

    fn category(code: &str, color: &str) -> PriceCategory {
        PriceCategory {
            code: code.into(),
            name: "x".into(),
            price_cents: 1,
            color: color.into(),
        }
    }

    #[test]
    fn each_category_takes_its_own_colour_and_nothing_else_gets_in() {
        let css = category_css(&[
            category("VIP", "#b42318"),
            category("A", "#fff"),
            category("x}body{display:none", "#000000"),
            category("B", "red;}body{x:y"),
        ]);
        assert_eq!(
            css,
            ".seat.cat-VIP{fill:#b42318}.swatch.cat-VIP{background:#b42318}\
             .seat.cat-A{fill:#fff}.swatch.cat-A{background:#fff}"
        );
    }
}
