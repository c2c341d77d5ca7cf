//! Learner entry points: the play search run to a fixed depth (plus quiescence) with learner-safe
//! settings, returning the score, the principal variation and its leaf position (MMTO step 1).
//! TreeStrap will read transposition-table bounds through `Engine::tt`.

use super::pvs::{Searcher, Shared};
pub use super::SearchParams;
use crate::eval::Evaluator;
use crate::game::{Game, GameHistory, INFINITE};

/// The result of searching one position for the learner.
#[derive(Debug, Clone)]
pub struct LeafResult<G: Game> {
    /// Score from the side to move in the searched position.
    pub score: i32,
    pub pv: Vec<G::Move>,
    /// The position at the end of the PV: its static evaluation is `score` (from the searched
    /// position's side to move, negated when the leaf has the other side to move).
    pub leaf: G,
}

/// A single-threaded searcher with its own small table, reused across positions.
pub struct LeafSearcher {
    shared: Shared,
    params: SearchParams,
}

impl LeafSearcher {
    pub fn new(params: SearchParams, hash_mb: usize) -> Self {
        LeafSearcher {
            shared: Shared::new(hash_mb),
            params,
        }
    }

    /// Searches `pos` to `depth` plies (0 = quiescence only) within (alpha, beta), from the point of
    /// view of its side to move. `None` when the position has no legal move.
    pub fn search<G: Game, E: Evaluator<G>>(
        &mut self,
        eval: &E,
        pos: &G,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> Option<LeafResult<G>> {
        if self.params.use_tt {
            self.shared.tt.clear();
        }
        self.shared
            .stop
            .store(false, std::sync::atomic::Ordering::Relaxed);
        let mut s: Searcher<G, E> = Searcher::new(&self.shared, eval, self.params, 0);
        let history = GameHistory::new(pos.clone());
        s.set_root(&history, &[]);
        let score = if depth <= 0 {
            s.qsearch(alpha, beta, 0, 0)
        } else {
            let sc = s.search_root(alpha, beta, depth, 0);
            if s.root_moves.is_empty() {
                return None;
            }
            sc
        };
        let pv = if depth <= 0 {
            s.root_pv()
        } else {
            s.root_moves[0].pv.clone()
        };
        let leaf = s.pv_leaf(&pv);
        Some(LeafResult { score, pv, leaf })
    }

    /// Full-window search.
    pub fn search_full<G: Game, E: Evaluator<G>>(
        &mut self,
        eval: &E,
        pos: &G,
        depth: i32,
    ) -> Option<LeafResult<G>> {
        self.search(eval, pos, depth, -INFINITE, INFINITE)
    }
}
