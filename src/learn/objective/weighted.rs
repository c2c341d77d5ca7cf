//! The parameterised objective of "Objective tuning" (eqs. 3-6) over the leaf store:
//!
//! ```text
//! J = Σ_p W3,p · Σ_d T_p(s(p.d) − s(p.m)),  T_p(x) = 1/(1 + exp(−W1,p (x + W2,p)))   (J1)
//!   + Σ_p W4,p · (−log-likelihood of p's game result y_p given g(s(p.m)))         (J2)
//!   (+ w0·L1, the method's update)
//! ```
//!
//! with g(v) = 1/(1 + exp(−k v)) and W_i,p = c_i · Π_{j ∈ C_p} w_i,j. s(p.m) is the value of the
//! record move's PV leaf, which the store keeps after the children when J2 is on.
//!
//! With every w = 1, c1 = --a, W2 = 0, W3 = 1, W4 = 0 each operation below is MMTO's
//! (`mmto::Mmto::loss` and `objective::objective_store`) with exact factors of 1 or terms of 0,
//! so the learned weights are bit-identical to MMTO's (tested).

use super::categories::Category;
use super::params::{ObjectiveParams, N_CATEGORIES};
use crate::learn::grad::SparseGrad;
use crate::learn::leaves::codec::Decoded;
use crate::learn::leaves::LeafStore;

/// W1..W4 of every training position, and its result for J2.
#[derive(Debug, Clone, Default)]
pub struct PositionWeights {
    /// `[W1, W2, W3, W4]` by sample index.
    pub w: Vec<[f64; 4]>,
    /// The result from the side to move by sample index (`None`: unknown, J2 skipped).
    pub y: Vec<Option<f64>>,
    /// The slope k of g.
    pub j2_slope: f64,
    /// Whether the store holds the record leaves (J2 on).
    pub j2: bool,
}

impl PositionWeights {
    /// W_i,p = c_i · Π_j w_i,j for each position's categories (`c1` already resolved).
    pub fn new(
        p: &ObjectiveParams,
        c1: f64,
        j2_slope: f64,
        cats: &[Category],
        results: &[Option<f64>],
    ) -> PositionWeights {
        let c = [c1, p.c2, p.c3, p.c4];
        let w = cats
            .iter()
            .map(|cat| {
                let idx = cat.indices();
                let mut out = [0.0; 4];
                for (i, o) in out.iter_mut().enumerate() {
                    *o = c[i] * p.w[i][idx[0]] * p.w[i][idx[1]] * p.w[i][idx[2]];
                }
                out
            })
            .collect();
        PositionWeights {
            w,
            y: results.to_vec(),
            j2_slope,
            j2: p.j2_on(),
        }
    }
}

/// The terms of one objective pass (raw sums).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Terms {
    pub j1: f64,
    pub j2: f64,
    pub pairs: u64,
    /// Positions that contributed to J2 (known result, W4 > 0).
    pub j2_positions: u64,
}

/// log(1 + e^z) without overflow.
#[inline]
fn softplus(z: f64) -> f64 {
    z.max(0.0) + (-z.abs()).exp().ln_1p()
}

