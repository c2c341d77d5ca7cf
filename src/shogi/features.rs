//! Shogi feature set `bonanza` (the paper's e_ABCD, Table 2): material (13 piece values), KP
//! (own king square × condition), KKP (both king squares × own-piece condition) and KPP (own king
//! square × unordered pair of conditions).
//!
//! * Black/white anti-symmetry is by construction: every table is indexed from the point of view
//!   of the owner of the king (white's terms use the board turned around, colours swapped) and
//!   white's terms are subtracted.
//! * Left-right mirror symmetry is by tying: an independent parameter stands for a condition and
//!   its mirror image; the weight file holds expanded tables (every king square, KPP as a full
//!   symmetric square matrix so that a row is contiguous for incremental updates).
//! * The evaluation from black's view is `trunc((32·M + P) / 32)` where `M` is the material sum
//!   and `P` the KP+KKP+KPP sum in 32-bit integers (Bonanza's FV_SCALE = 32); the side to move's
//!   score is that or its negation, clamped to ±`EVAL_LIMIT` (16 bits).
//!
//! Independent parameters: material 13, KP 60,876, KKP 2,425,950, KPP 44,222,454 (pairs of distinct
//! conditions; a condition with itself is KP), total 46,709,293 — the paper's figures exactly.

use super::bonapiece::{
    bsq, flip_sq, mirror_sq, Cond, FE_END, KKP_END, MAX_LIST, MIRROR_BP, MIRROR_KKP,
};
use super::ShogiPos;
use crate::eval::format::{Elem, TableSpec};
use crate::eval::{scale_sum, FeatureSet, OwnedTable, Weights, EVAL_LIMIT};
use crate::game::Game;
use haitaka::{Board, Color, Move, Piece};
use std::sync::OnceLock;

/// The `bonanza` feature set.
#[derive(Debug, Clone, Copy, Default)]
pub struct Bonanza;

pub const FV_SCALE: i32 = 32;
const FE: usize = FE_END;

pub const T_MATERIAL: usize = 0;
pub const T_KP: usize = 1;
pub const T_KKP: usize = 2;
pub const T_KPP: usize = 3;

static TABLES: [TableSpec; 4] = [
    TableSpec {
        name: "material",
        elem: Elem::I32,
        dims: &[13],
        required: true,
    },
    TableSpec {
        name: "kp",
        elem: Elem::I16,
        dims: &[81, FE as u32],
        required: false,
    },
    TableSpec {
        name: "kkp",
        elem: Elem::I16,
        dims: &[81, 81, KKP_END as u32],
        required: false,
    },
    TableSpec {
        name: "kpp",
        elem: Elem::I16,
        dims: &[81, FE as u32, FE as u32],
        required: false,
    },
];

/// Bonanza 6's published piece values in material-table order (`material_index`).
pub const BONANZA_MATERIAL: [i32; 13] = [
    87, 232, 257, 369, 569, 642, 444, 534, 489, 510, 495, 827, 945,
];

/// Material-table index of a non-king piece: `haitaka::Piece` order without the king
/// (Pawn, Lance, Knight, Silver, Bishop, Rook, Gold, Tokin, +L, +N, +S, Horse, Dragon).
#[inline]
pub fn material_index(p: Piece) -> usize {
    let i = p as usize;
    if i > Piece::King as usize {
        i - 1
    } else {
        i
    }
}

pub const MATERIAL_NAMES: [&str; 13] = [
    "pawn",
    "lance",
    "knight",
    "silver",
    "bishop",
    "rook",
    "gold",
    "tokin",
    "pro_lance",
    "pro_knight",
    "pro_silver",
    "horse",
    "dragon",
];

// ---------------------------------------------------------------------------------------------
// Independent parameters and the mirror tie.
// Canonical king squares are those left of the centre file (column < 4 in Bonanza squares, 36
// squares); a king right of it is mirrored with everything else; a king on the centre file keeps
// its square and the rest is reduced to mirror orbits.

pub const N_MATERIAL: usize = 13;
const KP_CENTRE_ORBITS: usize = 860;
const KKP_CENTRE_ORBITS: usize = 430;
const PAIRS: usize = FE * (FE - 1) / 2;
const KPP_CENTRE_ORBITS: usize = 559_406;
pub const N_KP: usize = 36 * FE + 9 * KP_CENTRE_ORBITS;
pub const N_KKP: usize = 36 * 81 * KKP_END + 9 * 36 * KKP_END + 81 * KKP_CENTRE_ORBITS;
pub const N_KPP: usize = 36 * PAIRS + 9 * KPP_CENTRE_ORBITS;
pub const OFF_KP: usize = N_MATERIAL;
pub const OFF_KKP: usize = OFF_KP + N_KP;
pub const OFF_KPP: usize = OFF_KKP + N_KKP;
pub const N_PARAMS: usize = OFF_KPP + N_KPP;

