//! Evaluation: the `Evaluator` interface the search calls, kept incrementally on the search's
//! per-ply stack. Feature sets, weight files and memory-mapped tables live in submodules.

pub mod material;

use crate::game::Game;

/// A static evaluation that the search keeps incrementally: `refresh` builds the accumulator of a
/// position from scratch, `update` derives a child's accumulator from its parent's after a move.
/// `evaluate` returns the score from the side to move's point of view.
pub trait Evaluator<G: Game>: Send + Sync + 'static {
    type Acc: Clone + Send + Default + 'static;
    fn refresh(&self, pos: &G, acc: &mut Self::Acc);
    fn update(
        &self,
        _parent: &G,
        _mv: G::Move,
        child: &G,
        _parent_acc: &Self::Acc,
        acc: &mut Self::Acc,
    ) {
        self.refresh(child, acc);
    }
    /// The accumulator after a null move (default: recompute).
    fn update_null(&self, child: &G, parent_acc: &Self::Acc, acc: &mut Self::Acc) {
        let _ = parent_acc;
        self.refresh(child, acc);
    }
    fn evaluate(&self, pos: &G, acc: &Self::Acc) -> i32;
}
