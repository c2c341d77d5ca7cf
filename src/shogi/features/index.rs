//! Tables and indexing of the `bonanza` feature set: the parameter counts and offsets, the
//! mirror orbits that tie a condition to its mirror image, and the independent parameter of a KP,
//! KKP or KPP entry.

use super::*;

pub const N_MATERIAL: usize = 13;
pub(super) const KP_CENTRE_ORBITS: usize = 860;
pub(super) const KKP_CENTRE_ORBITS: usize = 430;
pub(super) const PAIRS: usize = FE * (FE - 1) / 2;
pub(super) const KPP_CENTRE_ORBITS: usize = 559_406;
pub const N_KP: usize = 36 * FE + 9 * KP_CENTRE_ORBITS;
pub const N_KKP: usize = 36 * 81 * KKP_END + 9 * 36 * KKP_END + 81 * KKP_CENTRE_ORBITS;
pub const N_KPP: usize = 36 * PAIRS + 9 * KPP_CENTRE_ORBITS;
pub const OFF_KP: usize = N_MATERIAL;
pub const OFF_KKP: usize = OFF_KP + N_KP;
pub const OFF_KPP: usize = OFF_KKP + N_KKP;
pub const N_PARAMS: usize = OFF_KPP + N_KPP;

pub(super) struct Orbits {
    /// Orbit id of each condition under the mirror (KP, centre-file king).
    pub(super) bp: Vec<u32>,
    pub(super) kkp: Vec<u32>,
    /// Orbit id of each unordered pair `tri(a, b)` (KPP, centre-file king).
    pub(super) pair: Vec<u32>,
}

/// Index of the unordered pair {a, b}, a != b.
#[inline]
pub(super) fn tri(a: usize, b: usize) -> usize {
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    hi * (hi - 1) / 2 + lo
}

// Index loops: the same index addresses the mirror table and the pair numbering.
#[allow(clippy::needless_range_loop)]
pub(super) fn orbits() -> &'static Orbits {
    static O: OnceLock<Orbits> = OnceLock::new();
    O.get_or_init(|| {
        // Ids are handed out in index order; the mirror image, if smaller, already has one.
        let number = |n: usize, mirror: &dyn Fn(usize) -> usize| {
            let mut ids = vec![0u32; n];
            let mut next = 0u32;
            for i in 0..n {
                let m = mirror(i);
                if m < i {
                    ids[i] = ids[m];
                } else {
                    ids[i] = next;
                    next += 1;
                }
            }
            (ids, next as usize)
        };
        let (bp, nb) = number(FE, &|i| MIRROR_BP[i] as usize);
        let (kkp, nk) = number(KKP_END, &|i| MIRROR_KKP[i] as usize);
        let mut pair = vec![0u32; PAIRS];
        let mut next = 0u32;
        for a in 1..FE {
            for b in 0..a {
                let t = tri(a, b);
                let m = tri(MIRROR_BP[a] as usize, MIRROR_BP[b] as usize);
                if m < t {
                    pair[t] = pair[m];
                } else {
                    pair[t] = next;
                    next += 1;
                }
            }
        }
        debug_assert_eq!(nb, KP_CENTRE_ORBITS);
        debug_assert_eq!(nk, KKP_CENTRE_ORBITS);
        debug_assert_eq!(next as usize, KPP_CENTRE_ORBITS);
        Orbits { bp, kkp, pair }
    })
}

#[inline]
pub(super) fn col(k: usize) -> usize {
    k % 9
}

/// Canonical index of a king square with column < 4 (0..36).
#[inline]
pub(super) fn kc(k: usize) -> usize {
    (k / 9) * 4 + col(k)
}

/// Independent KP parameter (offset inside the KP block) of own king `k` and condition `j`.
pub fn kp_param(k: usize, j: usize) -> usize {
    let (k, j) = if col(k) > 4 {
        (mirror_sq(k as u8) as usize, MIRROR_BP[j] as usize)
    } else {
        (k, j)
    };
    if col(k) < 4 {
        kc(k) * FE + j
    } else {
        36 * FE + (k / 9) * KP_CENTRE_ORBITS + orbits().bp[j] as usize
    }
}

/// Independent KKP parameter of own king `k`, opponent king `k2` (both seen by the owner) and
/// own-piece condition `l`.
pub fn kkp_param(k: usize, k2: usize, l: usize) -> usize {
    let m = |s: usize| mirror_sq(s as u8) as usize;
    let (k, k2, l) = if col(k) > 4 || (col(k) == 4 && col(k2) > 4) {
        (m(k), m(k2), MIRROR_KKP[l] as usize)
    } else {
        (k, k2, l)
    };
    if col(k) < 4 {
        (kc(k) * 81 + k2) * KKP_END + l
    } else if col(k2) < 4 {
        36 * 81 * KKP_END + ((k / 9) * 36 + kc(k2)) * KKP_END + l
    } else {
        36 * 81 * KKP_END
            + 9 * 36 * KKP_END
            + ((k / 9) * 9 + k2 / 9) * KKP_CENTRE_ORBITS
            + orbits().kkp[l] as usize
    }
}

/// Independent KPP parameter of own king `k` and distinct conditions `a`, `b`.
pub fn kpp_param(k: usize, a: usize, b: usize) -> usize {
    debug_assert_ne!(a, b);
    let (k, a, b) = if col(k) > 4 {
        (
            mirror_sq(k as u8) as usize,
            MIRROR_BP[a] as usize,
            MIRROR_BP[b] as usize,
        )
    } else {
        (k, a, b)
    };
    if col(k) < 4 {
        kc(k) * PAIRS + tri(a, b)
    } else {
        36 * PAIRS + (k / 9) * KPP_CENTRE_ORBITS + orbits().pair[tri(a, b)] as usize
    }
}

// ---------------------------------------------------------------------------------------------
// Piece lists and the accumulator.
