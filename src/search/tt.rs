//! The transposition table shared by all search threads: lock-free, atomics only.
//!
//! Each entry is two `AtomicU64`s: `key ^ data` and `data`. A reader recomputes `key` from both words
//! and accepts the entry only when it matches, so an entry torn by a concurrent writer reads as a miss
//! (the Hyatt/Mann "lockless hashing" scheme that Carp and Viridithas use). Buckets of four entries fill
//! one 64-byte cache line; replacement prefers empty, stale (older search) and shallow entries.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// Which side of the window a stored score is known on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact (a PV node).
    Exact,
    /// The score is at least this (a fail high).
    Lower,
    /// The score is at most this (a fail low).
    Upper,
}

impl Bound {
    fn to_bits(self) -> u64 {
        match self {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        }
    }
    fn from_bits(b: u64) -> Option<Bound> {
        match b {
            1 => Some(Bound::Exact),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Upper),
            _ => None,
        }
    }
}

/// A decoded entry. Scores are stored relative to the node (see `score_to_tt`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TtEntry {
    /// Packed move (`Game::encode_move`), 0 for none.
    pub mv: u16,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
    /// The node was on a principal variation when stored, or descends from one that failed low
    /// (Stockfish's `ttPv`); read only with the `TtPv` search parameter.
    pub pv: bool,
}

const BUCKET: usize = 4;

#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    words: [[AtomicU64; 2]; BUCKET],
}

pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    age: AtomicU8,
}