struct Orbits {
    /// Orbit id of each condition under the mirror (KP, centre-file king).
    bp: Vec<u32>,
    kkp: Vec<u32>,
    /// Orbit id of each unordered pair `tri(a, b)` (KPP, centre-file king).
    pair: Vec<u32>,
}

/// Index of the unordered pair {a, b}, a != b.
#[inline]
fn tri(a: usize, b: usize) -> usize {
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    hi * (hi - 1) / 2 + lo
}

// Index loops: the same index addresses the mirror table and the pair numbering.
#[allow(clippy::needless_range_loop)]
fn orbits() -> &'static Orbits {
    static O: OnceLock<Orbits> = OnceLock::new();
    O.get_or_init(|| {
        // Ids are handed out in index order; the mirror image, if smaller, already has one.
        let number = |n: usize, mirror: &dyn Fn(usize) -> usize| {
            let mut ids = vec![0u32; n];
            let mut next = 0u32;
            for i in 0..n {
                let m = mirror(i);
                if m < i {
                    ids[i] = ids[m];
                } else {
                    ids[i] = next;
                    next += 1;
                }
            }
            (ids, next as usize)
        };
        let (bp, nb) = number(FE, &|i| MIRROR_BP[i] as usize);
        let (kkp, nk) = number(KKP_END, &|i| MIRROR_KKP[i] as usize);
        let mut pair = vec![0u32; PAIRS];
        let mut next = 0u32;
        for a in 1..FE {
            for b in 0..a {
                let t = tri(a, b);
                let m = tri(MIRROR_BP[a] as usize, MIRROR_BP[b] as usize);
                if m < t {
                    pair[t] = pair[m];
                } else {
                    pair[t] = next;
                    next += 1;
                }
            }
        }
        debug_assert_eq!(nb, KP_CENTRE_ORBITS);
        debug_assert_eq!(nk, KKP_CENTRE_ORBITS);
        debug_assert_eq!(next as usize, KPP_CENTRE_ORBITS);
        Orbits { bp, kkp, pair }
    })
}

#[inline]
fn col(k: usize) -> usize {
    k % 9
}

/// Canonical index of a king square with column < 4 (0..36).
#[inline]
fn kc(k: usize) -> usize {
    (k / 9) * 4 + col(k)
}

/// Independent KP parameter (offset inside the KP block) of own king `k` and condition `j`.
pub fn kp_param(k: usize, j: usize) -> usize {
    let (k, j) = if col(k) > 4 {
        (mirror_sq(k as u8) as usize, MIRROR_BP[j] as usize)
    } else {
        (k, j)
    };
    if col(k) < 4 {
        kc(k) * FE + j
    } else {
        36 * FE + (k / 9) * KP_CENTRE_ORBITS + orbits().bp[j] as usize
    }
}

/// Independent KKP parameter of own king `k`, opponent king `k2` (both seen by the owner) and
/// own-piece condition `l`.
pub fn kkp_param(k: usize, k2: usize, l: usize) -> usize {
    let m = |s: usize| mirror_sq(s as u8) as usize;
    let (k, k2, l) = if col(k) > 4 || (col(k) == 4 && col(k2) > 4) {
        (m(k), m(k2), MIRROR_KKP[l] as usize)
    } else {
        (k, k2, l)
    };
    if col(k) < 4 {
        (kc(k) * 81 + k2) * KKP_END + l
    } else if col(k2) < 4 {
        36 * 81 * KKP_END + ((k / 9) * 36 + kc(k2)) * KKP_END + l
    } else {
        36 * 81 * KKP_END
            + 9 * 36 * KKP_END
            + ((k / 9) * 9 + k2 / 9) * KKP_CENTRE_ORBITS
            + orbits().kkp[l] as usize
    }
}

/// Independent KPP parameter of own king `k` and distinct conditions `a`, `b`.
pub fn kpp_param(k: usize, a: usize, b: usize) -> usize {
    debug_assert_ne!(a, b);
    let (k, a, b) = if col(k) > 4 {
        (
            mirror_sq(k as u8) as usize,
            MIRROR_BP[a] as usize,
            MIRROR_BP[b] as usize,
        )
    } else {
        (k, a, b)
    };
    if col(k) < 4 {
        kc(k) * PAIRS + tri(a, b)
    } else {
        36 * PAIRS + (k / 9) * KPP_CENTRE_ORBITS + orbits().pair[tri(a, b)] as usize
    }
}

// ---------------------------------------------------------------------------------------------
// Piece lists and the accumulator.

