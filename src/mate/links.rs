//! Parent links, for finding double counts (KomoringHeights' `FindKnownAncestor`).
//!
//! Proof-number sums count a subtree once for every path into it. For each searched unfinished
//! position (by its full key, hands included) a link keeps the parent that last searched it, the
//! numbers it had then, and which of its own children it counts as a maximum rather than in its
//! sum. Following the links up from a child shows whether another path leads into it from an
//! ancestor on the current path (`dfpn/double_count.rs`). A lost or overwritten link only
//! loses a detection, never a result: direct-mapped, the newest write wins.

use super::slots::Slots;
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Link {
    /// Full key with the low bit set (0 marks an empty slot).
    key: u64,
    /// The parent's full key.
    pub parent: u64,
    /// Children (by move index, the first 64) counted as a maximum in the sum of this node.
    pub max_counted: u64,
    pub pn: u32,
    pub dn: u32,
}

pub struct Links {
    /// Four words per link: key (xor the other three, see [`Links::record`]), parent,
    /// max_counted, and `pn | dn << 32`.
    words: Slots<u64>,
}

impl Links {
    /// About `n` slots (a power of two, at least one; fewer when the memory cannot be mapped).
    pub fn new(n: usize) -> Links {
        let mut n = n.max(1).next_power_of_two();
        loop {
            if let Some(words) = Slots::new(n * 4) {
                return Links { words };
            }
            assert!(n > 1, "cannot map one parent link: out of memory");
            n /= 2;
        }
    }

    fn slot(&self, key: u64) -> usize {
        // Full keys are Zobrist keys: their low bits are as random as any.
        (key as usize) & (self.words.len() / 4 - 1)
    }

    /// Word `w` of link `i`, read or written atomically: solver threads share the links.
    fn word(&self, i: usize, w: usize) -> &AtomicU64 {
        // SAFETY: `4 * i + w` is within the map (`i` comes from `slot`, `w < 4`), the map is
        // page-aligned so every word is 8-byte aligned, and while the links are shared every
        // access to these words is atomic (the plain writes of `clear` need `&mut self`).
        unsafe { AtomicU64::from_ptr(self.words.ptr(4 * i + w)) }
    }

    /// Records `key`'s link. Threads sharing the links may write one slot at once and a reader
    /// may see words of two writes: the key is stored xor the other three words, so a mixed
    /// link reads as another key and is ignored (Hyatt's lockless hashing).
    pub fn record(&self, key: u64, parent: u64, pn: u32, dn: u32, max_counted: u64) {
        let i = self.slot(key);
        let numbers = u64::from(pn) | u64::from(dn) << 32;
        self.word(i, 1).store(parent, Ordering::Relaxed);
        self.word(i, 2).store(max_counted, Ordering::Relaxed);
        self.word(i, 3).store(numbers, Ordering::Relaxed);
        self.word(i, 0).store(
            (key | 1) ^ parent ^ max_counted ^ numbers,
            Ordering::Relaxed,
        );
    }

    /// Asks for `key`'s slot to be brought into the cache: the links are read at random
    /// (a table of tens of MiB), so each read would otherwise wait for memory.
    pub fn prefetch(&self, key: u64) {
        // One cache line: the map is page-aligned and a link is 32 bytes.
        super::slots::prefetch(self.words.ptr(4 * self.slot(key)).cast_const(), 32);
    }

    /// The link of `key`, if it is still there.
    pub fn get(&self, key: u64) -> Option<Link> {
        let i = self.slot(key);
        let [check, parent, max_counted, numbers] =
            [0, 1, 2, 3].map(|w| self.word(i, w).load(Ordering::Relaxed));
        (check ^ parent ^ max_counted ^ numbers == key | 1).then_some(Link {
            key: key | 1,
            parent,
            max_counted,
            pn: numbers as u32,
            dn: (numbers >> 32) as u32,
        })
    }

    pub fn clear(&mut self) {
        self.words.zero();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_reads_back_until_overwritten() {
        let mut l = Links::new(4);
        assert_eq!(l.get(6), None);
        l.record(6, 100, 3, 4, 0b101);
        let got = l.get(6).expect("recorded");
        assert_eq!(
            (got.parent, got.pn, got.dn, got.max_counted),
            (100, 3, 4, 0b101)
        );
        // Another key of the same slot: the newest wins, the old one is gone, not misread.
        l.record(6 + 4, 200, 1, 1, 0);
        assert_eq!(l.get(6), None);
        assert_eq!(l.get(10).map(|x| x.parent), Some(200));
        l.clear();
        assert_eq!(l.get(10), None);
    }

    /// Threads share the links without locks: a reader may see words of two writes. Such a
    /// mixed link must read as absent, never as a link with another parent or other numbers.
    #[test]
    fn a_mixed_link_reads_as_absent() {
        let l = Links::new(4);
        l.record(6, 100, 3, 4, 0b101);
        // Another write to the same slot, stopped after its parent word.
        l.word(l.slot(6), 1).store(200, Ordering::Relaxed);
        assert_eq!(l.get(6), None);
        l.record(6, 200, 3, 4, 0b101);
        assert_eq!(l.get(6).map(|x| x.parent), Some(200));
    }
}
