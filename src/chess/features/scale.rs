//! The endgame scale factor: how much of the endgame half of the evaluation a material
//! configuration lets a side turn into a win, in 64ths (64: all of it).
//!
//! Why: the evaluation is linear, so an extra knight is worth the same with pawns on the board as
//! without, and an extra pawn the same with opposite-coloured bishops as with knights. Games
//! against Stockfish showed what that costs: in endgames kishi's score ran about 230 cp above
//! Stockfish's (kishi ≈ +233 + 0.96·Stockfish over 2,824 endgame moves; two knights against a
//! bare king read as +6.5, a bishop and the wrong rook pawn as +5.9), so kishi steered into
//! endgames that were dead draws and shuffled in them for hundreds of plies
//! (docs/learning/texel.md, "Endgame scale factors").
//!
//! The factor depends on the board only, never on the weights, so the feature vector can carry
//! it (the endgame half of every count is weighted by it) and the evaluation stays
//! `Σ weight · count / SCALE`, linear in the weights: the learners see exactly what play sees.
//! That is also why the side "ahead" is read from the material on the board (pawn 1, knight and
//! bishop 3, rook 5, queen 9) and not from the sign of the evaluation, as engines whose scale
//! factors need not be learned through do.

use super::terms::DARK_SQUARES as DARK;
use cozy_chess::{get_king_moves, BitBoard, Board, Color, File, Piece, Rank, Square};

/// The factor of a position whose material says nothing special.
pub const NORMAL: i32 = 64;

/// Non-pawn material in pawns (knight and bishop 3, rook 5, queen 9).
fn npm(b: &Board, c: Color) -> i32 {
    let n = |p| b.colored_pieces(c, p).len() as i32;
    3 * (n(Piece::Knight) + n(Piece::Bishop)) + 5 * n(Piece::Rook) + 9 * n(Piece::Queen)
}

/// Whether every bishop of `set` stands on a square of one colour, and which (`true`: dark).
fn bishop_colour(set: BitBoard) -> Option<bool> {
    let dark = set.0 & DARK != 0;
    let light = set.0 & !DARK != 0;
    match (dark, light) {
        (true, false) => Some(true),
        (false, true) => Some(false),
        _ => None,
    }
}

/// `strong`'s pawns are all on one rook file, it has no piece but bishops that cannot cover the
/// promotion square, and the other side's bare king stands on or next to that square: a draw
/// (the king cannot be driven out of the corner).
fn wrong_rook_pawn(b: &Board, strong: Color) -> bool {
    let weak = !strong;
    let pawns = b.colored_pieces(strong, Piece::Pawn);
    if pawns.is_empty()
        || !b.colored_pieces(weak, Piece::Pawn).is_empty()
        || npm(b, weak) != 0
        || npm(b, strong) != 3 * b.colored_pieces(strong, Piece::Bishop).len() as i32
    {
        return false;
    }
    let file = if pawns.is_subset(File::A.bitboard()) {
        File::A
    } else if pawns.is_subset(File::H.bitboard()) {
        File::H
    } else {
        return false;
    };
    let rank = if strong == Color::White {
        Rank::Eighth
    } else {
        Rank::First
    };
    let corner = Square::new(file, rank);
    let bishops = b.colored_pieces(strong, Piece::Bishop);
    let corner_dark = corner.bitboard().0 & DARK != 0;
    let covers = !bishops.is_empty() && bishop_colour(bishops) != Some(!corner_dark);
    let king = b.king(weak);
    !covers && (king == corner || get_king_moves(corner).has(king))
}

/// The scale factor of the endgame half of the evaluation, 0..=64 ([`NORMAL`]).
pub fn factor(b: &Board) -> i32 {
    let colours = [Color::White, Color::Black];
    let m = colours.map(|c| npm(b, c));
    let p = colours.map(|c| b.colored_pieces(c, Piece::Pawn).len() as i32);
    let total = [m[0] + p[0], m[1] + p[1]];
    // The side ahead; with equal material either (the few-pawns rule then takes the larger
    // pawn count, so that the factor is the same with the colours swapped).
    let strong = if total[0] >= total[1] { 0 } else { 1 };

    // Both sides without pawns and at most a minor piece apart: no mating material to speak of
    // (a minor or nothing against anything, a rook against a minor, rook and minor against a
    // rook); two knights cannot force mate either.
    if p == [0, 0] {
        let (hi, lo) = (m[0].max(m[1]), m[0].min(m[1]));
        let knights_only = |c: Color| {
            npm(b, c) == 3 * b.colored_pieces(c, Piece::Knight).len() as i32
                && b.colored_pieces(c, Piece::Knight).len() <= 2
        };
        if hi - lo <= 3 {
            return if hi < 5 {
                0
            } else if lo <= 3 {
                8
            } else {
                16
            };
        }
        if lo == 0 && knights_only(colours[strong]) {
            return 0;
        }
    }
    if wrong_rook_pawn(b, colours[strong]) {
        return 0;
    }

    // Opposite-coloured bishops: each side one bishop, on squares of different colours.
    let wb = b.colored_pieces(Color::White, Piece::Bishop);
    let bb = b.colored_pieces(Color::Black, Piece::Bishop);
    let opposite = wb.len() == 1 && bb.len() == 1 && bishop_colour(wb) != bishop_colour(bb);
    if opposite {
        return if m == [3, 3] {
            // Bishops alone: a pawn or two up is usually a draw.
            (16 + 8 * (p[0] - p[1]).abs()).min(NORMAL)
        } else {
            46
        };
    }

    // Few pawns for the side ahead in material: its winning chances shrink with them (one
    // extra pawn in a rook endgame draws more often than not).
    let pawns = if total[0] == total[1] {
        p[0].max(p[1])
    } else {
        p[strong]
    };
    (36 + 7 * pawns).min(NORMAL)
}
