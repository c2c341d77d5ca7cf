//! The terms of `kishi-chess`'s optional tables `positional_more` and `positional_more2`: the
//! terms of Stockfish 11's classical evaluation that the `positional` and `positional_ext`
//! tables lacked (space, more threats, restricted squares, trapped rooks, king protectors,
//! bishops' diagonals, rooks on queen files, king-flank attacks; connected pawns by rank, weak
//! unopposed pawns, pins, queen safety, outposts in reach, rooks behind passed pawns). Counts,
//! as in `terms.rs`: the caller multiplies them by weights or emits them as features, and
//! subtracts the opponent's, so each term is linear in its weights and anti-symmetric.

use super::pawns::PawnInfo;
use super::terms::{ahead_mask, distance, file_fill, forward, SideAttacks, FILE_A, FILE_H};
use super::*;
use cozy_chess::{get_between_rays, get_bishop_rays, get_rook_rays};

/// Files C–F, relative ranks 2–4: the space squares (Stockfish 11's `SpaceMask`), white's view.
const SPACE_WHITE: u64 = 0x0000_0000_3C3C_3C00;
/// The centre squares d4, e4, d5, e5.
const CENTER: u64 = 0x0000_0018_1800_0000;

/// The files around a king on `file` (Stockfish 11's `KingFlank`): a → a–c, b/c → a–d, d/e →
/// c–f, f/g → e–h, h → f–h.
fn king_flank(file: usize) -> BitBoard {
    let files = |lo: usize, hi: usize| (lo..=hi).fold(0u64, |m, f| m | FILE_A << f);
    BitBoard(match file {
        0 => files(0, 2),
        1 | 2 => files(0, 3),
        3 | 4 => files(2, 5),
        5 | 6 => files(4, 7),
        _ => files(5, 7),
    })
}

/// Squares one side attacks at least twice, approximately: with two attackers of different
/// types (two knights on one square, or two rooks, are not seen).
fn double_attacks(a: &SideAttacks) -> BitBoard {
    let heavy = a.rook | a.queen | a.king;
    (a.pawn & (a.minor | heavy))
        | (a.knight & a.bishop)
        | (a.minor & heavy)
        | (a.rook & (a.queen | a.king))
        | (a.queen & a.king)
}

/// Hands `view`'s counts of the `positional_more` terms (`N_POS + N_EXT + N_KD + m`) to `add`:
/// space, the threats `positional_ext` does not have, restricted squares, a rook trapped by its
/// own king, minor pieces' distance to their king, bishops on the long diagonals and x-raying
/// pawns, rooks on a queen's file, attacks on the enemy king's flank and a pawnless flank at the
/// own king (the terms of Stockfish 11's classical evaluation that kishi-chess lacked; each is
/// linear in its weights, the space term also scaled by the piece count as Stockfish's is).
pub(super) fn more_counts(
    b: &Board,
    view: Color,
    maps: &[SideAttacks; 2],
    safe: BitBoard,
    mut add: impl FnMut(usize, i32),
) {
    let at = |m: usize| N_POS + N_EXT + N_KD + m;
    let n = |x: BitBoard| x.len() as i32;
    let them = !view;
    let (us, th) = (&maps[view as usize], &maps[them as usize]);
    let occ = b.occupied();
    let own_pawns = b.colored_pieces(view, Piece::Pawn);
    let their = b.colors(them);
    let their_pawns = their & b.pieces(Piece::Pawn);
    let their_minors = their & (b.pieces(Piece::Knight) | b.pieces(Piece::Bishop));
    // Space: safe central squares behind the pawn front, counted twice when behind an own pawn.
    let space_mask = match view {
        Color::White => BitBoard(SPACE_WHITE),
        Color::Black => BitBoard(SPACE_WHITE.swap_bytes()),
    };
    let space_safe = space_mask & !own_pawns & !th.pawn;
    let mut behind = own_pawns;
    for _ in 0..3 {
        behind |= match view {
            Color::White => BitBoard(behind.0 >> 8),
            Color::Black => BitBoard(behind.0 << 8),
        };
    }
    let bonus = n(space_safe) + n(behind & space_safe & !th.all);
    let weight = n(b.colors(view)) - 1;
    add(at(M_SPACE), bonus);
    add(at(M_SPACE_WEIGHTED), bonus * weight * weight / 16);
    // Threats.
    add(at(M_THREAT_MINOR_MINOR), n(us.minor & their_minors));
    add(
        at(M_THREAT_MINOR_PAWN),
        n(us.minor & their_pawns & !th.pawn),
    );
    add(at(M_THREAT_ROOK_MINOR), n(us.rook & their_minors));
    add(at(M_THREAT_ROOK_PAWN), n(us.rook & their_pawns & !th.pawn));
    add(
        at(M_RESTRICTED),
        n(th.all & us.all & !th.pawn & !double_attacks(th)),
    );
    // Pieces.
    let king = b.king(view);
    let kf = king.file() as usize;
    let rooks = b.colored_pieces(view, Piece::Rook);
    // A rook can be trapped only on the king's side away from the centre (files left of a king
    // on a–d, else the king's file and right of it): only those rooks need their moves.
    let left = FILE_A.wrapping_mul((1u64 << kf) - 1);
    let trap_side = BitBoard(if kf < 4 { left } else { !left });
    for sq in rooks & trap_side {
        if n(get_rook_moves(sq, occ) & safe) <= 3 {
            let rights = b.castle_rights(view);
            let castle = rights.short.is_some() || rights.long.is_some();
            add(at(M_TRAPPED_ROOK), 1 + i32::from(!castle));
        }
    }
    add(
        at(M_ROOK_QUEEN_FILE),
        n(rooks & file_fill(b.pieces(Piece::Queen))),
    );
    for sq in b.colored_pieces(view, Piece::Knight) {
        add(at(M_KING_PROTECTOR_N), distance(sq, king));
    }
    let pawns = b.pieces(Piece::Pawn);
    for sq in b.colored_pieces(view, Piece::Bishop) {
        add(at(M_KING_PROTECTOR_B), distance(sq, king));
        if n(get_bishop_moves(sq, pawns) & BitBoard(CENTER)) >= 2 {
            add(at(M_LONG_DIAGONAL), 1);
        }
        add(
            at(M_BISHOP_XRAY_PAWNS),
            n(get_bishop_moves(sq, BitBoard::EMPTY) & their_pawns),
        );
    }
    // The enemy king's flank, in the enemy's camp (its first five ranks).
    let their_king = b.king(them);
    let camp = match them {
        Color::White => BitBoard(0x0000_00FF_FFFF_FFFF),
        Color::Black => BitBoard(0xFFFF_FFFF_FF00_0000),
    };
    let flank = camp & king_flank(their_king.file() as usize);
    add(at(M_FLANK_ATTACKS), n(us.all & flank));
    add(at(M_FLANK_DOUBLE), n(double_attacks(us) & flank));
    add(
        at(M_PAWNLESS_FLANK),
        i32::from((pawns & king_flank(kf)).is_empty()),
    );
}