// data layout: mv 16 | score 16 | eval 16 | depth 7 | pv 1 | bound 2 | age 6
// (depth + 1 fits 7 bits: the search's depths stay below `MAX_PLY` = 128).
#[allow(clippy::too_many_arguments)]
fn pack(mv: u16, score: i32, eval: i32, depth: i32, bound: Bound, pv: bool, age: u8) -> u64 {
    (mv as u64)
        | ((score as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | (((depth + 1).clamp(0, 127) as u64) << 48)
        | ((pv as u64) << 55)
        | (bound.to_bits() << 56)
        | (((age & 63) as u64) << 58)
}

fn unpack(data: u64) -> Option<(TtEntry, u8)> {
    let bound = Bound::from_bits((data >> 56) & 3)?;
    Some((
        TtEntry {
            mv: data as u16,
            score: (data >> 16) as u16 as i16 as i32,
            eval: (data >> 32) as u16 as i16 as i32,
            depth: ((data >> 48) & 127) as i32 - 1,
            bound,
            pv: (data >> 55) & 1 != 0,
        },
        ((data >> 58) & 63) as u8,
    ))
}

impl TranspositionTable {
    /// A table of `mb` megabytes (at least one bucket). Aborts the process when the memory cannot
    /// be had, like any Rust allocation: use it for sizes the program chose; a size that comes
    /// from a user goes through `try_new`.
    pub fn new(mb: usize) -> Self {
        let mut tt = TranspositionTable {
            buckets: Vec::new(),
            age: AtomicU8::new(0),
        };
        tt.resize(mb);
        tt
    }

    /// A table of `mb` megabytes, or the allocation error: the protocols' hash option asks for
    /// whatever a GUI dialog says, and a size the machine cannot give must be an error line, not
    /// an abort.
    pub fn try_new(mb: usize) -> Result<Self, std::collections::TryReserveError> {
        let n = Self::buckets_for(mb);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(n)?;
        buckets.resize_with(n, Bucket::default);
        Ok(TranspositionTable {
            buckets,
            age: AtomicU8::new(0),
        })
    }

    fn buckets_for(mb: usize) -> usize {
        (mb.max(1).saturating_mul(1024 * 1024) / std::mem::size_of::<Bucket>()).max(1)
    }

    /// Resizes to `mb` megabytes (at least one bucket) and clears the table.
    pub fn resize(&mut self, mb: usize) {
        let n = Self::buckets_for(mb);
        self.buckets = (0..n).map(|_| Bucket::default()).collect();
    }

    pub fn size_mb(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    pub fn clear(&self) {
        for b in &self.buckets {
            for w in &b.words {
                w[0].store(0, Ordering::Relaxed);
                w[1].store(0, Ordering::Relaxed);
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto the table without a modulo.
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Asks the CPU to start loading the bucket of `key`: the search calls it as soon as a child
    /// position's key is known, so the cache miss overlaps the evaluation update instead of stalling
    /// the probe (the probe was 15% of a shogi bench's time with the full evaluation tables).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let b: *const Bucket = self.bucket(key);
            // SAFETY: a prefetch is only a hint: it never faults and has no effect on memory, and
            // SSE, which the intrinsic needs, is part of every x86_64 CPU.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(b.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let b = self.bucket(key);
        for w in &b.words {
            let k = w[0].load(Ordering::Relaxed);
            let d = w[1].load(Ordering::Relaxed);
            if k ^ d == key && d != 0 {
                return unpack(d).map(|(e, _)| e);
            }
        }
        None
    }

    /// The generation stamped on entries stored now (6 bits; `new_search` advances it, `clear`
    /// resets it).
    pub fn generation(&self) -> u8 {
        self.age.load(Ordering::Relaxed) & 63
    }

    /// Like `probe`, but only an entry stored in the current generation: the learner's table
    /// walk must see the bounds of the search just finished, never a stale one (a later search
    /// may leave an older entry of a transposed position in place).
    pub fn probe_current(&self, key: u64) -> Option<TtEntry> {
        let age = self.generation();
        let b = self.bucket(key);
        for w in &b.words {
            let k = w[0].load(Ordering::Relaxed);
            let d = w[1].load(Ordering::Relaxed);
            if k ^ d == key && d != 0 {
                return unpack(d).filter(|&(_, a)| a == age).map(|(e, _)| e);
            }
        }
        None
    }

    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        mv: u16,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        let age = self.age.load(Ordering::Relaxed) & 63;
        let b = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, w) in b.words.iter().enumerate() {
            let k = w[0].load(Ordering::Relaxed);
            let d = w[1].load(Ordering::Relaxed);
            if d == 0 {
                victim = i;
                break;
            }
            if k ^ d == key {
                // Same position: keep the old move when the new result has none, and don't let a
                // shallow non-exact result overwrite a much deeper one.
                if let Some((old, _)) = unpack(d) {
                    if bound != Bound::Exact && depth + 3 < old.depth {
                        return;
                    }
                    let mv = if mv == 0 { old.mv } else { mv };
                    let data = pack(mv, score, eval, depth, bound, pv, age);
                    w[0].store(key ^ data, Ordering::Relaxed);
                    w[1].store(data, Ordering::Relaxed);
                    return;
                }
                victim = i;
                break;
            }
            let (worth, old_age) = match unpack(d) {
                Some((e, a)) => (e.depth, a),
                None => (-1, 0),
            };
            let stale = (age.wrapping_sub(old_age) & 63) as i32;
            let worth = worth - 8 * stale;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let data = pack(mv, score, eval, depth, bound, pv, age);
        let w = &b.words[victim];
        w[0].store(key ^ data, Ordering::Relaxed);
        w[1].store(data, Ordering::Relaxed);
    }

    /// Per-mille of the first 1000 buckets' entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) & 63;
        let n = self.buckets.len().min(1000);
        let mut used = 0;
        for b in &self.buckets[..n] {
            for w in &b.words {
                if let Some((_, a)) = unpack(w[1].load(Ordering::Relaxed)) {
                    if a == age {
                        used += 1;
                    }
                }
            }
        }
        (used * 1000 / (n * BUCKET).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_then_probe_round_trips_every_field() {
        let tt = TranspositionTable::new(1);
        tt.store(
            0xdead_beef_1234_5678,
            0x7abc,
            -31_000,
            123,
            17,
            Bound::Lower,
            true,
        );
        let e = tt.probe(0xdead_beef_1234_5678).expect("stored");
        assert_eq!(
            e,
            TtEntry {
                mv: 0x7abc,
                score: -31_000,
                eval: 123,
                depth: 17,
                bound: Bound::Lower,
                pv: true,
            }
        );
        assert!(tt.probe(0xdead_beef_1234_5679).is_none());
        // The pv flag is its own bit: clearing it changes no other field, and the deepest
        // depth the search can store (below `MAX_PLY`) still round-trips beside it.
        tt.store(9, 1, 2, 3, 125, Bound::Exact, false);
        let e = tt.probe(9).expect("stored");
        assert_eq!((e.depth, e.bound, e.pv), (125, Bound::Exact, false));
        tt.store(9, 1, 2, 3, 125, Bound::Upper, true);
        let e = tt.probe(9).expect("stored");
        assert_eq!((e.depth, e.bound, e.pv, e.mv), (125, Bound::Upper, true, 1));
    }

    #[test]
    fn qsearch_depth_minus_one_survives_packing() {
        let tt = TranspositionTable::new(1);
        tt.store(42, 0, 5, 5, -1, Bound::Upper, false);
        assert_eq!(tt.probe(42).map(|e| e.depth), Some(-1));
    }

    #[test]
    fn probe_current_sees_only_this_generation() {
        let tt = TranspositionTable::new(1);
        tt.store(7, 1, 10, 0, 3, Bound::Exact, false);
        assert!(tt.probe_current(7).is_some());
        tt.new_search();
        assert!(tt.probe(7).is_some(), "the entry is still there");
        assert!(
            tt.probe_current(7).is_none(),
            "but it is from the last search"
        );
        tt.store(7, 1, 11, 0, 4, Bound::Lower, false);
        assert_eq!(tt.probe_current(7).map(|e| e.score), Some(11));
    }

    #[test]
    fn clear_forgets_everything() {
        let tt = TranspositionTable::new(1);
        for k in 1..1000u64 {
            tt.store(
                k.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                1,
                0,
                0,
                3,
                Bound::Exact,
                false,
            );
        }
        assert!(tt.hashfull() > 0);
        tt.clear();
        assert_eq!(tt.hashfull(), 0);
    }
}
