//! The bitboard terms of `kishi-chess`, counted per side: the `positional` table's (mobility,
//! pawn structure, king shelter and zone attacks, rook files, bishop pair) and the
//! `positional_ext` table's (threats, passed-pawn detail, pawn chains, outposts, king danger).
//!
//! Counts, not values: the caller multiplies each count by its weight (the evaluation) or emits it
//! as a feature (the learner), so both see exactly the same terms. Every count is taken from
//! `view`'s side of the board; the opponent's counts are subtracted by the caller, which keeps
//! the evaluation anti-symmetric by construction.

use super::pawns::PawnInfo;
use super::*;

/// Attacked squares of one side, by piece type (`all` includes the king).
#[derive(Clone, Copy, Default)]
pub(super) struct SideAttacks {
    pub pawn: BitBoard,
    pub minor: BitBoard,
    pub knight: BitBoard,
    pub bishop: BitBoard,
    pub rook: BitBoard,
    pub queen: BitBoard,
    pub king: BitBoard,
    pub all: BitBoard,
}

/// The dark squares (a1 is dark); the light squares are the complement.
pub(super) const DARK_SQUARES: u64 = 0xAA55_AA55_AA55_AA55;
pub(super) const FILE_A: u64 = 0x0101_0101_0101_0101;
pub(super) const FILE_H: u64 = FILE_A << 7;

/// The files that hold a man of `set`, whole: the set folded onto one rank, then spread up the
/// files (one multiplication, no loop over files).
pub(super) fn file_fill(set: BitBoard) -> BitBoard {
    let mut x = set.0;
    x |= x >> 32;
    x |= x >> 16;
    x |= x >> 8;
    BitBoard(FILE_A.wrapping_mul(x & 0xFF))
}

/// Squares attacked by a set of `color`'s pawns.
#[inline]
pub(super) fn pawn_attacks(pawns: BitBoard, color: Color) -> BitBoard {
    let p = pawns.0;
    BitBoard(match color {
        Color::White => ((p & !FILE_A) << 7) | ((p & !FILE_H) << 9),
        Color::Black => ((p & !FILE_A) >> 9) | ((p & !FILE_H) >> 7),
    })
}

/// A set moved one rank forward as `color` moves.
#[inline]
pub(super) fn forward(set: BitBoard, color: Color) -> BitBoard {
    BitBoard(match color {
        Color::White => set.0 << 8,
        Color::Black => set.0 >> 8,
    })
}

impl SideAttacks {
    pub(super) fn of(b: &Board, c: Color) -> Self {
        let occ = b.occupied();
        let mut a = SideAttacks {
            pawn: pawn_attacks(b.colored_pieces(c, Piece::Pawn), c),
            king: get_king_moves(b.king(c)),
            ..Default::default()
        };
        for sq in b.colored_pieces(c, Piece::Knight) {
            a.knight |= get_knight_moves(sq);
        }
        for sq in b.colored_pieces(c, Piece::Bishop) {
            a.bishop |= get_bishop_moves(sq, occ);
        }
        for sq in b.colored_pieces(c, Piece::Rook) {
            a.rook |= get_rook_moves(sq, occ);
        }
        for sq in b.colored_pieces(c, Piece::Queen) {
            a.queen |= get_bishop_moves(sq, occ) | get_rook_moves(sq, occ);
        }
        a.minor = a.knight | a.bishop;
        a.all = a.pawn | a.minor | a.rook | a.queen | a.king;
        a
    }
}

/// Attacker weights by piece (knight, bishop, rook, queen) in the king-danger index: the values of
/// classical engines (Stockfish 11's `KingAttackWeights`), in its units.
const KD_ATTACKER_WEIGHT: [i32; 4] = [81, 52, 44, 10];

