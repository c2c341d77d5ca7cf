//! The regression objective over the leaves and its optimiser.
//!
//! Loss of a position: the cross-entropy −[y·ln q + (1 − y)·ln(1 − q)] of its target y and the
//! prediction q = g(s) = 1/(1 + exp(−k·s)), s = the leaf's evaluation from the position's side to
//! move (Σθ·count/scale). With a teacher's score as the target this is Texel's tuning with soft
//! labels; its gradient per weight is k·(q − y)·count/scale. Cross-entropy rather than squared
//! error: its gradient does not vanish where the prediction is confidently wrong, and with game
//! results it is the win-probability term of the parameterised objective (J2).
//!
//! Adam (Kingma & Ba 2015) steps in weight units: a weight moves about `lr` units a step whatever
//! the scale of its gradient, which suits tables whose features are seen at very different rates
//! (a piece value in every position, a KP entry in a few hundred).

use super::leaves::Leaves;

/// Loss and error figures over a set of positions.
#[derive(Debug, Default, Clone, Copy)]
pub struct Fit {
    /// Mean cross-entropy over the positions used.
    pub loss: f64,
    /// Root mean square of (evaluation − teacher score) over the positions with a teacher's score,
    /// each clamped to ±1000 first (a mate-like score should not dominate), evaluation units;
    /// `None` when no position has one (games files whose targets are their results alone).
    pub rms_teacher: Option<f64>,
    pub used: usize,
}

/// Cross-entropy of y against q, with q kept off 0 and 1.
#[inline]
fn cross_entropy(y: f64, q: f64) -> f64 {
    let q = q.clamp(1e-12, 1.0 - 1e-12);
    -(y * q.ln() + (1.0 - y) * (1.0 - q).ln())
}

/// The fit of `theta` on the leaves.
pub fn fit(
    leaves: &Leaves,
    y: &[f32],
    teacher: &[Option<i32>],
    theta: &[f64],
    k: f64,
    scale: f64,
) -> Fit {
    let (mut loss, mut sq, mut nt, mut used) = (0.0, 0.0, 0usize, 0usize);
    for p in 0..leaves.len() {
        if leaves.skip[p] {
            continue;
        }
        let s = leaves.sum(p, theta) / scale;
        let q = super::data::sigmoid(k, s);
        loss += cross_entropy(y[p] as f64, q);
        used += 1;
        if let Some(t) = teacher[p] {
            let d = s.clamp(-1000.0, 1000.0) - (t as f64).clamp(-1000.0, 1000.0);
            sq += d * d;
            nt += 1;
        }
    }
    Fit {
        loss: loss / used.max(1) as f64,
        rms_teacher: (nt > 0).then(|| (sq / nt as f64).sqrt()),
        used,
    }
}

/// Adds the mean gradient of the loss over `batch` (position indices) to `grad` (zeroed by the
/// caller); returns the number of positions used.
pub fn batch_gradient(
    leaves: &Leaves,
    y: &[f32],
    batch: &[u32],
    theta: &[f64],
    k: f64,
    scale: f64,
    grad: &mut [f64],
) -> usize {
    let mut used = 0;
    for &p in batch {
        let p = p as usize;
        if leaves.skip[p] {
            continue;
        }
        used += 1;
        let s = leaves.sum(p, theta) / scale;
        let q = super::data::sigmoid(k, s);
        let d = k * (q - y[p] as f64) / scale;
        for &(l, c) in leaves.of(p) {
            grad[l as usize] += d * c as f64;
        }
    }
    if used > 0 {
        let inv = 1.0 / used as f64;
        for g in grad.iter_mut() {
            *g *= inv;
        }
    }
    used
}

/// Adam's state: first and second moment estimates and the step count.
#[derive(Debug, Clone, PartialEq)]
pub struct Adam {
    pub m: Vec<f64>,
    pub v: Vec<f64>,
    pub t: u64,
    pub lr: f64,
}

const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPS: f64 = 1e-12;

impl Adam {
    pub fn new(n: usize, lr: f64) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
            lr,
        }
    }

    /// One step of θ against `grad`. A weight whose gradient has always been 0 (a feature never
    /// seen) does not move: its moments stay 0.
    pub fn step(&mut self, theta: &mut [f64], grad: &[f64]) {
        self.t += 1;
        let c1 = 1.0 - BETA1.powi(self.t.min(i32::MAX as u64) as i32);
        let c2 = 1.0 - BETA2.powi(self.t.min(i32::MAX as u64) as i32);
        for ((w, &g), (m, v)) in theta
            .iter_mut()
            .zip(grad)
            .zip(self.m.iter_mut().zip(self.v.iter_mut()))
        {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            if *v > 0.0 {
                *w -= self.lr * (*m / c1) / ((*v / c2).sqrt() + EPS);
            }
        }
    }
}