/// The incremental state: the piece list in both views, where each board piece sits in it, and the
/// running sums. Hand slots 0..14 are fixed (`2·hand piece + owner is white`); board pieces follow.
#[derive(Clone, Debug)]
pub struct BonanzaAcc {
    /// `list[0]`: conditions seen by black; `list[1]`: seen by white.
    list: [[u16; MAX_LIST]; 2],
    sq_of_slot: [u8; MAX_LIST],
    slot_of_sq: [u8; 81],
    n: u8,
    /// KP + KPP sum of each king, from its owner's view (black's, white's).
    kpp: [i32; 2],
    /// KKP sum from black's view.
    kkp: i32,
    /// Material from black's view, in piece values.
    material: i32,
    /// Bonanza squares of the black and the white king.
    kings: [u8; 2],
}

impl BonanzaAcc {
    /// The running sums `(material, [KP+KPP of black's king, of white's king], KKP)`: tests compare
    /// them exactly between incremental and from-scratch accumulators.
    pub fn sums(&self) -> (i32, [i32; 2], i32) {
        (self.material, self.kpp, self.kkp)
    }
}

impl Default for BonanzaAcc {
    fn default() -> Self {
        BonanzaAcc {
            list: [[0; MAX_LIST]; 2],
            sq_of_slot: [NONE; MAX_LIST],
            slot_of_sq: [NONE; 81],
            n: 0,
            kpp: [0; 2],
            kkp: 0,
            material: 0,
            kings: [0; 2],
        }
    }
}

const NONE: u8 = u8::MAX;

#[inline]
fn is_black(c: Color) -> bool {
    c == Color::Black
}

#[inline]
fn hand_slot(black: bool, hp: usize) -> usize {
    2 * hp + usize::from(!black)
}

/// All conditions of a position: 14 hand conditions then the board pieces, and the king squares.
fn conditions(b: &Board, out: &mut Vec<Cond>) -> [u8; 2] {
    out.clear();
    for hp in 0..7usize {
        for color in [Color::Black, Color::White] {
            out.push(Cond::Hand {
                black: is_black(color),
                hp: hp as u8,
                n: b.hand(color)[hp],
            });
        }
    }
    for color in [Color::Black, Color::White] {
        for piece in Piece::ALL {
            if piece == Piece::King {
                continue;
            }
            for sq in b.colored_pieces(color, piece) {
                if let Some(c) = Cond::board(color, piece, sq) {
                    out.push(c);
                }
            }
        }
    }
    [bsq(b.king(Color::Black)), bsq(b.king(Color::White))]
}

fn material_value(w: &[i32], c: Cond) -> i32 {
    // Only called with the material table present (it is required).
    match c {
        Cond::Hand { hp, n, .. } => {
            let p = Piece::try_index(hp as usize).unwrap_or(Piece::Pawn);
            w[material_index(p)].wrapping_mul(n as i32)
        }
        Cond::Board { .. } => 0,
    }
}

/// The KKP term of a condition, from black's view.
#[inline]
fn kkp_term(kkp: &[i16], kings: [u8; 2], c: Cond) -> i32 {
    if kkp.is_empty() {
        return 0;
    }
    let (l, black) = c.kkp();
    let (k, k2, sign) = if black {
        (kings[0], kings[1], 1)
    } else {
        (flip_sq(kings[1]), flip_sq(kings[0]), -1)
    };
    sign * kkp[(k as usize * 81 + k2 as usize) * KKP_END + l as usize] as i32
}

/// KP + KPP sum of one view from scratch.
fn kpp_sum(kp: &[i16], kpp: &[i16], k: usize, list: &[u16]) -> i32 {
    let mut s = 0i32;
    if !kp.is_empty() {
        let row = &kp[k * FE..(k + 1) * FE];
        for &a in list {
            s += row[a as usize] as i32;
        }
    }
    if !kpp.is_empty() {
        let base = k * FE * FE;
        for (i, &a) in list.iter().enumerate() {
            let row = &kpp[base + a as usize * FE..base + (a as usize + 1) * FE];
            for &b in &list[..i] {
                s += row[b as usize] as i32;
            }
        }
    }
    s
}

/// King square of a view, seen by the view's owner.
#[inline]
fn view_king(kings: [u8; 2], v: usize) -> usize {
    if v == 0 {
        kings[0] as usize
    } else {
        flip_sq(kings[1]) as usize
    }
}