/// What the king-danger index is made of, for one side attacking the other's king.
pub(super) struct KingAttack {
    /// Pieces attacking the king zone (the king's square and its neighbours).
    pub attackers: i32,
    /// The sum of their `KD_ATTACKER_WEIGHT`s.
    pub attacker_weight: i32,
    /// Their attacks on zone squares, counted per piece.
    pub zone_attacks: i32,
    /// Zone squares attacked and defended by the king or queen only.
    pub weak: i32,
    /// Squares a knight, bishop, rook or queen could check from, not defended by the king's side.
    pub safe_checks: [i32; 4],
    /// Checking squares the king's side defends.
    pub unsafe_checks: i32,
    /// Whether the attacking side has a queen.
    pub queen: bool,
}

/// The king-danger index: the shape of Stockfish 11's `kingDanger` (attackers × their weight,
/// zone attacks, weak zone squares, checks; far less without a queen), with its hand-set
/// coefficients. 0 when the king is not in danger (index ≤ 100). The evaluation scores it by
/// learned weights on its square and on itself (`king_danger` table), so the learner sets how
/// much danger costs, and the index sets only which attacks add up.
pub(super) fn king_danger(k: &KingAttack) -> i32 {
    let check = |c: i32, w: i32| match c {
        0 => 0,
        1 => w,
        _ => w * 3 / 2,
    };
    let d = k.attackers * k.attacker_weight
        + 69 * k.zone_attacks
        + 185 * k.weak
        + 148 * k.unsafe_checks
        + check(k.safe_checks[0], 792)
        + check(k.safe_checks[1], 645)
        + check(k.safe_checks[2], 1084)
        + check(k.safe_checks[3], 772)
        - if k.queen { 0 } else { 873 }
        + 37;
    if d > 100 {
        d.min(KD_MAX)
    } else {
        0
    }
}

/// Chebyshev distance (king moves) between two squares.
#[inline]
pub(super) fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// Squares on ranks strictly ahead of `sq` for a side moving in `view`'s direction.
pub(super) fn ahead_mask(sq: Square, view: Color) -> BitBoard {
    let r = sq.rank() as u32;
    match view {
        Color::White => BitBoard(if r >= 7 { 0 } else { u64::MAX << (8 * (r + 1)) }),
        Color::Black => BitBoard(if r == 0 { 0 } else { u64::MAX >> (8 * (8 - r)) }),
    }
}

/// Squares more than `n` ranks ahead of `sq` (so `ahead & !this` is the next `n` ranks).
fn ranks_beyond(sq: Square, view: Color, n: u32) -> BitBoard {
    let r = sq.rank() as u32;
    match view {
        Color::White => BitBoard(if r + n + 1 > 7 {
            0
        } else {
            u64::MAX << (8 * (r + n + 1))
        }),
        Color::Black => BitBoard(if r < n + 1 {
            0
        } else {
            u64::MAX >> (8 * (8 - (r - n)))
        }),
    }
}

/// The square in front of `sq` as `view` moves (`sq` is not on the last rank).
#[inline]
fn stop_square(sq: Square, view: Color) -> Square {
    Square::index(match view {
        Color::White => sq as usize + 8,
        Color::Black => sq as usize - 8,
    })
}

/// Which optional tables' terms `counts` counts (the `positional` terms are always counted).
#[derive(Clone, Copy, Debug)]
pub(super) struct Which {
    /// `positional_ext` and `king_danger` (and the attack maps every later table reads).
    pub ext: bool,
    /// `positional_more` (needs `ext`).
    pub more: bool,
    /// `positional_more2` (needs `ext`).
    pub more2: bool,
    /// `king_shelter`.
    pub shelter: bool,
    /// `king_attack_pairs` (needs `ext`).
    pub pairs: bool,
}

impl Which {
    pub const ALL: Which = Which {
        ext: true,
        more: true,
        more2: true,
        shelter: true,
        pairs: true,
    };
}

