//! Minimax Tree Optimization (Hoki & Kaneko, JAIR 2014): T(x) = 1/(1+e^{ax}) over the shared
//! step-1 leaves, and the grid-adjacent update (`update::grid_update`): integer weights, one grid
//! step each against the derivative's sign, piece values under the equality constraint, L1 on the
//! rest. No state beyond the weights.

use super::config::LearnConfig;
use super::dataset::Rng;
use super::learned::Learned;
use super::method::{LearningMethod, UpdateInfo};
use super::update::grid_update;

/// MMTO's loss and update.
pub struct Mmto {
    cfg: LearnConfig,
}

impl Mmto {
    pub fn new(cfg: &LearnConfig) -> Self {
        Mmto { cfg: cfg.clone() }
    }
}

impl LearningMethod for Mmto {
    fn name(&self) -> &'static str {
        "mmto"
    }

    #[inline]
    fn loss(&self, x: f64) -> (f64, f64) {
        let a = self.cfg.a;
        let t = 1.0 / (1.0 + (a * x).exp());
        (t, -a * t * (1.0 - t))
    }

    fn update(
        &mut self,
        w: &mut [i32],
        grad: &[f64],
        learned: &Learned,
        _scale: i32,
        rng: &mut Rng,
    ) -> UpdateInfo {
        grid_update(w, grad, learned, &self.cfg, rng)
    }
}
