//! The terms of `kishi-chess`'s optional table `initiative`: how much of a material lead the
//! position lets its owner turn into a win, counted for the side ahead in material only.
//!
//! Why: games against Stockfish 2400 ended in draws where kishi's own score stood at +1.5 or more
//! for dozens of plies while Stockfish's was 0.00 (rook and pawn against rook with the defending
//! king in front of the pawn, a pawn or two up with every pawn on one flank, two bishops against
//! a bishop and a pawn): a linear evaluation prices a pawn the same whatever else is on the board,
//! so kishi traded into endgames that do not win. Stockfish 11 scores this with its
//! "initiative" (complexity: the pawns, passed pawns, the kings' outflanking, pawns on both
//! flanks, a king in the enemy half, pawns alone) added with the sign of the endgame score.
//!
//! That sign depends on the weights, so it cannot be a feature of a linear evaluation. The side
//! ahead in material (pawn 1, knight and bishop 3, rook 5, queen 9; nobody with equal material)
//! can, as in `scale.rs`: its counts are these terms, the other side's are zero, and the caller
//! subtracts as for every table, so the evaluation stays anti-symmetric and linear in the
//! weights, and the learner learns how much each term adds to (or takes from) a material lead.
//!
//! Only the endgame half of the table counts (`COUNTED` in `features.rs`). Fitted in both
//! phases, the terms learned that a material lead is worth little in the middlegame (the
//! teacher's quiet positions a pawn down are mostly gambits with compensation; −8 cp per pawn on
//! the board for the side ahead), the best fit of the three variants tried, and the engine that
//! played it gave pawns away: −40 [−67, −13] against the built-in file at 10,000 nodes.

use super::pawns::PawnInfo;
use super::terms::ahead_mask;
use super::*;

/// The counts' first index among `terms::counts`' indices.
const BASE: usize = N_POS + N_EXT + N_KD + N_MORE + N_MORE2;

/// Material in pawns (pawn 1, minor 3, rook 5, queen 9).
fn material(b: &Board, c: Color) -> i32 {
    let n = |p| b.colored_pieces(c, p).len() as i32;
    n(Piece::Pawn)
        + 3 * (n(Piece::Knight) + n(Piece::Bishop))
        + 5 * n(Piece::Rook)
        + 9 * n(Piece::Queen)
}

/// The files a–d (the queen's flank); the king's flank is the rest.
const QUEEN_FLANK: u64 = 0x0F0F_0F0F_0F0F_0F0F;

/// Hands `view`'s counts of the `initiative` terms (`BASE + i`) to `add`: nothing unless `view`
/// is ahead in material.
pub(super) fn counts(b: &Board, view: Color, pinfo: &PawnInfo, mut add: impl FnMut(usize, i32)) {
    let them = !view;
    let lead = material(b, view) - material(b, them);
    if lead <= 0 {
        return;
    }
    let at = |i: usize| BASE + i;
    let pawns = b.pieces(Piece::Pawn);
    let own_pawns = b.colored_pieces(view, Piece::Pawn);
    let (wk, bk) = (b.king(Color::White), b.king(Color::Black));
    let outflanking =
        (wk.file() as i32 - bk.file() as i32).abs() - (wk.rank() as i32 - bk.rank() as i32).abs();
    let both_flanks = pawns.0 & QUEEN_FLANK != 0 && pawns.0 & !QUEEN_FLANK != 0;
    let infiltration = wk.rank() as usize > 3 || (bk.rank() as usize) < 4;
    let pieces = b.occupied() & !pawns & !b.pieces(Piece::King);
    add(at(I_AHEAD), 1);
    add(at(I_PAWNS), pawns.len() as i32);
    add(at(I_PASSED), pinfo.passers.len() as i32);
    add(at(I_OUTFLANKING), outflanking);
    add(at(I_BOTH_FLANKS), i32::from(both_flanks));
    add(at(I_INFILTRATION), i32::from(infiltration));
    add(at(I_PAWNS_ONLY), i32::from(pieces.is_empty()));
    add(at(I_UNWINNABLE), i32::from(outflanking < 0 && !both_flanks));
    add(at(I_LEAD + (lead.min(4) - 1) as usize), 1);
    // The defending king on the path of a pawn of the side ahead: the drawn rook-and-pawn and
    // bishop-and-pawn endgames (the king cannot be driven from in front of the pawn).
    let their_king = b.king(them);
    let blocked = own_pawns
        .into_iter()
        .filter(|&sq| (ahead_mask(sq, view) & sq.file().bitboard()).has(their_king))
        .count();
    add(at(I_KING_IN_FRONT), blocked as i32);
    add(at(I_OWN_PAWNS), own_pawns.len() as i32);
    add(
        at(I_THEIR_PASSED),
        (pinfo.passers & b.colors(them)).len() as i32,
    );
}
