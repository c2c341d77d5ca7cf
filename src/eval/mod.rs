//! Evaluation: the `Evaluator` interface the search calls, kept incrementally on the search's
//! per-ply stack. Feature sets, weight files and memory-mapped tables live in submodules:
//! `format` (the bytes of a weight file), `weights` (checked loading, the in-memory image, the
//! writer), `linear` (the evaluator generic over a `FeatureSet`). The feature sets themselves, and
//! their binding to a position type (`GameEval`), are game code in `shogi` and `chess`: this module
//! names no game.

pub mod format;
pub mod linear;
pub mod material;
pub mod rng;
pub mod shipped;
pub mod weights;

pub use format::{Elem, TableData, TableSpec};
pub use linear::LinearEval;
pub use weights::{
    default_weights, default_weights_noted, handset_weights, write_weight_file, OwnedTable, Verify,
    Weights,
};

use crate::game::Game;

/// A static evaluation that the search keeps incrementally: `refresh` builds the accumulator of a
/// position from scratch, `update` derives a child's accumulator from its parent's after a move.
/// `evaluate` returns the score from the side to move's point of view.
pub trait Evaluator<G: Game>: Send + Sync + 'static {
    type Acc: Clone + Send + Default + 'static;
    fn refresh(&self, pos: &G, acc: &mut Self::Acc);
    fn update(
        &self,
        _parent: &G,
        _mv: G::Move,
        child: &G,
        _parent_acc: &Self::Acc,
        acc: &mut Self::Acc,
    ) {
        self.refresh(child, acc);
    }
    /// The accumulator after a null move (default: recompute).
    fn update_null(&self, child: &G, parent_acc: &Self::Acc, acc: &mut Self::Acc) {
        let _ = parent_acc;
        self.refresh(child, acc);
    }
    fn evaluate(&self, pos: &G, acc: &Self::Acc) -> i32;
    /// The static evaluation split by table, for the `eval` console command: `(term, value)` pairs
    /// in the evaluation's own units, then a last `("total", score from the side to move)`.
    fn breakdown(&self, pos: &G) -> Vec<(String, i32)> {
        let mut acc = Self::Acc::default();
        self.refresh(pos, &mut acc);
        vec![("total".to_string(), self.evaluate(pos, &acc))]
    }
}

