//! Legal move generation for shogi on top of haitaka, with the parts haitaka 0.3.2 gets wrong
//! replaced.
//!
//! haitaka's board-move generator is correct (perft and the cshogi cross-check pin it), but its drop
//! generator tests pawn-drop mate only on the *first* square of the pawn's drop set, by rank alone:
//! a pawn-drop mate on another square is generated (`3lkl3/3s1s3/4G4/9/9/9/9/9/4K4 b P 1` offers
//! `P*5b`), and a legal pawn drop can be dropped instead; `Board::is_legal` never tests pawn-drop
//! mate at all. So kishi generates every drop itself (the rules are simple: empty squares, not on a
//! rank where the piece could never move, no second unpromoted pawn on a file, only interpositions
//! when in check) and asks haitaka only for board moves. Counting is done here too, because
//! haitaka's `PieceMoves::len` counts target squares, not moves (a move that may promote or not is
//! two moves).

use haitaka::{
    bishop_pseudo_attacks, drop_zone, get_between_rays, get_bishop_moves, get_lance_moves,
    get_rook_moves, gold_attacks, king_attacks, knight_attacks, must_prom_zone, pawn_attacks,
    prom_zone, rook_pseudo_attacks, silver_attacks, BitBoard, Board, Color, Move, Piece,
    PieceMoves, PromotionStatus, Square,
};

/// Drop pieces in the order haitaka generates them.
pub(crate) const DROP_ORDER: [Piece; 7] = [
    Piece::Pawn,
    Piece::Lance,
    Piece::Knight,
    Piece::Silver,
    Piece::Gold,
    Piece::Rook,
    Piece::Bishop,
];

/// Calls `listener` with every group of legal moves (drops first, then board moves); stops early
/// and returns true when the listener returns true.
pub fn generate(board: &Board, mut listener: impl FnMut(PieceMoves) -> bool) -> bool {
    if generate_drops(board, &mut listener) {
        return true;
    }
    if board.checkers().is_empty() {
        board.generate_board_moves(listener)
    } else {
        super::evasions::generate_board_evasions(board, listener)
    }
}

/// Whether the side to move has at least one legal move.
pub fn has_legal_move(board: &Board) -> bool {
    let checkers = board.checkers();
    if !checkers.is_empty() {
        return has_evasion(board, checkers);
    }
    // Board moves first: they are cheaper to find than pawn drops (which may need a mate test).
    board.generate_board_moves(|_| true) || generate_drops(board, |_| true)
}

/// [`has_legal_move`] for a side in check (`checkers` non-empty), without generating moves: the
/// mate solver asks this for every new check it tries (is it mate?), and haitaka's generator
/// tested each king square and built each piece's targets first. A king step to a square nothing
/// attacks once the king has left its own (so a slider's ray through it counts); with one checker,
/// a capture or interposition by a piece that is not pinned (a pinned piece stays on its pin
/// line, which meets the check's line only at the king, so it can never answer the check; in
/// shogi every piece moves where it attacks, and a move that must promote still exists); else
/// an interposing drop.
fn has_evasion(board: &Board, checkers: BitBoard) -> bool {
    let us = board.side_to_move();
    let them = !us;
    let Some(king) = board.colored_pieces(us, Piece::King).next_square() else {
        return false;
    };
    let occ = board.occupied();
    let without_king = occ.rm(king);
    for to in king_attacks(us, king) & !board.colors(us) {
        if !super::see::attacked(board, them, to, without_king) {
            return true;
        }
    }
    if checkers.len() > 1 {
        return false;
    }
    let Some(checker) = checkers.next_square() else {
        return false;
    };
    let movers = board.colors(us) & !board.pieces(Piece::King) & !board.pinned();
    for to in get_between_rays(checker, king) | checker.bitboard() {
        if !(super::see::attackers(board, us, to, occ) & movers).is_empty() {
            return true;
        }
    }
    generate_drops(board, |_| true)
}

