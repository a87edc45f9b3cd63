//! An email address as accounts key it: trimmed, lower-cased, and one a
//! mail relay would take.

use std::str::FromStr;

use crate::ApiError;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmailAddress(String);

impl EmailAddress {
    /// The address from a form or a JSON body; 422 on `email` otherwise.
    pub fn parse(raw: &str) -> Result<EmailAddress, ApiError> {
        let address = raw.trim().to_lowercase();
        let plausible = address.len() <= 254
            && address
                .chars()
                .all(|c| !c.is_whitespace() && !c.is_control())
            && address
                .rsplit_once('@')
                .is_some_and(|(_, domain)| domain.contains('.'))
            && lettre::Address::from_str(&address).is_ok();
        if plausible {
            Ok(EmailAddress(address))
        } else {
            Err(ApiError::unprocessable(
                "enter an email address like name@example.com",
                "email",
            ))
        }
    }

    /// `m•••@example.com`: enough for its owner to know it, not enough
    /// for whoever holds a forwarded link to learn it.
    pub fn masked(&self) -> String {
        let (local, domain) = self.0.split_once('@').unwrap_or((&self.0, ""));
        let first: String = local.chars().take(1).collect();
        format!("{first}•••@{domain}")
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for EmailAddress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_keyed_lower_case_and_checked() {
        assert_eq!(
            EmailAddress::parse("  Ana@Example.COM ").unwrap().as_str(),
            "ana@example.com"
        );
        for bad in [
            "",
            "ana",
            "ana@",
            "@example.com",
            "ana@localhost",
            "a na@example.com",
            "ana@example.com\r\nBcc: x@y.z",
        ] {
            assert!(EmailAddress::parse(bad).is_err(), "{bad:?} was taken");
        }
    }
}