impl Bonanza {
    fn refresh_acc(w: &Weights, b: &Board, acc: &mut BonanzaAcc) {
        let mut conds = Vec::with_capacity(MAX_LIST);
        let kings = conditions(b, &mut conds);
        let mat = w.i32(T_MATERIAL);
        let kkp = w.i16(T_KKP);
        acc.kings = kings;
        acc.slot_of_sq = [NONE; 81];
        acc.kkp = 0;
        acc.material = 0;
        for (i, &c) in conds.iter().enumerate() {
            acc.list[0][i] = c.bp(true);
            acc.list[1][i] = c.bp(false);
            acc.sq_of_slot[i] = NONE;
            if let Cond::Board { sq, .. } = c {
                acc.sq_of_slot[i] = sq;
                acc.slot_of_sq[sq as usize] = i as u8;
            }
            acc.kkp += kkp_term(kkp, kings, c);
        }
        acc.n = conds.len() as u8;
        // Material straight from the board (promoted pieces have their own values).
        for color in [Color::Black, Color::White] {
            let sign = if is_black(color) { 1 } else { -1 };
            for piece in Piece::ALL {
                if piece == Piece::King {
                    continue;
                }
                let n = b.colored_pieces(color, piece).len() as i32;
                acc.material = acc
                    .material
                    .wrapping_add(sign * n.wrapping_mul(mat[material_index(piece)]));
            }
            for hp in 0..7u8 {
                let c = Cond::Hand {
                    black: is_black(color),
                    hp,
                    n: b.hand(color)[hp as usize],
                };
                acc.material = acc.material.wrapping_add(sign * material_value(mat, c));
            }
        }
        for v in 0..2 {
            let n = acc.n as usize;
            acc.kpp[v] = kpp_sum(
                w.i16(T_KP),
                w.i16(T_KPP),
                view_king(kings, v),
                &acc.list[v][..n],
            );
        }
    }

    /// KP + KPP change of view `v` when the conditions in `changes` (slot, old, new) change and the
    /// other slots stay, computed on the list before it is modified.
    fn view_delta(
        w: &Weights,
        acc: &BonanzaAcc,
        v: usize,
        changes: &[(usize, Option<Cond>, Option<Cond>)],
    ) -> i32 {
        let k = view_king(acc.kings, v);
        let view_black = v == 0;
        let kp = w.i16(T_KP);
        let kpp = w.i16(T_KPP);
        let mut d = 0i32;
        let bp = |c: Option<Cond>| c.map(|c| c.bp(view_black) as usize);
        if !kp.is_empty() {
            let row = &kp[k * FE..(k + 1) * FE];
            for &(_, old, new) in changes {
                if let Some(o) = bp(old) {
                    d -= row[o] as i32;
                }
                if let Some(n) = bp(new) {
                    d += row[n] as i32;
                }
            }
        }
        if kpp.is_empty() {
            return d;
        }
        let base = k * FE * FE;
        let row = |x: usize| &kpp[base + x * FE..base + (x + 1) * FE];
        let mut changed = 0u64;
        for &(s, _, _) in changes {
            changed |= 1u64 << s;
        }
        let list = &acc.list[v][..acc.n as usize];
        for &(_, old, new) in changes {
            if let Some(o) = bp(old) {
                let r = row(o);
                for (u, &lu) in list.iter().enumerate() {
                    if changed & (1u64 << u) == 0 {
                        d -= r[lu as usize] as i32;
                    }
                }
            }
            if let Some(n) = bp(new) {
                let r = row(n);
                for (u, &lu) in list.iter().enumerate() {
                    if changed & (1u64 << u) == 0 {
                        d += r[lu as usize] as i32;
                    }
                }
            }
        }
        for (i, &(_, oi, ni)) in changes.iter().enumerate() {
            for &(_, oj, nj) in &changes[..i] {
                if let (Some(a), Some(b)) = (bp(oi), bp(oj)) {
                    d -= row(a)[b] as i32;
                }
                if let (Some(a), Some(b)) = (bp(ni), bp(nj)) {
                    d += row(a)[b] as i32;
                }
            }
        }
        d
    }

    /// Writes the changed conditions into the list (new values, appended and removed slots).
    fn apply_changes(acc: &mut BonanzaAcc, changes: &[(usize, Option<Cond>, Option<Cond>)]) {
        let mut removed = None;
        for &(s, old, new) in changes {
            match new {
                Some(c) => {
                    acc.list[0][s] = c.bp(true);
                    acc.list[1][s] = c.bp(false);
                    if let Some(Cond::Board { sq, .. }) = old {
                        if acc.slot_of_sq[sq as usize] == s as u8 {
                            acc.slot_of_sq[sq as usize] = NONE;
                        }
                    }
                    if let Cond::Board { sq, .. } = c {
                        acc.sq_of_slot[s] = sq;
                        acc.slot_of_sq[sq as usize] = s as u8;
                    }
                    if s == acc.n as usize {
                        acc.n += 1;
                    }
                }
                None => removed = Some(s),
            }
        }
        if let Some(t) = removed {
            // Swap-remove: the last slot moves into the hole. The captured piece's square already
            // belongs to the capturing piece, so it is not cleared here.
            let last = acc.n as usize - 1;
            if t != last {
                acc.list[0][t] = acc.list[0][last];
                acc.list[1][t] = acc.list[1][last];
                let sq = acc.sq_of_slot[last];
                acc.sq_of_slot[t] = sq;
                if sq != NONE {
                    acc.slot_of_sq[sq as usize] = t as u8;
                }
            }
            acc.sq_of_slot[last] = NONE;
            acc.n -= 1;
        }
    }

