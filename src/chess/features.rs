//! Chess feature set `kishi-chess`: material, KP (own king square × piece × square, for each king,
//! as in the paper's chess experiment) and linear positional terms (mobility by piece type and
//! count, passed pawns by rank, isolated and doubled pawns, king shelter, king-zone attacks by
//! piece type, bishop pair, rook on an open or half-open file, tempo). Every weight comes in a
//! middlegame and an endgame copy; the taper `phase` (0..=24: minor 1, rook 2, queen 4) makes the
//! evaluation `trunc((Σ mg·phase + Σ eg·(24 − phase)) / (24·32))`, still linear in the weights.
//!
//! Weights are in 1/32 centipawn (`WEIGHT_UNIT`), as Bonanza's shogi tables are in 1/32 of its
//! unit (FV_SCALE): the learner moves a weight by one grid step at a time, and with whole
//! centipawns 32 reuse steps could move a KP weight by 32 cp per iteration, far past what one
//! step 1 supports (MMTO's chess weights ran away and lost 280 Elo; see docs/learning/REPORT.md).
//!
//! Anti-symmetry by construction: white's terms are computed on the board as white sees it and
//! black's on the board turned around (ranks flipped), and black's are subtracted. Material and KP
//! are kept incrementally; the positional terms are bitboard work done at `evaluate`.

use super::ChessPos;
use crate::eval::format::{Elem, TableSpec};
use crate::eval::{scale_sum, FeatureSet, OwnedTable, Weights};
use crate::game::{Game, Side};
use cozy_chess::{
    get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks, get_rook_moves, BitBoard,
    Board, Color, Move, Piece, Square,
};

#[derive(Debug, Clone, Copy, Default)]
pub struct ChessFeatures;

pub const PHASE_MAX: i32 = 24;
/// Weights per centipawn (the fixed-point resolution of every table).
pub const WEIGHT_UNIT: i32 = 32;
pub const T_MATERIAL: usize = 0;
pub const T_KP: usize = 1;
pub const T_POS: usize = 2;

/// KP conditions: (own 0 | opponent 1) × 5 non-king pieces × 64 squares, seen by the king's owner.
pub const KP_COND: usize = 2 * 5 * 64;

// Positional terms (one weight each per phase).
pub const P_MOB_N: usize = 0; // mobility count 0..=8
pub const P_MOB_B: usize = 9; // 0..=13
pub const P_MOB_R: usize = 23; // 0..=14
pub const P_MOB_Q: usize = 38; // 0..=27
pub const P_PASSED: usize = 66; // relative rank 2..=7 → 6 entries
pub const P_ISOLATED: usize = 72;
pub const P_DOUBLED: usize = 73;
pub const P_SHELTER: usize = 74;
pub const P_KING_ATTACK: usize = 75; // by knight, bishop, rook, queen
pub const P_BISHOP_PAIR: usize = 79;
pub const P_ROOK_OPEN: usize = 80;
pub const P_ROOK_SEMI: usize = 81;
pub const P_TEMPO: usize = 82;
pub const N_POS: usize = 83;

static TABLES: [TableSpec; 3] = [
    TableSpec {
        name: "material",
        elem: Elem::I32,
        dims: &[2, 5],
        required: true,
    },
    TableSpec {
        name: "kp",
        elem: Elem::I16,
        dims: &[2, 64, KP_COND as u32],
        required: false,
    },
    TableSpec {
        name: "positional",
        elem: Elem::I32,
        dims: &[2, N_POS as u32],
        required: false,
    },
];

pub const OFF_KP: usize = 10;
pub const N_KP: usize = 2 * 64 * KP_COND;
pub const OFF_POS: usize = OFF_KP + N_KP;
pub const N_PARAMS: usize = OFF_POS + 2 * N_POS;

/// Material and KP sums (white's view for material; each king's owner's view for KP), per phase.
#[derive(Clone, Debug, Default)]
pub struct ChessAcc {
    material: [i32; 2],
    kp: [[i32; 2]; 2],
}

impl ChessAcc {
    /// The running sums `(material [mg, eg], KP [view][mg, eg])`, compared exactly by tests.
    pub fn sums(&self) -> ([i32; 2], [[i32; 2]; 2]) {
        (self.material, self.kp)
    }
}

const COLORS: [Color; 2] = [Color::White, Color::Black];
const NON_KING: [Piece; 5] = [
    Piece::Pawn,
    Piece::Knight,
    Piece::Bishop,
    Piece::Rook,
    Piece::Queen,
];

#[inline]
fn rel(sq: Square, view: Color) -> usize {
    match view {
        Color::White => sq as usize,
        Color::Black => sq as usize ^ 56,
    }
}

