//! Minimax Tree Optimization (Hoki & Kaneko, JAIR 2014) and its baseline, comparison training
//! (Tesauro 2001, the paper's eq. 3), over any linear feature set.
//!
//! One iteration: step 1 searches every child of every training position with the play search
//! (nominal depth + quiescence, learner-safe settings) and keeps the PV leaves' sparse features;
//! steps 2-3 (repeated `reuse` times on the stored leaves) compute the objective and its gradient
//! through the leaves and move every learned weight one grid step against the gradient's sign,
//! with the piece values under an equality constraint (median Lagrange multiplier) and L1 on the rest.

use super::dataset::{Rng, Sample};
use crate::eval::linear::LinearEval;
use crate::eval::weights::Weights;
use crate::eval::{evaluate_features, FeatureSet};
use crate::game::{Game, INFINITE, MATE_BOUND};
use crate::search::learner::LeafSearcher;
use crate::search::SearchParams;
use std::sync::Arc;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Minimax Tree Optimization: T(x) = 1/(1+e^{ax}), grid-adjacent sign updates.
    Mmto,
    /// Comparison training: T_ct(x) = (σ(k·R(x)) − 1)², gradient descent on real weights.
    Ct,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Every update moves a weight by exactly h (the paper: h = 1).
    Fixed(i32),
    /// Bonanza's variant: a step drawn from {0, 1, 2} (mean 1) for every weight and update.
    Random,
}

#[derive(Debug, Clone)]
pub struct LearnConfig {
    pub method: Method,
    pub a: f64,
    pub l1: f64,
    pub step: Step,
    /// Sum the piece values keep (shogi 6,500); `None`: no equality constraint.
    pub piece_sum: Option<i64>,
    /// Nominal depth: 1 = every child searched by quiescence search only.
    pub depth: i32,
    /// Moves whose value is outside [v_record − window, v_record + window] give no gradient.
    pub window: i32,
    pub reuse: usize,
    pub threads: usize,
    pub seed: u64,
    pub ct_rate: f64,
    pub ct_scale: f64,
    pub ct_c: f64,
}

/// The learned part of the parameter vector: whole tables, mapped to a compact local index.
#[derive(Debug, Clone)]
pub struct Learned {
    /// (name, global start, global end, local start), in parameter order.
    pub tables: Vec<(String, usize, usize, usize)>,
    pub n_local: usize,
    /// Local range under the equality constraint (the piece values), if any.
    pub constrained: Option<(usize, usize)>,
}

impl Learned {
    /// The tables of a feature set in parameter order: (name, start, end).
    pub fn table_ranges<G: Game, F: FeatureSet<G>>() -> Vec<(String, usize, usize)> {
        crate::eval::param_ranges::<G, F>()
            .into_iter()
            .map(|(n, a, b)| (n.to_string(), a, b))
            .collect()
    }

    /// Selects tables by name or by letter (A = the first table in parameter order, B the second…).
    pub fn select<G: Game, F: FeatureSet<G>>(
        wanted: &[String],
        constrain_material: bool,
    ) -> Result<Learned, String> {
        let all = Self::table_ranges::<G, F>();
        let mut tables = Vec::new();
        let mut local = 0;
        for (k, (name, a, b)) in all.iter().enumerate() {
            let letter = ((b'A' + k as u8) as char).to_string();
            if wanted
                .iter()
                .any(|w| w.eq_ignore_ascii_case(name) || w.eq_ignore_ascii_case(&letter))
            {
                tables.push((name.clone(), *a, *b, local));
                local += b - a;
            }
        }
        for w in wanted {
            let known = all.iter().enumerate().any(|(k, (name, _, _))| {
                w.eq_ignore_ascii_case(name)
                    || w.eq_ignore_ascii_case(&((b'A' + k as u8) as char).to_string())
            });
            if !known {
                let names: Vec<String> = all
                    .iter()
                    .enumerate()
                    .map(|(k, (n, _, _))| format!("{} ({})", (b'A' + k as u8) as char, n))
                    .collect();
                return Err(format!(
                    "unknown table '{w}': this feature set has {}",
                    names.join(", ")
                ));
            }
        }
        if tables.is_empty() {
            return Err("no table selected to learn".into());
        }
        let constrained = if constrain_material {
            tables
                .iter()
                .find(|t| t.0 == "material")
                .map(|t| (t.3, t.3 + t.2 - t.1))
        } else {
            None
        };
        Ok(Learned {
            tables,
            n_local: local,
            constrained,
        })
    }

