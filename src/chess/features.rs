//! Chess feature set `kishi-chess`: material, KP (own king square × piece × square, for each king,
//! as in the paper's chess experiment) and linear positional terms (mobility by piece type and
//! count, passed pawns by rank, isolated and doubled pawns, king shelter, king-zone attacks by
//! piece type, bishop pair, rook on an open or half-open file, tempo) and, in the optional
//! `positional_ext` table, the terms a stronger evaluation adds (threats, passed-pawn detail,
//! pawn chains, outposts, king danger; `terms.rs`) and, in the optional `king_danger` table, a
//! king-danger index scored through its square (the one term not linear in the board's counts,
//! still linear in the weights), in the optional `positional_more` and `positional_more2` tables,
//! the rest of Stockfish 11's classical terms (`more.rs`), in the optional `king_shelter`
//! table, the pawns in front of each king by file and rank (`shelter.rs`), and in the optional
//! `king_attack_pairs` table, every pairwise product of an attack on the king's components
//! (`kingpairs.rs`). Every weight comes in a
//! middlegame and an endgame copy; the taper `phase` (0..=24: minor 1, rook 2, queen 4) makes the
//! evaluation `trunc((Σ mg·phase·64 + Σ eg·(24 − phase)·sf) / (24·32·64))`, still linear in the
//! weights; `sf` is the endgame scale factor of the material on the board (`scale.rs`; 64, i.e.
//! the plain taper, unless the material is drawish).
//!
//! Weights are in 1/32 centipawn (`WEIGHT_UNIT`), as Bonanza's shogi tables are in 1/32 of its
//! unit (FV_SCALE): the learner moves a weight by one grid step at a time, and with whole
//! centipawns 32 reuse steps could move a KP weight by 32 cp per iteration, far past what one
//! step 1 supports (MMTO's chess weights ran away and lost 280 Elo; see docs/learning/REPORT.md).
//!
//! Anti-symmetry by construction: white's terms are computed on the board as white sees it and
//! black's on the board turned around (ranks flipped), and black's are subtracted. Material and KP
//! are kept incrementally; the positional terms are bitboard work done at `evaluate`.
//!
//! The tables, their offsets and the index of every term are in `layout.rs`. The evaluation adds
//! one thing outside the weighted sum: a bare king against mating material or a lone pawn is
//! scored by rule (`chess::endgame`), which the feature vector leaves out.

mod defaults;
mod kingpairs;
mod layout;
mod more;
mod pawns;
pub mod scale;
mod shelter;
mod terms;

pub use layout::*;
use layout::{counted_slot, COUNTED, TABLES, TABLE_OFF};

pub use defaults::{
    default_material, default_positional, default_positional_ext, positional_ext_name,
    positional_name, random_params, DEFAULT_MATERIAL,
};

use super::endgame;
use super::ChessPos;
use crate::eval::format::TableSpec;
use crate::eval::{scale_sum, FeatureSet, OwnedTable, Weights};
use crate::game::{Game, Side};
use cozy_chess::{
    get_bishop_moves, get_king_moves, get_knight_moves, get_rook_moves, BitBoard, Board, Color,
    Move, Piece, Rank, Square,
};
use pawns::PawnInfo;
use terms::SideAttacks;

