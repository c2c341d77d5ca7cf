//! The proof / disproof table: bounded memory, buckets of entries keyed by the position without
//! the attacker's hand, plus that hand.
//!
//! A lookup combines every entry of the same board: a proof whose proof hand the current hand
//! covers proves the position (more pieces cannot hurt the attacker), a disproof whose disproof
//! hand covers the current hand disproves it, and entries for other hands bound the numbers of an
//! unfinished position (the superiority / inferiority heuristics). When a bucket is full the
//! entry with the least work behind it is replaced; when the table is three-quarters full a
//! garbage collection drops the cheapest unfinished entries, so long problems can go on with the
//! proofs that matter kept.

use super::links::Links;
use super::slots::Slots;
use super::Hand;

/// Proof and disproof numbers at or above this are infinite.
pub const INF: u32 = u32::MAX / 4;

const BUCKET: usize = 8;

/// Entry flag: a disproof that depends on the path (a repetition on it, or a length bound), valid
/// only within the search generation that made it.
pub const FLAG_PATH: u8 = 1;

#[derive(Debug, Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    /// Board key with the low bit set (0 marks an empty slot).
    key: u64,
    /// The attacker's hand (unfinished), proof hand (proven) or disproof hand (disproven).
    hand: Hand,
    pn: u32,
    dn: u32,
    /// Nodes searched below this entry: the replacement and collection priority.
    work: u32,
    /// Proven: mate length in plies. Path-dependent disproof: the plies that were left.
    len: u16,
    flags: u8,
    generation: u8,
}

// SAFETY: `Entry` is `repr(C)` plain integers (and `Hand`, a `repr(transparent)` array of `u8`)
// laid out without padding (8 + 8 + 4 + 4 + 4 + 2 + 1 + 1 = 32 bytes); every bit pattern is a
// valid entry, and all zeros is `Entry::default()`, the empty slot.
unsafe impl bytemuck::Zeroable for Entry {}
// SAFETY: as above: no padding, no invalid bit patterns, `Copy` and `'static`.
unsafe impl bytemuck::Pod for Entry {}

/// What the table knows about a position.
#[derive(Debug, Clone, Copy)]
pub struct Probe {
    pub pn: u32,
    pub dn: u32,
    /// Proven: the mate length; disproven by a path-dependent entry: the plies it had.
    pub len: u16,
    /// Proven: the proof hand; disproven: the disproof hand; otherwise the hand itself.
    pub hand: Hand,
    /// A disproof that depends on the path.
    pub path_dependent: bool,
    /// Whether the position itself was in the table (a proof or disproof that applies, or an
    /// entry of the same hand); `false` for a position never searched, whose numbers are then
    /// only bounds from other hands (the solver runs its leaf tests on it).
    pub found: bool,
}

pub struct Table {
    entries: Slots<Entry>,
    /// Parent links for double-count detection (`links.rs`): an eighth of the entries' memory.
    pub(crate) links: Links,
    mask: usize,
    used: usize,
    generation: u8,
    /// How many collections ran (reported by the suite runner).
    pub collections: u32,
}

impl Table {
    /// A table of at most `mb` MiB (at least one bucket): entries in eight ninths of it, parent
    /// links in the rest. (The entries take a power of two of buckets, the largest half of
    /// what fits, so a power of two of MiB gets the same entries as without links.)
    pub fn new(mb: usize) -> Table {
        let bytes = mb.max(1) * 1024 * 1024 / 9 * 8;
        let buckets = (bytes / (std::mem::size_of::<Entry>() * BUCKET))
            .max(1)
            .next_power_of_two()
            / 2;
        let mut buckets = buckets.max(1);
        // Zeroed pages mapped when first used, so a large table costs nothing up front
        // (`vec![Entry::default(); n]` wrote every byte: 0.1–0.25 s for 256 MiB, counted in every
        // problem's time). When the size cannot be mapped, the largest half that can.
        let entries = loop {
            if let Some(slots) = Slots::new(buckets * BUCKET) {
                break slots;
            }
            assert!(
                buckets > 1,
                "cannot map a mate table of one bucket: out of memory"
            );
            buckets /= 2;
        };
        let links = Links::new(entries.len() / 8);
        Table {
            entries,
            links,
            mask: buckets - 1,
            used: 0,
            generation: 0,
            collections: 0,
        }
    }

