//! The backups of Table 1 (Veness et al. 2009) for a linear heuristic, one search at a time:
//! TreeStrap(αβ) moves every walked node's H towards the bounds the search established for it
//! (one-sided squared loss: only a violated bound pulls), TreeStrap(minimax) every interior node
//! of a full-width tree towards its exact value, RootStrap(αβ) moves the root towards its
//! search value, and TD-Leaf(λ) moves the principal leaves towards the next search's value through
//! an eligibility trace.
//!
//! Two departures from the paper's TreeStrap, both off by default: `quiet_nodes` leaves out the
//! nodes inside an exchange, and `value_by_quiescence` values every node by its quiescence leaf.
//! At depth 3 many walked nodes lie inside an exchange, where the static value misses the
//! recapture the bounds include and the step lands on the one piece the node is short of
//! (docs/learning/treestrap.md: it drove the pawn's value below zero in chess and shogi).

use crate::eval::{Evaluator, FeatureSet};
use crate::game::{is_quiet, Game, INFINITE, MATE_BOUND};
use crate::learn::learned::Learned;
use crate::learn::model::{features_and_fixed, LocalFeatures, Model};
use crate::search::learner::{LeafSearcher, SearchParams, TrainingResult, TrainingSearch};

/// What the backups of a game did (summed into the metrics).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BackupStats {
    /// Nodes whose bounds were compared with H (root included).
    pub nodes_seen: u64,
    /// Of those, nodes whose H broke a bound and moved.
    pub nodes_updated: u64,
    /// Σ δ² over the nodes seen (δ = 0 where no bound is broken).
    pub sq_error: f64,
}

impl BackupStats {
    pub fn add(&mut self, o: &BackupStats) {
        self.nodes_seen += o.nodes_seen;
        self.nodes_updated += o.nodes_updated;
        self.sq_error += o.sq_error;
    }
}

/// A score as a learning target: clamped into ±cap (mates count as ±cap).
pub fn target(score: i32, cap: i32) -> f64 {
    if score >= MATE_BOUND {
        cap as f64
    } else if score <= -MATE_BOUND {
        -cap as f64
    } else {
        score.clamp(-cap, cap) as f64
    }
}

/// Scratch buffers and settings of a game's backups.
pub struct Backup<'a> {
    pub learned: &'a Learned,
    /// η of each learned table (`learned.tables` order).
    pub etas: Vec<f64>,
    pub cap: i32,
    pub min_depth: i32,
    /// TreeStrap: skip the nodes `is_quiet` refuses (`--quiet-nodes`).
    pub quiet_nodes: bool,
    /// TreeStrap with `--node-value quiescence`: a node's H is the static value of the leaf of
    /// its quiescence search under the search's weights (the gradient goes through that leaf's
    /// features), not its own static value.
    quiescence: Option<LeafSearcher>,
    buf: Vec<(u32, i32)>,
    feats: LocalFeatures,
    /// The value of the tables not learned for the features in `feats` (`features_and_fixed`).
    fixed: f64,
}

impl<'a> Backup<'a> {
    pub fn new(learned: &'a Learned, etas: Vec<f64>, cap: i32, min_depth: i32) -> Self {
        Backup {
            learned,
            etas,
            cap,
            min_depth,
            quiet_nodes: false,
            quiescence: None,
            buf: Vec::new(),
            feats: Vec::new(),
            fixed: 0.0,
        }
    }

    /// Values the walked nodes by their quiescence search's leaf (`--node-value quiescence`).
    pub fn value_by_quiescence(&mut self) {
        self.quiescence = Some(LeafSearcher::new(SearchParams::learner(), 1));
    }

    /// The features whose value is the node's H in `self.feats`, from the node's side to move:
    /// its own, or (with `value_by_quiescence`) those of its quiescence leaf under `eval` (the
    /// weights of the search), negated when the leaf has the other side to move. Inside an
    /// exchange the static value misses the recapture the bounds see; the quiescence leaf does not.
    fn node_features<G: Game, F: FeatureSet<G>, E: Evaluator<G>>(
        &mut self,
        model: &Model,
        pos: &G,
        eval: &E,
    ) {
        let leaf = self
            .quiescence
            .as_mut()
            .and_then(|q| q.search(eval, pos, 0, -INFINITE, INFINITE))
            .map(|r| r.leaf);
        match leaf {
            Some(l) => {
                self.fixed = features_and_fixed::<G, F>(
                    model,
                    &l,
                    self.learned,
                    &mut self.buf,
                    &mut self.feats,
                );
                if l.side_to_move() != pos.side_to_move() {
                    for f in self.feats.iter_mut() {
                        f.1 = -f.1;
                    }
                    self.fixed = -self.fixed;
                }
            }
            None => {
                self.fixed = features_and_fixed::<G, F>(
                    model,
                    pos,
                    self.learned,
                    &mut self.buf,
                    &mut self.feats,
                )
            }
        }
    }

