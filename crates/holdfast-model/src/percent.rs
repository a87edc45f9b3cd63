//! Percent-encoding (RFC 3986): every byte but the unreserved characters
//! (`A–Z a–z 0–9 - _ . ~`) as `%XX`. For a query value or a `data:` URL.

pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_unreserved_characters_stay() {
        assert_eq!(
            super::encode("{\"a\": \"é\"} x-y_z.~"),
            "%7B%22a%22%3A%20%22%C3%A9%22%7D%20x-y_z.~"
        );
    }
}
