//! Step 1 of an iteration, shared by every method that learns from PV leaves (MMTO, CT): search
//! every legal move of every training position with the play search (nominal depth +
//! quiescence, learner-safe settings, through `search::learner`, the search's one door for
//! learners) and keep the PV leaves' sparse features, stored as differences from the record
//! move's leaf.

use super::config::LearnConfig;
use super::dataset::Sample;
use super::learned::Learned;
use super::leaves::{EncodedBlock, LeafStore};
use crate::eval::linear::LinearEval;
use crate::eval::weights::Weights;
use crate::eval::{evaluate_features, merge_feature_runs, FeatureSet};
use crate::game::{Game, INFINITE, MATE_BOUND};
use crate::search::learner::{LeafSearcher, SearchParams};
use std::sync::Arc;

/// A PV leaf seen from the training position's side to move:
/// s = (constant + Σ w_local[i]·coef_i) / SCALE, features sorted by index, each once, none zero.
#[derive(Debug, Clone, Default)]
pub struct Leaf {
    pub feats: Vec<(u32, i32)>,
    pub constant: f64,
}

impl Leaf {
    /// Sorts and merges the features and drops zero coefficients (spare capacity stays: the
    /// caller reuses the buffer or copies it out).
    fn normalise(&mut self, scratch: &mut Vec<(u32, i32)>) {
        merge_feature_runs(&mut self.feats, scratch);
    }

    /// `self − base`, both normalised, built in `diff` (reused) and copied out at its size: one
    /// allocation a leaf, where growing a fresh vector took several in a heap of millions of
    /// stored leaves.
    fn minus(&self, base: &Leaf, diff: &mut Vec<(u32, i32)>) -> Leaf {
        let (a, b) = (&self.feats, &base.feats);
        diff.clear();
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
                diff.push(f);
            }
        }
        Leaf {
            feats: diff.to_vec(),
            constant: self.constant - base.constant,
        }
    }
}