    /// δ of one node towards [lower, upper] under the current weights (0 when H is inside the
    /// bounds), with the node's features left in `self.feats`.
    fn error<G: Game, F: FeatureSet<G>>(
        &mut self,
        model: &Model,
        pos: &G,
        lower: Option<f64>,
        upper: Option<f64>,
        stats: &mut BackupStats,
    ) -> f64 {
        self.fixed =
            features_and_fixed::<G, F>(model, pos, self.learned, &mut self.buf, &mut self.feats);
        self.bound_error(model, lower, upper, stats)
    }

    /// δ of the features in `self.feats` towards [lower, upper] under the current weights.
    fn bound_error(
        &mut self,
        model: &Model,
        lower: Option<f64>,
        upper: Option<f64>,
        stats: &mut BackupStats,
    ) -> f64 {
        let h = model.value(&self.feats) + self.fixed;
        let mut d = 0.0;
        if let Some(lo) = lower {
            if h < lo {
                d = lo - h;
            }
        }
        if let Some(hi) = upper {
            if h > hi {
                d = hi - h;
            }
        }
        stats.nodes_seen += 1;
        stats.sq_error += d * d;
        if d != 0.0 {
            stats.nodes_updated += 1;
        }
        d
    }

    /// TreeStrap(αβ) after one search: the root (exact value) and every node the table walk
    /// finds with depth ≥ `min_depth` (with `quiet_nodes`, only those of them that are quiet).
    /// Every δ is measured with the weights as they were for the search (`eval`, which also
    /// values the nodes' quiescence searches), then the summed step is applied (the paper's Δθ
    /// over the tree), in the walk's order, which is fixed by the table's content.
    pub fn treestrap<G: Game, F: FeatureSet<G>, E: Evaluator<G>>(
        &mut self,
        model: &mut Model,
        eval: &E,
        search: &TrainingSearch,
        root: &G,
        result: &TrainingResult<G>,
        delta: &mut [f64],
    ) -> BackupStats {
        let cap = self.cap;
        let v = target(result.score, cap);
        let mut nodes: Vec<(G, Option<f64>, Option<f64>)> = vec![(root.clone(), Some(v), Some(v))];
        search.walk(root, self.min_depth, &mut |n| {
            nodes.push((
                n.pos.clone(),
                n.lower().map(|s| target(s, cap)),
                n.upper().map(|s| target(s, cap)),
            ));
        });
        if self.quiet_nodes {
            let mut moves = Vec::new();
            nodes.retain(|(pos, _, _)| is_quiet(pos, &mut moves));
        }
        self.step_towards::<G, F, E>(
            model,
            eval,
            nodes.iter().map(|(p, lo, hi)| (p, *lo, *hi)),
            delta,
        )
    }

