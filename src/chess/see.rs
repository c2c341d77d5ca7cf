//! Static exchange evaluation for chess: the material outcome of the capture sequence on one square,
//! with x-rays through the sliders that move out of the way.

use super::value;
use cozy_chess::*;

fn attackers(board: &Board, sq: Square, occ: BitBoard) -> BitBoard {
    let rooks = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    let bishops = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    ((get_rook_moves(sq, occ) & rooks)
        | (get_bishop_moves(sq, occ) & bishops)
        | (get_knight_moves(sq) & board.pieces(Piece::Knight))
        | (get_king_moves(sq) & board.pieces(Piece::King))
        | (get_pawn_attacks(sq, Color::White) & board.colored_pieces(Color::Black, Piece::Pawn))
        | (get_pawn_attacks(sq, Color::Black) & board.colored_pieces(Color::White, Piece::Pawn)))
        & occ
}

/// SEE of `mv` for the side to move (negative when it loses material).
pub fn see(board: &Board, mv: Move) -> i32 {
    let Some(mover) = board.piece_on(mv.from) else {
        return 0;
    };
    let us = board.side_to_move();
    let to = mv.to;
    let mut occ = board.occupied();
    let is_ep = mover == Piece::Pawn && mv.from.file() != to.file() && board.piece_on(to).is_none();
    let captured = if is_ep {
        // The captured pawn stands beside the target square.
        occ ^= Square::new(to.file(), mv.from.rank()).bitboard();
        value(Piece::Pawn)
    } else if board.colors(!us).has(to) {
        board.piece_on(to).map_or(0, value)
    } else {
        0
    };
    let mut gain = [0i32; 34];
    gain[0] = captured;
    let mut on_square = mover;
    if let Some(p) = mv.promotion {
        gain[0] += value(p) - value(Piece::Pawn);
        on_square = p;
    }
    occ ^= mv.from.bitboard();
    let mut side = !us;
    let mut depth = 0;
    loop {
        let set = attackers(board, to, occ) & board.colors(side);
        let mut best: Option<(Square, Piece)> = None;
        for piece in Piece::ALL {
            let s = set & board.pieces(piece);
            if let Some(sq) = s.next_square() {
                best = Some((sq, piece));
                break;
            }
        }
        let Some((from, piece)) = best else {
            break;
        };
        depth += 1;
        if depth >= gain.len() {
            break;
        }
        if on_square == Piece::King {
            gain[depth] = 30_000 - gain[depth - 1];
            break;
        }
        let promo = piece == Piece::Pawn && (to.rank() == Rank::First || to.rank() == Rank::Eighth);
        let promo_gain = if promo {
            value(Piece::Queen) - value(Piece::Pawn)
        } else {
            0
        };
        gain[depth] = value(on_square) + promo_gain - gain[depth - 1];
        on_square = if promo { Piece::Queen } else { piece };
        occ ^= from.bitboard();
        side = !side;
    }
    while depth > 0 {
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
        depth -= 1;
    }
    gain[0]
}