/// Hands every count of `view`'s `positional` terms (`t` < `N_POS`) and, with `ext`, of its
/// `positional_ext` and `king_danger` terms (`N_POS + e`, `N_POS + N_EXT + k`) and, with `more`
/// and `more2` (which need `ext`), its `positional_more` and `positional_more2` terms to `add`. `maps` are both sides' attacks
/// (index = colour), only read with `ext`; `pinfo` the pawn-only counts of the board
/// (`pawns.rs`). A callback rather than a count array: the evaluation adds weights straight away, without filling and then scanning the counts per side (that scan was
/// 15% of the chess bench's time).
#[inline(always)]
pub(super) fn counts(
    b: &Board,
    view: Color,
    maps: &[SideAttacks; 2],
    pinfo: &PawnInfo,
    which: Which,
    mut add: impl FnMut(usize, i32),
) {
    let ext = which.ext;
    let them = !view;
    let occ = b.occupied();
    let own = b.colors(view);
    let own_pawns = b.colored_pieces(view, Piece::Pawn);
    let their_pawns = b.colored_pieces(them, Piece::Pawn);
    let pawn_att = pawn_attacks(their_pawns, them);
    let safe = !(own | pawn_att);
    let their_king = b.king(them);
    let zone = get_king_moves(their_king) | their_king.bitboard();
    // Pieces of `view` attacking the enemy king zone (the king-danger terms' attacker count),
    // the sum of their attacker weights and of their attacks on the zone.
    let mut attackers = 0usize;
    let mut attacker_weight = 0i32;
    let mut zone_attacks = 0i32;
    // The zone's attackers by type (knight, bishop, rook, queen): `king_attack_pairs`.
    let mut attackers_by = [0i32; 4];
    // Mobility (safe squares, capped) and king-zone attacks of one piece.
    let mut attack = |add: &mut dyn FnMut(usize, i32), att: BitBoard, base, max, slot: usize| {
        let m = ((att & safe).len() as usize).min(max);
        add(base + m, 1);
        let z = (att & zone).len() as i32;
        add(P_KING_ATTACK + slot, z);
        let hit = i32::from(z > 0);
        attackers += hit as usize;
        attackers_by[slot] += hit;
        attacker_weight += hit * KD_ATTACKER_WEIGHT[slot];
        zone_attacks += z;
    };
    for sq in b.colored_pieces(view, Piece::Knight) {
        attack(&mut add, get_knight_moves(sq), P_MOB_N, 8, 0);
    }
    for sq in b.colored_pieces(view, Piece::Bishop) {
        attack(&mut add, get_bishop_moves(sq, occ), P_MOB_B, 13, 1);
    }
    for sq in b.colored_pieces(view, Piece::Rook) {
        attack(&mut add, get_rook_moves(sq, occ), P_MOB_R, 14, 2);
        let file = sq.file().bitboard();
        if (file & own_pawns).is_empty() {
            if (file & their_pawns).is_empty() {
                add(P_ROOK_OPEN, 1);
            } else {
                add(P_ROOK_SEMI, 1);
            }
        }
    }
    for sq in b.colored_pieces(view, Piece::Queen) {
        let att = get_bishop_moves(sq, occ) | get_rook_moves(sq, occ);
        attack(&mut add, att, P_MOB_Q, 27, 3);
    }
    if b.colored_pieces(view, Piece::Bishop).len() >= 2 {
        add(P_BISHOP_PAIR, 1);
    }
    let (us, th) = (&maps[view as usize], &maps[them as usize]);
    let own_king = b.king(view);
    if which.shelter {
        super::shelter::counts(b, view, &mut add);
    }
    let p = &pinfo.side[view as usize];
    if p.passed != [0; 6] {
        for (i, &n) in p.passed.iter().enumerate() {
            if n > 0 {
                add(P_PASSED + i, n as i32);
            }
        }
    }
    add(P_ISOLATED, p.isolated as i32);
    add(P_DOUBLED, p.doubled as i32);
    if ext {
        add(N_POS + E_PP_SUPPORTED, p.passed_supported as i32);
        add(N_POS + E_PAWN_SUPPORTED, p.supported as i32);
        add(N_POS + E_PAWN_PHALANX, p.phalanx as i32);
        add(N_POS + E_PAWN_BACKWARD, p.backward as i32);
        // Passed-pawn detail: these read the pieces and kings, so only the set is cached.
        for sq in pinfo.passers & own_pawns {
            let i = rel(sq, view) / 8 - 1;
            let stop = stop_square(sq, view);
            if occ.has(stop) {
                add(N_POS + E_PP_BLOCKED + i, 1);
            } else if !th.all.has(stop) {
                add(N_POS + E_PP_SAFE_ADVANCE + i, 1);
            }
            add(N_POS + E_PP_OWN_KING + i, distance(own_king, stop));
            add(N_POS + E_PP_THEIR_KING + i, distance(their_king, stop));
            let path = ahead_mask(sq, view) & sq.file().bitboard();
            if (path & occ).is_empty() && (path & th.all).is_empty() {
                add(N_POS + E_PP_FREE_PATH + i, 1);
            }
        }
    }
    let k = own_king;
    let kf = k.file().bitboard() | k.file().adjacent();
    let front = ahead_mask(k, view) & !ranks_beyond(k, view, 2);
    add(P_SHELTER, (own_pawns & kf & front).len() as i32);
    if !ext {
        return;
    }
    // Threats against the opponent's pieces.
    let kings = b.pieces(Piece::King);
    let pawns = b.pieces(Piece::Pawn);
    let their = b.colors(them);
    let their_minors = their & (b.pieces(Piece::Knight) | b.pieces(Piece::Bishop));
    let their_rooks = their & b.pieces(Piece::Rook);
    let their_queens = their & b.pieces(Piece::Queen);
    let their_pieces = their & !pawns & !kings;
    let n = |x: BitBoard| x.len() as i32;
    add(N_POS + E_THREAT_PAWN_MINOR, n(us.pawn & their_minors));
    add(
        N_POS + E_THREAT_PAWN_MAJOR,
        n(us.pawn & (their_rooks | their_queens)),
    );
    add(N_POS + E_THREAT_MINOR_ROOK, n(us.minor & their_rooks));
    add(N_POS + E_THREAT_MINOR_QUEEN, n(us.minor & their_queens));
    add(N_POS + E_THREAT_ROOK_QUEEN, n(us.rook & their_queens));
    add(N_POS + E_HANGING, n(us.all & their_pieces & !th.all));
    add(N_POS + E_WEAK_PAWN, n(us.all & their & pawns & !th.all));
    add(N_POS + E_KING_THREAT, n(us.king & their & !kings & !th.all));
    // Pawn pushes (one or two squares) to a square not taken by an enemy pawn, attacking a piece.
    let empty = !occ;
    let push1 = forward(own_pawns, view) & empty;
    let second = match view {
        Color::White => BitBoard(0x0000_0000_00FF_0000),
        Color::Black => BitBoard(0x0000_FF00_0000_0000),
    };
    let push2 = forward(push1 & second, view) & empty;
    let pushed = (push1 | push2) & !th.pawn & (us.all | !th.all);
    add(
        N_POS + E_THREAT_PAWN_PUSH,
        n(pawn_attacks(pushed, view) & their_pieces),
    );
    // Pieces.
    let outpost_ranks = match view {
        Color::White => BitBoard(0x0000_FFFF_FF00_0000),
        Color::Black => BitBoard(0x0000_00FF_FFFF_0000),
    };
    for (piece, term) in [
        (Piece::Knight, E_KNIGHT_OUTPOST),
        (Piece::Bishop, E_BISHOP_OUTPOST),
    ] {
        for sq in b.colored_pieces(view, piece) & outpost_ranks & us.pawn {
            let chasers = their_pawns & sq.file().adjacent() & ahead_mask(sq, view);
            if chasers.is_empty() {
                add(N_POS + term, 1);
            }
        }
    }
    let minors = b.colored_pieces(view, Piece::Knight) | b.colored_pieces(view, Piece::Bishop);
    add(
        N_POS + E_MINOR_BEHIND_PAWN,
        n(forward(minors, view) & pawns),
    );
    let seventh = match view {
        Color::White => BitBoard(0x00FF_0000_0000_0000),
        Color::Black => BitBoard(0x0000_0000_0000_FF00),
    };
    add(
        N_POS + E_ROOK_SEVENTH,
        n(b.colored_pieces(view, Piece::Rook) & seventh),
    );
    // Per bishop, the own pawns on its colour: by colour, bishops times pawns.
    let (dark, light) = (BitBoard(DARK_SQUARES), BitBoard(!DARK_SQUARES));
    let bishops = b.colored_pieces(view, Piece::Bishop);
    add(
        N_POS + E_BAD_BISHOP,
        n(bishops & dark) * n(own_pawns & dark) + n(bishops & light) * n(own_pawns & light),
    );
    // King danger against the opponent's king: the attacker count (non-linear by one-hot, with
    // and without a queen) and the safe checks by piece type.
    let slot = attackers.min(5);
    let queen = !b.colored_pieces(view, Piece::Queen).is_empty();
    if queen {
        add(N_POS + E_KING_ATTACKERS_Q + slot, 1);
    } else {
        add(N_POS + E_KING_ATTACKERS_NOQ + slot, 1);
    }
    let check_safe = !own & !th.all;
    let diag = get_bishop_moves(their_king, occ);
    let line = get_rook_moves(their_king, occ);
    let checks = [
        get_knight_moves(their_king) & us.knight,
        diag & us.bishop,
        line & us.rook,
        (diag | line) & us.queen,
    ];
    let safe_checks = checks.map(|c| n(c & check_safe));
    for (i, &c) in safe_checks.iter().enumerate() {
        add(N_POS + E_SAFE_CHECK_N + i, c);
    }
    // The king-danger index (table `king_danger`) is the interaction the linear terms above
    // cannot express, scored through its square, only for an attack of two pieces, or one with a
    // queen on the board (Stockfish 11's gate): most positions skip the work. The products of
    // `king_attack_pairs` are counted for any attack on the zone. Both read the same counts,
    // taken once.
    let pairs = which.pairs && attackers > 0;
    let gate = attackers >= 2 || (attackers == 1 && queen);
    if pairs || gate {
        // Zone squares `view` attacks that only the king or queen defend.
        let weak = n(zone & us.all & !(th.pawn | th.minor | th.rook));
        let unsafe_checks: i32 = checks.iter().map(|&c| n(c & !own & th.all)).sum();
        if pairs {
            let mut x = [0i32; KA_COMPONENTS];
            x[KA_KNIGHTS..KA_KNIGHTS + 4].copy_from_slice(&attackers_by);
            x[KA_ZONE_ATTACKS] = zone_attacks.min(16);
            x[KA_WEAK] = weak;
            for (i, &c) in safe_checks.iter().enumerate() {
                x[KA_SAFE_CHECK_N + i] = c.min(2);
            }
            x[KA_UNSAFE_CHECKS] = unsafe_checks.min(6);
            x[KA_QUEEN] = i32::from(queen);
            super::kingpairs::counts(&x, &mut add);
        }
        if gate {
            let danger = king_danger(&KingAttack {
                attackers: attackers as i32,
                attacker_weight,
                zone_attacks,
                weak,
                safe_checks,
                unsafe_checks,
                queen,
            });
            if danger > 0 {
                add(
                    N_POS + N_EXT + KD_QUADRATIC,
                    danger * danger / KD_QUADRATIC_DIV,
                );
                add(N_POS + N_EXT + KD_LINEAR, danger / KD_LINEAR_DIV);
            }
        }
    }
    // Own king: files around it without an own pawn, and enemy pawns storming them.
    let open = kf & Rank::First.bitboard() & !file_fill(own_pawns);
    add(N_POS + E_KING_OPEN_FILES, n(open));
    let storm = ahead_mask(k, view) & !ranks_beyond(k, view, 3) & kf;
    add(N_POS + E_PAWN_STORM, n(their_pawns & storm));
    if which.more {
        super::more::more_counts(b, view, maps, safe, &mut add);
    }
    if which.more2 {
        super::more::more2_counts(b, view, maps, pinfo, &mut add);
    }
}