    /// Every node towards its bounds (`None`: unbounded on that side): each δ measured with the
    /// weights of the search, then the summed step applied, in the nodes' order.
    fn step_towards<'n, G: Game + 'n, F: FeatureSet<G>, E: Evaluator<G>>(
        &mut self,
        model: &mut Model,
        eval: &E,
        nodes: impl Iterator<Item = (&'n G, Option<f64>, Option<f64>)>,
        delta: &mut [f64],
    ) -> BackupStats {
        let mut stats = BackupStats::default();
        let mut steps: Vec<(LocalFeatures, f64)> = Vec::new();
        for (pos, lo, hi) in nodes {
            self.node_features::<G, F, E>(model, pos, eval);
            let d = self.bound_error(model, lo, hi, &mut stats);
            if d != 0.0 {
                steps.push((self.feats.clone(), d));
            }
        }
        for (feats, d) in &steps {
            model.apply(feats, *d, &self.etas, self.learned, delta);
        }
        stats
    }

    /// TreeStrap(minimax) after one search: every interior node of the tree (`nodes`: position
    /// and exact minimax value as a target) towards its value, two-sided. As for TreeStrap(αβ),
    /// every δ is measured with the search's weights, then the summed step is applied.
    pub fn treestrap_minimax<G: Game, F: FeatureSet<G>, E: Evaluator<G>>(
        &mut self,
        model: &mut Model,
        eval: &E,
        nodes: &[(G, f64)],
        delta: &mut [f64],
    ) -> BackupStats {
        self.step_towards::<G, F, E>(
            model,
            eval,
            nodes.iter().map(|(p, v)| (p, Some(*v), Some(*v))),
            delta,
        )
    }

    /// RootStrap(αβ): the root towards its search value (with `value_by_quiescence`, the root
    /// valued by its quiescence leaf under the search's weights `eval`, as TreeStrap's nodes are:
    /// a root in the middle of an exchange is valued after it).
    pub fn rootstrap<G: Game, F: FeatureSet<G>, E: Evaluator<G>>(
        &mut self,
        model: &mut Model,
        eval: &E,
        root: &G,
        result: &TrainingResult<G>,
        delta: &mut [f64],
    ) -> BackupStats {
        let mut stats = BackupStats::default();
        let v = target(result.score, self.cap);
        let d = if self.quiescence.is_some() {
            self.node_features::<G, F, E>(model, root, eval);
            self.bound_error(model, Some(v), Some(v), &mut stats)
        } else {
            self.error::<G, F>(model, root, Some(v), Some(v), &mut stats)
        };
        if d != 0.0 {
            let feats = std::mem::take(&mut self.feats);
            model.apply(&feats, d, &self.etas, self.learned, delta);
            self.feats = feats;
        }
        stats
    }

    /// The features and value of a position from `G`'s first side's view (TD-Leaf works in one
    /// fixed view along the game).
    pub fn first_view<G: Game, F: FeatureSet<G>>(
        &mut self,
        model: &Model,
        pos: &G,
    ) -> (LocalFeatures, f64) {
        let fixed =
            features_and_fixed::<G, F>(model, pos, self.learned, &mut self.buf, &mut self.feats);
        let sign = if pos.side_to_move() == crate::game::Side::First {
            1
        } else {
            -1
        };
        let f: LocalFeatures = self.feats.iter().map(|&(l, c)| (l, sign * c)).collect();
        let h = model.value(&f) + f64::from(sign) * fixed;
        (f, h)
    }
}

/// TD-Leaf(λ) along one game, online (Baxter et al. 1998 with eligibility traces): after the
/// search at time t+1, d_t = V_{t+1} − H(l_t) in the first side's view and θ += η·d_t·e_t, where
/// e_t = λ·e_{t−1} + ∇H(l_t) and l_t is the principal leaf of the search at t. The game's end
/// gives the last target (±cap for a win, 0 for a draw).
pub struct TdLeaf {
    lambda: f64,
    /// The trace over local weights (sparse: indices touched, values).
    trace: Vec<f64>,
    touched: Vec<u32>,
    /// H(l_t) of the last search, first side's view.
    last_leaf_value: Option<f64>,
}

impl TdLeaf {
    pub fn new(n_local: usize, lambda: f64) -> Self {
        TdLeaf {
            lambda,
            trace: vec![0.0; n_local],
            touched: Vec::new(),
            last_leaf_value: None,
        }
    }

    /// A new target value `v` (first side's view) for the last leaf: one TD step.
    pub fn target(
        &mut self,
        model: &mut Model,
        v: f64,
        etas: &[f64],
        learned: &Learned,
        delta: &mut [f64],
        stats: &mut BackupStats,
    ) {
        let Some(h) = self.last_leaf_value else {
            return;
        };
        let d = v - h;
        stats.nodes_seen += 1;
        stats.sq_error += d * d;
        if d == 0.0 {
            return;
        }
        stats.nodes_updated += 1;
        // The trace holds Σ λ^k ∇H in count units.
        let scale = model.step_scale();
        for &l in &self.touched {
            let li = l as usize;
            let k = etas[learned.table_of(li)] * d * scale;
            let step = k * self.trace[li];
            model.theta[li] += step;
            delta[li] += step;
            model.params[learned.global(li)] = crate::learn::model::quantise(model.theta[li]);
        }
    }

    /// The new principal leaf (first side's features and value): decays the trace and adds it.
    pub fn leaf(&mut self, feats: &[(u32, i32)], value: f64) {
        if self.lambda == 0.0 {
            for &l in &self.touched {
                self.trace[l as usize] = 0.0;
            }
            self.touched.clear();
        } else {
            for &l in &self.touched {
                self.trace[l as usize] *= self.lambda;
            }
        }
        for &(l, c) in feats {
            let t = &mut self.trace[l as usize];
            if *t == 0.0 {
                self.touched.push(l);
            }
            *t += c as f64;
        }
        // Drop entries that decayed to nothing, so the trace stays sparse.
        let trace = &mut self.trace;
        self.touched.retain(|&l| {
            if trace[l as usize].abs() < 1e-9 {
                trace[l as usize] = 0.0;
                false
            } else {
                true
            }
        });
        self.last_leaf_value = Some(value);
    }
}