#[derive(Debug, Clone, Copy, Default)]
pub struct ChessFeatures;

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
    /// Adds (`sign` = 1) or removes (-1) a non-king piece's material and KP terms. `tables` are
    /// the material and KP tables (`acc_tables`), looked up once by the caller rather than per
    /// piece.
    #[inline]
    fn piece_terms(
        (mat, kp): (&[i32], &[i16]),
        kings: [Square; 2],
        acc: &mut ChessAcc,
        color: Color,
        piece: Piece,
        sq: Square,
        sign: i32,
    ) {
        let csign = if color == Color::White { sign } else { -sign };
        for ph in 0..2 {
            acc.material[ph] =
                acc.material[ph].wrapping_add(csign.wrapping_mul(mat[ph * 5 + piece as usize]));
        }
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

    /// The tables `piece_terms` reads: material and KP.
    #[inline]
    fn acc_tables(w: &Weights) -> (&[i32], &[i16]) {
        (w.i32(T_MATERIAL), w.i16(T_KP))
    }

    fn refresh_acc(w: &Weights, b: &Board, acc: &mut ChessAcc) {
        *acc = ChessAcc::default();
        let tables = Self::acc_tables(w);
        let kings = [b.king(Color::White), b.king(Color::Black)];
        for color in COLORS {
            for piece in NON_KING {
                for sq in b.colored_pieces(color, piece) {
                    Self::piece_terms(tables, kings, acc, color, piece, sq, 1);
                }
            }
        }
    }

    /// Both sides' attack maps when the extended terms are on (they read them), else empty.
    #[inline]
    fn maps(b: &Board, ext: bool) -> [SideAttacks; 2] {
        if ext {
            [
                SideAttacks::of(b, Color::White),
                SideAttacks::of(b, Color::Black),
            ]
        } else {
            [SideAttacks::default(); 2]
        }
    }

    /// Positional sums (mg, eg) from white's view, tempo and the extended terms included.
    fn positional(w: &Weights, b: &Board) -> [i64; 2] {
        let tables = COUNTED.map(|(id, _)| w.i32(id));
        match FullTables::of(&tables) {
            Some(full) => Self::positional_full(&full, b),
            None => Self::positional_any(&tables, b),
        }
    }

    /// `positional` when every counted table is there and whole (the built-in and the shipped
    /// weights): each weight is read from a fixed-size array, so a term's constant index needs
    /// neither a bounds test nor a test for an absent table. Same sums as `positional_any`.
    fn positional_full(full: &FullTables, b: &Board) -> [i64; 2] {
        let maps = Self::maps(b, true);
        let pawns = PawnInfo::probe(b);
        let mut s = [0i64; 2];
        for view in COLORS {
            // Each side's sum apart, black's subtracted once: no sign to apply per term.
            let mut v = [0i64; 2];
            terms::counts(b, view, &maps, &pawns, terms::Which::ALL, |t, n| {
                let (mg, eg) = full.pair(t);
                v[0] += n as i64 * mg as i64;
                v[1] += n as i64 * eg as i64;
            });
            if view == Color::White {
                s = v;
            } else {
                s[0] -= v[0];
                s[1] -= v[1];
            }
        }
        let tempo = if b.side_to_move() == Color::White {
            1
        } else {
            -1
        };
        s[0] += tempo * full.pos[P_TEMPO] as i64;
        s[1] += tempo * full.pos[N_POS + P_TEMPO] as i64;
        s
    }

    /// `positional` for any set of counted tables (`tables`: each empty when absent).
    fn positional_any(tables: &[&[i32]; 7], b: &Board) -> [i64; 2] {
        if tables.iter().all(|t| t.is_empty()) {
            return [0, 0];
        }
        let [pos, ext, kd, more, more2, shelter, pairs] = *tables;
        let which = terms::Which {
            more: !more.is_empty(),
            more2: !more2.is_empty(),
            shelter: !shelter.is_empty(),
            pairs: !pairs.is_empty(),
            ext: !ext.is_empty()
                || !pairs.is_empty()
                || !kd.is_empty()
                || !more.is_empty()
                || !more2.is_empty(),
        };
        let maps = Self::maps(b, which.ext);
        let pawns = PawnInfo::probe(b);
        let mut s = [0i64; 2];
        for (i, view) in COLORS.into_iter().enumerate() {
            let sign = if i == 0 { 1 } else { -1 };
            terms::counts(b, view, &maps, &pawns, which, |t, n| {
                // An absent table reads as zeros (its terms are still counted: cheap, and one
                // code path keeps the evaluation and the feature vector identical), except
                // `positional_more`'s, `positional_more2`'s, `king_shelter`'s and
                // `king_attack_pairs`', counted only
                // when the table is there.
                let (j, t) = counted_slot(t);
                let (table, len) = (tables[j], COUNTED[j].1);
                if let (Some(&mg), Some(&eg)) = (table.get(t), table.get(len + t)) {
                    s[0] += sign * n as i64 * mg as i64;
                    s[1] += sign * n as i64 * eg as i64;
                }
            });
        }
        if !pos.is_empty() {
            let tempo = if b.side_to_move() == Color::White {
                1
            } else {
                -1
            };
            for (ph, sp) in s.iter_mut().enumerate() {
                *sp += tempo * pos[ph * N_POS + P_TEMPO] as i64;
            }
        }
        s
    }

    /// The tapered sum: `(mg·phase·64 + eg·(24 − phase)·sf) / SCALE`, `sf` the endgame scale
    /// factor (`scale::factor`, 64 = none). With `sf` 64 this is exactly the taper without it.
    fn combine(mg: i64, eg: i64, phase: i32, sf: i32) -> i32 {
        let sum = mg * (phase * scale::NORMAL) as i64 + eg * ((PHASE_MAX - phase) * sf) as i64;
        scale_sum(
            sum.clamp(-(i32::MAX as i64), i32::MAX as i64) as i32,
            Self::SCALE,
        )
    }
}

