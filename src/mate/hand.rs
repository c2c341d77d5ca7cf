//! Pieces in hand as counts per kind, with the componentwise order that proof and disproof pieces
//! use: a hand that covers a proof hand mates too; a hand covered by a disproof hand fails too.

use super::HandEffect;

/// Number of hand kinds a game may use (shogi uses seven).
pub const HAND_KINDS: usize = 8;

/// Counts per hand kind. `u8::MAX` in a disproof hand means "any number".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Hand(pub [u8; HAND_KINDS]);

impl Hand {
    pub const EMPTY: Hand = Hand([0; HAND_KINDS]);
    pub const ANY: Hand = Hand([u8::MAX; HAND_KINDS]);

    /// Whether every count of `self` is at least the count of `other`.
    pub fn covers(&self, other: &Hand) -> bool {
        self.0.iter().zip(other.0.iter()).all(|(a, b)| a >= b)
    }

    pub fn min(&self, other: &Hand) -> Hand {
        let mut h = *self;
        for (a, b) in h.0.iter_mut().zip(other.0.iter()) {
            *a = (*a).min(*b);
        }
        h
    }

    pub fn max(&self, other: &Hand) -> Hand {
        let mut h = *self;
        for (a, b) in h.0.iter_mut().zip(other.0.iter()) {
            *a = (*a).max(*b);
        }
        h
    }

    pub fn get(&self, kind: usize) -> u8 {
        self.0[kind]
    }

    pub fn set(&mut self, kind: usize, n: u8) {
        self.0[kind] = n;
    }

    /// A hash of the counts, for mixing into keys.
    pub fn hash(&self) -> u64 {
        let v = u64::from_le_bytes(self.0);
        v.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29)
    }

    /// The hand the attacker needed *before* `effect`, given the proof hand needed after it:
    /// a dropped piece was needed, a captured one was not.
    pub fn proof_before(&self, effect: HandEffect) -> Hand {
        let mut h = *self;
        match effect {
            HandEffect::Drop(k) => h.0[k] = h.0[k].saturating_add(1),
            HandEffect::Capture(k) => h.0[k] = h.0[k].saturating_sub(1),
            HandEffect::None => {}
        }
        h
    }

    /// The disproof hand before `effect`, given the one after it (the same arithmetic; `ANY`
    /// stays `ANY`).
    pub fn disproof_before(&self, effect: HandEffect) -> Hand {
        let mut h = *self;
        match effect {
            HandEffect::Drop(k) if h.0[k] != u8::MAX => h.0[k] += 1,
            HandEffect::Capture(k) if h.0[k] != u8::MAX => h.0[k] = h.0[k].saturating_sub(1),
            _ => {}
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_and_arithmetic() {
        let a = Hand([1, 0, 2, 0, 0, 0, 0, 0]);
        let b = Hand([1, 0, 1, 0, 0, 0, 0, 0]);
        assert!(a.covers(&b) && !b.covers(&a));
        assert_eq!(a.min(&b), b);
        assert_eq!(a.max(&b), a);
        assert_eq!(b.proof_before(HandEffect::Drop(2)), a);
        assert_eq!(a.proof_before(HandEffect::Capture(2)), b);
        assert_eq!(Hand::ANY.disproof_before(HandEffect::Drop(0)), Hand::ANY);
    }
}
