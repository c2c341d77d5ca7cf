//! The terms of `kishi-chess`'s optional table `king_shelter`: the pawns in front of a king, file
//! by file, as Stockfish 11 scores them (`evaluate_shelter`), one-hot so that the learner sets
//! every value.
//!
//! Why: the games against Stockfish 2400 were mostly lost before the endgame, many to an attack
//! on kishi's king (docs/learning/texel.md), and the `positional` table knew the shelter only as a
//! count of own pawns in front of the king and the storm as a count of enemy pawns near it. A
//! pawn on the second rank shelters more than one on the fourth, a file without a pawn next to
//! the edge is worse than one in the centre, an enemy pawn on the third rank hurts more than one
//! on the fifth, and a storming pawn blocked by ours hurts less: values by file and rank.
//!
//! For each of the three files around the king (its file moved off the edge, so a king on the
//! a-file counts the a–c files), with `d` the file's distance from the nearer edge (0..=3) and
//! pawns behind the king's rank left out: the shelter `[d][rank of the own pawn nearest the own
//! back rank, 0 = none]` (own pawns an enemy pawn attacks do not count), and the storm
//! `[d][rank of the enemy pawn nearest the own back rank, 0 = none]`, or, when that enemy pawn is
//! blocked by the own pawn just in front of it, the blocked storm `[its rank]` instead. Ranks are
//! relative to the king's side (0..=7, the own first rank 0). Counts of the king's owner; the
//! caller subtracts the other side's.

use super::terms::pawn_attacks;
use super::*;

/// The counts' first index among `terms::counts`' indices.
const BASE: usize = COUNT_BASE[5];

/// The rank (0..=7) of the lowest man of `set`, or 0 for an empty set: on a set seen from
/// the king's side (`view_set`), the relative rank of the man nearest its back rank.
#[inline]
fn backmost_rank(set: u64) -> usize {
    if set == 0 {
        return 0;
    }
    set.trailing_zeros() as usize / 8
}

/// `set` as `view` sees it: ranks flipped for black, so that its first rank is the lowest.
#[inline]
fn view_set(set: BitBoard, view: Color) -> u64 {
    match view {
        Color::White => set.0,
        Color::Black => set.0.swap_bytes(),
    }
}

/// Hands the counts of `view`'s king shelter terms (`BASE + i`) to `add`.
#[inline]
pub(super) fn counts(b: &Board, view: Color, mut add: impl FnMut(usize, i32)) {
    let them = !view;
    let k = b.king(view);
    let rank = k.rank() as u32;
    // Ranks behind the king, as `view` moves.
    let behind = match view {
        Color::White => (1u64 << (8 * rank)) - 1,
        Color::Black => {
            if rank == 7 {
                0
            } else {
                u64::MAX << (8 * (rank + 1))
            }
        }
    };
    let pawns = BitBoard(b.pieces(Piece::Pawn).0 & !behind);
    let their_pawns = b.colored_pieces(them, Piece::Pawn);
    let ours = view_set(
        pawns & b.colors(view) & !pawn_attacks(their_pawns, them),
        view,
    );
    let theirs = view_set(pawns & b.colors(them), view);
    let centre = (k.file() as usize).clamp(1, 6);
    for f in centre - 1..=centre + 1 {
        let file = 0x0101_0101_0101_0101 << f;
        let our_rank = backmost_rank(ours & file);
        let their_rank = backmost_rank(theirs & file);
        let d = f.min(7 - f);
        add(BASE + S_SHELTER + d * 7 + our_rank.min(6), 1);
        if our_rank != 0 && our_rank + 1 == their_rank {
            add(BASE + S_BLOCKED_STORM + their_rank.min(6), 1);
        } else {
            add(BASE + S_STORM + d * 7 + their_rank.min(6), 1);
        }
    }
}
