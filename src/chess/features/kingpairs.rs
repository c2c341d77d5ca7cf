//! The terms of `kishi-chess`'s optional table `king_attack_pairs`: every product of two
//! components of an attack on the enemy king (attackers by type, attacks on the king zone, weak
//! zone squares, safe and unsafe checks, the attacker's queen; `layout.rs`, `KA_*`).
//!
//! Why: classical engines price an attack on the king through the square of one index, a sum of
//! these components with hand-set coefficients (`terms::king_danger`, Stockfish 11's
//! `kingDanger`), and the `king_danger` table learns only that square's price. The square of any
//! weighted sum is a weighted sum of the components' pairwise products, so one weight per
//! product lets the learner find the whole quadratic form, the coefficients inside the square
//! included, and still by linear regression. Which attacks add up was the lead that session 73's
//! scaling of the learned price left (docs/learning/texel.md).
//!
//! Counted from the attacking side, only when at least one of its pieces attacks the zone; the
//! caller subtracts the other side's.

use super::*;

/// The counts' first index among `terms::counts`' indices.
const BASE: usize = COUNT_BASE[6];

/// Hands the products `x[i] · x[j]` (i ≤ j) that are not zero to `add`.
#[inline]
pub(super) fn counts(x: &[i32; KA_COMPONENTS], mut add: impl FnMut(usize, i32)) {
    // The components that are not zero (usually a handful of the 12), so that the double loop
    // visits only the products that count.
    let mut nz = [0usize; KA_COMPONENTS];
    let mut k = 0;
    for (i, &v) in x.iter().enumerate() {
        nz[k] = i;
        k += usize::from(v != 0);
    }
    for (a, &i) in nz[..k].iter().enumerate() {
        for &j in &nz[a..k] {
            add(BASE + ka_pair(i, j), x[i] * x[j]);
        }
    }
}
