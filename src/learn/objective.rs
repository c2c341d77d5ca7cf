//! Steps 2-3's objective over the stored leaves, shared by the methods: J = Σ T(s(p.d) − s(p.m))
//! and its gradient through the leaves, with T and T' from the method (`LearningMethod::loss`),
//! and the L1 term J_R.

use super::config::LearnConfig;
use super::learned::Learned;
use super::method::{self, LearningMethod};
use super::step1::{Child, Leaf, PositionData};

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

/// J and ∂J/∂w over the stored leaves for the learned weights `w` (local indices), with the loss
/// of `cfg.method`.
pub fn objective(data: &[PositionData], w: &[i32], scale: i32, cfg: &LearnConfig) -> Objective {
    objective_with(
        data,
        w,
        scale,
        cfg.threads,
        method::for_config(cfg).as_ref(),
    )
}

/// J and ∂J/∂w with a given method's loss, on `threads` workers.
pub fn objective_with(
    data: &[PositionData],
    w: &[i32],
    scale: i32,
    threads: usize,
    method: &dyn LearningMethod,
) -> Objective {
    let threads = threads.max(1);
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
                                    let (t, dt) = method.loss(-leaf_value(diff, w, scale));
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
        super::join_all(handles)
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

/// J_R = λ1·Σ|w''| over the regularised learned weights.
pub fn l1_term(w: &[i32], learned: &Learned, l1: f64) -> f64 {
    w.iter()
        .enumerate()
        .filter(|(i, _)| learned.is_regularized(*i))
        .map(|(_, v)| v.unsigned_abs() as f64)
        .sum::<f64>()
        * l1
}