/// The squares `color`'s pawns could ever attack as they advance (Stockfish's
/// `pawn_attacks_span`): the files beside each pawn, strictly ahead of it.
pub(super) fn pawn_attack_span(pawns: BitBoard, color: Color) -> BitBoard {
    let mut x = forward(pawns, color).0;
    match color {
        Color::White => {
            x |= x << 8;
            x |= x << 16;
            x |= x << 32;
        }
        Color::Black => {
            x |= x >> 8;
            x |= x >> 16;
            x |= x >> 32;
        }
    }
    BitBoard(((x & !FILE_A) >> 1) | ((x & !FILE_H) << 1))
}

/// The squares within `d` king moves of a square (`WITHIN[sq][d]`, `d` 0..=7).
const WITHIN: [[u64; 8]; 64] = {
    let mut t = [[0u64; 8]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b: usize = 0;
        while b < 64 {
            let df = (a % 8) as i32 - (b % 8) as i32;
            let dr = (a / 8) as i32 - (b / 8) as i32;
            let d = if df.abs() > dr.abs() {
                df.abs()
            } else {
                dr.abs()
            };
            let mut within = d as usize;
            while within < 8 {
                t[a][within] |= 1 << b;
                within += 1;
            }
            b += 1;
        }
        a += 1;
    }
    t
};

/// The distance in king moves from `sq` to the nearest man of `set`, 0 for an empty set: the
/// first ring around `sq` that holds one, so a king among its pawns takes a test or two rather
/// than a distance per pawn.
fn nearest_distance(sq: Square, set: BitBoard) -> i32 {
    if set.is_empty() {
        return 0;
    }
    let rings = &WITHIN[sq as usize];
    let mut d = 0;
    while d < 7 && set.0 & rings[d] == 0 {
        d += 1;
    }
    d as i32
}

/// Enemy sliders that hit `target` through exactly one piece, and the pieces between (the
/// pinned or discovering men, of either colour). `rooks` and `bishops` are the enemy's sliders
/// of each kind (queens in both, when they count).
fn blockers(b: &Board, target: Square, rooks: BitBoard, bishops: BitBoard) -> BitBoard {
    let occ = b.occupied();
    let snipers = (get_rook_rays(target) & rooks) | (get_bishop_rays(target) & bishops);
    let mut out = BitBoard::EMPTY;
    for s in snipers {
        let between = get_between_rays(target, s) & occ;
        if between.len() == 1 {
            out |= between;
        }
    }
    out
}