    fn update_acc(w: &Weights, parent: &Board, mv: Move, child: &Board, acc: &mut BonanzaAcc) {
        let c = parent.side_to_move();
        let black = is_black(c);
        let sign = if black { 1 } else { -1 };
        let mat = w.i32(T_MATERIAL);
        let kkp = w.i16(T_KKP);
        let mut changes: [(usize, Option<Cond>, Option<Cond>); 3] = [(0, None, None); 3];
        let mut nc = 0;
        let mut king_move = false;
        match mv {
            Move::Drop { piece, to } => {
                let hp = piece as usize;
                let n = parent.hand(c)[hp];
                let hs = hand_slot(black, hp);
                let hp8 = hp as u8;
                changes[0] = (
                    hs,
                    Some(Cond::Hand { black, hp: hp8, n }),
                    Some(Cond::Hand {
                        black,
                        hp: hp8,
                        n: n.saturating_sub(1),
                    }),
                );
                changes[1] = (acc.n as usize, None, Cond::board(c, piece, to));
                nc = 2;
            }
            Move::BoardMove {
                from,
                to,
                promotion,
            } => {
                let Some(p) = parent.piece_on(from) else {
                    return Self::refresh_acc(w, child, acc);
                };
                if let Some(q) = parent.piece_on(to) {
                    let t = acc.slot_of_sq[bsq(to) as usize] as usize;
                    changes[nc] = (t, Cond::board(!c, q, to), None);
                    let hq = q.unpromote();
                    let hp = hq as usize;
                    let n = parent.hand(c)[hp];
                    let hp8 = hp as u8;
                    changes[nc + 1] = (
                        hand_slot(black, hp),
                        Some(Cond::Hand { black, hp: hp8, n }),
                        Some(Cond::Hand {
                            black,
                            hp: hp8,
                            n: n + 1,
                        }),
                    );
                    nc += 2;
                    let gain = mat[material_index(q)].wrapping_add(mat[material_index(hq)]);
                    acc.material = acc.material.wrapping_add(sign * gain);
                }
                if p == Piece::King {
                    king_move = true;
                } else {
                    let np = if promotion { p.promote() } else { p };
                    let s = acc.slot_of_sq[bsq(from) as usize] as usize;
                    changes[nc] = (s, Cond::board(c, p, from), Cond::board(c, np, to));
                    nc += 1;
                    if promotion {
                        let gain = mat[material_index(np)].wrapping_sub(mat[material_index(p)]);
                        acc.material = acc.material.wrapping_add(sign * gain);
                    }
                }
            }
        }
        let changes = &changes[..nc];
        if changes.iter().any(|&(s, _, _)| s >= MAX_LIST) {
            // A slot map out of step with the board cannot happen for legal moves; recover anyway.
            return Self::refresh_acc(w, child, acc);
        }
        if king_move {
            let mover = if black { 0 } else { 1 };
            let other = 1 - mover;
            acc.kpp[other] += Self::view_delta(w, acc, other, changes);
            Self::apply_changes(acc, changes);
            acc.kings = [bsq(child.king(Color::Black)), bsq(child.king(Color::White))];
            let n = acc.n as usize;
            acc.kpp[mover] = kpp_sum(
                w.i16(T_KP),
                w.i16(T_KPP),
                view_king(acc.kings, mover),
                &acc.list[mover][..n],
            );
            // KKP depends on both kings for every piece: recompute.
            acc.kkp = 0;
            if !kkp.is_empty() {
                let mut conds = Vec::with_capacity(MAX_LIST);
                let kings = conditions(child, &mut conds);
                acc.kkp = conds.iter().map(|&cd| kkp_term(kkp, kings, cd)).sum();
            }
            return;
        }
        for v in 0..2 {
            acc.kpp[v] += Self::view_delta(w, acc, v, changes);
        }
        for &(_, old, new) in changes {
            if let Some(o) = old {
                acc.kkp -= kkp_term(kkp, acc.kings, o);
            }
            if let Some(n) = new {
                acc.kkp += kkp_term(kkp, acc.kings, n);
            }
        }
        Self::apply_changes(acc, changes);
    }

