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
use haitaka::{drop_zone, king_attacks, knight_attacks, BitBoard, Board, Move, Piece, Square};

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

/// The squares the king on `king` can flee to whatever the side to move drops: the `open`
/// squares next to it (empty, not attacked by the side to move) and the squares next to it
/// holding a piece of the side to move that no other piece of that side defends. (No line of
/// the side to move passes through the king's square — the king would be in check — so the
/// king leaving it uncovers nothing.) A drop only adds a blocker, which never takes an attack
/// away from these squares, so a drop that leaves one of them uncovered is not mate, whatever
/// else the defender has: most drops are rejected with this, without playing them (Zukou #053
/// played 1.6 M drops and 0.4 M board moves to test them for mate; 11.6 k of the drops mated).
/// `open` is found here when the caller has not found it already.
fn flight_squares(board: &Board, king: Square, open: Option<BitBoard>) -> BitBoard {
    let us = board.side_to_move();
    let occ = board.occupied();
    let mut flights = open.unwrap_or_else(|| {
        let mut open = BitBoard::EMPTY;
        for sq in king_attacks(!us, king) & !occ {
            if !attacked(board, us, sq, occ) {
                open |= sq.bitboard();
            }
        }
        open
    });
    for sq in king_attacks(!us, king) & board.colors(us) {
        if !attacked(board, us, sq, occ) {
            flights |= sq.bitboard();
        }
    }
    flights
}

/// Whether the king keeps one of its `flights` after `piece` lands on `to`: dropped there
/// (`from` = `None`) or moved from `from`. The landing piece's attacks go through the king's
/// square (the king cannot step back along its line). A board move also stops covering what it
/// covered from `from`, and a line through `from` may open — a discovered check's line then goes
/// on through the king's square — so the squares it leaves are tested again with both squares
/// counted empty (the landing piece's own blocking is ignored, which only counts more attacks).
/// A drop only adds a blocker: the flight squares stay unattacked by every other piece.
fn keeps_flight(
    board: &Board,
    king: Square,
    flights: BitBoard,
    piece: Piece,
    from: Option<Square>,
    to: Square,
) -> bool {
    let us = board.side_to_move();
    let mut occ = board.occupied().rm(king);
    if let Some(from) = from {
        occ = occ.rm(from);
    }
    let left = flights & !to.bitboard() & !piece_attacks(piece, us, to, occ);
    match from {
        None => !left.is_empty(),
        Some(_) => left.into_iter().any(|sq| !attacked(board, us, sq, occ)),
    }
}

/// A mating contact check of the side to move, if it finds one. The side to move must not be in
/// check (a check must be answered first; the search calls this only then).
///
/// No move generation: candidates come from the attackers of the few target squares. A piece
/// that checks from a square next to the king is taken by the king unless another piece of ours
/// defends that square, so undefended targets are skipped before any move is tried (exact: the
/// defenders are counted with the mover removed, so x-rays through its old square count), and a
/// candidate that leaves the king a flight square is rejected without being played.
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

    // The king's flight squares, found when the first candidate gets past the cheap tests.
    let mut flights = None;
    let mut open_known = None;
    // Drops next to the king: only on a square we defend.
    let hand_any = DROPS.iter().any(|&p| board.has_in_hand(us, p));
    if hand_any {
        let mut defended = BitBoard::EMPTY;
        let mut open = BitBoard::EMPTY;
        for to in near & !occ {
            if attacked(board, us, to, occ) {
                defended |= to.bitboard();
            } else {
                open |= to.bitboard();
            }
        }
        open_known = Some(open);
        for to in near & !occ & defended {
            for piece in DROPS {
                if piece != Piece::Knight
                    && board.has_in_hand(us, piece)
                    && drop_zone(us, piece).has(to)
                    && checks(piece, to, occ)
                    && !keeps_flight(
                        board,
                        king,
                        *flights.get_or_insert_with(|| flight_squares(board, king, open_known)),
                        piece,
                        None,
                        to,
                    )
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
                let flights =
                    *flights.get_or_insert_with(|| flight_squares(board, king, open_known));
                if keeps_flight(board, king, flights, Piece::Knight, None, to) {
                    continue;
                }
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
    // (Squares the drops found undefended have no mover either.)
    for to in near & !open_known.unwrap_or(BitBoard::EMPTY) {
        let movers = attackers(board, us, to, occ) & !board.pieces(Piece::King);
        for from in movers {
            // Another defender of `to` once the mover has left it (`attacked` masks our pieces
            // with `without`, so the mover itself does not count).
            if !attacked(board, us, to, occ.rm(from)) {
                continue;
            }
            let Some(piece) = board.piece_on(from) else {
                continue;
            };
            for promotion in [true, false] {
                let mv = Move::BoardMove {
                    from,
                    to,
                    promotion,
                };
                if movegen::is_legal(board, mv)
                    && movegen::gives_check(board, mv)
                    && !keeps_flight(
                        board,
                        king,
                        *flights.get_or_insert_with(|| flight_squares(board, king, open_known)),
                        if promotion { piece.promote() } else { piece },
                        Some(from),
                        to,
                    )
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
            if movegen::is_legal(board, mv)
                && !keeps_flight(
                    board,
                    king,
                    *flights.get_or_insert_with(|| flight_squares(board, king, open_known)),
                    Piece::Knight,
                    Some(from),
                    to,
                )
                && mates(board, mv)
            {
                return Some(mv);
            }
        }
    }
    None
}