    /// Empties the table for the next solve, as a fresh one: every entry zeroed. Writing the
    /// zeros also maps every page, so a table cleared once before its first solve costs that
    /// solve no page faults (zeroing 256 MiB of fresh pages took 0.3 s of a 0.8 s solve when
    /// the kernel had no huge pages to give; docs/mate.md §19).
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.links.clear();
        self.used = 0;
        self.generation = 0;
        self.collections = 0;
    }

    /// Starts a new generation: path-dependent disproofs of older generations are ignored.
    pub fn new_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        let b = (key as usize >> 1) & self.mask;
        b * BUCKET..(b + 1) * BUCKET
    }

    /// Asks the CPU to start loading the bucket of `key`. A node probes all its children at
    /// once, so their buckets are requested first and read after: the misses overlap instead of
    /// stalling one after another (a bucket is four cache lines). Measured: 0.94 of the CPU time
    /// without it (median of 8 pairs, docs/mate.md §6).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let range = self.bucket(key | 1);
        super::slots::prefetch(
            &self.entries[range.start],
            BUCKET * std::mem::size_of::<Entry>(),
        );
    }

    /// What is known about the position `(key, hand)` with `plies_left` plies allowed.
    pub fn probe(&self, key: u64, hand: &Hand, plies_left: u32) -> Probe {
        let key = key | 1;
        let mut probe = Probe {
            pn: 1,
            dn: 1,
            len: 0,
            hand: *hand,
            path_dependent: false,
            found: false,
        };
        let mut exact = false;
        for e in &self.entries[self.bucket(key)] {
            if e.key != key {
                continue;
            }
            if e.pn == 0 {
                if hand.covers(&e.hand) && u32::from(e.len) <= plies_left {
                    return Probe {
                        pn: 0,
                        dn: INF,
                        len: e.len,
                        hand: e.hand,
                        path_dependent: false,
                        found: true,
                    };
                }
            } else if e.dn == 0 {
                let path = e.flags & FLAG_PATH != 0;
                let valid =
                    !path || (e.generation == self.generation && plies_left <= u32::from(e.len));
                if valid && e.hand.covers(hand) {
                    return Probe {
                        pn: INF,
                        dn: 0,
                        len: e.len,
                        hand: e.hand,
                        path_dependent: path,
                        found: true,
                    };
                }
            } else if e.hand == *hand {
                exact = true;
                probe.found = true;
                probe.pn = probe.pn.max(e.pn);
                probe.dn = probe.dn.max(e.dn);
            } else if !exact && hand.covers(&e.hand) {
                // We hold more than that entry: at least as hard to disprove.
                probe.dn = probe.dn.max(e.dn);
            } else if !exact && e.hand.covers(hand) {
                // We hold less: at least as hard to prove.
                probe.pn = probe.pn.max(e.pn);
            }
        }
        probe
    }

    /// Stores a result. `hand` is the position's hand, or the proof / disproof hand.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        key: u64,
        hand: Hand,
        pn: u32,
        dn: u32,
        len: u16,
        path_dependent: bool,
        work: u64,
    ) {
        let key = key | 1;
        let work = work.min(u64::from(u32::MAX)) as u32;
        let flags = if path_dependent { FLAG_PATH } else { 0 };
        let generation = self.generation;
        let range = self.bucket(key);
        let new = Entry {
            key,
            hand,
            pn,
            dn,
            work,
            len,
            flags,
            generation,
        };
        let finished = pn == 0 || dn == 0;
        let mut victim = None;
        let mut victim_score = u64::MAX;
        for i in range {
            let e = &mut self.entries[i];
            if e.key == 0 {
                if victim_score > 0 {
                    victim = Some(i);
                    victim_score = 0;
                }
                continue;
            }
            if e.key == key {
                // Same hand: overwrite. A new proof or disproof also replaces the unfinished
                // entries it makes redundant, and one it generalises.
                let same = e.hand == hand;
                let redundant = finished
                    && e.pn != 0
                    && e.dn != 0
                    && ((pn == 0 && e.hand.covers(&hand)) || (dn == 0 && hand.covers(&e.hand)));
                let generalised = (pn == 0 && e.pn == 0 && e.hand.covers(&hand))
                    || (dn == 0 && e.dn == 0 && hand.covers(&e.hand) && !path_dependent);
                if same || redundant || generalised {
                    if same && e.pn == 0 && pn != 0 {
                        // Never forget a proof for an unfinished result of the same hand.
                        return;
                    }
                    let work = new.work.max(e.work);
                    *e = Entry { work, ..new };
                    return;
                }
            }
            // Proofs are worth keeping: they make the PV; weigh them up.
            let score = (u64::from(e.work) + 1) * if e.pn == 0 { 8 } else { 1 };
            if score < victim_score {
                victim_score = score;
                victim = Some(i);
            }
        }
        if let Some(i) = victim {
            if self.entries[i].key == 0 {
                self.used += 1;
            }
            self.entries[i] = new;
        }
        if self.used * 4 > self.entries.len() * 3 {
            self.collect();
        }
    }

    /// Drops unfinished entries (and path-dependent disproofs) with little work until at most
    /// half of the table is used; proofs and disproofs stay unless that is not enough.
    fn collect(&mut self) {
        self.collections += 1;
        let target = self.entries.len() / 2;
        let mut threshold = 1u32;
        for round in 0..40 {
            let keep_finished = round < 32;
            for e in self.entries.iter_mut() {
                if e.key == 0 {
                    continue;
                }
                let finished = (e.pn == 0 || e.dn == 0) && e.flags & FLAG_PATH == 0;
                if e.work < threshold && !(finished && keep_finished) {
                    *e = Entry::default();
                    self.used -= 1;
                }
            }
            if self.used <= target {
                return;
            }
            threshold = threshold.saturating_mul(2);
        }
    }

    /// Fraction of slots in use, in per mille.
    pub fn hashfull(&self) -> usize {
        self.used * 1000 / self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proof_hands_dominate() {
        let mut t = Table::new(1);
        let small = Hand([1, 0, 0, 0, 0, 0, 0, 0]);
        let big = Hand([2, 0, 0, 0, 0, 0, 0, 0]);
        t.store(42, small, 0, INF, 3, false, 10);
        assert_eq!(t.probe(42, &big, 100).pn, 0);
        assert_eq!(t.probe(42, &Hand::EMPTY, 100).pn, 1);
        // Too long for the plies left: not usable.
        assert_eq!(t.probe(42, &big, 1).pn, 1);
        t.store(200, small, INF, 0, 0, false, 10);
        assert_eq!(t.probe(200, &Hand::EMPTY, 100).dn, 0);
        assert_eq!(t.probe(200, &big, 100).dn, 1);
    }

    #[test]
    fn collection_keeps_proofs() {
        let mut t = Table::new(1);
        let n = t.entries.len() as u64;
        t.store(7 << 1, Hand::EMPTY, 0, INF, 1, false, 0);
        for k in 0..n {
            t.store((k + 100) << 1, Hand::EMPTY, 3, 3, 0, false, 0);
        }
        assert!(t.collections > 0);
        assert!(t.used <= t.entries.len() * 3 / 4 + 1);
        assert_eq!(t.probe(7 << 1, &Hand::EMPTY, 100).pn, 0);
    }
}
