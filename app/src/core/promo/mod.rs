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

pub mod apply;
pub mod campaigns;
pub mod give_back;
pub mod pool;

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

/// The discount on `amount` (minor units of `currency`): a percentage
/// and/or a fixed amount off, never leaving less than the provider's
/// smallest charge in that currency, and in steps it can charge (tens of
/// fils for a three-decimal currency).
pub fn discount(amount: i64, percent_off: i64, amount_off_cents: i64, currency: &str) -> i64 {
    use crate::model::money::{charge_step, min_charge};
    let wanted = (amount.saturating_mul(percent_off) / 100).saturating_add(amount_off_cents);
    let step = charge_step(currency);
    let most = amount - min_charge(currency);
    (wanted.min(most).max(0) / step) * step
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
    fn codes_are_normalised_and_discounts_bounded() {
        assert_eq!(normalise("  summer-10 ").as_deref(), Some("SUMMER-10"));
        assert_eq!(normalise("a b"), None);
        assert_eq!(normalise("ab"), None);
        assert_eq!(discount(10_000, 10, 0, "EUR"), 1_000);
        assert_eq!(discount(10_000, 0, 2_500, "EUR"), 2_500);
        assert_eq!(discount(10_000, 100, 0, "EUR"), 10_000 - 50);
        assert_eq!(discount(40, 50, 0, "EUR"), 0);
        // The floor is the currency's own: 15,000 đồng, 0.30 GBP.
        assert_eq!(discount(850_000, 100, 0, "VND"), 850_000 - 15_000);
        assert_eq!(discount(10_000, 100, 0, "GBP"), 10_000 - 30);
        // Three decimals: whole tens of fils only.
        assert_eq!(discount(12_345, 10, 0, "BHD"), 1_230);
        assert!(normalise(&new_code("POOL")).is_some());
    }
}