/// The squares where the side to move may drop a piece (ignoring the piece's own restrictions).
pub(crate) fn drop_targets(board: &Board) -> BitBoard {
    let empty = !board.occupied();
    let checkers = board.checkers();
    match checkers.len() {
        0 => empty,
        1 => {
            // Only an interposition answers a check; an adjacent or knight check has none.
            let Some(checker) = checkers.next_square() else {
                return BitBoard::EMPTY;
            };
            get_between_rays(checker, board.king(board.side_to_move())) & empty
        }
        _ => BitBoard::EMPTY,
    }
}

/// Every legal drop, grouped by piece.
pub fn generate_drops(board: &Board, mut listener: impl FnMut(PieceMoves) -> bool) -> bool {
    let us = board.side_to_move();
    let hand = board.hand(us);
    if DROP_ORDER.iter().all(|&p| hand[p as usize] == 0) {
        return false;
    }
    let targets = drop_targets(board);
    if targets.is_empty() {
        return false;
    }
    for piece in DROP_ORDER {
        if hand[piece as usize] == 0 {
            continue;
        }
        let mut to = targets & drop_zone(us, piece);
        if piece == Piece::Pawn {
            to = pawn_drop_squares(board, to);
        }
        if !to.is_empty()
            && listener(PieceMoves::Drops {
                color: us,
                piece,
                to,
            })
        {
            return true;
        }
    }
    false
}

/// Files holding an unpromoted pawn of `color` (nifu).
fn pawn_files(board: &Board, color: Color) -> BitBoard {
    let mut files = BitBoard::EMPTY;
    for sq in board.colored_pieces(color, Piece::Pawn) {
        files |= sq.file().bitboard();
    }
    files
}

/// Restricts `to` to legal pawn drops: no second pawn on a file, no pawn-drop mate.
pub(crate) fn pawn_drop_squares(board: &Board, to: BitBoard) -> BitBoard {
    let us = board.side_to_move();
    let mut to = to & !pawn_files(board, us);
    // Only a pawn dropped right in front of their king gives check, so only that square can mate.
    let their_king = board.colored_pieces(!us, Piece::King);
    if let Some(king) = their_king.next_square() {
        let front = pawn_attacks(!us, king) & to;
        if let Some(sq) = front.next_square() {
            if is_pawn_drop_mate(board, sq) {
                to = to.rm(sq);
            }
        }
    }
    to
}

/// Whether dropping a pawn on `to` (a square in front of the enemy king) mates.
fn is_pawn_drop_mate(board: &Board, to: Square) -> bool {
    let mut after = board.clone();
    after.play_unchecked(Move::Drop {
        piece: Piece::Pawn,
        to,
    });
    // The pawn checks from an adjacent square, so no drop can answer it: only board moves can.
    !after.generate_board_moves(|_| true)
}

/// Whether `mv` is legal: haitaka's test plus what it lacks: the pawn-drop-mate rule, and for
/// drops that the piece is a hand piece and is in hand (haitaka 0.3.2 accepts `R*5e` with an empty
/// hand, and drops of promoted pieces), and for promotions that the piece can promote (it accepts
/// a gold or a dragon "promoting").
pub fn is_legal(board: &Board, mv: Move) -> bool {
    match mv {
        Move::Drop { piece, .. } => {
            if !DROP_ORDER.contains(&piece) || !board.has_in_hand(board.side_to_move(), piece) {
                return false;
            }
        }
        Move::BoardMove {
            from,
            promotion: true,
            ..
        } => {
            if !board.piece_on(from).is_some_and(|p| p.is_promotable()) {
                return false;
            }
        }
        Move::BoardMove { .. } => {}
    }
    if !board.is_legal(mv) {
        return false;
    }
    match mv {
        Move::Drop {
            piece: Piece::Pawn,
            to,
        } => {
            let us = board.side_to_move();
            let front = board
                .colored_pieces(!us, Piece::King)
                .next_square()
                .is_some_and(|k| pawn_attacks(!us, k).has(to));
            !(front && is_pawn_drop_mate(board, to))
        }
        _ => true,
    }
}

