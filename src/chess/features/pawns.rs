//! The pawn-structure terms of `kishi-chess` that depend on the pawns alone (passed pawns by rank,
//! isolated, doubled, supported, phalanx and backward pawns, and which pawns are passed), and a
//! small per-thread cache of them keyed by both sides' pawn sets.
//!
//! Why a cache: the pawn structure changes in few moves of a search (pawn moves and pawn
//! captures), so most evaluations see a pawn structure evaluated moments before, and the per-pawn
//! loop was a fixed part of every evaluation. The cache holds counts, not weighted values, so it
//! stays right when a learner changes the weights; its key is both pawn sets in full, so a hit
//! is exact and the evaluation is the same function with or without it.

use super::terms::{ahead_mask, pawn_attacks};
use super::*;
use std::cell::RefCell;

/// One side's pawn-only counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct SidePawns {
    /// Passed pawns by relative rank 2..=7 (index 0..6).
    pub passed: [u8; 6],
    pub isolated: u8,
    pub doubled: u8,
    /// Passed pawns defended by a pawn.
    pub passed_supported: u8,
    /// Pawns defended by a pawn.
    pub supported: u8,
    /// Pawns with an own pawn beside them.
    pub phalanx: u8,
    /// Pawns whose neighbours are all ahead and whose stop square an enemy pawn attacks.
    pub backward: u8,
    /// Pawns defended by a pawn or with one beside them, by relative rank 2..=7 (index 0..6).
    pub connected: [u8; 6],
    /// Isolated or backward pawns with no enemy pawn ahead on their file.
    pub weak_unopposed: u8,
}

/// Both sides' pawn-only counts (index = colour) and the passed pawns of both sides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct PawnInfo {
    pub side: [SidePawns; 2],
    pub passers: BitBoard,
}

impl PawnInfo {
    /// Counts the terms from scratch.
    pub(super) fn compute(b: &Board) -> Self {
        let mut info = PawnInfo::default();
        for view in [Color::White, Color::Black] {
            let own = b.colored_pieces(view, Piece::Pawn);
            let their = b.colored_pieces(!view, Piece::Pawn);
            let own_att = pawn_attacks(own, view);
            let their_att = pawn_attacks(their, !view);
            let s = &mut info.side[view as usize];
            for sq in own {
                let file = sq.file();
                let adjacent = file.adjacent();
                let r = rel(sq, view) / 8; // relative rank 0..8
                let ahead = ahead_mask(sq, view);
                let defended = own_att.has(sq);
                let passed = (their & (file.bitboard() | adjacent) & ahead).is_empty()
                    && (1..=6).contains(&r);
                if passed {
                    s.passed[r - 1] += 1;
                    info.passers |= sq.bitboard();
                    s.passed_supported += u8::from(defended);
                }
                let isolated = (own & adjacent).is_empty();
                s.isolated += u8::from(isolated);
                s.doubled += u8::from(!(own & file.bitboard() & ahead).is_empty());
                if r >= 7 {
                    continue;
                }
                let phalanx = !(own & adjacent & sq.rank().bitboard()).is_empty();
                s.supported += u8::from(defended);
                s.phalanx += u8::from(phalanx);
                if (defended || phalanx) && r >= 1 {
                    s.connected[r - 1] += 1;
                }
                // Backward: neighbours exist but are all ahead, and the stop square is a pawn
                // target.
                let stop = Square::index(match view {
                    Color::White => sq as usize + 8,
                    Color::Black => sq as usize - 8,
                });
                let backward = !(own & adjacent).is_empty()
                    && (own & adjacent & !ahead).is_empty()
                    && their_att.has(stop);
                s.backward += u8::from(backward);
                let unopposed = (their & file.bitboard() & ahead).is_empty();
                s.weak_unopposed += u8::from((isolated || backward) && unopposed);
            }
        }
        info
    }

    /// The counts for `b`, from this thread's cache when it holds `b`'s pawn structure.
    pub(super) fn probe(b: &Board) -> Self {
        let key = [
            b.colored_pieces(Color::White, Piece::Pawn).0,
            b.colored_pieces(Color::Black, Piece::Pawn).0,
        ];
        CACHE.with(|cache| {
            let mut cache = cache.borrow_mut();
            if cache.is_empty() {
                cache.resize(CACHE_ENTRIES, Entry::EMPTY);
            }
            let i = index(key);
            if cache[i].key == key {
                return cache[i].info;
            }
            let info = Self::compute(b);
            cache[i] = Entry { key, info };
            info
        })
    }
}

/// Entries per thread (a power of two): 8,192 × 48 bytes.
const CACHE_ENTRIES: usize = 1 << 13;

#[derive(Clone, Copy)]
struct Entry {
    key: [u64; 2],
    info: PawnInfo,
}

impl Entry {
    /// No board has a pawn on every square, so this key never matches.
    const EMPTY: Entry = Entry {
        key: [u64::MAX; 2],
        info: PawnInfo {
            side: [SidePawns {
                passed: [0; 6],
                isolated: 0,
                doubled: 0,
                passed_supported: 0,
                supported: 0,
                phalanx: 0,
                backward: 0,
                connected: [0; 6],
                weak_unopposed: 0,
            }; 2],
            passers: BitBoard(0),
        },
    };
}

thread_local! {
    static CACHE: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
}

/// The slot of a pawn structure: a multiplicative hash of both sets, top bits.
#[inline]
fn index(key: [u64; 2]) -> usize {
    let h =
        (key[0].wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ key[1]).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    (h >> (64 - CACHE_ENTRIES.trailing_zeros())) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen, false).expect("test FEN")
    }

    #[test]
    fn counts_of_known_structures() {
        // White a2 b2 h2 h3 g5 d4 against a lone black e5: every white pawn but d4 is passed
        // (a2, b2, h2 on relative rank 2, h3 on 3, g5 on 5); d4 is isolated; a2 and b2 stand
        // side by side; h2 is doubled behind h3. Black's e5 is isolated and not passed.
        let b = board("4k3/8/8/4p1P1/3P4/7P/PP5P/4K3 w - - 0 1");
        let info = PawnInfo::compute(&b);
        let w = info.side[0];
        assert_eq!(w.passed, [3, 1, 0, 1, 0, 0]);
        assert_eq!((w.isolated, w.phalanx, w.doubled), (1, 2, 1));
        assert_eq!((w.supported, w.backward, w.passed_supported), (0, 0, 0));
        let bl = info.side[1];
        assert_eq!((bl.passed, bl.isolated), ([0; 6], 1));
        assert_eq!(info.passers.len(), 5);
        // White a3 b4 against black b5 c6: b4 is defended by a3 and c6 defends b5; a3's only
        // neighbour is ahead and b5 attacks its stop square a4, likewise c6 (b4 hits c5).
        let b = board("4k3/8/2p5/1p6/1P6/P7/8/4K3 w - - 0 1");
        let info = PawnInfo::compute(&b);
        for s in info.side {
            assert_eq!((s.supported, s.backward, s.isolated), (1, 1, 0));
            assert_eq!(s.passed, [0; 6]);
        }
    }

    #[test]
    fn the_cache_returns_what_computing_gives() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "4k3/8/8/4p1P1/3P4/7P/PP5P/4K3 w - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        ];
        for _ in 0..2 {
            for fen in fens {
                let b = board(fen);
                assert_eq!(PawnInfo::probe(&b), PawnInfo::compute(&b), "{fen}");
            }
        }
    }
}