    #[inline]
    pub fn local(&self, global: usize) -> Option<usize> {
        self.tables
            .iter()
            .find(|t| global >= t.1 && global < t.2)
            .map(|t| t.3 + global - t.1)
    }

    pub fn global(&self, local: usize) -> usize {
        for t in &self.tables {
            if local >= t.3 && local < t.3 + (t.2 - t.1) {
                return t.1 + local - t.3;
            }
        }
        usize::MAX
    }

    fn is_regularized(&self, local: usize) -> bool {
        !self
            .tables
            .iter()
            .any(|t| t.0 == "material" && local >= t.3 && local < t.3 + (t.2 - t.1))
    }
}

/// A PV leaf seen from the training position's side to move:
/// s = (constant + Σ w_local[i]·coef_i) / SCALE, features sorted by index, each once, none zero.
#[derive(Debug, Clone, Default)]
pub struct Leaf {
    pub feats: Vec<(u32, i32)>,
    pub constant: f64,
}

impl Leaf {
    /// Sorts and merges the features, drops zero coefficients and spare capacity.
    fn normalise(&mut self) {
        self.feats.sort_unstable_by_key(|f| f.0);
        let mut out = 0;
        for k in 0..self.feats.len() {
            let (i, c) = self.feats[k];
            if out > 0 && self.feats[out - 1].0 == i {
                self.feats[out - 1].1 += c;
            } else {
                self.feats[out] = (i, c);
                out += 1;
            }
        }
        self.feats.truncate(out);
        self.feats.retain(|f| f.1 != 0);
        self.feats.shrink_to_fit();
    }

    /// `self − base`, both normalised.
    fn minus(&self, base: &Leaf) -> Leaf {
        let (a, b) = (&self.feats, &base.feats);
        let mut feats = Vec::new();
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            let f = if j == b.len() || (i < a.len() && a[i].0 < b[j].0) {
                i += 1;
                a[i - 1]
            } else if i == a.len() || b[j].0 < a[i].0 {
                j += 1;
                (b[j - 1].0, -b[j - 1].1)
            } else {
                i += 1;
                j += 1;
                (a[i - 1].0, a[i - 1].1 - b[j - 1].1)
            };
            if f.1 != 0 {
                feats.push(f);
            }
        }
        feats.shrink_to_fit();
        Leaf {
            feats,
            constant: self.constant - base.constant,
        }
    }
}

#[derive(Debug, Clone)]
pub enum Child {
    /// The leaf minus the record move's leaf: s(p.m) − s(p.d). PV leaves of sibling moves share
    /// most features, so the difference is smaller to store and faster to re-evaluate in the
    /// reuse passes (chess less so: a capture changes the phase, and with it every tapered
    /// coefficient; 50k chess positions took 0.68 GB of leaves instead of 1.06 GB).
    Window(Leaf),
    /// Better than the record move by more than the window: T ≈ 1, no gradient.
    Above,
    /// Worse than the record move by more than the window: T ≈ 0, no gradient.
    Below,
}

