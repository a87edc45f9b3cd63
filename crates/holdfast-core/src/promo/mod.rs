//! Promo codes: a discount on a HELD booking, claimed atomically before
//! anything else happens (the seed's voucher race: five redemptions of one
//! voucher in "single-threaded" Node).
//!
//! - `apply`: the claim — a single-use or pooled code by a conditional
//!   update on `redeemed_at is null`, a capped code by a conditional
//!   increment under a CHECK — the discount and the booking's new amount,
//!   in one transaction with the booking's lock; applying the same code to
//!   the same booking again answers the same.
//! - `pool`: hands a pooled code to a buyer, one per buyer (`skip locked`
//!   on Postgres; a unique (campaign, holder) constraint everywhere).
//! - `campaigns`: the admin creates and watches campaigns.
//! - `give_back`: a hold that ends unpaid returns its use.
//! - `store`: the only SQL on campaigns, codes and uses.

pub mod apply;
pub mod campaigns;
pub mod give_back;
pub mod pool;
pub mod store;

pub use give_back::give_back;

/// A code as typed: trimmed, upper case; `None` when it cannot be a code.
pub fn normalise(code: &str) -> Option<String> {
    let code = code.trim().to_ascii_uppercase();
    let ok = (3..=64).contains(&code.len())
        && code
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    ok.then_some(code)
}

/// A fresh random code with a readable prefix.
pub fn new_code(prefix: &str) -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::thread_rng();
    let tail: String = (0..10)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect();
    format!("{prefix}-{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_normalised() {
        assert_eq!(normalise("  summer-10 ").as_deref(), Some("SUMMER-10"));
        assert_eq!(normalise("a b"), None);
        assert_eq!(normalise("ab"), None);
        assert!(normalise(&new_code("POOL")).is_some());
    }
}
