//! Entering-king declaration (nyugyoku) under the CSA rules.
//!
//! Conditions for the side to move: its king is in the promotion zone (the three far ranks), the
//! king is not in check, at least 10 other own pieces are in the zone, and the points of the pieces
//! in the zone plus those in hand (rook/bishop and their promotions 5, every other piece 1, king 0)
//! reach the threshold: 27-point rule sente 28 / gote 27, 24-point rule 31 for both. Under the
//! 24-point rule a declaration with 24 to 30 points is a draw (that is where the rule's name comes
//! from: a set is worth 54 points, and 24 each leaves nothing decisive). The handicap variants (…H)
//! credit the handicap giver (gote, the upper hand) with the points of the pieces removed from the
//! set, i.e. 54 minus the points of all pieces on the board and in both hands, as YaneuraOu does; in
//! an even game nothing is missing and they equal the plain rules.

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

/// Points of a full set (two rooks and two bishops at 5, 34 small pieces at 1).
pub const SET_POINTS: u32 = 54;

/// Points of every piece on the board and in both hands: less than `SET_POINTS` in a handicap game.
fn points_present(board: &Board) -> u32 {
    let mut pts = 0;
    for sq in board.occupied() {
        pts += board.piece_on(sq).map_or(0, points);
    }
    for color in [Color::Black, Color::White] {
        for (i, &k) in board.hand(color).iter().enumerate().take(Piece::HAND_NUM) {
            pts += points(Piece::index_const(i)) * k as u32;
        }
    }
    pts
}

/// What a declaration by the side to move would give under `rule`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Declaration {
    /// The conditions are not met: the declaration loses (a protocol should not send it).
    Invalid,
    /// 24-point rule, 24 to 30 points.
    Draw,
    Win,
}

/// The declaration verdict for the side to move.
pub fn declaration(board: &Board, rule: EnteringKingRule) -> Declaration {
    let us = board.side_to_move();
    let (win, draw) = match rule {
        EnteringKingRule::NoEnteringKing => return Declaration::Invalid,
        EnteringKingRule::CsaRule27 | EnteringKingRule::CsaRule27H => match us {
            Color::Black => (28, u32::MAX),
            Color::White => (27, u32::MAX),
        },
        EnteringKingRule::CsaRule24 | EnteringKingRule::CsaRule24H => (31, 24),
    };
    if !board.checkers().is_empty() {
        return Declaration::Invalid;
    }
    let (mut pts, n, king_in) = declaration_count(board, us);
    if !king_in || n < 10 {
        return Declaration::Invalid;
    }
    if us == Color::White
        && matches!(
            rule,
            EnteringKingRule::CsaRule24H | EnteringKingRule::CsaRule27H
        )
    {
        pts += SET_POINTS.saturating_sub(points_present(board));
    }
    if pts >= win {
        Declaration::Win
    } else if pts >= draw {
        Declaration::Draw
    } else {
        Declaration::Invalid
    }
}

/// Whether the side to move wins by declaring.
pub fn can_declare(board: &Board, rule: EnteringKingRule) -> bool {
    declaration(board, rule) == Declaration::Win
}
