//! Known endgames: the material configurations whose winning *method* a linear evaluation cannot
//! express, recognised by rule and scored on top of the learned sum.
//!
//! Why: a game against Stockfish reached king, bishop and knight against a bare king with kishi
//! at +4.29 and was drawn by the fifty-move rule; from random such positions kishi at 10,000
//! nodes a move mated 0 of 6 times (Stockfish 4 of 6). Mating with bishop and knight means driving
//! the king into a corner of the bishop's colour, and mating with a rook or a queen means driving
//! it to an edge: both are functions of where the two kings stand *relative to each other and to
//! the bishop's colour*, which no weight of the KP or positional tables can say, and master games
//! (the learners' positions) almost never reach them. Engines solve this with hand-written
//! endgame functions (Stockfish's `KXK` and `KBNK`); so does kishi.
//!
//! The rule: one side has only its king and the other has mating material (a queen, a rook,
//! bishop and knight, or bishops on both colours). Then the stronger side gets [`KNOWN_WIN`]
//! (so that trading down into such an ending is welcome and the search never mistakes it for a
//! mere material edge), plus a drive term: the defending king near the edge (or, with bishop and
//! knight alone, near a corner of the bishop's colour) and the two kings close together. A bare
//! king to move with no legal move is stalemated and scores 0, because the quiescence search
//! stands pat on the evaluation without looking for moves.
//!
//! King and one pawn against a bare king is looked up in a bitbase (`kpk.rs`): a draw scores 0,
//! a win gets [`KNOWN_WIN`] on top of the learned sum (so the pawn side keeps a won pawn ending
//! and avoids a drawn one, and the defender seeks the draw).
//!
//! Why outside the learned sum: the bonus depends on the board only, never on the weights, so
//! the gradient of the evaluation with respect to the weights is still the feature vector and
//! every learner's update stays exact; only the *value* differs from `Σ weight · feature`, and
//! only in positions with a bare king, which the learners' master-game positions almost never
//! hold (the feature vector leaves the bonus out, and `tests/eval_chess.rs` checks exactly that).

pub mod kpk;

use cozy_chess::{Board, Color, Piece, Square};

/// Added for the side with a known win, in centipawns: more than any material edge the
/// evaluation gives otherwise (a queen is about 10 pawns here), far below the mate scores.
pub const KNOWN_WIN: i32 = 1_000;
/// Per step of the defending king towards the right corner (bishop and knight), 0..=7 steps.
const CORNER_STEP: i32 = 60;
/// Per unit of the defending king's squared edge closeness (other mates), 0..=18 units.
const EDGE_UNIT: i32 = 8;
/// Per step the kings stand closer than seven squares apart (never adjacent: 0..=5 steps).
const CLOSE_STEP: i32 = 20;

/// The evaluation with the known-endgame rules applied: `learned` (white's view, centipawns)
/// unchanged unless one side has a bare king and the other mating material or a single pawn.
pub fn adjust(b: &Board, learned: i32) -> i32 {
    let white_bare = b.colors(Color::White).len() == 1;
    let black_bare = b.colors(Color::Black).len() == 1;
    if white_bare == black_bare {
        return learned;
    }
    let (strong, weak) = if black_bare {
        (Color::White, Color::Black)
    } else {
        (Color::Black, Color::White)
    };
    if let Some(win) = kpk_win(b, strong) {
        // King and pawn against king is solved: a draw is a draw whatever the learned sum says.
        return match (win, strong) {
            (false, _) => 0,
            (true, Color::White) => learned + KNOWN_WIN,
            (true, Color::Black) => learned - KNOWN_WIN,
        };
    }
    if !mating_material(b, strong) {
        return learned;
    }
    if b.side_to_move() == weak && b.checkers().is_empty() && !b.generate_moves(|_| true) {
        return 0;
    }
    let bonus = KNOWN_WIN + drive(b, strong);
    if strong == Color::White {
        learned + bonus
    } else {
        learned - bonus
    }
}

/// With `strong` having its king and one pawn only: whether it wins (the bitbase of `kpk.rs`).
fn kpk_win(b: &Board, strong: Color) -> Option<bool> {
    let pawns = b.colored_pieces(strong, Piece::Pawn);
    if b.colors(strong).len() != 2 || pawns.len() != 1 {
        return None;
    }
    let p = pawns.into_iter().next()?;
    // The bitbase has the pawn white's: for black's pawn, turn the board around.
    let flip = |s: Square| {
        if strong == Color::White {
            s as usize
        } else {
            s as usize ^ 56
        }
    };
    kpk::probe(
        b.side_to_move() == strong,
        flip(b.king(strong)),
        flip(b.king(!strong)),
        flip(p),
    )
}

/// A queen, a rook, bishop and knight, or bishops on both colours: enough to force mate against
/// a bare king from any position (two knights are not).
fn mating_material(b: &Board, c: Color) -> bool {
    let n = |p| b.colored_pieces(c, p).len();
    if n(Piece::Queen) + n(Piece::Rook) > 0 {
        return true;
    }
    let bishops = b.colored_pieces(c, Piece::Bishop);
    if bishops.is_empty() {
        return false;
    }
    if n(Piece::Knight) > 0 {
        return true;
    }
    let dark = bishops.into_iter().any(is_dark);
    let light = bishops.into_iter().any(|s| !is_dark(s));
    dark && light
}

/// a1 is dark.
fn is_dark(s: Square) -> bool {
    (s.file() as usize + s.rank() as usize).is_multiple_of(2)
}

/// Distance from the nearer edge of a file or rank index (0..=7 → 0..=3).
fn edge_distance(i: usize) -> i32 {
    i.min(7 - i) as i32
}

fn king_distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// The drive term for `strong`, ≥ 0: larger when the defending king is nearer where it is mated
/// and the attacking king nearer to it.
fn drive(b: &Board, strong: Color) -> i32 {
    let weak_king = b.king(!strong);
    let close = CLOSE_STEP * (7 - king_distance(b.king(strong), weak_king));
    let only_bn = b.colors(strong).len() == 3
        && b.colored_pieces(strong, Piece::Bishop).len() == 1
        && b.colored_pieces(strong, Piece::Knight).len() == 1;
    if only_bn {
        // Mate is forced only in a corner of the bishop's colour. |7 − file − rank| is 7 in a1
        // and h8 (the dark corners), falls by one a step along the edges and is 0 on the a8–h1
        // diagonal; with a light bishop the file is mirrored so that a8 and h1 score 7.
        let bishop = b.colored_pieces(strong, Piece::Bishop);
        let light = bishop.into_iter().any(|s| !is_dark(s));
        let mut f = weak_king.file() as i32;
        if light {
            f = 7 - f;
        }
        let r = weak_king.rank() as i32;
        close + CORNER_STEP * (7 - f - r).abs()
    } else {
        // Squared so that a corner counts for more than the middle of an edge.
        let fd = edge_distance(weak_king.file() as usize);
        let rd = edge_distance(weak_king.rank() as usize);
        close + EDGE_UNIT * (18 - fd * fd - rd * rd)
    }
}
