//! Signed queue places and admissions: `{event}.{buyer}.{number}.{hmac}`,
//! where the number is the queue position or the admission's expiry (ms).
//! The buyer is the session's, so a token copied into another session is
//! refused; a changed digit breaks the signature.

use crate::platform::clock::At;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use holdfast_model::BuyerId;
use holdfast_model::EventId;

/// Queue places and admissions are signed under different keys, both
/// derived from the deployment's root (`core::secrets`).
pub struct AdmissionSigner {
    queue_key: Vec<u8>,
    admission_key: Vec<u8>,
}

/// What a genuine token says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signed {
    pub event_id: EventId,
    pub buyer: BuyerId,
    pub number: i64,
}

impl AdmissionSigner {
    pub fn new(queue_key: &[u8], admission_key: &[u8]) -> Self {
        AdmissionSigner {
            queue_key: queue_key.to_vec(),
            admission_key: admission_key.to_vec(),
        }
    }

    pub fn queue_token(&self, event_id: EventId, buyer: &BuyerId, position: i64) -> String {
        self.sign("queue", event_id, buyer, position)
    }

    pub fn admission_token(&self, event_id: EventId, buyer: &BuyerId, expires_at: At) -> String {
        self.sign("admission", event_id, buyer, expires_at.ms())
    }

    pub fn read_queue_token(&self, token: &str) -> Option<Signed> {
        self.verify("queue", token)
    }

    pub fn read_admission_token(&self, token: &str) -> Option<Signed> {
        self.verify("admission", token)
    }

    fn mac(&self, purpose: &str, event_id: EventId, buyer: &str, number: i64) -> Hmac<Sha256> {
        let key = if purpose == "queue" {
            &self.queue_key
        } else {
            &self.admission_key
        };
        let mut m = Hmac::<Sha256>::new_from_slice(key).expect("any key length");
        m.update(format!("{purpose}:{event_id}:{buyer}:{number}").as_bytes());
        m
    }

    fn sign(&self, purpose: &str, event_id: EventId, buyer: &BuyerId, number: i64) -> String {
        let sig = self.mac(purpose, event_id, buyer, number).finalize();
        format!(
            "{event_id}.{buyer}.{number}.{}",
            hex::encode(sig.into_bytes())
        )
    }

    fn verify(&self, purpose: &str, token: &str) -> Option<Signed> {
        let mut parts = token.trim().split('.');
        let event_id: EventId = parts.next()?.parse().ok()?;
        let buyer = parts.next()?;
        let number: i64 = parts.next()?.parse().ok()?;
        let sig = hex::decode(parts.next()?).ok()?;
        if parts.next().is_some() || buyer.is_empty() {
            return None;
        }
        self.mac(purpose, event_id, buyer, number)
            .verify_slice(&sig)
            .ok()?;
        Some(Signed {
            event_id,
            buyer: BuyerId::from(buyer),
            number,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_verify_only_unchanged_under_their_own_secret_and_purpose() {
        let s = AdmissionSigner::new(b"q1", b"a1");
        let t = s.admission_token(EventId(3), &BuyerId::from("b-1"), At::from_ms(99));
        let read = s.read_admission_token(&t).unwrap();
        assert_eq!(
            (read.event_id, read.buyer.as_str(), read.number),
            (EventId(3), "b-1", 99)
        );
        assert!(s
            .read_admission_token(&t.replace(".99.", ".990."))
            .is_none());
        assert!(s.read_admission_token(&t.replacen("3.", "4.", 1)).is_none());
        assert!(AdmissionSigner::new(b"q2", b"a2")
            .read_admission_token(&t)
            .is_none());
        // A queue token is not an admission.
        assert!(s
            .read_admission_token(&s.queue_token(EventId(3), &BuyerId::from("b-1"), 99))
            .is_none());
        assert!(s.read_admission_token("nonsense").is_none());
        assert!(s.read_admission_token(&format!("{t}.extra")).is_none());
    }
}
