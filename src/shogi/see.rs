//! Static exchange evaluation for shogi: the material outcome of the capture sequence on one square,
//! with promotions and with captured pieces going to the capturer's hand (a capture gains the
//! piece's board value plus its value in hand).

use super::value;
use haitaka::*;

/// Material swing of capturing `piece`: it leaves the board and joins the capturer's hand.
fn exchange_value(piece: Piece) -> i32 {
    value(piece) + value(piece.unpromote())
}

/// Pieces of `color` that attack `sq` given the occupancy `occ`.
pub(crate) fn attackers(board: &Board, color: Color, sq: Square, occ: BitBoard) -> BitBoard {
    let them = !color;
    let ours = board.colors(color) & occ;
    let golds = board.pieces(Piece::Gold)
        | board.pieces(Piece::Tokin)
        | board.pieces(Piece::PLance)
        | board.pieces(Piece::PKnight)
        | board.pieces(Piece::PSilver);
    let horses = board.pieces(Piece::PBishop);
    let dragons = board.pieces(Piece::PRook);
    let diag = get_bishop_moves(color, sq, occ) & (board.pieces(Piece::Bishop) | horses);
    let ortho = get_rook_moves(color, sq, occ) & (board.pieces(Piece::Rook) | dragons);
    let near = king_attacks(them, sq) & (board.pieces(Piece::King) | horses | dragons);
    let steps = (pawn_attacks(them, sq) & board.pieces(Piece::Pawn))
        | (knight_attacks(them, sq) & board.pieces(Piece::Knight))
        | (silver_attacks(them, sq) & board.pieces(Piece::Silver))
        | (gold_attacks(them, sq) & golds)
        | (get_lance_moves(them, sq, occ) & board.pieces(Piece::Lance));
    (diag | ortho | near | steps) & ours
}

/// Whether a piece of `color` attacks `sq` given the occupancy `occ`: [`attackers`] non-empty,
/// with the cheap step attacks tried first and each test returning at the first hit (the mate
/// solver's mate-in-one test asks this for every square next to the king).
pub(crate) fn attacked(board: &Board, color: Color, sq: Square, occ: BitBoard) -> bool {
    let them = !color;
    let ours = board.colors(color) & occ;
    let horses = board.pieces(Piece::PBishop);
    let dragons = board.pieces(Piece::PRook);
    let golds = board.pieces(Piece::Gold)
        | board.pieces(Piece::Tokin)
        | board.pieces(Piece::PLance)
        | board.pieces(Piece::PKnight)
        | board.pieces(Piece::PSilver);
    let hit = |set: BitBoard| !(set & ours).is_empty();
    hit(gold_attacks(them, sq) & golds)
        || hit(king_attacks(them, sq) & (board.pieces(Piece::King) | horses | dragons))
        || hit(silver_attacks(them, sq) & board.pieces(Piece::Silver))
        || hit(pawn_attacks(them, sq) & board.pieces(Piece::Pawn))
        || hit(knight_attacks(them, sq) & board.pieces(Piece::Knight))
        || line_attacked(board, color, sq, occ)
}

/// Whether a sliding piece of `color` (lance, bishop, rook, horse, dragon) attacks `sq` along a
/// line given `occ`: [`attacked`] without the step attacks. For a caller that already knows no
/// step attacker of `color` reaches `sq` (the mate-in-one test, asking whether a line opens when
/// a piece leaves a square), the five step lookups it skips are all misses.
#[inline]
pub(crate) fn line_attacked(board: &Board, color: Color, sq: Square, occ: BitBoard) -> bool {
    let ours = board.colors(color) & occ;
    let hit = |set: BitBoard| !(set & ours).is_empty();
    hit(get_lance_moves(!color, sq, occ) & board.pieces(Piece::Lance))
        || hit(get_bishop_moves(color, sq, occ)
            & (board.pieces(Piece::Bishop) | board.pieces(Piece::PBishop)))
        || hit(get_rook_moves(color, sq, occ)
            & (board.pieces(Piece::Rook) | board.pieces(Piece::PRook)))
}

/// The least valuable attacker among `set` and its piece type.
fn least_valuable(board: &Board, set: BitBoard) -> Option<(Square, Piece)> {
    set.into_iter()
        .filter_map(|sq| board.piece_on(sq).map(|p| (sq, p)))
        .min_by_key(|&(_, p)| value(p))
}

/// Whether a piece of `color` moving to or from these squares may promote (and so will, in SEE).
fn promotes(piece: Piece, color: Color, from: Square, to: Square) -> bool {
    piece.is_promotable() && (piece.can_promote(color, to) || piece.can_promote(color, from))
}

/// SEE of `mv` for the side to move: the material it wins (negative when it loses material) if both
/// sides then capture on the target square with their least valuable pieces while it pays.
pub fn see(board: &Board, mv: Move) -> i32 {
    let us = board.side_to_move();
    let to = mv.to();
    let mut occ = board.occupied();
    let mut gain = [0i32; 40];
    // The piece standing on `to` after each capture, and its owner.
    let (mut on_square, first_gain) = match mv {
        Move::Drop { piece, .. } => (piece, 0),
        Move::BoardMove {
            from, promotion, ..
        } => {
            let Some(mover) = board.piece_on(from) else {
                return 0;
            };
            occ = occ.rm(from);
            let captured = board.piece_on(to).map_or(0, exchange_value);
            if promotion {
                (
                    mover.promote(),
                    captured + value(mover.promote()) - value(mover),
                )
            } else {
                (mover, captured)
            }
        }
    };
    occ |= to.bitboard();
    gain[0] = first_gain;
    let mut depth = 0;
    let mut side = !us;
    loop {
        let set = attackers(board, side, to, occ);
        let Some((from, piece)) = least_valuable(board, set) else {
            break;
        };
        depth += 1;
        if depth >= gain.len() {
            break;
        }
        let promo = promotes(piece, side, from, to);
        let promo_gain = if promo {
            value(piece.promote()) - value(piece)
        } else {
            0
        };
        // Capturing the king ends the sequence: the previous capture was illegal for its side.
        if on_square == Piece::King {
            gain[depth] = 30_000 - gain[depth - 1];
            break;
        }
        gain[depth] = exchange_value(on_square) + promo_gain - gain[depth - 1];
        on_square = if promo { piece.promote() } else { piece };
        occ = occ.rm(from);
        side = !side;
    }
    while depth > 0 {
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
        depth -= 1;
    }
    gain[0]
}