/// KP condition of a piece seen by `view`.
#[inline]
fn kp_cond(view: Color, color: Color, piece: Piece, sq: Square) -> usize {
    (usize::from(color != view) * 5 + piece as usize) * 64 + rel(sq, view)
}

/// The game phase: 24 with all minor and major pieces on the board, 0 with none.
pub fn phase(b: &Board) -> i32 {
    let minors = (b.pieces(Piece::Knight) | b.pieces(Piece::Bishop)).len() as i32;
    let rooks = b.pieces(Piece::Rook).len() as i32;
    let queens = b.pieces(Piece::Queen).len() as i32;
    (minors + 2 * rooks + 4 * queens).min(PHASE_MAX)
}

impl ChessFeatures {
    /// Adds (`sign` = 1) or removes (-1) a non-king piece's material and KP terms.
    #[inline]
    fn piece_terms(
        w: &Weights,
        kings: [Square; 2],
        acc: &mut ChessAcc,
        color: Color,
        piece: Piece,
        sq: Square,
        sign: i32,
    ) {
        let mat = w.i32(T_MATERIAL);
        let csign = if color == Color::White { sign } else { -sign };
        for ph in 0..2 {
            acc.material[ph] =
                acc.material[ph].wrapping_add(csign.wrapping_mul(mat[ph * 5 + piece as usize]));
        }
        let kp = w.i16(T_KP);
        if kp.is_empty() {
            return;
        }
        for (v, &view) in COLORS.iter().enumerate() {
            let k = rel(kings[v], view);
            let c = kp_cond(view, color, piece, sq);
            for ph in 0..2 {
                acc.kp[v][ph] += sign * kp[(ph * 64 + k) * KP_COND + c] as i32;
            }
        }
    }

    fn refresh_acc(w: &Weights, b: &Board, acc: &mut ChessAcc) {
        *acc = ChessAcc::default();
        let kings = [b.king(Color::White), b.king(Color::Black)];
        for color in COLORS {
            for piece in NON_KING {
                for sq in b.colored_pieces(color, piece) {
                    Self::piece_terms(w, kings, acc, color, piece, sq, 1);
                }
            }
        }
    }

