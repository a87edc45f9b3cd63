//! Tickets: a BOOKED booking's QR code carries `{bookingId}.{signature}`, an
//! HMAC of the booking id under the server's ticket secret, so a door
//! scanner can tell a real ticket from a made-up one without a lookup table,
//! and then check the booking's current status.

use hmac::{Hmac, Mac};
use sha2::Sha256;

pub struct TicketSigner {
    secret: String,
}

impl TicketSigner {
    pub fn new(secret: &str) -> Self {
        TicketSigner {
            secret: secret.to_string(),
        }
    }

    fn mac(&self, booking_id: &str) -> Hmac<Sha256> {
        let mut m = Hmac::<Sha256>::new_from_slice(self.secret.as_bytes())
            .expect("HMAC takes any key length");
        m.update(b"ticket:");
        m.update(booking_id.as_bytes());
        m
    }

    pub fn token(&self, booking_id: &str) -> String {
        format!(
            "{booking_id}.{}",
            hex::encode(self.mac(booking_id).finalize().into_bytes())
        )
    }

    /// The booking id of a genuine token.
    pub fn verify(&self, token: &str) -> Option<String> {
        let (id, sig) = token.rsplit_once('.')?;
        let sig = hex::decode(sig).ok()?;
        self.mac(id).verify_slice(&sig).ok()?;
        Some(id.to_string())
    }

    /// The token as a QR code (SVG).
    pub fn qr_svg(&self, booking_id: &str) -> Option<String> {
        let code = qrcode::QrCode::new(self.token(booking_id).as_bytes()).ok()?;
        Some(
            code.render::<qrcode::render::svg::Color>()
                .min_dimensions(220, 220)
                .quiet_zone(true)
                .build(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_verifies_and_a_forged_one_does_not() {
        let t = TicketSigner::new("s3cret");
        let token = t.token("b-1");
        assert_eq!(t.verify(&token).as_deref(), Some("b-1"));
        assert_eq!(t.verify(&token.replace("b-1", "b-2")), None);
        assert_eq!(TicketSigner::new("other").verify(&token), None);
        assert_eq!(t.verify("nonsense"), None);
        assert!(t.qr_svg("b-1").unwrap().starts_with("<?xml"));
    }
}
