//! Steps 2-3's objective over the stored leaves, shared by the methods: J = Σ T(s(p.d) − s(p.m))
//! and its gradient through the leaves, with T and T' from the method (`LearningMethod::loss`),
//! and the L1 term J_R.
//!
//! The learner uses `objective_store`: leaves read from the compact store, the gradient in sparse
//! buffers (`grad::SparseGrad`). `objective` and `objective_with` are the dense reference over
//! decoded leaves (tests check the sparse path against them bit for bit).
//!
//! The parameterised objective of "Objective tuning" (agreement with slope, margin and weight per
//! position category, plus the win-probability term; `learn mmto --objective-params FILE`) is in
//! the submodules: `params` (the file), `categories`, `weighted` (J1, J2 and their gradient) and
//! `setup` (what the driver calls).

pub mod categories;
pub mod params;
pub mod setup;
pub mod weighted;

use super::config::LearnConfig;
use super::grad::SparseGrad;
use super::learned::Learned;
use super::leaves::codec::Decoded;
use super::leaves::LeafStore;
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

/// J and ∂J/∂w with a given method's loss, on `threads` workers (dense reference).
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

/// Checks the store against the weights and clears the per-thread gradient buffers; returns the
/// number of stored positions each thread takes. Shared by every objective over the store.
pub(crate) fn prepare_grads(
    store: &LeafStore,
    w: &[i32],
    grads: &mut [SparseGrad],
) -> Result<usize, String> {
    let threads = grads.len().max(1);
    if store
        .features()
        .last()
        .is_some_and(|&i| i as usize >= w.len())
    {
        return Err("leaf store: a feature index beyond the learned weights".into());
    }
    for g in grads.iter_mut() {
        if g.len() != w.len() {
            return Err("gradient buffer of the wrong size".into());
        }
        g.clear();
    }
    Ok(store.len().div_ceil(threads).max(1))
}

/// J and the number of move pairs over the leaf store, on one worker per gradient buffer in
/// `grads` (each over all learned weights). ∂J/∂w is left in `grads[0]`, its touched indices
/// sorted. Positions are split among the workers and the parts summed in worker order exactly as
/// `objective_with` does, so the result is the same to the last bit.
pub fn objective_store(
    store: &LeafStore,
    w: &[i32],
    scale: i32,
    method: &dyn LearningMethod,
    grads: &mut [SparseGrad],
) -> Result<(f64, u64), String> {
    let chunk = prepare_grads(store, w, grads)?;
    let n = store.len();
    let scale = scale as f64;
    let features = store.features();
    let parts: Vec<Result<(f64, u64), String>> = crossbeam::scope(|scope| {
        let handles: Vec<_> = grads
            .iter_mut()
            .enumerate()
            .take(n.div_ceil(chunk))
            .map(|(k, grad)| {
                scope.spawn(move |_| {
                    let (mut j, mut pairs) = (0.0, 0u64);
                    let values = grad.values_mut();
                    store.visit(k * chunk, n.min((k + 1) * chunk), |r| {
                        for _ in 0..r.children()? {
                            pairs += 1;
                            match r.child()? {
                                Decoded::Above => j += 1.0,
                                Decoded::Below => {}
                                Decoded::Window(constant) => {
                                    // The same sums in the same order as `leaf_value`.
                                    let mut sum = constant;
                                    for &(i, c) in &r.feats {
                                        let wi =
                                            w.get(i as usize).ok_or("leaf store: bad index")?;
                                        sum += *wi as f64 * c as f64;
                                    }
                                    let (t, dt) = method.loss(-(sum / scale));
                                    j += t;
                                    if dt != 0.0 {
                                        let k = dt / scale;
                                        for &(i, c) in &r.feats {
                                            values[i as usize] -= k * c as f64;
                                        }
                                    }
                                }
                            }
                        }
                        Ok(())
                    })?;
                    Ok((j, pairs))
                })
            })
            .collect();
        handles
            .into_iter()
            // A worker's panic is a bug: pass it on rather than learn from partial results.
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
    .unwrap_or_default();
    let (mut j, mut pairs) = (0.0, 0u64);
    for p in parts {
        let (pj, pp) = p?;
        j += pj;
        pairs += pp;
    }
    sum_grads(grads, features);
    Ok((j, pairs))
}

/// Sums the workers' gradient parts into the first buffer, in worker order, as the dense path
/// does (0.0 + p0 + p1 …: a worker's part is never −0.0, so starting from p0 gives the same bits),
/// and marks the store's features as touched. Shared by every objective over the store.
pub(crate) fn sum_grads(grads: &mut [SparseGrad], features: &[u32]) {
    if let Some((first, rest)) = grads.split_first_mut() {
        let total = first.values_mut();
        for g in rest.iter() {
            let part = g.values();
            for &i in features {
                total[i as usize] += part[i as usize];
            }
        }
    }
    for g in grads.iter_mut() {
        g.set_touched(features);
    }
}

/// J_R = λ1·Σ|w''| over the regularised learned weights.
pub fn l1_term(w: &[i32], learned: &Learned, l1: f64) -> f64 {
    // Table by table (the same sum in the same order as index by index, without a table lookup
    // per weight).
    learned
        .tables
        .iter()
        .filter(|t| t.0 != "material")
        .flat_map(|t| w[t.3..(t.3 + t.2 - t.1).min(w.len())].iter())
        .map(|v| v.unsigned_abs() as f64)
        .sum::<f64>()
        * l1
}
