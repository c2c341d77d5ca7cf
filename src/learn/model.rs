//! The linear heuristic H_θ(s) = φ(s)ᵀθ / scale in floating point over the learned tables, and
//! its quantisation into the integer parameters the play search evaluates with: the weights of
//! the learners that step in floating point (TreeStrap and its baselines, `learn texel`).
//!
//! Units: θ is in the feature set's weight units (chess 1/32 cp, shogi 1/32 of Bonanza's unit),
//! H in evaluation units. A step of rate η moves a weight by η·δ·count·scale/unit², i.e.
//! η·(scale/unit)² times the gradient of H per weight unit (`unit`: `FeatureSet::COUNT_UNIT`):
//! η is per evaluation unit², as `learn ct`'s rate, so that it does not change meaning with the
//! weights' or the counts' fixed-point resolution.

use crate::eval::rng::SplitMix64;
use crate::eval::{FeatureSet, Weights};
use crate::game::Game;
use crate::learn::learned::Learned;

/// The learned weights in floating point, and the integer parameter vector they round into.
#[derive(Clone)]
pub struct Model {
    /// Learned weights, local index (`Learned`).
    pub theta: Vec<f64>,
    /// All parameters of the feature set; the learned ones are `round(theta)`.
    pub params: Vec<i32>,
    pub scale: i32,
    /// `FeatureSet::COUNT_UNIT`: a step is η·δ·count·scale / unit², so that chess's counts and
    /// scale, both 64 times the plain taper's, give the steps they gave before the endgame scale
    /// factor (rates are tuned per evaluation unit, not per fixed-point choice).
    pub unit: f64,
    /// Per parameter table: not learned and all zero, so never scanned nor expanded when the
    /// play weights are rebuilt (`weights`, after every move of self-play).
    pub zero_tables: Vec<bool>,
    /// Per parameter table: learned, or not learned with weights that are not all zero (fixed:
    /// `--init`'s), i.e. the tables whose features a node's H needs.
    fixed_or_learned: Vec<bool>,
    /// Whether any table is fixed and not zero ([`features_and_fixed`] then adds its value).
    has_fixed: bool,
}

/// A sparse feature vector restricted to the learned tables: (local index, count).
pub type LocalFeatures = Vec<(u32, i32)>;

impl Model {
    /// Small random weights, uniform in ±`range` weight units, from `seed`; tables not learned
    /// stay at zero.
    pub fn random<G: Game, F: FeatureSet<G>>(learned: &Learned, range: i32, seed: u64) -> Self {
        Self::from_theta::<G, F>(learned, noise(learned.n_local, range, seed))
    }

    /// `base`'s values plus small random ones (uniform in ±`range`, from `seed`, the same draws
    /// as [`Model::random`]) for the learned tables; the others keep `base`'s.
    pub fn random_over_base<G: Game, F: FeatureSet<G>>(
        learned: &Learned,
        base: &[i32],
        range: i32,
        seed: u64,
    ) -> Self {
        let theta = noise(learned.n_local, range, seed)
            .iter()
            .enumerate()
            .map(|(l, n)| base[learned.global(l)] as f64 + n)
            .collect();
        Self::over_base::<G, F>(learned, base, theta)
    }

    /// The model of given float weights (a checkpoint's).
    pub fn from_theta<G: Game, F: FeatureSet<G>>(learned: &Learned, theta: Vec<f64>) -> Self {
        let mut params = vec![0i32; F::num_params()];
        for (l, &t) in theta.iter().enumerate() {
            params[learned.global(l)] = quantise(t);
        }
        Self::build::<G, F>(learned, params, theta)
    }

    /// The model of `theta` (learned) and `params` (all, the learned ones already rounded).
    fn build<G: Game, F: FeatureSet<G>>(
        learned: &Learned,
        params: Vec<i32>,
        theta: Vec<f64>,
    ) -> Self {
        let zero_tables = zero_tables::<G, F>(learned, &params);
        let fixed_or_learned: Vec<bool> = zero_tables
            .iter()
            .enumerate()
            .map(|(t, &zero)| learned.mask.get(t).copied().unwrap_or(true) || !zero)
            .collect();
        let has_fixed = fixed_or_learned
            .iter()
            .enumerate()
            .any(|(t, &f)| f && !learned.mask.get(t).copied().unwrap_or(true));
        Model {
            theta,
            params,
            scale: F::SCALE,
            unit: F::COUNT_UNIT as f64,
            zero_tables,
            fixed_or_learned,
            has_fixed,
        }
    }

    /// The model of float weights over a base parameter vector: the tables not learned keep the
    /// base's values (`learn texel` starts from a whole weight file).
    pub fn over_base<G: Game, F: FeatureSet<G>>(
        learned: &Learned,
        base: &[i32],
        theta: Vec<f64>,
    ) -> Self {
        let mut params = base.to_vec();
        for (l, &t) in theta.iter().enumerate() {
            params[learned.global(l)] = quantise(t);
        }
        Self::build::<G, F>(learned, params, theta)
    }

