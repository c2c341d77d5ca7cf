//! A cheap mate-in-1 test for the play search (YaneuraOu calls its `mate_1ply` at every inner
//! node for the same reason): alpha-beta at depth d cannot see a mate one ply beyond its horizon,
//! and in shogi such mates are everywhere (a gold dropped on the king's head), while quiescence
//! search looks only at captures.
//!
//! Deliberately incomplete, for speed: only *contact* checks are tried, i.e. drops and board moves
//! onto a square next to the enemy king, and knight checks. Checks from a distance (a lance or
//! rook dropped far away, discovered checks) are left to the search. Every candidate is a legal
//! check, and a candidate is returned only after the defender is shown to have no legal move, so
//! a `Some` is always a mate (the tests check every answer against full move generation). Pawn
//! drops are never tried: a pawn-drop mate is illegal.

use super::movegen::{self, piece_attacks};
use super::see::{attacked, attackers};
use haitaka::{drop_zone, king_attacks, knight_attacks, Board, Move, Piece, Square};

/// Hand pieces in the order they are tried (the strongest contact pieces first).
const DROPS: [Piece; 6] = [
    Piece::Gold,
    Piece::Silver,
    Piece::Rook,
    Piece::Bishop,
    Piece::Lance,
    Piece::Knight,
];

/// Whether playing the legal move `mv` leaves the opponent without a legal move.
fn mates(board: &Board, mv: Move) -> bool {
    let mut after = board.clone();
    after.play_unchecked(mv);
    !movegen::has_legal_move(&after)
}

/// A mating contact check of the side to move, if it finds one. The side to move must not be in
/// check (a check must be answered first; the search calls this only then).
///
/// No move generation: candidates come from the attackers of the few target squares. A piece
/// that checks from a square next to the king is taken by the king unless another piece of ours
/// defends that square, so undefended targets are skipped before any move is tried (exact: the
/// defenders are counted with the mover removed, so x-rays through its old square count).
pub fn mate_in_one(board: &Board) -> Option<Move> {
    let us = board.side_to_move();
    if !board.checkers().is_empty() {
        return None;
    }
    let king = board.colored_pieces(!us, Piece::King).next_square()?;
    let occ = board.occupied();
    let ours = board.colors(us);
    // Squares next to the king, and the two squares from which a knight of ours would check it
    // (a knight of `us` on s attacks the king iff the king side's knight on the king's square
    // attacks s).
    let near = king_attacks(!us, king) & !ours;
    let knight_sq = knight_attacks(!us, king) & !ours;
    let checks = |piece: Piece, to: Square, occ| piece_attacks(piece, us, to, occ).has(king);

    // Drops next to the king: only on a square we defend.
    let hand_any = DROPS.iter().any(|&p| board.has_in_hand(us, p));
    if hand_any {
        for to in near & !occ {
            if !attacked(board, us, to, occ) {
                continue;
            }
            for piece in DROPS {
                if piece != Piece::Knight
                    && board.has_in_hand(us, piece)
                    && drop_zone(us, piece).has(to)
                    && checks(piece, to, occ)
                {
                    let mv = Move::Drop { piece, to };
                    if mates(board, mv) {
                        return Some(mv);
                    }
                }
            }
        }
        if board.has_in_hand(us, Piece::Knight) {
            for to in knight_sq & !occ & drop_zone(us, Piece::Knight) {
                let mv = Move::Drop {
                    piece: Piece::Knight,
                    to,
                };
                if mates(board, mv) {
                    return Some(mv);
                }
            }
        }
    }

    // Board moves next to the king: a mover among the square's attackers, and another defender.
    for to in near {
        let movers = attackers(board, us, to, occ) & !board.pieces(Piece::King);
        for from in movers {
            // Another defender of `to` once the mover has left it (`attacked` masks our pieces
            // with `without`, so the mover itself does not count).
            if !attacked(board, us, to, occ.rm(from)) {
                continue;
            }
            for promotion in [true, false] {
                let mv = Move::BoardMove {
                    from,
                    to,
                    promotion,
                };
                if movegen::is_legal(board, mv)
                    && movegen::gives_check(board, mv)
                    && mates(board, mv)
                {
                    return Some(mv);
                }
            }
        }
    }
    // Knight checks from two squares away (never a promotion: a promoted knight moves as a gold).
    for to in knight_sq {
        for from in knight_attacks(!us, to) & board.colored_pieces(us, Piece::Knight) {
            let mv = Move::BoardMove {
                from,
                to,
                promotion: false,
            };
            if movegen::is_legal(board, mv) && mates(board, mv) {
                return Some(mv);
            }
        }
    }
    None
}