/// The counted tables as fixed-size arrays (mg weights, then eg), when all six are present and
/// whole.
struct FullTables<'a> {
    pos: &'a [i32; 2 * N_POS],
    ext: &'a [i32; 2 * N_EXT],
    kd: &'a [i32; 2 * N_KD],
    more: &'a [i32; 2 * N_MORE],
    more2: &'a [i32; 2 * N_MORE2],
    shelter: &'a [i32; 2 * N_SHELTER],
    pairs: &'a [i32; 2 * N_KING_PAIRS],
}

impl<'a> FullTables<'a> {
    fn of(t: &[&'a [i32]; 7]) -> Option<Self> {
        Some(FullTables {
            pos: t[0].try_into().ok()?,
            ext: t[1].try_into().ok()?,
            kd: t[2].try_into().ok()?,
            more: t[3].try_into().ok()?,
            more2: t[4].try_into().ok()?,
            shelter: t[5].try_into().ok()?,
            pairs: t[6].try_into().ok()?,
        })
    }

    /// The (mg, eg) weights of `terms::counts`' index `t`. `counted_slot` folds away for a
    /// constant `t`, and so does the match; the last table's indices, not constants, take one
    /// comparison there.
    #[inline(always)]
    fn pair(&self, t: usize) -> (i32, i32) {
        let (j, t) = counted_slot(t);
        match j {
            0 => (self.pos[t], self.pos[N_POS + t]),
            1 => (self.ext[t], self.ext[N_EXT + t]),
            2 => (self.kd[t], self.kd[N_KD + t]),
            3 => (self.more[t], self.more[N_MORE + t]),
            4 => (self.more2[t], self.more2[N_MORE2 + t]),
            5 => (self.shelter[t], self.shelter[N_SHELTER + t]),
            _ => (self.pairs[t], self.pairs[N_KING_PAIRS + t]),
        }
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
    const SCALE: i32 = PHASE_MAX * WEIGHT_UNIT * scale::NORMAL;
    const COUNT_UNIT: i32 = scale::NORMAL;
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
        let tables = Self::acc_tables(w);
        for &sq in &squares[..n] {
            if let (Some(p), Some(c)) = (pb.piece_on(sq), pb.color_on(sq)) {
                Self::piece_terms(tables, kings, acc, c, p, sq, -1);
            }
            if let (Some(p), Some(c)) = (cb.piece_on(sq), cb.color_on(sq)) {
                Self::piece_terms(tables, kings, acc, c, p, sq, 1);
            }
        }
    }

    fn evaluate(w: &Weights, pos: &ChessPos, acc: &ChessAcc) -> i32 {
        let b = pos.board();
        let p = Self::positional(w, b);
        let mg = acc.material[0] as i64 + acc.kp[0][0] as i64 - acc.kp[1][0] as i64 + p[0];
        let eg = acc.material[1] as i64 + acc.kp[0][1] as i64 - acc.kp[1][1] as i64 + p[1];
        let learned = Self::combine(mg, eg, phase(b), scale::factor(b));
        side_sign(pos) * endgame::adjust(b, learned)
    }

    fn breakdown(w: &Weights, pos: &ChessPos) -> Vec<(String, i32)> {
        let b = pos.board();
        let mut acc = ChessAcc::default();
        Self::refresh_acc(w, b, &mut acc);
        let ph = phase(b);
        let sf = scale::factor(b);
        let s = side_sign(pos);
        let p = Self::positional(w, b);
        let kp = |i: usize| acc.kp[0][i] as i64 - acc.kp[1][i] as i64;
        let learned = Self::combine(
            acc.material[0] as i64 + kp(0) + p[0],
            acc.material[1] as i64 + kp(1) + p[1],
            ph,
            sf,
        );
        vec![
            ("phase".into(), ph),
            ("endgame scale /64".into(), sf),
            (
                "material".into(),
                s * Self::combine(acc.material[0] as i64, acc.material[1] as i64, ph, sf),
            ),
            ("kp".into(), s * Self::combine(kp(0), kp(1), ph, sf)),
            ("positional".into(), s * Self::combine(p[0], p[1], ph, sf)),
            (
                "known endgame".into(),
                s * (endgame::adjust(b, learned) - learned),
            ),
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
        let weight = [ph * scale::NORMAL, (PHASE_MAX - ph) * scale::factor(b)];
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
        let maps = Self::maps(b, true);
        let pawns = PawnInfo::compute(b);
        for (i, view) in COLORS.into_iter().enumerate() {
            let sign = stm * if i == 0 { 1 } else { -1 };
            let mut c = [0i32; N_COUNTED];
            terms::counts(b, view, &maps, &pawns, terms::Which::ALL, |t, n| c[t] += n);
            for (t, &n) in c.iter().enumerate() {
                if n == 0 {
                    continue;
                }
                let (j, t) = counted_slot(t);
                let (table, len) = COUNTED[j];
                let off = TABLE_OFF[table];
                push(off + t, off + len + t, sign * n);
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
        Ok(TABLE_OFF
            .windows(2)
            .enumerate()
            .map(|(t, r)| {
                let p = &params[r[0]..r[1]];
                if t == T_KP {
                    OwnedTable::I16(p.iter().map(sat).collect())
                } else {
                    OwnedTable::I32(p.to_vec())
                }
            })
            .collect())
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
            Some(OwnedTable::I32(default_positional_ext())),
            // No hand-set king danger: the hand-set evaluation is that of the files learned
            // before the table existed (they read it as zeros), and the learner sets it.
            None,
            // Likewise the Stockfish 11 terms of `positional_more`, `positional_more2` and
            // `king_shelter`, and the king-attack products of `king_attack_pairs`.
            None,
            None,
            None,
            None,
        ]
    }

    /// `chess-texel-attack.kwt`: every table of `chess-ext-j2.kwt` fitted by `learn texel` to
    /// Stockfish 15.1's scores of 1.1M positions of the 2400+ games and of 0.3M positions one or
    /// two random moves away from them (data/chess/README.md), with the endgame scale factor,
    /// the king-danger index, the `positional_more`, `positional_more2` and `king_shelter`
    /// terms and the `king_attack_pairs` table in the features; over `chess-texel-shelter.kwt`
    /// (the default before it) +17.4 [−3.1, +38.0] in 600 games at 2 s + 0.02 s, its 15% slower
    /// evaluation included (docs/learning/texel.md, "Attacks on the king as a quadratic form");
    /// made by scripts/train_shipped.sh.
    fn embedded_file() -> Option<(&'static str, &'static [u8])> {
        Some((
            "chess-texel-attack.kwt",
            include_bytes!("../../eval_weights/chess-texel-attack.kwt"),
        ))
    }

    fn param_table(idx: u32) -> (&'static str, u32) {
        let i = idx as usize;
        let t = TABLE_OFF[1..].iter().take_while(|&&off| off <= i).count();
        let t = t.min(TABLES.len() - 1);
        (TABLES[t].name, (i - TABLE_OFF[t]) as u32)
    }
}

/// One side's counts of the `N` terms from index `first` on (`white` or black; indices as
/// `terms::counts` gives them), shifted to start at 0.
fn side_counts<const N: usize>(pos: &ChessPos, white: bool, first: usize) -> [i32; N] {
    let b = pos.board();
    let view = if white { Color::White } else { Color::Black };
    let maps = ChessFeatures::maps(b, true);
    let mut c = [0i32; N];
    terms::counts(
        b,
        view,
        &maps,
        &PawnInfo::compute(b),
        terms::Which::ALL,
        |t, n| {
            if (first..first + N).contains(&t) {
                c[t - first] += n;
            }
        },
    );
    c
}

/// The counts of one side's extended terms (`white` or black) in a position: what the
/// `positional_ext` weights multiply (tests check them on hand-made positions).
pub fn ext_counts(pos: &ChessPos, white: bool) -> [i32; N_EXT] {
    side_counts(pos, white, COUNT_BASE[1])
}

/// The counts of one side's king-danger terms (`white` attacking black's king, or black
/// attacking white's): what the `king_danger` weights multiply.
pub fn king_danger_counts(pos: &ChessPos, white: bool) -> [i32; N_KD] {
    side_counts(pos, white, COUNT_BASE[2])
}

/// The counts of one side's `positional_more` terms (`white` or black).
pub fn more_counts(pos: &ChessPos, white: bool) -> [i32; N_MORE] {
    side_counts(pos, white, COUNT_BASE[3])
}

/// The counts of one side's `positional_more2` terms (`white` or black).
pub fn more2_counts(pos: &ChessPos, white: bool) -> [i32; N_MORE2] {
    side_counts(pos, white, COUNT_BASE[4])
}

/// The counts of one side's `king_shelter` terms (`white`'s king's or black's).
pub fn shelter_counts(pos: &ChessPos, white: bool) -> [i32; N_SHELTER] {
    side_counts(pos, white, COUNT_BASE[5])
}

/// The counts of one side's `king_attack_pairs` terms (`white` attacking black's king, or
/// black attacking white's).
pub fn king_pair_counts(pos: &ChessPos, white: bool) -> [i32; N_KING_PAIRS] {
    side_counts(pos, white, COUNT_BASE[6])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::rng::SplitMix64;

    /// The fixed-size fast path of the evaluation sums exactly what the general path sums, on
    /// random weights and the positions of random games; and it is taken only when every
    /// counted table is there and whole.
    #[test]
    fn whole_tables_sum_as_the_general_path() {
        let params = random_params(7, 3000);
        let w = Weights::from_params::<ChessPos, ChessFeatures>(&params, "{}").expect("weights");
        let tables = COUNTED.map(|(id, _)| w.i32(id));
        let full = FullTables::of(&tables).expect("random weights fill every table");
        let mut rng = SplitMix64::new(11);
        let mut nonzero = 0;
        for _game in 0..40 {
            let mut b = Board::default();
            for _ply in 0..120 {
                let fast = ChessFeatures::positional_full(&full, &b);
                assert_eq!(fast, ChessFeatures::positional_any(&tables, &b), "{b}");
                nonzero += usize::from(fast != [0, 0]);
                let mut moves = Vec::new();
                b.generate_moves(|ms| {
                    moves.extend(ms);
                    false
                });
                if moves.is_empty() {
                    break;
                }
                b.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
        assert!(nonzero > 1000, "{nonzero}");
        for absent in 0..tables.len() {
            let mut partial = tables;
            partial[absent] = &[];
            assert!(FullTables::of(&partial).is_none());
        }
        let mut short = tables;
        short[0] = &tables[0][..tables[0].len() - 1];
        assert!(FullTables::of(&short).is_none());
    }
}
