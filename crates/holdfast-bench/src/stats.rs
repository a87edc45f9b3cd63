//! Latency samples and their percentiles, shared by every benchmark.

use std::time::Duration;

/// The `p`-quantile (0..1) of sorted samples, in milliseconds.
pub fn percentile(sorted: &[Duration], p: f64) -> f64 {
    sorted
        .get(((sorted.len() as f64 * p) as usize).min(sorted.len().saturating_sub(1)))
        .copied()
        .unwrap_or_default()
        .as_secs_f64()
        * 1e3
}

/// "p50 … p95 … p99 … max …" of unsorted samples.
pub fn summary(samples: &mut [Duration]) -> String {
    samples.sort();
    format!(
        "n {:>7}  p50 {:>8.2} ms  p95 {:>8.2} ms  p99 {:>8.2} ms  max {:>8.2} ms",
        samples.len(),
        percentile(samples, 0.50),
        percentile(samples, 0.95),
        percentile(samples, 0.99),
        samples.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
    )
}

/// A small deterministic generator (SplitMix64): the simulator's buyers
/// must be reproducible from a seed, and need nothing stronger.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [0, n).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
}