/// A linear evaluation function over a game: the active features of a position and how they
/// change on a move, with the weights in named tables (`tables()`), all learnable.
///
/// The contract with the learner: `features(pos)` lists `(independent parameter, signed count)`
/// from the side to move's point of view, and for weights built from a parameter vector `w`
/// (`Weights::from_params`), `evaluate(pos) == clamp(trunc(Σ w[i]·count_i / SCALE))`, where the
/// clamp to ±`EVAL_LIMIT` only bites on absurd weights. Truncation toward zero keeps the
/// evaluation exactly anti-symmetric under colour reversal.
pub trait FeatureSet<G: Game>: Send + Sync + Sized + 'static {
    /// Feature-set name written in weight files ("bonanza", "kishi-chess").
    const NAME: &'static str;
    const VERSION: u32;
    /// Divisor of the linear sum (shogi: 32, as Bonanza's FV_SCALE; chess: 24·32·64, the taper,
    /// the weight unit and the endgame scale factor's denominator).
    const SCALE: i32;
    /// What one occurrence of a term counts in a feature vector at full weight (chess: 64, the
    /// denominator of its endgame scale factor, by which every count is multiplied). Learners
    /// whose rates convert per-evaluation-unit steps into weight units with `SCALE` divide by
    /// it once per count, so a rate means the same whatever the fixed-point choice.
    const COUNT_UNIT: i32 = 1;
    type Acc: Clone + Send + Default + 'static;

    /// The expanded tables a weight file holds, in a fixed order (indices used by `Weights`).
    fn tables() -> &'static [TableSpec];
    fn refresh(w: &Weights, pos: &G, acc: &mut Self::Acc);
    fn update(
        w: &Weights,
        parent: &G,
        mv: G::Move,
        child: &G,
        parent_acc: &Self::Acc,
        acc: &mut Self::Acc,
    );
    fn update_null(_w: &Weights, _child: &G, parent_acc: &Self::Acc, acc: &mut Self::Acc) {
        acc.clone_from(parent_acc);
    }
    fn evaluate(w: &Weights, pos: &G, acc: &Self::Acc) -> i32;
    fn breakdown(w: &Weights, pos: &G) -> Vec<(String, i32)>;

    /// Number of independent (learnable) parameters; tied parameters count once.
    fn num_params() -> usize;
    /// The sparse feature vector of a position: `(parameter index, signed count)` from the side
    /// to move's point of view, sorted by index, without zero counts.
    fn features(pos: &G, out: &mut Vec<(u32, i32)>);
    /// `features` of which at least the tables with `want[t]` (parameter-table order) are
    /// complete; others may be left out, so callers filter. Self-play learners extract the
    /// features of every searched node and learn only small tables: shogi's KPP pairs are most of
    /// the work of `features`. The default is `features`.
    fn features_some(pos: &G, _want: &[bool], out: &mut Vec<(u32, i32)>) {
        Self::features(pos, out)
    }
    /// Every feature of `pos` as `features` gives them but not merged: indices may repeat and
    /// appear in any order. Any sum of count × weight over it equals the sum over `features`.
    /// MMTO's step 1 needs a leaf's unlearned tables only as such a sum, and sorting shogi's
    /// ~1,500 KPP pairs per leaf was over a third of its time. The default is `features`.
    fn features_unmerged(pos: &G, out: &mut Vec<(u32, i32)>) {
        Self::features(pos, out)
    }
    /// Expands independent parameters into the tables of `tables()` (same order). Values outside
    /// a table's element range saturate.
    fn expand(params: &[i32]) -> Result<Vec<OwnedTable>, String>;
    /// `expand` of only the tables with `want[t]` (the others `None`). The learners that step
    /// weights move by move rebuild the play weights after every move and must not pay for the
    /// large tables they do not learn (shogi KKP/KPP). The default expands all and drops.
    fn expand_some(params: &[i32], want: &[bool]) -> Result<Vec<Option<OwnedTable>>, String> {
        Ok(Self::expand(params)?
            .into_iter()
            .enumerate()
            .map(|(t, table)| want.get(t).copied().unwrap_or(true).then_some(table))
            .collect())
    }
    /// The independent parameters of a weight file's tables: the inverse of `expand` (absent
    /// tables give zeros), so that the learner can start from any weight file. Entries `expand`
    /// ties to one parameter must hold equal values; the error names the table and the first entry
    /// that differs from an earlier one tied to it.
    fn fold(w: &Weights) -> Result<Vec<i32>, String>;
    /// The hand-set tables in `tables()` order (`None`: absent, reads as zero): where the learner
    /// starts, and the play default when no learned file is embedded (`embedded_file`).
    fn default_tables() -> Vec<Option<OwnedTable>>;
    /// The learned weight file built into the binary as the play default, as `(shipped name,
    /// bytes)`: a file of `eval_weights/` taken in with `include_bytes!`, so that a fresh build
    /// plays learned weights with no file to pass. `None`: the default is `default_tables`.
    fn embedded_file() -> Option<(&'static str, &'static [u8])> {
        None
    }
    /// Which table a parameter belongs to and its offset inside the table's independent block.
    fn param_table(idx: u32) -> (&'static str, u32);
}

/// Largest static evaluation magnitude: inside 16 bits and well below mate scores.
pub const EVAL_LIMIT: i32 = crate::game::MATE_BOUND - 1;

