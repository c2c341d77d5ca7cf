//! Learner entry points: the play search run to a fixed depth (plus quiescence) with learner-safe
//! settings, returning the score, the principal variation and its leaf position (MMTO step 1,
//! `LeafSearcher`); and TreeStrap's training search (`TrainingSearch`), whose transposition table
//! the learner then walks (`ttwalk`) for every node's bounds.

use super::pvs::{Scratch, Searcher, Shared};
use super::ttwalk::{self, WalkNode, WalkStats};
pub use super::SearchParams;
use crate::eval::Evaluator;
use crate::game::{Game, GameHistory, INFINITE};
use std::any::Any;

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
    /// The last search's buffers (a `Scratch<G, E::Acc>` of the last game and evaluator
    /// searched): building a searcher from scratch per leaf was a quarter of step 1's time.
    scratch: Option<Box<dyn Any + Send>>,
}

impl LeafSearcher {
    pub fn new(params: SearchParams, hash_mb: usize) -> Self {
        LeafSearcher {
            shared: Shared::new(hash_mb),
            params,
            scratch: None,
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
        let scratch = self
            .scratch
            .take()
            .and_then(|b| b.downcast::<Scratch<G, E::Acc>>().ok())
            .map(|b| *b)
            .unwrap_or_default();
        let mut s: Searcher<G, E> =
            Searcher::with_scratch(&self.shared, eval, self.params, 0, scratch);
        let history = GameHistory::new(pos.clone());
        s.set_root(&history, &[]);
        let result = if depth <= 0 {
            let score = s.qsearch(alpha, beta, 0, 0);
            Some((score, s.root_pv()))
        } else {
            let score = s.search_root(alpha, beta, depth, 0);
            s.buf
                .root_moves
                .first()
                .map(|root| (score, root.pv.clone()))
        };
        let result = result.map(|(score, pv)| {
            let leaf = s.pv_leaf(&pv);
            LeafResult { score, pv, leaf }
        });
        self.scratch = Some(Box::new(s.into_scratch()));
        result
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

/// The result of one training search.
#[derive(Debug, Clone)]
pub struct TrainingResult<G: Game> {
    /// The exact minimax value of the root (full window), from its side to move.
    pub score: i32,
    /// The move the search chose (first of `pv`).
    pub best: G::Move,
    pub pv: Vec<G::Move>,
    /// The position at the end of `pv` (TD-Leaf's principal leaf).
    pub leaf: G,
    pub depth: i32,
    /// Nodes searched (inner and quiescence).
    pub nodes: u64,
}

/// TreeStrap's training search (`SearchParams::training`): single-threaded, iterative deepening
/// with full windows to a fixed depth, over a table that is cleared before every search (as
/// Meep's training mode did), so that what `walk` reads afterwards is this search's tree alone and
/// a search depends only on the evaluation, the game so far and the depth, never on earlier
/// searches. Killers and history start empty for the same reason.
pub struct TrainingSearch {
    shared: Shared,
    params: SearchParams,
}

impl TrainingSearch {
    pub fn new(hash_mb: usize) -> Self {
        TrainingSearch {
            shared: Shared::new(hash_mb),
            params: SearchParams::training(),
        }
    }

    /// Searches the current position of `history` (the earlier positions count for repetitions)
    /// to `depth` ≥ 1 plies plus quiescence. `None` when the side to move has no legal move.
    pub fn search<G: Game, E: Evaluator<G>>(
        &mut self,
        eval: &E,
        history: &GameHistory<G>,
        depth: i32,
    ) -> Option<TrainingResult<G>> {
        let depth = depth.max(1);
        self.shared.tt.clear();
        // Generation 1: an entry of generation 0 cannot pass `probe_current` by accident.
        self.shared.tt.new_search();
        self.shared
            .stop
            .store(false, std::sync::atomic::Ordering::Relaxed);
        let mut s: Searcher<G, E> = Searcher::new(&self.shared, eval, self.params, 0);
        s.set_root(history, &[]);
        if s.buf.root_moves.is_empty() {
            return None;
        }
        let mut score = 0;
        for d in 1..=depth {
            score = s.search_root(-INFINITE, INFINITE, d, 0);
        }
        let pv = s.buf.root_moves[0].pv.clone();
        let leaf = s.pv_leaf(&pv);
        Some(TrainingResult {
            score,
            best: s.buf.root_moves[0].mv,
            pv,
            leaf,
            depth,
            nodes: s.nodes(),
        })
    }

    /// Walks the table of the last search from its root (`ttwalk::walk`): every stored node of
    /// that search reachable by legal moves, with depth ≥ `min_depth`. The root is not included
    /// (its exact value is `TrainingResult::score`).
    pub fn walk<G: Game>(
        &self,
        root: &G,
        min_depth: i32,
        visit: &mut dyn FnMut(&WalkNode<G>),
    ) -> WalkStats {
        ttwalk::walk(&self.shared.tt, root, min_depth, visit)
    }

    /// Starts a new generation of the table without clearing it (tests: the walk must then see
    /// nothing of the search before).
    pub fn age_table(&self) {
        self.shared.tt.new_search();
    }
}
