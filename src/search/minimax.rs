//! TreeStrap(minimax)'s training search (Veness et al. 2009, Algorithm 1): a full-width minimax
//! tree of a fixed depth whose leaves are valued by the play search's quiescence search
//! (`LeafSearcher` at depth 0, the learner settings: nothing that depends on the weights prunes),
//! and that hands every interior node with its exact minimax value to a callback. Unlike the
//! alpha-beta training search (`TrainingSearch` plus the table walk) every node here has an exact
//! value, not a one-sided bound, at the price of a far smaller depth for the same work: the
//! paper's Meep kept such a tree in memory for this variant.
//!
//! What is left out, and why: repetitions inside the tree (the tree is a pure function of the
//! position, the weights and the depth; the self-play driver ends the game on a repetition) and
//! check extensions (a minimax tree has no cheap place to stop an extension chain; the quiescence
//! search at the leaves answers checks).

use super::learner::{LeafSearcher, SearchParams};
use crate::eval::Evaluator;
use crate::game::{mated_in, Game, Outcome, DRAW, INFINITE, MATE_BOUND};

/// The result of one minimax training search.
#[derive(Debug, Clone)]
pub struct MinimaxResult<G: Game> {
    /// The root's minimax value, from its side to move.
    pub score: i32,
    /// The first move (in generation order) that reaches `score`.
    pub best: G::Move,
    /// Positions in the tree (interior and leaves; the leaves' quiescence nodes not counted).
    pub nodes: u64,
}

/// One interior node of the tree, handed to the callback after its subtree is searched.
pub struct MinimaxNode<'a, G: Game> {
    pub pos: &'a G,
    /// Plies of full-width search below it (the root has the search depth).
    pub depth: i32,
    /// Its exact minimax value, from its side to move.
    pub value: i32,
}

/// The minimax training search: one quiescence searcher reused for every leaf.
pub struct MinimaxSearch {
    leaves: LeafSearcher,
}

impl Default for MinimaxSearch {
    fn default() -> Self {
        Self::new()
    }
}

impl MinimaxSearch {
    pub fn new() -> Self {
        MinimaxSearch {
            leaves: LeafSearcher::new(SearchParams::learner(), 1),
        }
    }

    /// Searches `root` to `depth` ≥ 1 plies, full width, then quiescence; `visit` sees every
    /// interior node (root included) whose depth is at least `min_depth`, children before their
    /// parent. `None` when the side to move has no legal move.
    pub fn search<G: Game, E: Evaluator<G>>(
        &mut self,
        eval: &E,
        root: &G,
        depth: i32,
        min_depth: i32,
        visit: &mut dyn FnMut(&MinimaxNode<G>),
    ) -> Option<MinimaxResult<G>> {
        let depth = depth.max(1);
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        if moves.is_empty() {
            return None;
        }
        let mut nodes = 1u64;
        let mut best = (-INFINITE, moves[0]);
        for &mv in &moves {
            let child = root.play(mv);
            let v = -self.node(eval, &child, depth - 1, 1, min_depth, visit, &mut nodes);
            if v > best.0 {
                best = (v, mv);
            }
        }
        if depth >= min_depth {
            visit(&MinimaxNode {
                pos: root,
                depth,
                value: best.0,
            });
        }
        Some(MinimaxResult {
            score: best.0,
            best: best.1,
            nodes,
        })
    }

    /// The minimax value of `pos` (side to move's view), `ply` plies below the root.
    #[allow(clippy::too_many_arguments)]
    fn node<G: Game, E: Evaluator<G>>(
        &mut self,
        eval: &E,
        pos: &G,
        depth: i32,
        ply: usize,
        min_depth: i32,
        visit: &mut dyn FnMut(&MinimaxNode<G>),
        nodes: &mut u64,
    ) -> i32 {
        *nodes += 1;
        if pos.is_draw_by_rule() {
            return DRAW;
        }
        if depth <= 0 {
            return match self.leaves.search(eval, pos, 0, -INFINITE, INFINITE) {
                // Mate scores of the quiescence search count from the leaf: move them to the root.
                Some(r) if r.score >= MATE_BOUND => r.score - ply as i32,
                Some(r) if r.score <= -MATE_BOUND => r.score + ply as i32,
                Some(r) => r.score,
                None => self.terminal(pos, ply),
            };
        }
        let mut moves: Vec<G::Move> = Vec::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return self.terminal(pos, ply);
        }
        let mut best = -INFINITE;
        for &mv in &moves {
            let child = pos.play(mv);
            let v = -self.node(eval, &child, depth - 1, ply + 1, min_depth, visit, nodes);
            best = best.max(v);
        }
        if depth >= min_depth {
            visit(&MinimaxNode {
                pos,
                depth,
                value: best,
            });
        }
        best
    }

    /// A position without a legal move: a draw where the rules say so (chess stalemate), else the
    /// side to move is mated.
    fn terminal<G: Game>(&self, pos: &G, ply: usize) -> i32 {
        match pos.position_outcome() {
            Some(Outcome::Draw(_)) => DRAW,
            _ => mated_in(ply),
        }
    }
}