    /// The positional counts of one side (as `view` sees the board), per term.
    /// Hands every positional count of `view` (term, count) to `add`. A callback rather than a
    /// count array: the evaluation adds weights straight away, without filling and then scanning
    /// 83 counts per side (that scan was 15% of the chess bench's time).
    #[inline(always)]
    fn positional_counts(b: &Board, view: Color, mut add: impl FnMut(usize, i32)) {
        let them = !view;
        let occ = b.occupied();
        let own = b.colors(view);
        let own_pawns = b.colored_pieces(view, Piece::Pawn);
        let their_pawns = b.colored_pieces(them, Piece::Pawn);
        let mut pawn_att = BitBoard::EMPTY;
        for sq in their_pawns {
            pawn_att |= get_pawn_attacks(sq, them);
        }
        let safe = !(own | pawn_att);
        let zone = {
            let k = b.king(them);
            get_king_moves(k) | k.bitboard()
        };
        // Mobility (safe squares, capped) and king-zone attacks of one piece.
        let attack = |add: &mut dyn FnMut(usize, i32), att: BitBoard, base, max, slot| {
            let m = ((att & safe).len() as usize).min(max);
            add(base + m, 1);
            add(P_KING_ATTACK + slot, (att & zone).len() as i32);
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
        for sq in own_pawns {
            let file = sq.file();
            let adjacent = file.adjacent();
            let r = rel(sq, view) / 8; // relative rank 0..8
                                       // Squares strictly ahead of this pawn, as `view` moves.
            let ahead = ahead_mask(sq, view);
            if (their_pawns & (file.bitboard() | adjacent) & ahead).is_empty()
                && (1..=6).contains(&r)
            {
                add(P_PASSED + r - 1, 1);
            }
            if (own_pawns & adjacent).is_empty() {
                add(P_ISOLATED, 1);
            }
            if !(own_pawns & file.bitboard() & ahead).is_empty() {
                add(P_DOUBLED, 1);
            }
        }
        let k = b.king(view);
        let kf = k.file().bitboard() | k.file().adjacent();
        let front = ahead_mask(k, view) & !two_ranks_beyond(k, view);
        add(P_SHELTER, (own_pawns & kf & front).len() as i32);
    }

    /// Positional sums (mg, eg) from white's view, tempo included.
    fn positional(w: &Weights, b: &Board) -> [i64; 2] {
        let pos = w.i32(T_POS);
        if pos.is_empty() {
            return [0, 0];
        }
        let mut s = [0i64; 2];
        for (i, view) in COLORS.into_iter().enumerate() {
            let sign = if i == 0 { 1 } else { -1 };
            Self::positional_counts(b, view, |t, n| {
                s[0] += sign * n as i64 * pos[t] as i64;
                s[1] += sign * n as i64 * pos[N_POS + t] as i64;
            });
        }
        let tempo = if b.side_to_move() == Color::White {
            1
        } else {
            -1
        };
        for (ph, sp) in s.iter_mut().enumerate() {
            *sp += tempo * pos[ph * N_POS + P_TEMPO] as i64;
        }
        s
    }

    fn combine(mg: i64, eg: i64, phase: i32) -> i32 {
        let sum = mg * phase as i64 + eg * (PHASE_MAX - phase) as i64;
        scale_sum(
            sum.clamp(-(i32::MAX as i64), i32::MAX as i64) as i32,
            Self::SCALE,
        )
    }
}

/// Squares on ranks strictly ahead of `sq` for a side moving in `view`'s direction.
fn ahead_mask(sq: Square, view: Color) -> BitBoard {
    let r = sq.rank() as u32;
    match view {
        Color::White => BitBoard(if r >= 7 { 0 } else { u64::MAX << (8 * (r + 1)) }),
        Color::Black => BitBoard(if r == 0 { 0 } else { u64::MAX >> (8 * (8 - r)) }),
    }
}

/// Squares more than two ranks ahead of `sq` (so `ahead & !this` is the next two ranks).
fn two_ranks_beyond(sq: Square, view: Color) -> BitBoard {
    let r = sq.rank() as u32;
    match view {
        Color::White => BitBoard(if r + 3 > 7 {
            0
        } else {
            u64::MAX << (8 * (r + 3))
        }),
        Color::Black => BitBoard(if r < 3 {
            0
        } else {
            u64::MAX >> (8 * (8 - (r - 2)))
        }),
    }
}

fn side_sign(pos: &ChessPos) -> i32 {
    if pos.side_to_move() == Side::First {
        1
    } else {
        -1
    }
}

impl FeatureSet<ChessPos> for ChessFeatures {
    const NAME: &'static str = "kishi-chess";
    // Version 2: weights in 1/32 centipawn (version 1 files were in centipawns).
    const VERSION: u32 = 2;
    const SCALE: i32 = PHASE_MAX * WEIGHT_UNIT;
    type Acc = ChessAcc;

    fn tables() -> &'static [TableSpec] {
        &TABLES
    }

    fn refresh(w: &Weights, pos: &ChessPos, acc: &mut ChessAcc) {
        Self::refresh_acc(w, pos.board(), acc)
    }

    fn update(
        w: &Weights,
        parent: &ChessPos,
        mv: Move,
        child: &ChessPos,
        parent_acc: &ChessAcc,
        acc: &mut ChessAcc,
    ) {
        let (pb, cb) = (parent.board(), child.board());
        let moved = pb.piece_on(mv.from);
        if moved == Some(Piece::King) || moved.is_none() {
            // A king move changes every KP term of its owner (castling moves a rook too).
            return Self::refresh_acc(w, cb, acc);
        }
        acc.clone_from(parent_acc);
        let kings = [cb.king(Color::White), cb.king(Color::Black)];
        let mut squares = [mv.from, mv.to, mv.to];
        if moved == Some(Piece::Pawn)
            && mv.from.file() != mv.to.file()
            && pb.piece_on(mv.to).is_none()
        {
            // En passant: the captured pawn stands beside the moving one.
            squares[2] = Square::new(mv.to.file(), mv.from.rank());
        }
        let n = if squares[2] == squares[1] { 2 } else { 3 };
        for &sq in &squares[..n] {
            if let (Some(p), Some(c)) = (pb.piece_on(sq), pb.color_on(sq)) {
                Self::piece_terms(w, kings, acc, c, p, sq, -1);
            }
            if let (Some(p), Some(c)) = (cb.piece_on(sq), cb.color_on(sq)) {
                Self::piece_terms(w, kings, acc, c, p, sq, 1);
            }
        }
    }

    fn evaluate(w: &Weights, pos: &ChessPos, acc: &ChessAcc) -> i32 {
        let b = pos.board();
        let p = Self::positional(w, b);
        let mg = acc.material[0] as i64 + acc.kp[0][0] as i64 - acc.kp[1][0] as i64 + p[0];
        let eg = acc.material[1] as i64 + acc.kp[0][1] as i64 - acc.kp[1][1] as i64 + p[1];
        side_sign(pos) * Self::combine(mg, eg, phase(b))
    }

