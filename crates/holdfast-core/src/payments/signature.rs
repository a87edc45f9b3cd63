//! Stripe's webhook signature scheme: `Stripe-Signature: t=…,v1=…[,v1=…]`,
//! HMAC-SHA256 over `"{t}.{raw body}"`, a tolerance on `t`, and acceptance
//! when **any** `v1` matches (secret rotation sends several).

use hmac::{Hmac, Mac};
use sha2::Sha256;

pub const TOLERANCE_SECS: i64 = 300;

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    #[error("missing or malformed Stripe-Signature header")]
    Malformed,
    #[error("timestamp outside the tolerance")]
    Stale,
    #[error("no signature matches")]
    Mismatch,
}

/// The header value for a body signed now (the sandbox sends these).
pub fn sign(secret: &str, body: &[u8], t: i64) -> String {
    format!("t={t},v1={}", hex::encode(mac(secret, t, body)))
}

fn mac(secret: &str, t: i64, body: &[u8]) -> Vec<u8> {
    let mut m =
        Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
    m.update(t.to_string().as_bytes());
    m.update(b".");
    m.update(body);
    m.finalize().into_bytes().to_vec()
}

/// Checks a header against the raw body at time `now_secs`.
pub fn verify(
    secret: &str,
    header: &str,
    body: &[u8],
    now_secs: i64,
) -> Result<(), SignatureError> {
    let mut t = None;
    let mut candidates = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", v)) => t = v.parse::<i64>().ok(),
            Some(("v1", v)) => candidates.push(v.to_string()),
            _ => {}
        }
    }
    let t = t.ok_or(SignatureError::Malformed)?;
    if candidates.is_empty() {
        return Err(SignatureError::Malformed);
    }
    if (now_secs - t).abs() > TOLERANCE_SECS {
        return Err(SignatureError::Stale);
    }
    let mut m =
        Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
    m.update(t.to_string().as_bytes());
    m.update(b".");
    m.update(body);
    let any = candidates
        .iter()
        .any(|c| hex::decode(c).is_ok_and(|sig| m.clone().verify_slice(&sig).is_ok()));
    if any {
        Ok(())
    } else {
        Err(SignatureError::Mismatch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "whsec_test";

    #[test]
    fn a_signed_body_verifies() {
        let h = sign(SECRET, b"{}", 1000);
        assert_eq!(verify(SECRET, &h, b"{}", 1000), Ok(()));
    }

    #[test]
    fn tampering_a_wrong_secret_and_staleness_are_refused() {
        let h = sign(SECRET, b"{\"a\":1}", 1000);
        assert_eq!(
            verify(SECRET, &h, b"{\"a\":2}", 1000),
            Err(SignatureError::Mismatch)
        );
        assert_eq!(
            verify("other", &h, b"{\"a\":1}", 1000),
            Err(SignatureError::Mismatch)
        );
        assert_eq!(
            verify(SECRET, &h, b"{\"a\":1}", 1301),
            Err(SignatureError::Stale)
        );
        assert_eq!(
            verify(SECRET, "v1=00", b"{}", 1000),
            Err(SignatureError::Malformed)
        );
        assert_eq!(
            verify(SECRET, "", b"{}", 1000),
            Err(SignatureError::Malformed)
        );
    }

    #[test]
    fn any_matching_v1_is_enough_during_rotation() {
        let good = sign(SECRET, b"{}", 1000);
        let bad = sign("old", b"{}", 1000);
        let good_v1 = good.split_once(",v1=").unwrap().1;
        let bad_v1 = bad.split_once(",v1=").unwrap().1;
        let header = format!("t=1000,v1={good_v1},v1={bad_v1}");
        assert_eq!(verify(SECRET, &header, b"{}", 1000), Ok(()));
        let header = format!("t=1000,v1={bad_v1},v1={good_v1}");
        assert_eq!(verify(SECRET, &header, b"{}", 1000), Ok(()));
    }
}
