//! Generation of the checking moves only, for the mate solver's OR nodes (df-pn tries nothing
//! else there). Generating every legal move and testing each for check (what the solver did
//! before) costs a full move generation per node; here each group of moves is first cut down to
//! the squares from which it could check, and only those are tested with the exact
//! `movegen::gives_check`.
//!
//! The cut uses the symmetry of attacks: a piece of ours on `s` attacks the king's square `k`
//! exactly when the same piece of the king's colour on `k` attacks `s` (with the same occupancy
//! for sliders). Drops check only directly. A board move checks directly from its target (with
//! or without promotion; the occupancy without the mover, since a slider moving away from the king
//! along the line frees its own path) or by uncovering a slider: only a piece of ours that is the
//! single blocker between the king and one of our sliders can do that, so only those pieces keep
//! every target and are tested one by one (every other piece, on a line through the king or not,
//! is cut to its direct-check squares; testing every piece on a line cost a `gives_check` per move
//! of, typically, a defending gold or the attacker's own king). The result is exactly the legal
//! checking moves (tests/shogi_mate1.rs compares it with the filtered legal moves over random
//! playouts).

use super::movegen::{self, piece_attacks, DROP_ORDER};
use haitaka::{
    bishop_pseudo_attacks, get_between_rays, lance_pseudo_attacks, rook_pseudo_attacks, BitBoard,
    Board, Move, Piece, PieceMoves, Square,
};

/// Our pieces that are the only piece between `king` (the opponent's) and one of our sliders:
/// the pieces whose move can uncover a check.
fn discoverers(board: &Board, king: Square) -> BitBoard {
    let us = board.side_to_move();
    let ours = board.colors(us);
    let occ = board.occupied();
    let diag = board.pieces(Piece::Bishop) | board.pieces(Piece::PBishop);
    let ortho = board.pieces(Piece::Rook) | board.pieces(Piece::PRook);
    let snipers = ours
        & ((bishop_pseudo_attacks(king) & diag)
            | (rook_pseudo_attacks(king) & ortho)
            | (lance_pseudo_attacks(!us, king) & board.pieces(Piece::Lance)));
    let mut found = BitBoard::EMPTY;
    for sniper in snipers {
        let between = get_between_rays(sniper, king) & occ;
        if between.len() == 1 {
            found |= between & ours;
        }
    }
    found
}

/// Our pieces that may have a checking move: the discoverers, every slider (a lance, bishop or
/// rook, promoted or not), and the pieces that move by steps within two files and four ranks of
/// the king (one step, or a knight's jump, to a square from which one step or jump reaches the
/// king). The others' moves would all be cut to nothing below, so they are not generated: our
/// king's moves among them, for which haitaka tests every square for safety (1.5% of a solve).
fn movers(board: &Board, king: Square, discover: BitBoard) -> BitBoard {
    let us = board.side_to_move();
    let ours = board.colors(us);
    let sliders = board.pieces(Piece::Lance)
        | board.pieces(Piece::Bishop)
        | board.pieces(Piece::Rook)
        | board.pieces(Piece::PBishop)
        | board.pieces(Piece::PRook);
    let mut near = BitBoard::EMPTY;
    for sq in ours & !sliders & !board.pieces(Piece::King) {
        if movegen::within(king, sq, 2, 4) {
            near |= sq.bitboard();
        }
    }
    discover | (ours & sliders) | near
}

/// Pushes every legal move of the side to move that gives check.
pub fn check_moves(board: &Board, out: &mut Vec<Move>) {
    let us = board.side_to_move();
    let Some(king) = board.colored_pieces(!us, Piece::King).next_square() else {
        return;
    };
    let occ = board.occupied();

    let targets = movegen::drop_targets(board);
    for piece in DROP_ORDER {
        if !board.has_in_hand(us, piece) {
            continue;
        }
        let mut to = targets & haitaka::drop_zone(us, piece) & piece_attacks(piece, !us, king, occ);
        if piece == Piece::Pawn {
            to = movegen::pawn_drop_squares(board, to);
        }
        out.extend(to.into_iter().map(|to| Move::Drop { piece, to }));
    }

    let discover = discoverers(board, king);
    board.generate_board_moves_for(movers(board, king, discover), |mut moves| {
        if let PieceMoves::BoardMoves {
            piece, from, to, ..
        } = &mut moves
        {
            if !discover.has(*from) {
                let without = occ.rm(*from);
                let mut mask = piece_attacks(*piece, !us, king, without);
                if piece.is_promotable() {
                    mask |= piece_attacks(piece.promote(), !us, king, without);
                }
                *to &= mask;
                if to.is_empty() {
                    return false;
                }
            }
        }
        out.extend(
            moves
                .into_iter()
                .filter(|&mv| movegen::gives_check(board, mv)),
        );
        false
    });
}