/// Buffers step 1 reuses from leaf to leaf.
#[derive(Default)]
struct LeafBuffers {
    raw: Vec<(u32, i32)>,
    scratch: Vec<(u32, i32)>,
    leaf: Leaf,
    diff: Vec<(u32, i32)>,
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
    /// The position's index in the set step 1 searched (the parameterised objective's per-position
    /// weights are looked up by it).
    pub sample: u32,
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
    pub fn add(&mut self, o: &Step1Stats) {
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

/// The features of `leaf` seen from `root`'s side to move, into `bufs.leaf`; returns the
/// evaluation they give.
fn leaf_of<G: Game, F: FeatureSet<G>>(
    root: &G,
    leaf: &G,
    params: &[i32],
    learned: &Learned,
    bufs: &mut LeafBuffers,
) -> i32 {
    let buf = &mut bufs.raw;
    buf.clear();
    // Unmerged: the unlearned tables only add up into `constant` (an exact sum of integers in an
    // f64, so order and repeats do not change it) and `normalise` merges the learned features,
    // so the full list need not be sorted (shogi e_AB: ~1,500 KPP pairs a leaf).
    F::features_unmerged(leaf, buf);
    let sign = if leaf.side_to_move() == root.side_to_move() {
        1
    } else {
        -1
    };
    let predicted = sign * evaluate_features::<G, F>(params, buf);
    let out = &mut bufs.leaf;
    out.feats.clear();
    // Summed in integers: the same value as the f64 sum it replaces (every partial sum is an
    // integer far below 2^53), without a conversion per feature.
    let mut constant = 0i64;
    for &(i, c) in buf.iter() {
        match learned.local(i as usize) {
            Some(l) => out.feats.push((l as u32, sign * c)),
            None => constant += c as i64 * params[i as usize] as i64,
        }
    }
    out.constant = (sign as i64 * constant) as f64;
    out.normalise(&mut bufs.scratch);
    predicted
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
    let mut bufs = LeafBuffers::default();
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
    let pred = leaf_of::<G, F>(pos, &r.leaf, params, learned, &mut bufs);
    let record = Leaf {
        feats: bufs.leaf.feats.to_vec(),
        constant: bufs.leaf.constant,
    };
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
                let pred = leaf_of::<G, F>(pos, &r.leaf, params, learned, &mut bufs);
                if pred != s && s.abs() < MATE_BOUND {
                    local.inconsistent += 1;
                }
                Child::Window(bufs.leaf.minus(&record, &mut bufs.diff))
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
        sample: 0,
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
    let done = std::sync::Mutex::new(Vec::new());
    let stats = step1_blocks::<G, F>(
        samples,
        params,
        learned,
        cfg,
        eval,
        keep_leaves,
        progress,
        &|b, d| {
            if let Ok(mut v) = done.lock() {
                v.push((b, d));
            }
        },
    );
    let mut blocks_done = done.into_inner().unwrap_or_default();
    blocks_done.sort_unstable_by_key(|(b, _)| *b);
    let data = blocks_done.into_iter().flat_map(|(_, d)| d).collect();
    (data, stats)
}

/// Step 1 with the training leaves going straight into `store` (encoded by the worker that found
/// them; a position's decoded leaves never outlive its block). Without a store, only the
/// statistics (the test set). The store is `finish`ed here.
pub fn step1_store<G: Game, F: FeatureSet<G>>(
    samples: &[Sample<G>],
    params: &[i32],
    learned: &Learned,
    cfg: &LearnConfig,
    eval: &LinearEval<G, F>,
    store: Option<&mut LeafStore>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Step1Stats, String> {
    step1_store_with::<G, F>(
        samples,
        params,
        learned,
        cfg,
        eval,
        store,
        StoreExtras::default(),
        progress,
    )
}

/// Step 1's (position index, agreement) of every searched position, collected across workers.
pub type AgreeList = std::sync::Mutex<Vec<(u32, Option<bool>)>>;

/// What the parameterised objective (`objective::weighted`) needs from step 1 beyond MMTO's
/// leaves: the record move's own leaf in the store (for the win-probability term), and each
/// searched position's agreement (for the agreement per category).
#[derive(Default, Clone, Copy)]
pub struct StoreExtras<'a> {
    pub keep_record: bool,
    pub agree: Option<&'a AgreeList>,
}

/// `step1_store` with the extras of the parameterised objective.
#[allow(clippy::too_many_arguments)]
pub fn step1_store_with<G: Game, F: FeatureSet<G>>(
    samples: &[Sample<G>],
    params: &[i32],
    learned: &Learned,
    cfg: &LearnConfig,
    eval: &LinearEval<G, F>,
    store: Option<&mut LeafStore>,
    extras: StoreExtras<'_>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Step1Stats, String> {
    let note_agree = |d: &[PositionData]| {
        if let Some(m) = extras.agree {
            if let Ok(mut v) = m.lock() {
                v.extend(d.iter().map(|p| (p.sample, p.agree)));
            }
        }
    };
    let Some(store) = store else {
        return Ok(step1_blocks::<G, F>(
            samples,
            params,
            learned,
            cfg,
            eval,
            false,
            progress,
            &|_, d| note_agree(&d),
        ));
    };
    let compress = store.compresses();
    let shared = std::sync::Mutex::new(store);
    let stats = step1_blocks::<G, F>(
        samples,
        params,
        learned,
        cfg,
        eval,
        true,
        progress,
        &|b, d| {
            note_agree(&d);
            let mut block = EncodedBlock::encode_with(&d, extras.keep_record);
            drop(d);
            if compress {
                block = block.compressed();
            }
            if let Ok(mut s) = shared.lock() {
                s.insert(b, block);
            }
        },
    );
    let store = shared
        .into_inner()
        .map_err(|_| "step 1: a worker failed while storing leaves".to_string())?;
    store.finish()?;
    Ok(stats)
}

/// The worker loop of step 1: `on_block(b, data)` receives block `b`'s results, in any order.
#[allow(clippy::too_many_arguments)]
fn step1_blocks<G: Game, F: FeatureSet<G>>(
    samples: &[Sample<G>],
    params: &[i32],
    learned: &Learned,
    cfg: &LearnConfig,
    eval: &LinearEval<G, F>,
    keep_leaves: bool,
    progress: &(dyn Fn(u64) + Sync),
    on_block: &(dyn Fn(usize, Vec<PositionData>) + Sync),
) -> Step1Stats {
    let threads = cfg.threads.max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let next = &next;
    let blocks = samples.len().div_ceil(STEP1_BLOCK);
    let results: Vec<Step1Stats> = crossbeam::scope(|scope| {
        let handles: Vec<_> = (0..threads.min(blocks.max(1)))
            .map(|_| {
                scope
                    .builder()
                    .stack_size(64 << 20)
                    .spawn(move |_| {
                        let mut searcher = LeafSearcher::new(SearchParams::learner(), 1);
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
                            for (k, s) in part.iter().enumerate() {
                                let t = std::time::Instant::now();
                                if let Some(mut d) = step1_position::<G, F>(
                                    &mut searcher,
                                    &ctx,
                                    s,
                                    &mut stats,
                                    keep_leaves,
                                ) {
                                    d.sample = (b * STEP1_BLOCK + k) as u32;
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
                            on_block(b, out);
                        }
                        stats
                    })
                    .expect("spawning a learner thread")
            })
            .collect();
        super::join_all(handles)
    })
    .unwrap_or_default();
    let mut stats = Step1Stats::default();
    for s in results {
        stats.add(&s);
    }
    stats
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
