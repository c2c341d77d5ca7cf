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
//!
//! Here: the tables, the `FeatureSet` impl and feature extraction (`features`, `expand`, `fold`);
//! `index` holds the parameter indexing, `incremental` the accumulator and its updates.

use super::bonapiece::{
    bsq, flip_sq, mirror_sq, Cond, FE_END, KKP_END, MAX_LIST, MIRROR_BP, MIRROR_KKP,
};
use super::ShogiPos;
use crate::eval::format::{Elem, TableSpec};
use crate::eval::{scale_sum, FeatureSet, OwnedTable, Weights, EVAL_LIMIT};
use crate::game::Game;
use haitaka::{Board, Color, Move, Piece};
use std::sync::OnceLock;

mod incremental;
mod index;

pub use incremental::BonanzaAcc;
use incremental::*;
pub use index::*;

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

/// The features of the tables with `want[t]` (all when `want` is short), pushed in extraction
/// order: not sorted, indices may repeat (`features_some` merges them). With `ordered` the list
/// is a few ascending runs instead (material, then per king's view KP and KPP, then KKP), which
/// a caller that sorts merges in linear time (MMTO's step 1 sorted ~1,500 KPP pairs a leaf).
fn push_features(pos: &ShogiPos, want: &[bool], ordered: bool, out: &mut Vec<(u32, i32)>) {
    let wanted = |t: usize| want.get(t).copied().unwrap_or(true);
    let (kp_on, kkp_on, kpp_on) = (wanted(T_KP), wanted(T_KKP), wanted(T_KPP));
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
    if ordered {
        out.sort_unstable_by_key(|f| f.0);
    }
    for v in 0..2 {
        let sign = stm * if v == 0 { 1 } else { -1 };
        let k = view_king(kings, v);
        let mut buf = [0usize; MAX_LIST];
        for (slot, c) in buf.iter_mut().zip(&conds) {
            *slot = c.bp(v == 0) as usize;
        }
        let n = conds.len().min(MAX_LIST);
        if ordered {
            // For a king off the centre file the KP index and the KPP pair both increase with
            // the (mirrored) condition, so in this order each table is one ascending run; a
            // centre-file king's pairs go through the mirror orbits and are sorted after.
            buf[..n].sort_unstable_by_key(|&a| kp_param(k, a));
        }
        let list = &buf[..n];
        for &a in list.iter().filter(|_| kp_on) {
            out.push(((OFF_KP + kp_param(k, a)) as u32, sign));
        }
        let start = out.len();
        for (i, &a) in list.iter().enumerate().filter(|_| kpp_on) {
            for &bb in &list[..i] {
                out.push(((OFF_KPP + kpp_param(k, a, bb)) as u32, sign));
            }
        }
        if ordered && col(k) == 4 {
            out[start..].sort_unstable_by_key(|f| f.0);
        }
    }
    let start = out.len();
    for &cd in conds.iter().filter(|_| kkp_on) {
        let (l, black) = cd.kkp();
        let (k, k2, sign) = if black {
            (kings[0], kings[1], stm)
        } else {
            (flip_sq(kings[1]), flip_sq(kings[0]), -stm)
        };
        let idx = OFF_KKP + kkp_param(k as usize, k2 as usize, l as usize);
        out.push((idx as u32, sign));
    }
    if ordered {
        out[start..].sort_unstable_by_key(|f| f.0);
    }
}

// ---------------------------------------------------------------------------------------------
// Independent parameters and the mirror tie.
// Canonical king squares are those left of the centre file (column < 4 in Bonanza squares, 36
// squares); a king right of it is mirrored with everything else; a king on the centre file keeps
// its square and the rest is reduced to mirror orbits.

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
        Self::features_some(pos, &[true; 4], out)
    }

    fn features_some(pos: &ShogiPos, want: &[bool], out: &mut Vec<(u32, i32)>) {
        push_features(pos, want, false, out);
        crate::eval::merge_features(out);
    }

    fn features_unmerged(pos: &ShogiPos, out: &mut Vec<(u32, i32)>) {
        push_features(pos, &[true; 4], true, out);
    }

    fn expand(params: &[i32]) -> Result<Vec<OwnedTable>, String> {
        Self::expand_some(params, &[true; 4])?
            .into_iter()
            .map(|t| t.ok_or_else(|| "bonanza: a table was not expanded".to_string()))
            .collect()
    }

    fn expand_some(params: &[i32], want: &[bool]) -> Result<Vec<Option<OwnedTable>>, String> {
        if params.len() != N_PARAMS {
            return Err(format!(
                "bonanza has {N_PARAMS} parameters, {} given",
                params.len()
            ));
        }
        let wanted = |t: usize| want.get(t).copied().unwrap_or(true);
        let sat = |x: i32| x.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        let p_kp = &params[OFF_KP..OFF_KKP];
        let p_kkp = &params[OFF_KKP..OFF_KPP];
        let p_kpp = &params[OFF_KPP..];
        let material = wanted(T_MATERIAL).then(|| OwnedTable::I32(params[..N_MATERIAL].to_vec()));
        let kp = wanted(T_KP).then(|| {
            let mut kp = vec![0i16; 81 * FE];
            for k in 0..81 {
                for j in 0..FE {
                    kp[k * FE + j] = sat(p_kp[kp_param(k, j)]);
                }
            }
            OwnedTable::I16(kp)
        });
        let kkp = wanted(T_KKP).then(|| {
            let mut kkp = vec![0i16; 81 * 81 * KKP_END];
            for k in 0..81 {
                for k2 in 0..81 {
                    for l in 0..KKP_END {
                        kkp[(k * 81 + k2) * KKP_END + l] = sat(p_kkp[kkp_param(k, k2, l)]);
                    }
                }
            }
            OwnedTable::I16(kkp)
        });
        let kpp = wanted(T_KPP).then(|| {
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
            OwnedTable::I16(kpp)
        });
        Ok(vec![material, kp, kkp, kpp])
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

    /// e_ABCD (material + KP + KKP + KPP, the full evaluation) learned by MMTO in stages from
    /// Bonanza 6's piece values (e_AB, then e_ABC, then e_ABCD) on the GPS book positions,
    /// self-play games and gpsusi-labelled positions (eval_weights/README.md), made by
    /// scripts/train_shipped.sh. Shipped xz-compressed (3.3 MB for 346 MiB: the KPP table is
    /// mostly zeros after L1) and unpacked once into the cache, then mapped
    /// (`eval::weights::default_weights_noted`).
    fn embedded_file() -> Option<(&'static str, &'static [u8])> {
        Some((
            "shogi-eABCD.kwt.xz",
            include_bytes!("../../eval_weights/shogi-eABCD.kwt.xz"),
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