    /// The raw sums of a position from black's view: (material, KP, KKP, KPP), from scratch.
    pub fn raw_terms(w: &Weights, b: &Board) -> [i64; 4] {
        let mut conds = Vec::with_capacity(MAX_LIST);
        let kings = conditions(b, &mut conds);
        let mut acc = BonanzaAcc::default();
        Self::refresh_acc(w, b, &mut acc);
        let (kp, kpp) = (w.i16(T_KP), w.i16(T_KPP));
        let mut t = [acc.material as i64, 0, acc.kkp as i64, 0];
        for v in 0..2 {
            let sign = if v == 0 { 1 } else { -1 };
            let k = view_king(kings, v);
            let list: Vec<u16> = conds.iter().map(|c| c.bp(v == 0)).collect();
            t[1] += sign * kpp_sum(kp, &[], k, &list) as i64;
            t[3] += sign * kpp_sum(&[], kpp, k, &list) as i64;
        }
        t
    }
}

impl FeatureSet<ShogiPos> for Bonanza {
    const NAME: &'static str = "bonanza";
    const VERSION: u32 = 1;
    const SCALE: i32 = FV_SCALE;
    type Acc = BonanzaAcc;

    fn tables() -> &'static [TableSpec] {
        &TABLES
    }

    fn refresh(w: &Weights, pos: &ShogiPos, acc: &mut BonanzaAcc) {
        Self::refresh_acc(w, pos.board(), acc)
    }

    #[inline]
    fn update(
        w: &Weights,
        parent: &ShogiPos,
        mv: Move,
        child: &ShogiPos,
        parent_acc: &BonanzaAcc,
        acc: &mut BonanzaAcc,
    ) {
        acc.clone_from(parent_acc);
        Self::update_acc(w, parent.board(), mv, child.board(), acc)
    }

    #[inline]
    fn evaluate(_w: &Weights, pos: &ShogiPos, acc: &BonanzaAcc) -> i32 {
        let sum = acc.material as i64 * FV_SCALE as i64
            + (acc.kpp[0] as i64 - acc.kpp[1] as i64)
            + acc.kkp as i64;
        let sum = sum.clamp(-(i32::MAX as i64), i32::MAX as i64) as i32;
        let e = scale_sum(sum, FV_SCALE);
        if pos.side_to_move() == crate::game::Side::First {
            e
        } else {
            -e
        }
    }

    fn breakdown(w: &Weights, pos: &ShogiPos) -> Vec<(String, i32)> {
        let t = Self::raw_terms(w, pos.board());
        let s = if pos.side_to_move() == crate::game::Side::First {
            1
        } else {
            -1
        };
        let mut acc = BonanzaAcc::default();
        Self::refresh(w, pos, &mut acc);
        let f = |x: i64| (s * x / FV_SCALE as i64).clamp(-(EVAL_LIMIT as i64), EVAL_LIMIT as i64);
        vec![
            ("material".into(), (s * t[0]) as i32),
            ("kp".into(), f(t[1]) as i32),
            ("kkp".into(), f(t[2]) as i32),
            ("kpp".into(), f(t[3]) as i32),
            ("total".into(), Self::evaluate(w, pos, &acc)),
        ]
    }

    fn num_params() -> usize {
        N_PARAMS
    }

    fn features(pos: &ShogiPos, out: &mut Vec<(u32, i32)>) {
        out.clear();
        let b = pos.board();
        let stm = if pos.side_to_move() == crate::game::Side::First {
            1
        } else {
            -1
        };
        let mut conds = Vec::with_capacity(MAX_LIST);
        let kings = conditions(b, &mut conds);
        for color in [Color::Black, Color::White] {
            let sign = stm * if is_black(color) { 1 } else { -1 };
            for piece in Piece::ALL {
                if piece == Piece::King {
                    continue;
                }
                let n = b.colored_pieces(color, piece).len() as i32;
                if n > 0 {
                    out.push((material_index(piece) as u32, sign * n * FV_SCALE));
                }
            }
            for hp in 0..7 {
                let n = b.hand(color)[hp] as i32;
                if n > 0 {
                    out.push((hp as u32, sign * n * FV_SCALE));
                }
            }
        }
        for v in 0..2 {
            let sign = stm * if v == 0 { 1 } else { -1 };
            let k = view_king(kings, v);
            let list: Vec<usize> = conds.iter().map(|c| c.bp(v == 0) as usize).collect();
            for (i, &a) in list.iter().enumerate() {
                out.push(((OFF_KP + kp_param(k, a)) as u32, sign));
                for &bb in &list[..i] {
                    out.push(((OFF_KPP + kpp_param(k, a, bb)) as u32, sign));
                }
            }
        }
        for &cd in &conds {
            let (l, black) = cd.kkp();
            let (k, k2, sign) = if black {
                (kings[0], kings[1], stm)
            } else {
                (flip_sq(kings[1]), flip_sq(kings[0]), -stm)
            };
            let idx = OFF_KKP + kkp_param(k as usize, k2 as usize, l as usize);
            out.push((idx as u32, sign));
        }
        out.sort_unstable_by_key(|&(i, _)| i);
        let mut merged: Vec<(u32, i32)> = Vec::with_capacity(out.len());
        for &(i, c) in out.iter() {
            match merged.last_mut() {
                Some(last) if last.0 == i => last.1 += c,
                _ => merged.push((i, c)),
            }
        }
        merged.retain(|&(_, c)| c != 0);
        *out = merged;
    }

    fn expand(params: &[i32]) -> Result<Vec<OwnedTable>, String> {
        if params.len() != N_PARAMS {
            return Err(format!(
                "bonanza has {N_PARAMS} parameters, {} given",
                params.len()
            ));
        }
        let sat = |x: i32| x.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        let material = params[..N_MATERIAL].to_vec();
        let p_kp = &params[OFF_KP..OFF_KKP];
        let p_kkp = &params[OFF_KKP..OFF_KPP];
        let p_kpp = &params[OFF_KPP..];
        let mut kp = vec![0i16; 81 * FE];
        for k in 0..81 {
            for j in 0..FE {
                kp[k * FE + j] = sat(p_kp[kp_param(k, j)]);
            }
        }
        let mut kkp = vec![0i16; 81 * 81 * KKP_END];
        for k in 0..81 {
            for k2 in 0..81 {
                for l in 0..KKP_END {
                    kkp[(k * 81 + k2) * KKP_END + l] = sat(p_kkp[kkp_param(k, k2, l)]);
                }
            }
        }
        let mut kpp = vec![0i16; 81 * FE * FE];
        // An all-zero table (the learner's early stages) needs no expansion work.
        let kpp_zero = p_kpp.iter().all(|&v| v == 0);
        for k in (0..81).filter(|_| !kpp_zero) {
            let block = &mut kpp[k * FE * FE..(k + 1) * FE * FE];
            for a in 1..FE {
                for b in 0..a {
                    let v = sat(p_kpp[kpp_param(k, a, b)]);
                    block[a * FE + b] = v;
                    block[b * FE + a] = v;
                }
            }
        }
        Ok(vec![
            OwnedTable::I32(material),
            OwnedTable::I16(kp),
            OwnedTable::I16(kkp),
            OwnedTable::I16(kpp),
        ])
    }

    fn fold(w: &Weights) -> Result<Vec<i32>, String> {
        let mut params = vec![0i32; N_PARAMS];
        // Required and checked to be 13 long when the file was loaded.
        let material = w.i32(T_MATERIAL);
        if material.len() != N_MATERIAL {
            return Err(format!("table 'material' has {} entries", material.len()));
        }
        params[..N_MATERIAL].copy_from_slice(material);
        let (kp, rest) = params[OFF_KP..].split_at_mut(N_KP);
        let (kkp, kpp) = rest.split_at_mut(N_KKP);
        fold_tied(
            w.i16(T_KP),
            kp,
            "kp",
            |e| Some(kp_param(e / FE, e % FE)),
            |e| format!("kp[{}][{}]", e / FE, e % FE),
        )?;
        fold_tied(
            w.i16(T_KKP),
            kkp,
            "kkp",
            |e| Some(kkp_param(e / (81 * KKP_END), e / KKP_END % 81, e % KKP_END)),
            |e| {
                format!(
                    "kkp[{}][{}][{}]",
                    e / (81 * KKP_END),
                    e / KKP_END % 81,
                    e % KKP_END
                )
            },
        )?;
        fold_tied(
            w.i16(T_KPP),
            kpp,
            "kpp",
            |e| {
                let (k, a, b) = (e / (FE * FE), e / FE % FE, e % FE);
                // The diagonal (a condition paired with itself) is no parameter: `expand` writes
                // zero there and the evaluation never reads it (a position's conditions are
                // distinct), so whatever a file holds there changes nothing and is skipped.
                (a != b).then(|| kpp_param(k, a, b))
            },
            |e| format!("kpp[{}][{}][{}]", e / (FE * FE), e / FE % FE, e % FE),
        )?;
        Ok(params)
    }

    fn default_tables() -> Vec<Option<OwnedTable>> {
        vec![
            Some(OwnedTable::I32(BONANZA_MATERIAL.to_vec())),
            None,
            None,
            None,
        ]
    }

    /// e_AB (material + KP) learned by MMTO from these hand-set piece values on the GPS book
    /// positions and self-play games (eval_weights/README.md), made by scripts/train_shipped.sh.
    fn embedded_file() -> Option<(&'static str, &'static [u8])> {
        Some((
            "shogi-eAB.kwt",
            include_bytes!("../../eval_weights/shogi-eAB.kwt"),
        ))
    }

    fn param_table(idx: u32) -> (&'static str, u32) {
        let i = idx as usize;
        if i < OFF_KP {
            ("material", idx)
        } else if i < OFF_KKP {
            ("kp", (i - OFF_KP) as u32)
        } else if i < OFF_KPP {
            ("kkp", (i - OFF_KKP) as u32)
        } else {
            ("kpp", (i - OFF_KPP) as u32)
        }
    }
}

