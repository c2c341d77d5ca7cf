//! A small deterministic generator (SplitMix64) for random weight files and random playouts in
//! tests and benchmarks; reproducible from a seed, no dependency.

#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix64(self.0)
    }
    /// Uniform in `0..n` (n > 0); the modulo bias is irrelevant at these sizes.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    /// Uniform in `-r..=r`.
    pub fn symmetric(&mut self, r: i32) -> i32 {
        (self.next_u64() % (2 * r as u64 + 1)) as i32 - r
    }
}

/// SplitMix64's finaliser: every input bit moves about half the output bits. Also what the
/// search's correction-history keys are mixed with (`Game::structure_key`).
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
