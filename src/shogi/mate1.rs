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
use super::see::{attacked, line_attacked};
use haitaka::{
    drop_zone, king_attacks, knight_attacks, line_ray, prom_zone, BitBoard, Board, Move, Piece,
    Square,
};

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

/// Our pieces' attacks on the squares next to the enemy king, found once per call: one attack
/// lookup per piece of ours replaces a reverse lookup (eight piece kinds) per square and per
/// question. In a mate problem the attacker has a handful of pieces on the board, and the
/// per-square `attacked` tests were 13% of a solve (Zukou #053) before this.
struct NearAttacks {
    /// Squares next to the king that at least one piece of ours attacks.
    once: BitBoard,
    /// ... that at least two attack (so one of them may leave and the square stays defended).
    twice: BitBoard,
    /// Our pieces that attack each square next to the king, by its offset from the king
    /// ([`offset`]); the king's own slot stays empty.
    by_offset: [BitBoard; 9],
    king: Square,
}

/// The slot of `sq`, a square next to `king` (or the king's own), in `NearAttacks::by_offset`.
fn offset(king: Square, sq: Square) -> usize {
    let file = sq.file() as usize + 1 - king.file() as usize;
    let rank = sq.rank() as usize + 1 - king.rank() as usize;
    file * 3 + rank
}

/// Whether a piece of ours on `sq` can step onto a square next to the king on `king`: at most two
/// files and three ranks away (a knight's jump ends one rank past two). Pieces farther away
/// reach the king's squares only along a line, so only sliders are looked up there.
fn within_step(king: Square, sq: Square) -> bool {
    movegen::within(king, sq, 2, 3)
}

/// Piece kinds that move only by steps (a promoted bishop or rook also slides).
const STEPPERS: [Piece; 9] = [
    Piece::Pawn,
    Piece::Knight,
    Piece::Silver,
    Piece::Gold,
    Piece::King,
    Piece::Tokin,
    Piece::PLance,
    Piece::PKnight,
    Piece::PSilver,
];
const SLIDERS: [Piece; 5] = [
    Piece::Lance,
    Piece::Bishop,
    Piece::Rook,
    Piece::PBishop,
    Piece::PRook,
];

impl NearAttacks {
    fn new(board: &Board, king: Square, occ: BitBoard) -> NearAttacks {
        let us = board.side_to_move();
        let near = king_attacks(!us, king);
        let mut out = NearAttacks {
            once: BitBoard::EMPTY,
            twice: BitBoard::EMPTY,
            by_offset: [BitBoard::EMPTY; 9],
            king,
        };
        let mut add = |piece: Piece, sq: Square| {
            let hits = piece_attacks(piece, us, sq, occ) & near;
            out.twice |= out.once & hits;
            out.once |= hits;
            for to in hits {
                out.by_offset[offset(king, to)] |= sq.bitboard();
            }
        };
        for piece in STEPPERS {
            for sq in board.colored_pieces(us, piece) & occ {
                if within_step(king, sq) {
                    add(piece, sq);
                }
            }
        }
        for piece in SLIDERS {
            for sq in board.colored_pieces(us, piece) & occ {
                add(piece, sq);
            }
        }
        out
    }

    /// Our pieces that attack `to` (a square next to the king): `see::attackers` there.
    fn attackers(&self, to: Square) -> BitBoard {
        self.by_offset[offset(self.king, to)]
    }
}

/// Whether our board move `from`-`to` of `piece` (not the king; a square it reaches, not ours;
/// the side to move not in check) is legal with this `promotion`: what `movegen::is_legal` asks
/// of such a move, without its general checks (haitaka's test was 3% of a solve).
fn legal_step(board: &Board, piece: Piece, from: Square, to: Square, promotion: bool) -> bool {
    let us = board.side_to_move();
    let rule = if promotion {
        let zone = prom_zone(us);
        piece.is_promotable() && (zone.has(from) || zone.has(to))
    } else {
        !piece.must_promote(us, to)
    };
    // A pinned piece stays on the line through its king (and a pin needs a king).
    rule && (!board.pinned().has(from)
        || board
            .colored_pieces(us, Piece::King)
            .next_square()
            .is_some_and(|k| line_ray(k, from).has(to)))
}

/// The squares the king on `king` can flee to whatever the side to move drops: the squares next
/// to it that are empty or hold a piece of the side to move, and that nothing of the side to
/// move attacks (a piece of ours there is taken). (No line of the side to move passes through
/// the king's square — the king would be in check — so the king leaving it uncovers nothing.) A
/// drop only adds a blocker, which never takes an attack away from these squares, so a drop
/// that leaves one of them uncovered is not mate, whatever else the defender has: most drops
/// are rejected with this, without playing them (Zukou #053 played 1.6 M drops and 0.4 M board
/// moves to test them for mate; 11.6 k of the drops mated).
fn flight_squares(board: &Board, king: Square, attacks: &NearAttacks) -> BitBoard {
    let them = !board.side_to_move();
    king_attacks(them, king) & !board.colors(them) & !attacks.once
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

    // Our attacks next to the king, and its flight squares once a candidate gets past the
    // cheap tests.
    let attacks = NearAttacks::new(board, king, occ);
    let mut flights = None;
    // Drops next to the king: only on a square we defend.
    let hand_any = DROPS.iter().any(|&p| board.has_in_hand(us, p));
    if hand_any {
        for to in near & !occ & attacks.once {
            for piece in DROPS {
                if piece != Piece::Knight
                    && board.has_in_hand(us, piece)
                    && drop_zone(us, piece).has(to)
                    && checks(piece, to, occ)
                    && !keeps_flight(
                        board,
                        king,
                        *flights.get_or_insert_with(|| flight_squares(board, king, &attacks)),
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
                let flights = *flights.get_or_insert_with(|| flight_squares(board, king, &attacks));
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
    for to in near & attacks.once {
        let movers = attacks.attackers(to) & !board.pieces(Piece::King);
        for from in movers {
            // Another defender of `to` once the mover has left it: a second attacker, or one
            // behind the mover. With a single attacker (the mover: `attacks` counts every piece
            // of ours that reaches a square next to the king) only a line through `from` can
            // open, so the slider lookups suffice (the occupancy without `from` also keeps the
            // mover itself from counting).
            if !attacks.twice.has(to) && !line_attacked(board, us, to, occ.rm(from)) {
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
                if legal_step(board, piece, from, to, promotion)
                    && movegen::gives_check(board, mv)
                    && !keeps_flight(
                        board,
                        king,
                        *flights.get_or_insert_with(|| flight_squares(board, king, &attacks)),
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
            if legal_step(board, Piece::Knight, from, to, false)
                && !keeps_flight(
                    board,
                    king,
                    *flights.get_or_insert_with(|| flight_squares(board, king, &attacks)),
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
