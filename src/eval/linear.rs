//! `LinearEval<F>`: the `Evaluator` the search uses, a cheap-to-clone handle on shared `Weights`
//! that forwards to a feature set. The games bind it to their feature sets (`shogi::ShogiEval`,
//! `chess::ChessEval`).

use super::weights::{Verify, Weights};
use super::{Evaluator, FeatureSet};
use crate::game::Game;
use std::marker::PhantomData;
use std::path::Path;
use std::sync::Arc;

pub struct LinearEval<G: Game, F: FeatureSet<G>> {
    weights: Arc<Weights>,
    _f: PhantomData<fn() -> (G, F)>,
}

impl<G: Game, F: FeatureSet<G>> Clone for LinearEval<G, F> {
    fn clone(&self) -> Self {
        LinearEval {
            weights: Arc::clone(&self.weights),
            _f: PhantomData,
        }
    }
}

impl<G: Game, F: FeatureSet<G>> std::fmt::Debug for LinearEval<G, F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LinearEval({:?})", self.weights)
    }
}

impl<G: Game, F: FeatureSet<G>> LinearEval<G, F> {
    pub fn new(weights: Arc<Weights>) -> Self {
        LinearEval {
            weights,
            _f: PhantomData,
        }
    }
    /// Maps and checks a weight file (the `isready` level of checking).
    pub fn load(path: &Path) -> Result<Self, String> {
        Ok(Self::new(Arc::new(Weights::load::<G, F>(
            path,
            Verify::Load,
        )?)))
    }
    pub fn weights(&self) -> &Arc<Weights> {
        &self.weights
    }
    /// From-scratch evaluation (tests, learner): refresh then evaluate.
    pub fn evaluate_scratch(&self, pos: &G) -> i32 {
        let mut acc = F::Acc::default();
        F::refresh(&self.weights, pos, &mut acc);
        F::evaluate(&self.weights, pos, &acc)
    }
}

impl<G: Game, F: FeatureSet<G>> Evaluator<G> for LinearEval<G, F> {
    type Acc = F::Acc;
    #[inline]
    fn refresh(&self, pos: &G, acc: &mut F::Acc) {
        F::refresh(&self.weights, pos, acc)
    }
    #[inline]
    fn update(&self, parent: &G, mv: G::Move, child: &G, parent_acc: &F::Acc, acc: &mut F::Acc) {
        F::update(&self.weights, parent, mv, child, parent_acc, acc)
    }
    #[inline]
    fn update_null(&self, child: &G, parent_acc: &F::Acc, acc: &mut F::Acc) {
        F::update_null(&self.weights, child, parent_acc, acc)
    }
    #[inline]
    fn evaluate(&self, pos: &G, acc: &F::Acc) -> i32 {
        F::evaluate(&self.weights, pos, acc)
    }
    fn breakdown(&self, pos: &G) -> Vec<(String, i32)> {
        F::breakdown(&self.weights, pos)
    }
}