    fn breakdown(w: &Weights, pos: &ChessPos) -> Vec<(String, i32)> {
        let b = pos.board();
        let mut acc = ChessAcc::default();
        Self::refresh_acc(w, b, &mut acc);
        let ph = phase(b);
        let s = side_sign(pos);
        let p = Self::positional(w, b);
        let kp = |i: usize| acc.kp[0][i] as i64 - acc.kp[1][i] as i64;
        vec![
            ("phase".into(), ph),
            (
                "material".into(),
                s * Self::combine(acc.material[0] as i64, acc.material[1] as i64, ph),
            ),
            ("kp".into(), s * Self::combine(kp(0), kp(1), ph)),
            ("positional".into(), s * Self::combine(p[0], p[1], ph)),
            ("total".into(), Self::evaluate(w, pos, &acc)),
        ]
    }

    fn num_params() -> usize {
        N_PARAMS
    }

    fn features(pos: &ChessPos, out: &mut Vec<(u32, i32)>) {
        out.clear();
        let b = pos.board();
        let stm = side_sign(pos);
        let ph = phase(b);
        let weight = [ph, PHASE_MAX - ph];
        let mut push = |idx_mg: usize, idx_eg: usize, count: i32| {
            out.push((idx_mg as u32, count * weight[0]));
            out.push((idx_eg as u32, count * weight[1]));
        };
        let kings = [b.king(Color::White), b.king(Color::Black)];
        for color in COLORS {
            let csign = stm * if color == Color::White { 1 } else { -1 };
            for piece in NON_KING {
                for sq in b.colored_pieces(color, piece) {
                    push(piece as usize, 5 + piece as usize, csign);
                    for (v, &view) in COLORS.iter().enumerate() {
                        let vsign = stm * if v == 0 { 1 } else { -1 };
                        let k = rel(kings[v], view);
                        let c = kp_cond(view, color, piece, sq);
                        push(
                            OFF_KP + k * KP_COND + c,
                            OFF_KP + (64 + k) * KP_COND + c,
                            vsign,
                        );
                    }
                }
            }
        }
        for (i, view) in COLORS.into_iter().enumerate() {
            let sign = stm * if i == 0 { 1 } else { -1 };
            let mut c = [0i32; N_POS];
            Self::positional_counts(b, view, |t, n| c[t] += n);
            for (t, &n) in c.iter().enumerate() {
                if n != 0 {
                    push(OFF_POS + t, OFF_POS + N_POS + t, sign * n);
                }
            }
        }
        let tempo = stm
            * if b.side_to_move() == Color::White {
                1
            } else {
                -1
            };
        push(OFF_POS + P_TEMPO, OFF_POS + N_POS + P_TEMPO, tempo);
        crate::eval::merge_features(out);
    }

    fn expand(params: &[i32]) -> Result<Vec<OwnedTable>, String> {
        if params.len() != N_PARAMS {
            return Err(format!(
                "kishi-chess has {N_PARAMS} parameters, {} given",
                params.len()
            ));
        }
        let sat = |x: &i32| (*x).clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        Ok(vec![
            OwnedTable::I32(params[..OFF_KP].to_vec()),
            OwnedTable::I16(params[OFF_KP..OFF_POS].iter().map(sat).collect()),
            OwnedTable::I32(params[OFF_POS..].to_vec()),
        ])
    }

    fn fold(w: &Weights) -> Result<Vec<i32>, String> {
        // Every table is stored as its parameters (no tying in this feature set).
        crate::eval::fold_direct::<ChessPos, Self>(w)
    }

    fn default_tables() -> Vec<Option<OwnedTable>> {
        vec![
            Some(OwnedTable::I32(default_material())),
            None,
            Some(OwnedTable::I32(default_positional())),
        ]
    }

    /// Every table learned from `chess-kp.kwt` (MMTO's KP on the hand-set terms) on the
    /// win-probability objective alone: +39 [+11, +68] Elo over `chess-kp.kwt`, 400 games at 5,000
    /// nodes (eval_weights/README.md, docs/learning/objective.md); made by scripts/train_shipped.sh.
    fn embedded_file() -> Option<(&'static str, &'static [u8])> {
        Some((
            "chess-obj-j2.kwt",
            include_bytes!("../../eval_weights/chess-obj-j2.kwt"),
        ))
    }

    fn param_table(idx: u32) -> (&'static str, u32) {
        let i = idx as usize;
        if i < OFF_KP {
            ("material", idx)
        } else if i < OFF_POS {
            ("kp", (i - OFF_KP) as u32)
        } else {
            ("positional", (i - OFF_POS) as u32)
        }
    }
}

