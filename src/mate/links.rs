//! Parent links, for finding double counts (KomoringHeights' `FindKnownAncestor`).
//!
//! Proof-number sums count a subtree once for every path into it. For each searched unfinished
//! position (by its full key, hands included) a link keeps the parent that last searched it, the
//! numbers it had then, and which of its own children it counts as a maximum rather than in its
//! sum. Following the links up from a child shows whether another path leads into it from an
//! ancestor on the current path (`dfpn/double_count.rs`). A lost or overwritten link only
//! loses a detection, never a result: direct-mapped, the newest write wins.

use super::slots::Slots;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[repr(C)]
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

// SAFETY: `Link` is `repr(C)` plain integers without padding (8 + 8 + 8 + 4 + 4 = 32 bytes);
// every bit pattern is a valid link, and all zeros is `Link::default()`, the empty slot.
unsafe impl bytemuck::Zeroable for Link {}
// SAFETY: as above: no padding, no invalid bit patterns, `Copy` and `'static`.
unsafe impl bytemuck::Pod for Link {}

pub struct Links {
    slots: Slots<Link>,
}

impl Links {
    /// About `n` slots (a power of two, at least one; fewer when the memory cannot be mapped).
    pub fn new(n: usize) -> Links {
        let mut n = n.max(1).next_power_of_two();
        loop {
            if let Some(slots) = Slots::new(n) {
                return Links { slots };
            }
            assert!(n > 1, "cannot map one parent link: out of memory");
            n /= 2;
        }
    }

    fn slot(&self, key: u64) -> usize {
        // Full keys are Zobrist keys: their low bits are as random as any.
        (key as usize) & (self.slots.len() - 1)
    }

    pub fn record(&mut self, key: u64, parent: u64, pn: u32, dn: u32, max_counted: u64) {
        let i = self.slot(key);
        self.slots[i] = Link {
            key: key | 1,
            parent,
            max_counted,
            pn,
            dn,
        };
    }

    /// Asks for `key`'s slot to be brought into the cache: the links are read at random
    /// (a table of tens of MiB), so each read would otherwise wait for memory.
    pub fn prefetch(&self, key: u64) {
        // One cache line: the map is page-aligned and a link is 32 bytes.
        super::slots::prefetch(&self.slots[self.slot(key)], std::mem::size_of::<Link>());
    }

    /// The link of `key`, if it is still there.
    pub fn get(&self, key: u64) -> Option<Link> {
        let l = self.slots[self.slot(key)];
        (l.key == key | 1).then_some(l)
    }

    pub fn clear(&mut self) {
        self.slots.fill(Link::default());
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
}
