//! The learner's settings after parsing (`LearnConfig`), the method named on the command line
//! and the grid step.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
/// The learning method; `method::for_config` makes its `LearningMethod`.
pub enum Method {
    /// Minimax Tree Optimization: T(x) = 1/(1+e^{ax}), grid-adjacent sign updates.
    Mmto,
    /// Comparison training: T_ct(x) = (σ(k·R(x)) − 1)², gradient descent on real weights.
    Ct,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Every update moves a weight by exactly h (the paper: h = 1).
    Fixed(i32),
    /// Bonanza's variant: a step drawn from {0, 1, 2} (mean 1) for every weight and update.
    Random,
}

#[derive(Debug, Clone)]
pub struct LearnConfig {
    pub method: Method,
    pub a: f64,
    pub l1: f64,
    pub step: Step,
    /// Sum the piece values keep (shogi 6,500); `None`: no equality constraint.
    pub piece_sum: Option<i64>,
    /// Nominal depth: 1 = every child searched by quiescence search only.
    pub depth: i32,
    /// Moves whose value is outside [v_record − window, v_record + window] give no gradient.
    pub window: i32,
    pub reuse: usize,
    pub threads: usize,
    pub seed: u64,
    pub ct_rate: f64,
    pub ct_scale: f64,
    pub ct_c: f64,
}
