//! Tickets: a BOOKED booking's QR code carries `{bookingId}.{signature}`, an
//! HMAC of the booking id under the deployment's ticket key, so a door
//! scanner can tell a real ticket from a made-up one without a lookup table,
//! and then check the booking's current status. Each seat (or standing
//! place) has its own ticket too, `{bookingId}.{unit}.{signature}` — the
//! unit is the seat id or `p{n}` — so a party can enter one by one; the
//! booking's own token admits the whole party at once.
//!
//! Everything a ticket is lives here: the signed tokens (this module), the
//! QR code as a PNG (`image`), a confirmation's tickets as mail carries
//! them (`in_mail`), and the door that lets them in once (`door`).

pub mod door;
pub mod image;
pub mod in_mail;

use hmac::{Hmac, Mac};
use holdfast_model::BookingId;
use sha2::Sha256;

/// What a ticket admits: `unit` is the seat id or `p{n}`; none: the whole
/// booking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicketRef {
    pub booking_id: BookingId,
    pub unit: Option<String>,
}

pub struct TicketSigner {
    key: Vec<u8>,
    /// Tickets issued before keys were derived per purpose were signed with
    /// the operator's `TICKET_SECRET` itself: still read, never written.
    legacy_key: Option<Vec<u8>>,
}

impl TicketSigner {
    /// `key`: the tickets' own key (`Secrets::key(Purpose::Tickets)`).
    pub fn new(key: &[u8]) -> Self {
        TicketSigner {
            key: key.to_vec(),
            legacy_key: None,
        }
    }

    /// Also accepts tickets signed directly with `secret` (earlier releases).
    pub fn reading_legacy(mut self, secret: Option<&str>) -> Self {
        self.legacy_key = secret.map(|s| s.as_bytes().to_vec());
        self
    }

    fn mac(&self, signed: &str) -> Hmac<Sha256> {
        Self::mac_with(&self.key, signed)
    }

    fn mac_with(key: &[u8], signed: &str) -> Hmac<Sha256> {
        let mut m = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key length");
        m.update(b"ticket:");
        m.update(signed.as_bytes());
        m
    }

    pub fn token(&self, booking_id: &BookingId) -> String {
        self.sign(booking_id)
    }

    fn sign(&self, signed: &str) -> String {
        format!(
            "{signed}.{}",
            hex::encode(self.mac(signed).finalize().into_bytes())
        )
    }

    /// The booking id of a genuine token (a booking's or one unit's).
    pub fn verify(&self, token: &str) -> Option<BookingId> {
        self.verify_unit(token).map(|t| t.booking_id)
    }

    /// One seat's or standing place's ticket.
    pub fn unit_token(&self, booking_id: &BookingId, unit: &str) -> String {
        self.sign(&format!("{booking_id}.{unit}"))
    }

    /// What a genuine token admits: a whole booking, or one unit of it.
    pub fn verify_unit(&self, token: &str) -> Option<TicketRef> {
        let (signed, sig) = token.rsplit_once('.')?;
        let sig = hex::decode(sig).ok()?;
        let genuine = self.mac(signed).verify_slice(&sig).is_ok()
            || self
                .legacy_key
                .as_deref()
                .is_some_and(|k| Self::mac_with(k, signed).verify_slice(&sig).is_ok());
        if !genuine {
            return None;
        }
        let (booking_id, unit) = match signed.split_once('.') {
            Some((b, u)) => (BookingId::from(b), Some(u.to_string())),
            None => (BookingId::from(signed), None),
        };
        Some(TicketRef { booking_id, unit })
    }

    /// The booking's party token as a QR code (SVG).
    pub fn qr_svg(&self, booking_id: &BookingId) -> Option<String> {
        image::qr_svg(&self.token(booking_id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_verifies_and_a_forged_one_does_not() {
        let t = TicketSigner::new(b"s3cret");
        let (b1, b9) = (BookingId::from("b-1"), BookingId::from("b-9"));
        let token = t.token(&b1);
        assert_eq!(t.verify(&token), Some(b1.clone()));
        assert_eq!(t.verify(&token.replace("b-1", "b-2")), None);
        assert_eq!(TicketSigner::new(b"other").verify(&token), None);
        assert_eq!(t.verify("nonsense"), None);
        // A ticket from before the keys were derived, signed with the
        // operator's secret itself, still scans where that secret is given.
        let old = TicketSigner::new(b"old-root").token(&b9);
        let upgraded = TicketSigner::new(b"derived").reading_legacy(Some("old-root"));
        assert_eq!(upgraded.verify(&old), Some(b9));
        assert_eq!(TicketSigner::new(b"derived").verify(&old), None);
        assert!(t.qr_svg(&b1).unwrap().starts_with("<?xml"));
        let seat = t.unit_token(&b1, "42");
        assert_eq!(
            t.verify_unit(&seat),
            Some(TicketRef {
                booking_id: "b-1".into(),
                unit: Some("42".into())
            })
        );
        assert_eq!(t.verify_unit(&seat.replace(".42.", ".43.")), None);
        assert_eq!(t.verify_unit(&token).unwrap().unit, None);
    }
}