/// The number of moves in one group: a move that may either promote or not counts twice.
pub fn count_moves(moves: &PieceMoves) -> u64 {
    match *moves {
        PieceMoves::Drops { to, .. } => to.len() as u64,
        PieceMoves::BoardMoves {
            color,
            piece,
            from,
            to,
            prom_status,
        } => {
            let base = to.len() as u64;
            if matches!(
                prom_status,
                PromotionStatus::CannotPromote | PromotionStatus::MustPromote
            ) || !piece.is_promotable()
            {
                return base;
            }
            let zone = prom_zone(color);
            let may = if zone.has(from) { to } else { to & zone };
            base + (may & !must_prom_zone(color, piece)).len() as u64
        }
    }
}

/// Number of legal moves.
pub fn count_legal(board: &Board) -> u64 {
    let mut n = 0;
    generate(board, |moves| {
        n += count_moves(&moves);
        false
    });
    n
}

/// Whether `sq` lies within `files` files and `ranks` ranks of `centre` (the mate solver's cuts
/// of step pieces too far from the king to matter).
pub(crate) fn within(centre: Square, sq: Square, files: usize, ranks: usize) -> bool {
    (sq.file() as usize).abs_diff(centre.file() as usize) <= files
        && (sq.rank() as usize).abs_diff(centre.rank() as usize) <= ranks
}

/// The squares a `piece` of `color` on `sq` attacks, given the occupancy `occ`.
pub fn piece_attacks(piece: Piece, color: Color, sq: Square, occ: BitBoard) -> BitBoard {
    match piece {
        Piece::Pawn => pawn_attacks(color, sq),
        Piece::Lance => get_lance_moves(color, sq, occ),
        Piece::Knight => knight_attacks(color, sq),
        Piece::Silver => silver_attacks(color, sq),
        Piece::Gold | Piece::Tokin | Piece::PLance | Piece::PKnight | Piece::PSilver => {
            gold_attacks(color, sq)
        }
        Piece::Bishop => get_bishop_moves(color, sq, occ),
        Piece::Rook => get_rook_moves(color, sq, occ),
        Piece::King => king_attacks(color, sq),
        Piece::PBishop => get_bishop_moves(color, sq, occ) | king_attacks(color, sq),
        Piece::PRook => get_rook_moves(color, sq, occ) | king_attacks(color, sq),
    }
}

/// Whether the legal move `mv` gives check, without playing it: a direct check by the piece on its
/// new square, or a discovered check by a slider the move uncovers.
pub fn gives_check(board: &Board, mv: Move) -> bool {
    let us = board.side_to_move();
    let Some(king) = board.colored_pieces(!us, Piece::King).next_square() else {
        return false;
    };
    match mv {
        Move::Drop { piece, to } => {
            // A drop only adds a blocker, so it can check only directly.
            piece_attacks(piece, us, to, board.occupied()).has(king)
        }
        Move::BoardMove {
            from,
            to,
            promotion,
        } => {
            let Some(piece) = board.piece_on(from) else {
                return false;
            };
            let moved = if promotion { piece.promote() } else { piece };
            let occ = board.occupied().rm(from) | to.bitboard();
            if piece_attacks(moved, us, to, occ).has(king) {
                return true;
            }
            // Discovered check: only a slider of ours on a line through `from` and the king.
            if (bishop_pseudo_attacks(king) | rook_pseudo_attacks(king)).has(from) {
                let ours = board.colors(us).rm(from);
                let diag = board.pieces(Piece::Bishop) | board.pieces(Piece::PBishop);
                let ortho = board.pieces(Piece::Rook) | board.pieces(Piece::PRook);
                let lances = board.colored_pieces(us, Piece::Lance);
                let sliders = (get_bishop_moves(!us, king, occ) & diag & ours)
                    | (get_rook_moves(!us, king, occ) & ortho & ours)
                    | (get_lance_moves(!us, king, occ) & lances);
                return !sliders.is_empty();
            }
            false
        }
    }
}
