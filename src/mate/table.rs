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
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU8, AtomicUsize, Ordering};

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
    used: AtomicUsize,
    generation: AtomicU8,
    /// How many collections ran since the table was cleared (a test reads it).
    collections: AtomicU32,
    /// One lock per bucket while several solver threads share the table ([`Table::set_shared`]);
    /// `None` for one thread, which then pays nothing for them.
    locks: Option<Box<[AtomicBool]>>,
    /// Set while a thread collects garbage (the others go on; a second collection would only
    /// repeat the first).
    collecting: AtomicBool,
}

/// Holds a bucket's lock (shared table) until dropped.
struct Guard<'a>(Option<&'a AtomicBool>);

impl Drop for Guard<'_> {
    fn drop(&mut self) {
        if let Some(l) = self.0 {
            l.store(false, Ordering::Release);
        }
    }
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
            used: AtomicUsize::new(0),
            generation: AtomicU8::new(0),
            collections: AtomicU32::new(0),
            locks: None,
            collecting: AtomicBool::new(false),
        }
    }

    /// Prepares the table for `shared` use by several solver threads (bucket locks, made once
    /// and kept) or for one thread (no locking at all).
    pub fn set_shared(&mut self, shared: bool) {
        if !shared {
            self.locks = None;
        } else if self.locks.is_none() {
            self.locks = Some((0..=self.mask).map(|_| AtomicBool::new(false)).collect());
        }
    }

    /// Empties the table for the next solve, as a fresh one: every entry zeroed. Writing the
    /// zeros also maps every page, so a table cleared once before its first solve costs that
    /// solve no page faults (zeroing 256 MiB of fresh pages took 0.3 s of a 0.8 s solve when
    /// the kernel had no huge pages to give; docs/mate.md §19).
    pub fn clear(&mut self) {
        self.entries.zero();
        self.links.clear();
        *self.used.get_mut() = 0;
        *self.generation.get_mut() = 0;
        *self.collections.get_mut() = 0;
    }

    /// Starts a new generation: path-dependent disproofs of older generations are ignored.
    pub fn new_generation(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket_index(&self, key: u64) -> usize {
        (key as usize >> 1) & self.mask
    }

    /// Runs `f` on bucket `b`, under its lock when the table is shared.
    #[inline]
    fn with_bucket<R>(&self, b: usize, f: impl FnOnce(&mut [Entry]) -> R) -> R {
        let _guard = self.lock(b);
        // SAFETY: bucket `b` is `BUCKET` slots of the live map starting at `b * BUCKET`
        // (`b <= mask`). No other reference to them exists meanwhile: one thread alone uses an
        // unshared table (every access goes through here or through `&mut self`), and threads
        // sharing it hold the bucket's lock for as long as the slice lives.
        let bucket =
            unsafe { std::slice::from_raw_parts_mut(self.entries.ptr(b * BUCKET), BUCKET) };
        f(bucket)
    }

    #[inline]
    fn lock(&self, b: usize) -> Guard<'_> {
        let Some(locks) = &self.locks else {
            return Guard(None);
        };
        let l = &locks[b];
        while l
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            while l.load(Ordering::Relaxed) {
                std::hint::spin_loop();
            }
        }
        Guard(Some(l))
    }

    /// Asks the CPU to start loading the bucket of `key`. A node probes all its children at
    /// once, so their buckets are requested first and read after: the misses overlap instead of
    /// stalling one after another (a bucket is four cache lines). Measured: 0.94 of the CPU time
    /// without it (median of 8 pairs, docs/mate.md §6).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let b = self.bucket_index(key | 1);
        super::slots::prefetch(
            self.entries.ptr(b * BUCKET).cast_const(),
            BUCKET * std::mem::size_of::<Entry>(),
        );
        if let Some(locks) = &self.locks {
            super::slots::prefetch(&locks[b] as *const AtomicBool, 1);
        }
    }

    /// What is known about the position `(key, hand)` with `plies_left` plies allowed.
    pub fn probe(&self, key: u64, hand: &Hand, plies_left: u32) -> Probe {
        let key = key | 1;
        let generation = self.generation.load(Ordering::Relaxed);
        self.with_bucket(self.bucket_index(key), |bucket| {
            Self::probe_bucket(bucket, key, hand, plies_left, generation)
        })
    }

    fn probe_bucket(
        bucket: &[Entry],
        key: u64,
        hand: &Hand,
        plies_left: u32,
        generation: u8,
    ) -> Probe {
        let mut probe = Probe {
            pn: 1,
            dn: 1,
            len: 0,
            hand: *hand,
            path_dependent: false,
            found: false,
        };
        let mut exact = false;
        for e in bucket {
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
                let valid = !path || (e.generation == generation && plies_left <= u32::from(e.len));
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
        &self,
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
        let new = Entry {
            key,
            hand,
            pn,
            dn,
            work,
            len,
            flags,
            generation: self.generation.load(Ordering::Relaxed),
        };
        // The count changes under the bucket's lock, so that a collection dropping the entry
        // (under the same lock) always counts it out after it was counted in.
        let used = self.with_bucket(self.bucket_index(key), |bucket| {
            Self::store_bucket(bucket, new, path_dependent)
                .then(|| self.used.fetch_add(1, Ordering::Relaxed) + 1)
        });
        if used.is_some_and(|used| used.saturating_mul(4) > self.entries.len() * 3) {
            self.collect();
        }
    }

    /// Stores `new` in `bucket`; `true` when it took an empty slot.
    fn store_bucket(bucket: &mut [Entry], new: Entry, path_dependent: bool) -> bool {
        let (key, hand, pn, dn) = (new.key, new.hand, new.pn, new.dn);
        let finished = pn == 0 || dn == 0;
        let mut victim = None;
        let mut victim_score = u64::MAX;
        for (i, e) in bucket.iter_mut().enumerate() {
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
                    // Never forget a proof, or a disproof that holds on every path, for an
                    // unfinished result of the same hand. One thread never searches such a
                    // position again, but on a shared table another thread may be inside it
                    // when it is settled: that thread's unfinished numbers, stored on its way
                    // out (or when it stops because the root was settled), must not undo the
                    // result. (Disproofs were not kept: a helper's disproof of the root was
                    // overwritten by the main thread's stop, and the answer was `unknown`.)
                    let keep_disproof = e.dn == 0 && e.flags & FLAG_PATH == 0;
                    if same && ((e.pn == 0 && pn != 0) || (keep_disproof && dn != 0)) {
                        return false;
                    }
                    let work = new.work.max(e.work);
                    *e = Entry { work, ..new };
                    return false;
                }
            }
            // Proofs are worth keeping: they make the PV; weigh them up.
            let score = (u64::from(e.work) + 1) * if e.pn == 0 { 8 } else { 1 };
            if score < victim_score {
                victim_score = score;
                victim = Some(i);
            }
        }
        let Some(i) = victim else {
            return false;
        };
        let filled = bucket[i].key == 0;
        bucket[i] = new;
        filled
    }

    /// Drops unfinished entries (and path-dependent disproofs) with little work until at most
    /// half of the table is used; proofs and disproofs stay unless that is not enough. On a
    /// shared table one thread collects, bucket by bucket under each bucket's lock, while the
    /// others go on searching.
    fn collect(&self) {
        if self.collecting.swap(true, Ordering::Acquire) {
            return;
        }
        self.collections.fetch_add(1, Ordering::Relaxed);
        let target = self.entries.len() / 2;
        let mut threshold = 1u32;
        for round in 0..40 {
            let keep_finished = round < 32;
            for b in 0..=self.mask {
                self.with_bucket(b, |bucket| {
                    let mut dropped = 0;
                    for e in bucket.iter_mut() {
                        if e.key == 0 {
                            continue;
                        }
                        let finished = (e.pn == 0 || e.dn == 0) && e.flags & FLAG_PATH == 0;
                        if e.work < threshold && !(finished && keep_finished) {
                            *e = Entry::default();
                            dropped += 1;
                        }
                    }
                    if dropped > 0 {
                        self.used.fetch_sub(dropped, Ordering::Relaxed);
                    }
                });
            }
            if self.used.load(Ordering::Relaxed) <= target {
                break;
            }
            threshold = threshold.saturating_mul(2);
        }
        self.collecting.store(false, Ordering::Release);
    }

    /// Fraction of slots in use, in per mille.
    pub fn hashfull(&self) -> usize {
        self.used.load(Ordering::Relaxed) * 1000 / self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proof_hands_dominate() {
        let t = Table::new(1);
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
    fn unfinished_results_never_replace_a_settled_one() {
        let t = Table::new(1);
        let hand = Hand([1, 0, 0, 0, 0, 0, 0, 0]);
        t.store(42, hand, 0, INF, 3, false, 10);
        t.store(42, hand, 5, 7, 0, false, 20);
        assert_eq!(t.probe(42, &hand, 100).pn, 0, "proof forgotten");
        t.store(200, hand, INF, 0, 0, false, 10);
        t.store(200, hand, 5, 7, 0, false, 20);
        assert_eq!(t.probe(200, &hand, 100).dn, 0, "disproof forgotten");
        // A disproof that holds on one path only is replaced: the position is searched again
        // only where it does not apply.
        t.store(300, hand, INF, 0, 4, true, 10);
        t.store(300, hand, 5, 7, 0, false, 20);
        assert_eq!(t.probe(300, &hand, 4).dn, 7);
    }

    #[test]
    fn collection_keeps_proofs() {
        let t = Table::new(1);
        let n = t.entries.len() as u64;
        t.store(7 << 1, Hand::EMPTY, 0, INF, 1, false, 0);
        for k in 0..n {
            t.store((k + 100) << 1, Hand::EMPTY, 3, 3, 0, false, 0);
        }
        assert!(t.collections.load(Ordering::Relaxed) > 0);
        assert!(t.hashfull() <= 751);
        assert_eq!(t.probe(7 << 1, &Hand::EMPTY, 100).pn, 0);
    }

    /// splitmix64's finaliser: every bit of the input moves every bit of the key.
    fn mix(x: u64) -> u64 {
        crate::eval::rng::mix64(x.wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }

    /// Two threads storing into one shared table, with many collections: the count of used
    /// slots ends as the true count and the proofs stored first survive. (An early version
    /// changed the count outside the bucket lock: a collection could count an entry out before
    /// its store had counted it in, the count wrapped below zero and collections emptied the
    /// table of its proofs; that race shows only now and then, so this test may miss it.)
    #[test]
    fn shared_stores_keep_the_count_and_the_proofs() {
        let mut t = Table::new(1);
        t.set_shared(true);
        let n = t.entries.len() as u64;
        let proofs: Vec<u64> = (0..64).map(|k| (k * 7919 + 3) << 1).collect();
        for &k in &proofs {
            t.store(k, Hand::EMPTY, 0, INF, 5, false, 1);
        }
        std::thread::scope(|s| {
            for thread in 0..2u64 {
                let t = &t;
                s.spawn(move || {
                    for k in 0..4 * n {
                        // Each thread's keys spread over every bucket, so that each thread alone
                        // fills the table several times over. (Keys `(2k + thread) * odd` kept
                        // the thread in the bucket index's low bit: each thread had half the
                        // buckets, and when the threads happened to run one after the other
                        // the table never passed three quarters twice.)
                        let key = mix(k + (thread << 40) + (1 << 41)) << 1;
                        t.store(key, Hand::EMPTY, 3, 3, 0, false, 0);
                        let _ = t.probe(key ^ 2, &Hand::EMPTY, 100);
                    }
                });
            }
        });
        assert!(t.collections.load(Ordering::Relaxed) > 1);
        let real = t.entries.as_slice().iter().filter(|e| e.key != 0).count();
        assert_eq!(t.used.load(Ordering::Relaxed), real);
        for &k in &proofs {
            assert_eq!(t.probe(k, &Hand::EMPTY, 100).pn, 0, "proof {k} lost");
        }
    }
}