    /// Rounds the float weights into `params` again (after a step that moved many weights).
    pub fn requantise(&mut self, learned: &Learned) {
        for (l, &t) in self.theta.iter().enumerate() {
            self.params[learned.global(l)] = quantise(t);
        }
    }

    /// The play weights (the learned ones rounded).
    pub fn weights<G: Game, F: FeatureSet<G>>(&self, provenance: &str) -> Result<Weights, String> {
        Weights::from_params_known_zero::<G, F>(&self.params, &self.zero_tables, provenance)
    }

    /// The factor of a step in weight units per count: `scale / unit²` (see `unit`).
    pub fn step_scale(&self) -> f64 {
        self.scale as f64 / (self.unit * self.unit)
    }

    /// H(s) in evaluation units from the side to move's view, for local features.
    pub fn value(&self, feats: &[(u32, i32)]) -> f64 {
        let s: f64 = feats
            .iter()
            .map(|&(l, c)| self.theta[l as usize] * c as f64)
            .sum();
        s / self.scale as f64
    }

    /// Adds η_t·`d`·count·scale/unit² to every feature's weight (a step of η_t·δ in evaluation units,
    /// η_t the rate of the feature's learned table, `etas` in `learned.tables` order), mirrors the
    /// rounding into `params`, and adds the change to `delta` (the game's total, local index).
    pub fn apply(
        &mut self,
        feats: &[(u32, i32)],
        d: f64,
        etas: &[f64],
        learned: &Learned,
        delta: &mut [f64],
    ) {
        let scale = self.step_scale();
        for &(l, c) in feats {
            let l = l as usize;
            let k = etas[learned.table_of(l)] * d * scale;
            let x = k * c as f64;
            self.theta[l] += x;
            delta[l] += x;
            self.params[learned.global(l)] = quantise(self.theta[l]);
        }
    }

    /// Adds a summed change (a batch's) to the weights.
    pub fn add(&mut self, delta: &[f64], learned: &Learned) {
        for (l, &d) in delta.iter().enumerate() {
            if d != 0.0 {
                self.theta[l] += d;
                self.params[learned.global(l)] = quantise(self.theta[l]);
            }
        }
    }
}

/// Per parameter table: whether it is not learned and all zero in `params` (it stays so).
fn zero_tables<G: Game, F: FeatureSet<G>>(learned: &Learned, params: &[i32]) -> Vec<bool> {
    crate::eval::param_ranges::<G, F>()
        .iter()
        .enumerate()
        .map(|(t, &(_, a, b))| {
            let is_learned = learned.mask.get(t).copied().unwrap_or(true);
            !is_learned && params.get(a..b).is_some_and(|p| p.iter().all(|&v| v == 0))
        })
        .collect()
}

/// `n` small random weights, uniform in ±`range` weight units, from `seed`.
fn noise(n: usize, range: i32, seed: u64) -> Vec<f64> {
    let mut rng = SplitMix64::new(seed ^ 0x7472_6565_7374_7261);
    (0..n).map(|_| rng.symmetric(range.max(0)) as f64).collect()
}

/// The integer weight a float weight plays as.
pub fn quantise(t: f64) -> i32 {
    t.round().clamp(i32::MIN as f64, i32::MAX as f64) as i32
}

/// [`local_features`], and the value of the tables not learned under `model`'s parameters (their
/// weights are fixed: the self-play learners' `--init` values, or zero), in evaluation units
/// from the side to move's view: a node's H is the learned part plus this.
pub fn features_and_fixed<G: Game, F: FeatureSet<G>>(
    model: &Model,
    pos: &G,
    learned: &Learned,
    buf: &mut Vec<(u32, i32)>,
    out: &mut LocalFeatures,
) -> f64 {
    if !model.has_fixed {
        local_features::<G, F>(pos, learned, buf, out);
        return 0.0;
    }
    buf.clear();
    F::features_some(pos, &model.fixed_or_learned, buf);
    out.clear();
    let mut fixed = 0i64;
    for &(i, c) in buf.iter() {
        match learned.local(i as usize) {
            Some(l) => out.push((l as u32, c)),
            // A table left out of the mask may appear too: its weights are zero.
            None => fixed += i64::from(model.params[i as usize]) * i64::from(c),
        }
    }
    fixed as f64 / model.scale as f64
}

/// The features of `pos` in the learned tables, as (local index, count) from the side to move's
/// view (`buf` is scratch).
pub fn local_features<G: Game, F: FeatureSet<G>>(
    pos: &G,
    learned: &Learned,
    buf: &mut Vec<(u32, i32)>,
    out: &mut LocalFeatures,
) {
    buf.clear();
    F::features_some(pos, &learned.mask, buf);
    out.clear();
    out.extend(
        buf.iter()
            .filter_map(|&(i, c)| learned.local(i as usize).map(|l| (l as u32, c))),
    );
}
