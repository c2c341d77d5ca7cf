//! The interface a learning method implements, so the iteration driver (`run`) never names a
//! method: step 1 (the PV leaves, `step1`) and the objective's sums (`objective`) are shared; a
//! method supplies the loss T of the objective, its update of the learned weights, what the update
//! reports (`UpdateInfo`, in the metrics line), and any state of its own that a checkpoint must
//! keep. A new method (TreeStrap, …) implements `LearningMethod`, adds a `Method` variant and one
//! arm in `for_config`.

use super::config::{LearnConfig, Method};
use super::dataset::Rng;
use super::grad::SparseGrad;
use super::learned::Learned;

/// What one update did (for the metrics).
#[derive(Debug, Clone, Copy, Default)]
pub struct UpdateInfo {
    /// The Lagrange multiplier: the median of the constrained weights' partial derivatives.
    pub lambda0: f64,
    pub changed: usize,
}

/// One learning method over the shared step 1 and objective.
pub trait LearningMethod: Send + Sync {
    /// The method's name in provenance blocks ("mmto", "ct").
    fn name(&self) -> &'static str;

    /// T(x) and dT/dx, where x = s(p.d) − s(p.m): how much a move pair counts against the
    /// record move.
    fn loss(&self, x: f64) -> (f64, f64);

    /// Called once before the first update of a run: `w` are the learned weights (local
    /// indices), `saved` the method's state from a checkpoint (empty on a fresh start).
    fn start(&mut self, _w: &[i32], _saved: Vec<f64>) {}

    /// One update of the learned weights `w` from the raw-sum gradient `grad` (sparse: an update
    /// should cost O(touched weights), plus whatever weights it moves without a gradient).
    /// `scale` is `SCALE / COUNT_UNIT`, the evaluation's divisor per occurrence of a term.
    fn update(
        &mut self,
        w: &mut [i32],
        grad: &SparseGrad,
        learned: &Learned,
        scale: i32,
        rng: &mut Rng,
    ) -> UpdateInfo;

    /// The state a checkpoint keeps (given back to `start` on a resume).
    fn state(&self) -> Vec<f64> {
        Vec::new()
    }
}

/// The method a run's settings name.
pub fn for_config(cfg: &LearnConfig) -> Box<dyn LearningMethod> {
    match cfg.method {
        Method::Mmto => Box::new(super::mmto::Mmto::new(cfg)),
        Method::Ct => Box::new(super::ct::Ct::new(cfg)),
    }
}
