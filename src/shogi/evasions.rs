//! The board moves that answer a check, in exactly haitaka's order, for less work.
//!
//! A side in check moves only at AND nodes of the mate solver, where generating the evasions was
//! 11% of a solve's instructions (docs/mate.md §33): haitaka's generator recomputes the
//! check's target squares once per piece kind (fourteen times a call) and tests each king square
//! with a full reverse attack lookup (`king_safe_on`). Here the targets are found once and the
//! king's squares are tested against the union of the checking side's attacks next to the king —
//! one lookup per piece of theirs, and in a mate problem the attacker has few pieces.
//!
//! The order is haitaka's (piece kinds in its order, each piece by square, the king last), and
//! the groups are haitaka's own `PieceMoves`, expanded by its iterator, so the moves and their
//! order are the same as `Board::generate_board_moves` gives (the mate solver's node counts
//! depend on that order; `tests/shogi_movegen.rs` compares the two over random playouts).

use super::movegen::piece_attacks;
use super::see::attackers;
use haitaka::{
    get_between_rays, king_attacks, BitBoard, Board, Piece, PieceMoves, PromotionStatus,
};

/// haitaka's order of the non-king piece kinds (`add_all_legals`), with the promotion status it
/// gives each kind's moves.
const ORDER: [(Piece, PromotionStatus); 13] = [
    (Piece::Pawn, PromotionStatus::Undecided),
    (Piece::Lance, PromotionStatus::Undecided),
    (Piece::Knight, PromotionStatus::Undecided),
    (Piece::Silver, PromotionStatus::Undecided),
    (Piece::Gold, PromotionStatus::CannotPromote),
    (Piece::Tokin, PromotionStatus::CannotPromote),
    (Piece::PLance, PromotionStatus::CannotPromote),
    (Piece::PKnight, PromotionStatus::CannotPromote),
    (Piece::PSilver, PromotionStatus::CannotPromote),
    (Piece::Bishop, PromotionStatus::Undecided),
    (Piece::Rook, PromotionStatus::Undecided),
    (Piece::PBishop, PromotionStatus::CannotPromote),
    (Piece::PRook, PromotionStatus::CannotPromote),
];

/// Calls `listener` with each group of legal board moves of the side to move, which must be in
/// check; stops early and returns true when the listener returns true.
pub fn generate_board_evasions(
    board: &Board,
    mut listener: impl FnMut(PieceMoves) -> bool,
) -> bool {
    let us = board.side_to_move();
    let Some(king) = board.colored_pieces(us, Piece::King).next_square() else {
        return false;
    };
    let checkers = board.checkers();
    let occ = board.occupied();
    if let (1, Some(checker)) = (checkers.len(), checkers.next_square()) {
        // Capture the checker or step between it and the king; a pinned piece can do neither
        // (its line meets the check's only at the king), and haitaka leaves pinned pieces out.
        let targets = get_between_rays(checker, king) | checker.bitboard();
        // Only the pieces that reach a target can move: found by reverse lookups from the few
        // targets instead of one attack lookup per piece of ours (a mate problem's defender
        // often has a wall of pieces around its king).
        let mut movers = BitBoard::EMPTY;
        for to in targets {
            movers |= attackers(board, us, to, occ);
        }
        movers &= !board.pinned() & !board.pieces(Piece::King);
        for (piece, prom_status) in ORDER {
            for from in board.pieces(piece) & movers {
                let to = piece_attacks(piece, us, from, occ) & targets;
                if !to.is_empty()
                    && listener(PieceMoves::BoardMoves {
                        color: us,
                        piece,
                        from,
                        to,
                        prom_status,
                    })
                {
                    return true;
                }
            }
        }
    }
    // King steps to squares nothing of theirs attacks once the king has left its square (a
    // slider's line through the king's square reaches on). A piece of theirs on a square the king
    // takes does not attack its own square, so the union of their attacks is exact.
    let them = !us;
    let near = king_attacks(us, king) & !board.colors(us);
    let without_king = occ.rm(king);
    let mut attacked = BitBoard::EMPTY;
    for piece in Piece::ALL {
        for sq in board.colored_pieces(them, piece) {
            attacked |= piece_attacks(piece, them, sq, without_king) & near;
        }
    }
    let to = near & !attacked;
    !to.is_empty()
        && listener(PieceMoves::BoardMoves {
            color: us,
            piece: Piece::King,
            from: king,
            to,
            prom_status: PromotionStatus::CannotPromote,
        })
}