/// Step-1 result of one training position.
#[derive(Debug, Clone)]
pub struct PositionData {
    pub record: Leaf,
    pub children: Vec<Child>,
    /// Some(true): the search prefers the record move; None: tied with another move.
    pub agree: Option<bool>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Step1Stats {
    pub positions: usize,
    pub used: usize,
    pub mates: usize,
    pub agree: usize,
    pub ties: usize,
    /// Leaves whose features did not reproduce the search score (should be 0).
    pub inconsistent: usize,
    pub pairs: usize,
    pub in_window: usize,
}

impl Step1Stats {
    fn add(&mut self, o: &Step1Stats) {
        self.positions += o.positions;
        self.used += o.used;
        self.mates += o.mates;
        self.agree += o.agree;
        self.ties += o.ties;
        self.inconsistent += o.inconsistent;
        self.pairs += o.pairs;
        self.in_window += o.in_window;
    }
    /// Agreement counting a tie as a miss, over every position step 1 used.
    pub fn agreement_strict(&self) -> f64 {
        if self.used == 0 {
            0.0
        } else {
            self.agree as f64 / self.used as f64
        }
    }

    /// Agreement rate over the positions that count (ties and excluded positions left out).
    pub fn agreement(&self) -> f64 {
        let n = self.used - self.ties;
        if n == 0 {
            0.0
        } else {
            self.agree as f64 / n as f64
        }
    }
}

/// Builds the play evaluation from a parameter vector.
pub fn build_eval<G: Game, F: FeatureSet<G>>(
    params: &[i32],
    provenance: &str,
) -> Result<LinearEval<G, F>, String> {
    Ok(LinearEval::new(Arc::new(Weights::from_params::<G, F>(
        params, provenance,
    )?)))
}

fn leaf_of<G: Game, F: FeatureSet<G>>(
    root: &G,
    leaf: &G,
    params: &[i32],
    learned: &Learned,
    buf: &mut Vec<(u32, i32)>,
) -> (Leaf, i32) {
    buf.clear();
    F::features(leaf, buf);
    let sign = if leaf.side_to_move() == root.side_to_move() {
        1
    } else {
        -1
    };
    let predicted = sign * evaluate_features::<G, F>(params, buf);
    let mut out = Leaf::default();
    for &(i, c) in buf.iter() {
        match learned.local(i as usize) {
            Some(l) => out.feats.push((l as u32, sign * c)),
            None => out.constant += sign as f64 * c as f64 * params[i as usize] as f64,
        }
    }
    out.normalise();
    (out, predicted)
}

/// What step 1 searches with: the evaluation built from `params`, and the learned tables.
pub struct Step1Context<'a, G: Game, F: FeatureSet<G>> {
    pub eval: &'a LinearEval<G, F>,
    pub params: &'a [i32],
    pub learned: &'a Learned,
    pub cfg: &'a LearnConfig,
}

impl<G: Game, F: FeatureSet<G>> Clone for Step1Context<'_, G, F> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<G: Game, F: FeatureSet<G>> Copy for Step1Context<'_, G, F> {}

