//! Comparison training (Tesauro 2001, the MMTO paper's eq. 3 and its baseline):
//! T_ct(x) = (σ(k·R(x)) − 1)², gradient descent on real-valued shadow weights, rounded to the grid
//! for play. The shadow weights are the method's state (kept in checkpoints).

use super::config::LearnConfig;
use super::dataset::Rng;
use super::grad::SparseGrad;
use super::learned::Learned;
use super::method::{LearningMethod, UpdateInfo};

/// Comparison training with its shadow weights.
pub struct Ct {
    cfg: LearnConfig,
    shadow: Vec<f64>,
}

impl Ct {
    pub fn new(cfg: &LearnConfig) -> Self {
        Ct {
            cfg: cfg.clone(),
            shadow: Vec::new(),
        }
    }
}

impl LearningMethod for Ct {
    fn name(&self) -> &'static str {
        "ct"
    }

    #[inline]
    fn loss(&self, x: f64) -> (f64, f64) {
        let cfg = &self.cfg;
        let (r, dr) = if x >= 0.0 {
            (x, 1.0)
        } else {
            (cfg.ct_c * x, cfg.ct_c)
        };
        let sig = 1.0 / (1.0 + (-cfg.ct_scale * r).exp());
        let t = (sig - 1.0) * (sig - 1.0);
        (t, 2.0 * (sig - 1.0) * sig * (1.0 - sig) * cfg.ct_scale * dr)
    }

    /// The shadow weights from the checkpoint, else from the integer starting weights.
    fn start(&mut self, w: &[i32], saved: Vec<f64>) {
        self.shadow = if saved.len() == w.len() {
            saved
        } else {
            w.iter().map(|&v| v as f64).collect()
        };
    }

    fn update(
        &mut self,
        w: &mut [i32],
        grad: &SparseGrad,
        _learned: &Learned,
        scale: i32,
        _rng: &mut Rng,
    ) -> UpdateInfo {
        ct_update(w, &mut self.shadow, grad, scale, &self.cfg)
    }

    fn state(&self) -> Vec<f64> {
        self.shadow.clone()
    }
}

/// Comparison training's update: gradient descent on real-valued shadow weights, rounded for play.
/// Only touched weights move: elsewhere the derivative is 0, the shadow weight stays, and the
/// weight already is its rounding (true from `start` on, since every update keeps it so).
pub fn ct_update(
    w: &mut [i32],
    shadow: &mut [f64],
    grad: &SparseGrad,
    scale: i32,
    cfg: &LearnConfig,
) -> UpdateInfo {
    let values = grad.values();
    let mut info = UpdateInfo::default();
    // The rate is per evaluation unit: in weight units the gradient is 1/scale of the gradient per
    // evaluation unit, and a step moves the evaluation by 1/scale of itself, hence scale².
    let rate = cfg.ct_rate * (scale as f64) * (scale as f64);
    for &i in grad.touched() {
        let i = i as usize;
        shadow[i] -= rate * values[i];
        let r = shadow[i].round().clamp(i32::MIN as f64, i32::MAX as f64) as i32;
        if r != w[i] {
            w[i] = r;
            info.changed += 1;
        }
    }
    info
}
