//! The grid-adjacent update (§3.4 of the MMTO paper): every learned weight moves one grid step
//! against the sign of its derivative, the piece values under an equality constraint (the median
//! derivative as Lagrange multiplier) and L1 on the rest. Shared by the methods that keep integer
//! weights on the grid (MMTO today).

use super::config::{LearnConfig, Step};
use super::dataset::Rng;
use super::learned::Learned;
use super::method::UpdateInfo;

fn step_size(step: Step, rng: &mut Rng) -> i32 {
    match step {
        Step::Fixed(h) => h,
        Step::Random => rng.below(3) as i32,
    }
}

/// The grid-adjacent update (§3.4) of the learned weights `w` from the raw-sum gradient.
pub fn grid_update(
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
