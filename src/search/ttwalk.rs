//! The learner's walk of the transposition table after a search: DeltaFromTransTbl of Veness et
//! al. (2009), Algorithm 2, without the update itself. From the root it follows every legal move
//! to a position that has an entry of the *current* generation (`TranspositionTable::probe_current`)
//! with depth ≥ `min_depth`, hands that node (position, depth, bound, score) to the caller and
//! goes on from it. A position reached by several paths (a transposition) is visited once.
//!
//! The walk knows nothing of weights or features: what to do with a node's bounds is the
//! learner's business, so the search stays generic and the learner never reaches into it.

use super::tt::{Bound, TranspositionTable};
use crate::game::Game;
use std::collections::HashSet;

/// One node of the search tree, as the table remembers it.
#[derive(Debug, Clone)]
pub struct WalkNode<G: Game> {
    pub pos: G,
    /// Plies from the root along the path the walk first reached it by.
    pub ply: u32,
    /// The remaining depth the node was searched to (quiescence nodes: -1).
    pub depth: i32,
    pub bound: Bound,
    /// From the node's side to move; mate scores count plies from this node (as stored).
    pub score: i32,
}

impl<G: Game> WalkNode<G> {
    /// The lower bound the search established (a fail high or an exact value).
    pub fn lower(&self) -> Option<i32> {
        matches!(self.bound, Bound::Exact | Bound::Lower).then_some(self.score)
    }

    /// The upper bound the search established (a fail low or an exact value).
    pub fn upper(&self) -> Option<i32> {
        matches!(self.bound, Bound::Exact | Bound::Upper).then_some(self.score)
    }
}

/// What a walk did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WalkStats {
    /// Nodes handed to the visitor.
    pub visited: usize,
    /// Positions probed (children generated), visited or not.
    pub probed: usize,
}

/// Walks the table from `root` (the root itself is not visited: the search does not store it;
/// the caller knows its value). The order in which `visit` sees the nodes depends only on the
/// root and the table's content (move generation order, depth first).
pub fn walk<G: Game>(
    tt: &TranspositionTable,
    root: &G,
    min_depth: i32,
    visit: &mut dyn FnMut(&WalkNode<G>),
) -> WalkStats {
    let mut stats = WalkStats::default();
    let mut seen: HashSet<u64> = HashSet::new();
    seen.insert(root.key());
    let mut stack: Vec<(G, u32)> = vec![(root.clone(), 0)];
    let mut moves = Vec::new();
    while let Some((pos, ply)) = stack.pop() {
        moves.clear();
        pos.legal_moves(&mut moves);
        for &mv in &moves {
            let child = pos.play(mv);
            let key = child.key();
            stats.probed += 1;
            if seen.contains(&key) {
                continue;
            }
            let Some(e) = tt.probe_current(key) else {
                continue;
            };
            if e.depth < min_depth {
                continue;
            }
            seen.insert(key);
            let node = WalkNode {
                pos: child,
                ply: ply + 1,
                depth: e.depth,
                bound: e.bound,
                score: e.score,
            };
            visit(&node);
            stats.visited += 1;
            stack.push((node.pos, ply + 1));
        }
    }
    stats
}