/// Folds one expanded table (empty = absent, all zeros) into its block of independent parameters:
/// the first entry of each parameter sets it, and every other entry tied to it (its mirror image,
/// KPP's transposed pair) must hold the same value. A file that breaks the tie is refused rather
/// than averaged: it was not written from parameters (`expand` cannot produce it), so it evaluates
/// mirror positions differently and no parameter vector reproduces it; starting the learner from a
/// silently changed evaluation would hide that. The error names the first such entry (in table
/// order) and the earlier entry it disagrees with.
fn fold_tied(
    table: &[i16],
    block: &mut [i32],
    name: &str,
    param_of: impl Fn(usize) -> Option<usize>,
    describe: impl Fn(usize) -> String,
) -> Result<(), String> {
    let mut seen = vec![0u64; block.len().div_ceil(64)];
    for (e, &v) in table.iter().enumerate() {
        let Some(p) = param_of(e) else {
            continue;
        };
        let v = v as i32;
        if seen[p / 64] & (1 << (p % 64)) == 0 {
            seen[p / 64] |= 1 << (p % 64);
            block[p] = v;
        } else if block[p] != v {
            let first = (0..e).find(|&x| param_of(x) == Some(p)).unwrap_or(e);
            return Err(format!(
                "table '{name}' does not fold into the learner's parameters: {} (index {e}) is {v} \
                 but {} (index {first}), tied to the same parameter (mirror image or transposed \
                 pair), is {}",
                describe(e),
                describe(first),
                block[p]
            ));
        }
    }
    Ok(())
}