/// J1, J2 and their gradient over the store, on one worker per buffer in `grads`; ∂J/∂w is left
/// in `grads[0]`. Positions are split among workers and summed in worker order as
/// `objective_store` does.
pub fn objective_store_weighted(
    store: &LeafStore,
    w: &[i32],
    scale: i32,
    pw: &PositionWeights,
    grads: &mut [SparseGrad],
) -> Result<Terms, String> {
    let chunk = super::prepare_grads(store, w, grads)?;
    let n = store.len();
    let scale = scale as f64;
    let features = store.features();
    let k2 = pw.j2_slope;
    let parts: Vec<Result<Terms, String>> = crossbeam::scope(|scope| {
        let handles: Vec<_> = grads
            .iter_mut()
            .enumerate()
            .take(n.div_ceil(chunk))
            .map(|(k, grad)| {
                scope.spawn(move |_| {
                    let mut t = Terms::default();
                    let values = grad.values_mut();
                    store.visit_indexed(k * chunk, n.min((k + 1) * chunk), |sample, r| {
                        let [w1, w2, w3, w4] = *pw
                            .w
                            .get(sample as usize)
                            .ok_or("leaf store: a position without weights")?;
                        for _ in 0..r.children()? {
                            t.pairs += 1;
                            match r.child()? {
                                Decoded::Above => t.j1 += w3,
                                Decoded::Below => {}
                                Decoded::Window(constant) => {
                                    let mut sum = constant;
                                    for &(i, c) in &r.feats {
                                        let wi =
                                            w.get(i as usize).ok_or("leaf store: bad index")?;
                                        sum += *wi as f64 * c as f64;
                                    }
                                    // u = s(p.m) − s(p.d) as MMTO's loss takes it;
                                    // −W1(x + W2) = W1(u − W2).
                                    let u = -(sum / scale);
                                    let tt = 1.0 / (1.0 + (w1 * (u - w2)).exp());
                                    t.j1 += w3 * tt;
                                    let dt = w3 * (-w1 * tt * (1.0 - tt));
                                    if dt != 0.0 {
                                        let k = dt / scale;
                                        for &(i, c) in &r.feats {
                                            values[i as usize] -= k * c as f64;
                                        }
                                    }
                                }
                            }
                        }
                        if !pw.j2 {
                            return Ok(());
                        }
                        let Decoded::Window(constant) = r.child()? else {
                            return Err("leaf store: no record leaf".into());
                        };
                        let Some(Some(y)) = pw.y.get(sample as usize) else {
                            return Ok(());
                        };
                        if w4 <= 0.0 {
                            return Ok(());
                        }
                        let mut sum = constant;
                        for &(i, c) in &r.feats {
                            let wi = w.get(i as usize).ok_or("leaf store: bad index")?;
                            sum += *wi as f64 * c as f64;
                        }
                        // −[y log g + (1−y) log(1−g)] = softplus(z) − y·z, z = k·v.
                        let z = k2 * (sum / scale);
                        t.j2 += w4 * (softplus(z) - y * z);
                        t.j2_positions += 1;
                        let g = 1.0 / (1.0 + (-z).exp());
                        let d = w4 * k2 * (g - y) / scale;
                        if d != 0.0 {
                            for &(i, c) in &r.feats {
                                values[i as usize] += d * c as f64;
                            }
                        }
                        Ok(())
                    })?;
                    Ok(t)
                })
            })
            .collect();
        crate::learn::join_all(handles)
    })
    .unwrap_or_default();
    let mut total = Terms::default();
    for p in parts {
        let p = p?;
        total.j1 += p.j1;
        total.j2 += p.j2;
        total.pairs += p.pairs;
        total.j2_positions += p.j2_positions;
    }
    super::sum_grads(grads, features);
    Ok(total)
}

/// Agreement counts per category (positions step 1 used, ties, agreements).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CategoryAgreement {
    pub used: [u64; N_CATEGORIES],
    pub ties: [u64; N_CATEGORIES],
    pub agree: [u64; N_CATEGORIES],
}

impl CategoryAgreement {
    /// From step 1's (sample, agreement) list and the set's categories.
    pub fn from_step1(agree: &[(u32, Option<bool>)], cats: &[Category]) -> CategoryAgreement {
        let mut a = CategoryAgreement::default();
        for &(s, ag) in agree {
            let Some(c) = cats.get(s as usize) else {
                continue;
            };
            for i in c.indices() {
                a.used[i] += 1;
                match ag {
                    None => a.ties[i] += 1,
                    Some(true) => a.agree[i] += 1,
                    Some(false) => {}
                }
            }
        }
        a
    }

    /// Agreement in category `i`, ties left out (as `Step1Stats::agreement`); NaN when empty.
    pub fn agreement(&self, i: usize) -> f64 {
        let n = self.used[i] - self.ties[i];
        if n == 0 {
            f64::NAN
        } else {
            self.agree[i] as f64 / n as f64
        }
    }
}
