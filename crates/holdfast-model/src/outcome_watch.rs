//! How often a page waiting on a booking's outcome asks for it again:
//! every tick in the first seconds back from the provider's page (the
//! provider's webhook usually lands within a fraction of a second, and a
//! buyer who just paid watches the screen), then once a second. The
//! booking page follows it, and so does the on-sale simulator's buyer.

/// The page's clock ticks this often (milliseconds).
pub const TICK_MS: u64 = 250;

/// For this long after coming back from the checkout, every tick asks.
pub const QUICK_FOR_MS: f64 = 3_000.0;

/// After that, or on a page not opened from a checkout: one ask a second.
pub const SLOW_MS: f64 = 1_000.0;

/// Whether to ask now. `since_return_ms`: since the buyer came back from
/// the checkout (`None` when the page was not opened from one);
/// `since_asked_ms`: since the last ask. Half a tick of slack, so a timer
/// firing a little early does not stretch a second into a second and a
/// quarter.
pub fn ask_now(since_return_ms: Option<f64>, since_asked_ms: f64) -> bool {
    since_return_ms.is_some_and(|t| t < QUICK_FOR_MS)
        || since_asked_ms >= SLOW_MS - TICK_MS as f64 / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ticks at which a page asks, over `for_ms`, its timer firing up
    /// to 3 ms early or late.
    fn asks(back_from_checkout: bool, for_ms: f64) -> Vec<f64> {
        let mut asked = Vec::new();
        let mut last = 0.0;
        let mut t = 0.0;
        let mut n = 0;
        while t < for_ms {
            n += 1;
            t = n as f64 * TICK_MS as f64 + if n % 2 == 0 { 3.0 } else { -3.0 };
            let since_return = back_from_checkout.then_some(t);
            if ask_now(since_return, t - last) {
                asked.push(t);
                last = t;
            }
        }
        asked
    }

    #[test]
    fn back_from_checkout_every_tick_for_three_seconds_then_every_second() {
        let asked = asks(true, 6_000.0);
        let quick = asked.iter().filter(|&&t| t < QUICK_FOR_MS).count();
        assert_eq!(quick, 11, "{asked:?}");
        let later: Vec<f64> = asked.into_iter().filter(|&t| t >= QUICK_FOR_MS).collect();
        assert_eq!(later.len(), 3, "{later:?}");
        for pair in later.windows(2) {
            assert!((pair[1] - pair[0] - SLOW_MS).abs() <= 10.0, "{pair:?}");
        }
    }

    #[test]
    fn otherwise_once_a_second() {
        let asked = asks(false, 5_100.0);
        assert_eq!(asked.len(), 5, "{asked:?}");
        for pair in asked.windows(2) {
            assert!((pair[1] - pair[0] - SLOW_MS).abs() <= 10.0, "{pair:?}");
        }
    }
}