/// `trunc(sum / scale)` clamped into the evaluation range.
#[inline]
pub fn scale_sum(sum: i32, scale: i32) -> i32 {
    (sum / scale).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// The evaluation a feature vector predicts for a parameter vector (the learner's view).
pub fn evaluate_features<G: Game, F: FeatureSet<G>>(params: &[i32], feats: &[(u32, i32)]) -> i32 {
    let sum: i64 = feats
        .iter()
        .map(|&(i, c)| params.get(i as usize).copied().unwrap_or(0) as i64 * c as i64)
        .sum();
    let sum = sum.clamp(i32::MIN as i64 + 1, i32::MAX as i64) as i32;
    scale_sum(sum, F::SCALE)
}

/// Puts a feature list in `FeatureSet::features`' form: sorted by index, one entry per index
/// (counts added), no zero counts.
pub fn merge_features(out: &mut Vec<(u32, i32)>) {
    out.sort_unstable_by_key(|&(i, _)| i);
    dedup_sorted_features(out);
}

/// Runs above this many are sorted outright: merging pairs of runs costs a pass per doubling.
const MAX_RUNS: usize = 32;

/// `merge_features` for a list made of a few ascending runs (shogi's extraction pushes each
/// table of each king's view as one): the runs are merged pairwise through `scratch` (kept by
/// the caller, so no allocation), which is linear per level where sorting ~1,500 KPP pairs was
/// a quarter of MMTO's step 1. Equal indices keep no particular order: their counts are added.
pub fn merge_feature_runs(out: &mut Vec<(u32, i32)>, scratch: &mut Vec<(u32, i32)>) {
    let mut bounds = [0usize; MAX_RUNS + 1];
    let mut runs = 0;
    for k in 1..out.len() {
        if out[k].0 < out[k - 1].0 {
            runs += 1;
            if runs == MAX_RUNS {
                merge_features(out);
                return;
            }
            bounds[runs] = k;
        }
    }
    runs += 1;
    bounds[runs] = out.len();
    while runs > 1 {
        scratch.clear();
        let mut merged = 0;
        let mut r = 0;
        while r < runs {
            let (lo, mid) = (bounds[r], bounds[r + 1]);
            let hi = bounds[(r + 2).min(runs)];
            let (a, b) = (&out[lo..mid], &out[mid..hi]);
            let (mut i, mut j) = (0, 0);
            while i < a.len() && j < b.len() {
                if b[j].0 < a[i].0 {
                    scratch.push(b[j]);
                    j += 1;
                } else {
                    scratch.push(a[i]);
                    i += 1;
                }
            }
            scratch.extend_from_slice(&a[i..]);
            scratch.extend_from_slice(&b[j..]);
            bounds[merged] = lo;
            merged += 1;
            r += 2;
        }
        bounds[merged] = out.len();
        runs = merged;
        std::mem::swap(out, scratch);
    }
    dedup_sorted_features(out);
}

/// Adds the counts of equal indices of a sorted list and drops zero counts, in place.
fn dedup_sorted_features(out: &mut Vec<(u32, i32)>) {
    // In place: feature extraction runs once per node in the self-play learners.
    let mut w = 0;
    for r in 0..out.len() {
        let (i, c) = out[r];
        if w > 0 && out[w - 1].0 == i {
            out[w - 1].1 += c;
        } else {
            out[w] = (i, c);
            w += 1;
        }
    }
    out.truncate(w);
    out.retain(|&(_, c)| c != 0);
}

/// The evaluator each game plays with, so protocol and CLI code can stay generic over `G`.
pub trait GameEval: Game {
    type Eval: Evaluator<Self> + Clone;
    /// The embedded default evaluation (no file needed); progress lines of a first unpack go to
    /// standard error.
    fn default_eval() -> Self::Eval {
        Self::default_eval_noted(&mut |m| eprintln!("kishi: {m}"))
    }
    /// `default_eval`, with `note` receiving progress lines (the protocol sends them as
    /// `info string`): the first call in a process may unpack a large built-in file.
    fn default_eval_noted(note: &mut dyn FnMut(&str)) -> Self::Eval;
    /// Maps and checks a weight file; the error names the file and the problem.
    fn load_eval(path: &std::path::Path) -> Result<Self::Eval, String>;
}

/// `FeatureSet::fold` for feature sets whose tables hold their parameters directly, in parameter
/// order (one table per parameter range, as `expand` writes them).
pub fn fold_direct<G: Game, F: FeatureSet<G>>(w: &Weights) -> Result<Vec<i32>, String> {
    let mut params = vec![0i32; F::num_params()];
    for (t, (name, a, b)) in param_ranges::<G, F>().into_iter().enumerate() {
        if !w.has(t) {
            continue;
        }
        let values: Vec<i32> = match F::tables()[t].elem {
            Elem::I16 => w.i16(t).iter().map(|&x| x as i32).collect(),
            Elem::I32 => w.i32(t).to_vec(),
        };
        if values.len() != b - a {
            return Err(format!(
                "table '{name}' has {} entries for {} parameters",
                values.len(),
                b - a
            ));
        }
        params[a..b].copy_from_slice(&values);
    }
    Ok(params)
}

/// The parameter tables of a feature set in parameter order: (name, first index, end index).
/// Tables are contiguous ranges of `param_table`, found by binary search.
pub fn param_ranges<G: Game, F: FeatureSet<G>>() -> Vec<(&'static str, usize, usize)> {
    let n = F::num_params();
    let mut out = Vec::new();
    let mut i = 0;
    while i < n {
        let (name, off) = F::param_table(i as u32);
        let start = i - off as usize;
        let (mut lo, mut hi) = (i, n);
        while lo + 1 < hi {
            let mid = (lo + hi) / 2;
            if F::param_table(mid as u32).0 == name {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        out.push((name, start, lo + 1));
        i = lo + 1;
    }
    out
}
