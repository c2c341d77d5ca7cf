//! The grid-adjacent update (§3.4 of the MMTO paper): every learned weight moves one grid step
//! against the sign of its derivative, the piece values under an equality constraint (the median
//! derivative as Lagrange multiplier) and L1 on the rest. Shared by the methods that keep integer
//! weights on the grid (MMTO today).
//!
//! `grid_update_sparse` is what the learner runs: it visits only the weights the gradient touched
//! and the non-zero ones (L1 moves those even without a gradient), in index order, and so draws
//! the same random steps as the dense `grid_update`, the reference it is tested against. Every
//! other weight is zero with a zero derivative, which the update leaves alone.

use super::config::{LearnConfig, Step};
use super::dataset::Rng;
use super::grad::{union_sorted, SparseGrad};
use super::learned::Learned;
use super::method::UpdateInfo;

fn step_size(step: Step, rng: &mut Rng) -> i32 {
    match step {
        Step::Fixed(h) => h,
        Step::Random => rng.below(3) as i32,
    }
}

/// The grid-adjacent update (§3.4) of the learned weights `w` from the raw-sum gradient (dense
/// reference of `grid_update_sparse`).
pub fn grid_update(
    w: &mut [i32],
    grad: &[f64],
    learned: &Learned,
    cfg: &LearnConfig,
    rng: &mut Rng,
) -> UpdateInfo {
    let mut info = constrained_update(w, grad, learned, cfg, rng);
    let (ca, cb) = learned.constrained.unwrap_or((0, 0));
    for (i, &d) in grad.iter().enumerate().take(w.len()) {
        if i >= ca && i < cb {
            continue;
        }
        step_weight(w, i, d, learned.is_regularized(i), cfg, rng, &mut info);
    }
    info
}

/// The indices outside the constrained range where `w` is non-zero, sorted: the weights L1 moves
/// without a gradient (`grid_update_sparse` keeps the list up to date).
pub fn nonzero_indices(w: &[i32], learned: &Learned) -> Vec<u32> {
    let (ca, cb) = learned.constrained.unwrap_or((0, 0));
    (0..w.len())
        .filter(|&i| w[i] != 0 && !(i >= ca && i < cb))
        .map(|i| i as u32)
        .collect()
}

/// `grid_update` visiting only the touched and the non-zero weights; `nonzero` is
/// `nonzero_indices(w)` before and is updated to it after. `scratch` is a reusable buffer.
pub fn grid_update_sparse(
    w: &mut [i32],
    grad: &SparseGrad,
    nonzero: &mut Vec<u32>,
    scratch: &mut Vec<u32>,
    learned: &Learned,
    cfg: &LearnConfig,
    rng: &mut Rng,
) -> UpdateInfo {
    let values = grad.values();
    let mut info = constrained_update(w, values, learned, cfg, rng);
    let (ca, cb) = learned.constrained.unwrap_or((0, 0));
    union_sorted(grad.touched(), nonzero, scratch);
    // Whether L1 applies is per table: look the table up once per run of indices, not per index.
    let regs: Vec<(usize, usize, bool)> = learned
        .tables
        .iter()
        .map(|t| (t.3, t.3 + t.2 - t.1, t.0 != "material"))
        .collect();
    let mut t = 0;
    for &i in scratch.iter() {
        let i = i as usize;
        if i >= ca && i < cb {
            continue;
        }
        while t < regs.len() && i >= regs[t].1 {
            t += 1;
        }
        let regularized = regs.get(t).is_none_or(|r| r.2 || i < r.0);
        step_weight(w, i, values[i], regularized, cfg, rng, &mut info);
    }
    nonzero.clear();
    nonzero.extend(scratch.iter().copied().filter(|&i| {
        let i = i as usize;
        w[i] != 0 && !(i >= ca && i < cb)
    }));
    info
}

/// The piece values' update under the equality constraint.
fn constrained_update(
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
    info
}

/// One unconstrained weight's grid step from its derivative `d`.
#[inline]
fn step_weight(
    w: &mut [i32],
    i: usize,
    d: f64,
    regularized: bool,
    cfg: &LearnConfig,
    rng: &mut Rng,
    info: &mut UpdateInfo,
) {
    let g = if regularized {
        if w[i] == 0 && d.abs() <= cfg.l1 {
            // The L1 subgradient at zero absorbs a derivative this small: stay at zero.
            return;
        }
        d + cfg.l1 * (w[i].signum() as f64)
    } else {
        d
    };
    if g == 0.0 {
        return;
    }
    let h = step_size(cfg.step, rng);
    let before = w[i];
    w[i] -= h * (g.signum() as i32);
    // L1 moves a weight to zero, never across it in one step.
    if regularized && before != 0 && w[i].signum() == -before.signum() && d.abs() <= cfg.l1 {
        w[i] = 0;
    }
    if w[i] != before {
        info.changed += 1;
    }
}