/// Step 1 for one position: the record move with a full window, every other move with a window
/// around the record move's value. `None` for positions the paper excludes (a mate found).
pub fn step1_position<G: Game, F: FeatureSet<G>>(
    searcher: &mut LeafSearcher,
    ctx: &Step1Context<G, F>,
    sample: &Sample<G>,
    stats: &mut Step1Stats,
    keep_leaves: bool,
) -> Option<PositionData> {
    let Step1Context {
        eval,
        params,
        learned,
        cfg,
    } = *ctx;
    stats.positions += 1;
    let pos = &sample.pos;
    let mut buf = Vec::new();
    let child = pos.play(sample.mv);
    let Some(r) = searcher.search_full(eval, &child, cfg.depth - 1) else {
        stats.mates += 1; // the record move mates
        return None;
    };
    let s_d = -r.score;
    if s_d.abs() >= MATE_BOUND {
        stats.mates += 1;
        return None;
    }
    let (record, pred) = leaf_of::<G, F>(pos, &r.leaf, params, learned, &mut buf);
    let mut local = Step1Stats::default();
    if pred != s_d {
        local.inconsistent += 1;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let (lo, hi) = (s_d - cfg.window, s_d + cfg.window);
    let mut children = Vec::with_capacity(moves.len());
    let mut agree = true;
    let mut tie = false;
    for &m in &moves {
        if m == sample.mv {
            continue;
        }
        let c = pos.play(m);
        let Some(r) = searcher.search(eval, &c, cfg.depth - 1, -hi, -lo) else {
            stats.mates += 1; // an easy mate: excluded as §4.3 does
            return None;
        };
        let s = -r.score;
        if s >= MATE_BOUND {
            stats.mates += 1;
            return None;
        }
        if s > s_d {
            agree = false;
        } else if s == s_d {
            tie = true;
        }
        local.pairs += 1;
        children.push(if s >= hi {
            Child::Above
        } else if s <= lo {
            Child::Below
        } else {
            local.in_window += 1;
            if keep_leaves {
                let (leaf, pred) = leaf_of::<G, F>(pos, &r.leaf, params, learned, &mut buf);
                if pred != s && s.abs() < MATE_BOUND {
                    local.inconsistent += 1;
                }
                Child::Window(leaf.minus(&record))
            } else {
                Child::Window(Leaf::default())
            }
        });
    }
    local.used = 1;
    let agree = if agree && tie {
        local.ties = 1;
        None
    } else {
        if agree {
            local.agree = 1;
        }
        Some(agree)
    };
    stats.add(&local);
    Some(PositionData {
        record,
        children: if keep_leaves { children } else { Vec::new() },
        agree,
    })
}

/// Positions a worker takes at a time in step 1.
const STEP1_BLOCK: usize = 16;

/// Step 1 over a set of positions on `cfg.threads` workers. Workers take blocks of positions from
/// a shared counter, since search cost varies by orders of magnitude between positions (an opening
/// book line against a middle-game capture race); the blocks are put back in order, so the result
/// does not depend on scheduling or on the number of threads. `progress` is called with the number
/// of positions done.
pub fn step1<G: Game, F: FeatureSet<G>>(
    samples: &[Sample<G>],
    params: &[i32],
    learned: &Learned,
    cfg: &LearnConfig,
    eval: &LinearEval<G, F>,
    keep_leaves: bool,
    progress: &(dyn Fn(u64) + Sync),
) -> (Vec<PositionData>, Step1Stats) {
    let threads = cfg.threads.max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let next = &next;
    let blocks = samples.len().div_ceil(STEP1_BLOCK);
    type Done = (Vec<(usize, Vec<PositionData>)>, Step1Stats);
    let results: Vec<Done> = crossbeam::scope(|scope| {
        let handles: Vec<_> = (0..threads.min(blocks.max(1)))
            .map(|_| {
                scope
                    .builder()
                    .stack_size(64 << 20)
                    .spawn(move |_| {
                        let mut searcher = LeafSearcher::new(SearchParams::learner(), 1);
                        let mut done = Vec::new();
                        let mut stats = Step1Stats::default();
                        let ctx = Step1Context {
                            eval,
                            params,
                            learned,
                            cfg,
                        };
                        loop {
                            let b = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            if b >= blocks {
                                break;
                            }
                            let part =
                                &samples[b * STEP1_BLOCK..samples.len().min((b + 1) * STEP1_BLOCK)];
                            let mut out = Vec::with_capacity(part.len());
                            for s in part {
                                let t = std::time::Instant::now();
                                if let Some(d) = step1_position::<G, F>(
                                    &mut searcher,
                                    &ctx,
                                    s,
                                    &mut stats,
                                    keep_leaves,
                                ) {
                                    out.push(d);
                                }
                                let secs = t.elapsed().as_secs_f64();
                                if secs > 1.0 {
                                    log::debug!(
                                        "step 1 took {secs:.1} s for {} move {}",
                                        s.pos.to_text(),
                                        s.pos.move_text(s.mv)
                                    );
                                }
                            }
                            progress(part.len() as u64);
                            done.push((b, out));
                        }
                        (done, stats)
                    })
                    .expect("spawning a learner thread")
            })
            .collect();
        handles
            .into_iter()
            // A worker's panic is a bug: pass it on rather than learn from partial results.
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
    .unwrap_or_default();
    let mut blocks_done = Vec::with_capacity(blocks);
    let mut stats = Step1Stats::default();
    for (d, s) in results {
        blocks_done.extend(d);
        stats.add(&s);
    }
    blocks_done.sort_unstable_by_key(|(b, _)| *b);
    let data = blocks_done.into_iter().flat_map(|(_, d)| d).collect();
    (data, stats)
}

#[inline]
fn leaf_value(leaf: &Leaf, w: &[i32], scale: f64) -> f64 {
    let mut sum = leaf.constant;
    for &(i, c) in &leaf.feats {
        sum += w[i as usize] as f64 * c as f64;
    }
    sum / scale
}

/// The main objective term and its gradient (raw sums over move pairs; the caller normalises).
#[derive(Debug, Clone, Default)]
pub struct Objective {
    pub j: f64,
    pub pairs: u64,
    pub grad: Vec<f64>,
}

/// T(x) and dT/dx for the chosen method.
#[inline]
fn loss(cfg: &LearnConfig, x: f64) -> (f64, f64) {
    match cfg.method {
        Method::Mmto => {
            let t = 1.0 / (1.0 + (cfg.a * x).exp());
            (t, -cfg.a * t * (1.0 - t))
        }
        Method::Ct => {
            let (r, dr) = if x >= 0.0 {
                (x, 1.0)
            } else {
                (cfg.ct_c * x, cfg.ct_c)
            };
            let sig = 1.0 / (1.0 + (-cfg.ct_scale * r).exp());
            let t = (sig - 1.0) * (sig - 1.0);
            (t, 2.0 * (sig - 1.0) * sig * (1.0 - sig) * cfg.ct_scale * dr)
        }
    }
}

/// J and ∂J/∂w over the stored leaves, for the learned weights `w` (local indices).
pub fn objective(data: &[PositionData], w: &[i32], scale: i32, cfg: &LearnConfig) -> Objective {
    let threads = cfg.threads.max(1);
    let chunk = data.len().div_ceil(threads).max(1);
    let scale = scale as f64;
    let parts: Vec<Objective> = crossbeam::scope(|scope| {
        let handles: Vec<_> = data
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move |_| {
                    let mut o = Objective {
                        j: 0.0,
                        pairs: 0,
                        grad: vec![0.0; w.len()],
                    };
                    for p in part {
                        for c in &p.children {
                            o.pairs += 1;
                            match c {
                                Child::Above => o.j += 1.0,
                                Child::Below => {}
                                Child::Window(diff) => {
                                    // s(p.d) − s(p.m) = −(diff · w)
                                    let (t, dt) = loss(cfg, -leaf_value(diff, w, scale));
                                    o.j += t;
                                    if dt != 0.0 {
                                        let k = dt / scale;
                                        for &(i, c) in &diff.feats {
                                            o.grad[i as usize] -= k * c as f64;
                                        }
                                    }
                                }
                            }
                        }
                    }
                    o
                })
            })
            .collect();
        handles
            .into_iter()
            // A worker's panic is a bug: pass it on rather than learn from partial results.
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
    .unwrap_or_default();
    let mut total = Objective {
        j: 0.0,
        pairs: 0,
        grad: vec![0.0; w.len()],
    };
    for p in parts {
        total.j += p.j;
        total.pairs += p.pairs;
        if p.grad.len() == total.grad.len() {
            for (t, g) in total.grad.iter_mut().zip(&p.grad) {
                *t += g;
            }
        }
    }
    total
}

/// What one update did (for the metrics).
#[derive(Debug, Clone, Copy, Default)]
pub struct UpdateInfo {
    /// The Lagrange multiplier: the median of the constrained weights' partial derivatives.
    pub lambda0: f64,
    pub changed: usize,
}

fn step_size(step: Step, rng: &mut Rng) -> i32 {
    match step {
        Step::Fixed(h) => h,
        Step::Random => rng.below(3) as i32,
    }
}

/// The grid-adjacent update (§3.4) of the learned weights `w` from the raw-sum gradient.
pub fn mmto_update(
    w: &mut [i32],
    grad: &[f64],
    learned: &Learned,
    cfg: &LearnConfig,
    rng: &mut Rng,
) -> UpdateInfo {
    let mut info = UpdateInfo::default();
    let (ca, cb) = learned.constrained.unwrap_or((0, 0));
    if cb > ca {
        // Sort the constrained weights by derivative: the lower half goes up by h, the upper half
        // down by h, the median stays, so their sum never changes (λ0 = the median derivative).
        let mut idx: Vec<usize> = (ca..cb).collect();
        idx.sort_by(|&x, &y| grad[x].total_cmp(&grad[y]).then(x.cmp(&y)));
        let n = idx.len() / 2;
        info.lambda0 = grad[idx[idx.len() / 2]];
        // One step size per (lower, upper) pair keeps the sum exact with random steps too.
        let steps: Vec<i32> = (0..n).map(|_| step_size(cfg.step, rng)).collect();
        for k in 0..n {
            let h = steps[k];
            w[idx[k]] += h;
            w[idx[idx.len() - 1 - k]] -= h;
            if h != 0 {
                info.changed += 2;
            }
        }
    }
    for i in 0..w.len() {
        if i >= ca && i < cb {
            continue;
        }
        let g = if learned.is_regularized(i) {
            if w[i] == 0 && grad[i].abs() <= cfg.l1 {
                // The L1 subgradient at zero absorbs a derivative this small: stay at zero.
                continue;
            }
            grad[i] + cfg.l1 * (w[i].signum() as f64)
        } else {
            grad[i]
        };
        if g == 0.0 {
            continue;
        }
        let h = step_size(cfg.step, rng);
        let before = w[i];
        w[i] -= h * (g.signum() as i32);
        // L1 moves a weight to zero, never across it in one step.
        if learned.is_regularized(i)
            && before != 0
            && w[i].signum() == -before.signum()
            && grad[i].abs() <= cfg.l1
        {
            w[i] = 0;
        }
        if w[i] != before {
            info.changed += 1;
        }
    }
    info
}

/// Comparison training's update: gradient descent on real-valued shadow weights, rounded for play.
pub fn ct_update(
    w: &mut [i32],
    shadow: &mut [f64],
    grad: &[f64],
    scale: i32,
    cfg: &LearnConfig,
) -> UpdateInfo {
    let mut info = UpdateInfo::default();
    // The rate is per evaluation unit: in weight units the gradient is 1/scale of the gradient per
    // evaluation unit, and a step moves the evaluation by 1/scale of itself, hence scale².
    let rate = cfg.ct_rate * (scale as f64) * (scale as f64);
    for i in 0..w.len() {
        shadow[i] -= rate * grad[i];
        let r = shadow[i].round().clamp(i32::MIN as f64, i32::MAX as f64) as i32;
        if r != w[i] {
            w[i] = r;
            info.changed += 1;
        }
    }
    info
}

/// J_R = λ1·Σ|w''| over the regularised learned weights.
pub fn l1_term(w: &[i32], learned: &Learned, l1: f64) -> f64 {
    w.iter()
        .enumerate()
        .filter(|(i, _)| learned.is_regularized(*i))
        .map(|(_, v)| v.unsigned_abs() as f64)
        .sum::<f64>()
        * l1
}

/// Full-window score of the record move from the position's side to move (tests and tools).
pub fn record_score<G: Game, F: FeatureSet<G>>(
    searcher: &mut LeafSearcher,
    eval: &LinearEval<G, F>,
    s: &Sample<G>,
    depth: i32,
) -> Option<i32> {
    let child = s.pos.play(s.mv);
    searcher
        .search(eval, &child, depth - 1, -INFINITE, INFINITE)
        .map(|r| -r.score)
}