/// Random independent parameters (benchmarks and tests): Bonanza's piece values plus noise in
/// ±8, every positional parameter uniform in ±`spread`. Deterministic in `seed`.
pub fn random_params(seed: u64, spread: i32) -> Vec<i32> {
    let mut rng = crate::eval::rng::SplitMix64::new(seed);
    let mut p = Vec::with_capacity(N_PARAMS);
    for v in BONANZA_MATERIAL {
        p.push(v + rng.symmetric(8));
    }
    for _ in N_MATERIAL..N_PARAMS {
        p.push(rng.symmetric(spread));
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_counts_match_the_paper() {
        assert_eq!(N_KP, 60_876);
        assert_eq!(N_KKP, 2_425_950);
        assert_eq!(N_KPP, 44_222_454);
        assert_eq!(N_PARAMS, 46_709_293);
        let o = orbits();
        assert_eq!(
            *o.bp.iter().max().expect("nonempty") as usize + 1,
            KP_CENTRE_ORBITS
        );
        assert_eq!(
            *o.kkp.iter().max().expect("nonempty") as usize + 1,
            KKP_CENTRE_ORBITS
        );
        assert_eq!(
            *o.pair.iter().max().expect("nonempty") as usize + 1,
            KPP_CENTRE_ORBITS
        );
    }

    #[test]
    #[allow(clippy::needless_range_loop)]
    fn param_indices_are_dense_and_mirror_tied() {
        let mut seen = vec![false; N_KP];
        for k in 0..81 {
            for j in 0..FE {
                let p = kp_param(k, j);
                assert_eq!(
                    p,
                    kp_param(mirror_sq(k as u8) as usize, MIRROR_BP[j] as usize)
                );
                seen[p] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
        let mut seen = vec![false; N_KKP];
        for k in 0..81 {
            for k2 in 0..81 {
                for l in 0..KKP_END {
                    let p = kkp_param(k, k2, l);
                    let m = |s: usize| mirror_sq(s as u8) as usize;
                    assert_eq!(p, kkp_param(m(k), m(k2), MIRROR_KKP[l] as usize));
                    seen[p] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
        // KPP: check the centre-file kings and a sample of others (all of it is 88M pairs).
        for k in [4usize, 40, 76, 0, 8, 30] {
            for a in (1..FE).step_by(7) {
                for b in (0..a).step_by(5) {
                    let p = kpp_param(k, a, b);
                    assert!(p < N_KPP);
                    assert_eq!(p, kpp_param(k, b, a));
                    let m = kpp_param(
                        mirror_sq(k as u8) as usize,
                        MIRROR_BP[a] as usize,
                        MIRROR_BP[b] as usize,
                    );
                    assert_eq!(p, m);
                }
            }
        }
    }
}
