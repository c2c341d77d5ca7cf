//! The terms of `kishi-chess`'s optional table `tempo_threats`: the enemy men a side threatens,
//! by type, and how many pieces at once, counted apart for the two sides to move.
//!
//! Why: the `positional_ext` and `positional_more` threat terms are the same whoever is to move,
//! yet a threat means two different things at a quiescence leaf, where the evaluation stands in
//! for the search. When the threatened side is to move it must answer: one threat costs it a
//! tempo, two at once (a fork) usually cost material that quiescence, which only captures, does
//! not see. When the threatening side is to move and the position is quiet, its threats won
//! nothing yet (quiescence would have taken a free piece). A linear weight on a count that
//! ignores the mover averages the two; a count per mover, and the number of pieces threatened at
//! once as a one-hot, let the learner price each.
//!
//! Threatened: an enemy knight or bishop attacked by a pawn, a rook attacked by a pawn or a
//! minor, a queen attacked by a pawn, a minor or a rook, or any of them attacked and undefended;
//! an enemy pawn attacked and undefended. Counts of the attacking side (`view`); the caller
//! subtracts the other side's.

use super::terms::SideAttacks;
use super::*;

/// The counts' first index among `terms::counts`' indices.
const BASE: usize = COUNT_BASE[6];

/// Hands the counts of `view`'s `tempo_threats` terms (`BASE + i`) to `add`.
#[inline]
pub(super) fn counts(
    b: &Board,
    view: Color,
    maps: &[SideAttacks; 2],
    mut add: impl FnMut(usize, i32),
) {
    let them = !view;
    let (us, th) = (&maps[view as usize], &maps[them as usize]);
    let hanging = us.all & !th.all;
    let theirs = |p| b.colored_pieces(them, p);
    let n = |s: BitBoard| s.len() as i32;
    let block = BASE
        + if b.side_to_move() == view {
            TT_OUR_MOVE
        } else {
            TT_THEIR_MOVE
        };
    let pawns = n(theirs(Piece::Pawn) & hanging);
    let minor_threat = us.pawn | hanging;
    let knights = n(theirs(Piece::Knight) & minor_threat);
    let bishops = n(theirs(Piece::Bishop) & minor_threat);
    let rooks = n(theirs(Piece::Rook) & (minor_threat | us.minor));
    let queens = n(theirs(Piece::Queen) & (minor_threat | us.minor | us.rook));
    for (slot, c) in [
        (TT_PAWN, pawns),
        (TT_KNIGHT, knights),
        (TT_BISHOP, bishops),
        (TT_ROOK, rooks),
        (TT_QUEEN, queens),
    ] {
        if c > 0 {
            add(block + slot, c);
        }
    }
    let pieces = knights + bishops + rooks + queens;
    if pieces > 0 {
        add(block + TT_MANY + (pieces.min(3) - 1) as usize, 1);
    }
}