/// Hands `view`'s counts of the `positional_more2` terms (`N_POS + N_EXT + N_KD + N_MORE + m`) to
/// `add`: connected pawns by rank, weak unopposed pawns, the king's distance to its pawns, pinned
/// pieces and pawns, a queen exposed to a slider through one man, safe squares to attack the enemy
/// queen from, passed pawns' files, knights a move from an outpost, a queen in the enemy half no
/// pawn can chase, and rooks behind passed pawns (Stockfish 11's classical terms that the first
/// `positional_more` table left out; each a count, so the evaluation stays linear).
pub(super) fn more2_counts(
    b: &Board,
    view: Color,
    maps: &[SideAttacks; 2],
    pawns: &PawnInfo,
    mut add: impl FnMut(usize, i32),
) {
    let at = |m: usize| N_POS + N_EXT + N_KD + N_MORE + m;
    let n = |x: BitBoard| x.len() as i32;
    let them = !view;
    let (us, th) = (&maps[view as usize], &maps[them as usize]);
    let occ = b.occupied();
    let own = b.colors(view);
    let their = b.colors(them);
    let own_pawns = b.colored_pieces(view, Piece::Pawn);
    let their_pawns = b.colored_pieces(them, Piece::Pawn);
    let all_pawns = b.pieces(Piece::Pawn);
    let queens = b.pieces(Piece::Queen);
    let rooks = b.pieces(Piece::Rook);
    let bishops = b.pieces(Piece::Bishop);
    let p = &pawns.side[view as usize];
    for (i, &c) in p.connected.iter().enumerate() {
        if c > 0 {
            add(at(M2_CONNECTED + i), c as i32);
        }
    }
    add(at(M2_WEAK_UNOPPOSED), p.weak_unopposed as i32);
    let king = b.king(view);
    add(at(M2_KING_PAWN_DISTANCE), nearest_distance(king, own_pawns));
    // Men pinned to the own king by enemy sliders.
    let pinned = blockers(
        b,
        king,
        their & (rooks | queens),
        their & (bishops | queens),
    ) & own;
    add(at(M2_PINNED_PIECE), n(pinned & !all_pawns));
    add(at(M2_PINNED_PAWN), n(pinned & all_pawns));
    // A queen an enemy rook or bishop hits through one man (pinned, or about to be attacked by
    // a discovery): Stockfish 11's `WeakQueen`.
    for sq in b.colored_pieces(view, Piece::Queen) {
        if !blockers(b, sq, their & rooks, their & bishops).is_empty() {
            add(at(M2_WEAK_QUEEN), 1);
        }
    }
    // Safe squares from which a knight or (doubly supported) slider of ours could attack the
    // enemy's only queen next move.
    let their_queens = their & queens;
    if their_queens.len() == 1 {
        if let Some(q) = their_queens.into_iter().next() {
            let safe = !own & !th.pawn & !(double_attacks(th) & !double_attacks(us));
            add(
                at(M2_KNIGHT_ON_QUEEN),
                n(us.knight & get_knight_moves(q) & safe),
            );
            let sliders =
                (us.bishop & get_bishop_moves(q, occ)) | (us.rook & get_rook_moves(q, occ));
            add(
                at(M2_SLIDER_ON_QUEEN),
                n(sliders & safe & double_attacks(us)),
            );
        }
    }
    // Passed pawns by their distance from the nearer edge (a = 0 … d = 3).
    let passers = pawns.passers & own_pawns;
    for sq in passers {
        let f = sq.file() as i32;
        add(at(M2_PASSED_FILE), f.min(7 - f));
    }
    // Knights a move from an outpost square they do not stand on.
    let outpost_ranks = match view {
        Color::White => BitBoard(0x0000_FFFF_FF00_0000),
        Color::Black => BitBoard(0x0000_00FF_FFFF_0000),
    };
    let span = pawn_attack_span(their_pawns, them);
    let outposts = outpost_ranks & us.pawn & !span;
    for sq in b.colored_pieces(view, Piece::Knight) & !outposts {
        if !(get_knight_moves(sq) & outposts & !own).is_empty() {
            add(at(M2_REACHABLE_OUTPOST), 1);
        }
    }
    // A queen in the enemy half where no enemy pawn can ever attack it.
    let enemy_half = match view {
        Color::White => BitBoard(0xFFFF_FFFF_0000_0000),
        Color::Black => BitBoard(0x0000_0000_FFFF_FFFF),
    };
    add(
        at(M2_QUEEN_INFILTRATION),
        n(b.colored_pieces(view, Piece::Queen) & enemy_half & !span),
    );
    // Rooks behind passed pawns on their file (ours or the enemy's), nothing in between.
    for sq in passers {
        let behind = !ahead_mask(sq, view) & !sq.rank().bitboard() & sq.file().bitboard();
        let rook_sees = get_rook_moves(sq, occ) & behind & rooks;
        add(at(M2_OWN_ROOK_BEHIND_PASSER), n(rook_sees & own));
        add(at(M2_ENEMY_ROOK_BEHIND_PASSER), n(rook_sees & their));
    }
}