/// Conventional piece values (pawn, knight, bishop, rook, queen), middlegame then endgame: pawns
/// gain value in the endgame, minor pieces lose a little (eval_weights/README.md).
pub const DEFAULT_MATERIAL: [[i32; 5]; 2] = [[100, 320, 330, 500, 900], [120, 300, 320, 520, 900]];

/// The default material table in weight units.
pub fn default_material() -> Vec<i32> {
    DEFAULT_MATERIAL
        .concat()
        .into_iter()
        .map(|v| v * WEIGHT_UNIT)
        .collect()
}

/// Hand-set positional weights of the embedded default (eval_weights/README.md says why), set in
/// centipawns below and returned in weight units.
pub fn default_positional() -> Vec<i32> {
    let mut t = vec![0i32; 2 * N_POS];
    for ph in 0..2 {
        let p = &mut t[ph * N_POS..(ph + 1) * N_POS];
        // Mobility: a few centipawns per safe square, centred so an average piece scores ~0.
        for m in 0..9 {
            p[P_MOB_N + m] = 4 * (m as i32 - 4);
        }
        for m in 0..14 {
            p[P_MOB_B + m] = 4 * (m as i32 - 6);
        }
        for m in 0..15 {
            p[P_MOB_R + m] = if ph == 0 { 2 } else { 4 } * (m as i32 - 7);
        }
        for m in 0..28 {
            p[P_MOB_Q + m] = if ph == 0 { 1 } else { 2 } * (m as i32 - 13);
        }
        let passed: [i32; 6] = if ph == 0 {
            [5, 10, 15, 25, 45, 70]
        } else {
            [10, 20, 35, 60, 100, 150]
        };
        p[P_PASSED..P_PASSED + 6].copy_from_slice(&passed);
        p[P_ISOLATED] = if ph == 0 { -10 } else { -15 };
        p[P_DOUBLED] = if ph == 0 { -10 } else { -20 };
        p[P_SHELTER] = if ph == 0 { 8 } else { 0 };
        let katt: [i32; 4] = if ph == 0 { [6, 6, 8, 10] } else { [1, 1, 2, 2] };
        p[P_KING_ATTACK..P_KING_ATTACK + 4].copy_from_slice(&katt);
        p[P_BISHOP_PAIR] = if ph == 0 { 30 } else { 50 };
        p[P_ROOK_OPEN] = if ph == 0 { 25 } else { 10 };
        p[P_ROOK_SEMI] = if ph == 0 { 12 } else { 5 };
        p[P_TEMPO] = if ph == 0 { 15 } else { 5 };
    }
    t.iter_mut().for_each(|v| *v *= WEIGHT_UNIT);
    t
}

/// Name of a positional term (for `weights inspect` and learner reports).
pub fn positional_name(t: usize) -> String {
    match t {
        _ if t < P_MOB_B => format!("mobility_knight_{}", t - P_MOB_N),
        _ if t < P_MOB_R => format!("mobility_bishop_{}", t - P_MOB_B),
        _ if t < P_MOB_Q => format!("mobility_rook_{}", t - P_MOB_R),
        _ if t < P_PASSED => format!("mobility_queen_{}", t - P_MOB_Q),
        _ if t < P_ISOLATED => format!("passed_rank_{}", t - P_PASSED + 2),
        P_ISOLATED => "isolated".into(),
        P_DOUBLED => "doubled".into(),
        P_SHELTER => "king_shelter".into(),
        _ if t < P_BISHOP_PAIR => {
            ["knight", "bishop", "rook", "queen"][t - P_KING_ATTACK].to_string() + "_king_attack"
        }
        P_BISHOP_PAIR => "bishop_pair".into(),
        P_ROOK_OPEN => "rook_open_file".into(),
        P_ROOK_SEMI => "rook_half_open_file".into(),
        P_TEMPO => "tempo".into(),
        _ => format!("unknown_{t}"),
    }
}

/// Random parameters (tests and benchmarks): the default material and positional weights plus
/// noise in ±8 weight units, KP uniform in ±`spread` weight units. Deterministic in `seed`.
pub fn random_params(seed: u64, spread: i32) -> Vec<i32> {
    let mut rng = crate::eval::rng::SplitMix64::new(seed);
    let mut p: Vec<i32> = default_material();
    p.iter_mut().for_each(|v| *v += rng.symmetric(8));
    for _ in 0..N_KP {
        p.push(rng.symmetric(spread));
    }
    for v in default_positional() {
        p.push(v + rng.symmetric(8));
    }
    p
}
