//! Entering-king declaration (nyugyoku) under the CSA rules.
//!
//! Conditions for the side to move: its king is in the promotion zone (the three far ranks), the
//! king is not in check, at least 10 other own pieces are in the zone, and the points of the pieces
//! in the zone plus those in hand (rook/bishop and their promotions 5, every other piece 1, king 0)
//! reach the threshold: 27-point rule sente 28 / gote 27, 24-point rule 31 for both. The handicap
//! variants (…H) count the pieces missing from the handicap giver's set for it; kishi plays even
//! games, so they use the same thresholds here.

use crate::game::EnteringKingRule;
use haitaka::{Board, Color, Piece, Rank};

fn in_zone(color: Color, rank: Rank) -> bool {
    let r = rank as usize; // Rank::A = 0 is the top rank (gote's camp is A..C)
    match color {
        Color::Black => r <= 2,
        Color::White => r >= 6,
    }
}

fn points(piece: Piece) -> u32 {
    match piece {
        Piece::King => 0,
        Piece::Rook | Piece::Bishop | Piece::PRook | Piece::PBishop => 5,
        _ => 1,
    }
}

/// Points, pieces in the zone (king excluded) and whether the king is in the zone, for `color`.
pub fn declaration_count(board: &Board, color: Color) -> (u32, u32, bool) {
    let king_in = in_zone(color, board.king(color).rank());
    let mut pts = 0;
    let mut n = 0;
    for sq in board.colors(color) {
        if let Some(p) = board.piece_on(sq) {
            if p != Piece::King && in_zone(color, sq.rank()) {
                pts += points(p);
                n += 1;
            }
        }
    }
    for (i, &k) in board.hand(color).iter().enumerate().take(Piece::HAND_NUM) {
        pts += points(Piece::index_const(i)) * k as u32;
    }
    (pts, n, king_in)
}

pub fn can_declare(board: &Board, rule: EnteringKingRule) -> bool {
    let us = board.side_to_move();
    let need = match rule {
        EnteringKingRule::NoEnteringKing => return false,
        EnteringKingRule::CsaRule27 | EnteringKingRule::CsaRule27H => match us {
            Color::Black => 28,
            Color::White => 27,
        },
        EnteringKingRule::CsaRule24 | EnteringKingRule::CsaRule24H => 31,
    };
    if !board.checkers().is_empty() {
        return false;
    }
    let (pts, n, king_in) = declaration_count(board, us);
    king_in && n >= 10 && pts >= need
}
