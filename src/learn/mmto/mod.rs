//! Minimax Tree Optimization (Hoki & Kaneko, JAIR 2014): T(x) = 1/(1+e^{ax}) over the shared
//! step-1 leaves, and the grid-adjacent update (`update::grid_update`): integer weights, one grid
//! step each against the derivative's sign, piece values under the equality constraint, L1 on the
//! rest. Its only state is the list of non-zero weights, which L1 moves even without a gradient
//! (rebuilt from the weights at `start`, so checkpoints need not keep it).

use super::config::LearnConfig;
use super::dataset::Rng;
use super::grad::SparseGrad;
use super::learned::Learned;
use super::method::{LearningMethod, UpdateInfo};
use super::update::{grid_update_sparse, nonzero_indices};

/// MMTO's loss and update.
pub struct Mmto {
    cfg: LearnConfig,
    /// `update::nonzero_indices` of the weights; built at the first update of a run.
    nonzero: Option<Vec<u32>>,
    scratch: Vec<u32>,
}

impl Mmto {
    pub fn new(cfg: &LearnConfig) -> Self {
        Mmto {
            cfg: cfg.clone(),
            nonzero: None,
            scratch: Vec::new(),
        }
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

    fn start(&mut self, _w: &[i32], _saved: Vec<f64>) {
        // The learned tables are not known here: the list is built at the first update.
        self.nonzero = None;
    }

    fn update(
        &mut self,
        w: &mut [i32],
        grad: &SparseGrad,
        learned: &Learned,
        _scale: i32,
        rng: &mut Rng,
    ) -> UpdateInfo {
        let nonzero = self
            .nonzero
            .get_or_insert_with(|| nonzero_indices(w, learned));
        grid_update_sparse(w, grad, nonzero, &mut self.scratch, learned, &self.cfg, rng)
    }
}
