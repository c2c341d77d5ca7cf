//! The move loop's pruning of one move before it is made: for a quiet move late move pruning,
//! futility, continuation-history and SEE pruning (each, but late move pruning by switch, spares
//! a checking move); for a capture SEE pruning and, by switch, capture futility. The margins are
//! `pruning`'s; this file only orders the tests, which read the move's facts the loop gathered.

use super::super::ordering;
use super::Searcher;
use crate::eval::Evaluator;
use crate::game::search_params::CAPTURE_FUTILITY;
use crate::game::Game;

/// What the pruning reads of the node (fixed over its move loop).
pub(super) struct NodeFacts {
    pub depth: i32,
    pub pv_node: bool,
    pub improving: bool,
    /// The static evaluation the margins are added to.
    pub eval: i32,
    pub alpha: i32,
    /// `LmpChecks`: late move pruning may skip checking moves too.
    pub lmp_checks: bool,
}

/// What the pruning reads of one move.
pub(super) struct Candidate<M> {
    pub mv: M,
    pub tactical: bool,
    pub hist_idx: usize,
    /// The ordering score without the escape and check bonuses (a quiet move's histories).
    pub mscore: i32,
    /// 1 for the first move searched.
    pub move_count: i32,
}

impl<G: Game, E: Evaluator<G>> Searcher<'_, G, E> {
    /// Whether the move loop of the node at `ply` skips `c` unsearched. Only asked when the node
    /// is not in check and some move has scored above a mate loss.
    #[inline]
    pub(super) fn skip_move(
        &self,
        ply: usize,
        n: &NodeFacts,
        c: &Candidate<G::Move>,
        prevs: [usize; 4],
    ) -> bool {
        let pos = &self.buf.positions[ply];
        let mv = c.mv;
        if c.tactical {
            if self.see_prune_applies(n.depth, c.mscore)
                && pos.see(mv) < self.see_prune_threshold(n.depth)
            {
                return true;
            }
            if self.sp(CAPTURE_FUTILITY) > 0 && c.mscore != ordering::SCORE_TT {
                let gain = pos.victim_value(mv)
                    + self
                        .buf
                        .tables
                        .capture_score(c.hist_idx, pos.captured_kind(mv))
                        / 7;
                return self.capture_futility_prune(n.depth, n.eval, n.alpha, gain)
                    && !pos.gives_check(mv);
            }
            return false;
        }
        if self.late_move_prune(n.pv_node, n.depth, c.move_count, n.improving)
            && (n.lmp_checks || !pos.gives_check(mv))
        {
            return true;
        }
        let pd = self.prune_depth(n.depth, c.move_count, n.pv_node, n.improving, c.mscore);
        if self.futility_prune(pd, n.eval, n.alpha, c.mscore) && !pos.gives_check(mv) {
            return true;
        }
        let cont = [prevs[0], prevs[1]].map(|p| {
            self.buf
                .tables
                .cont_row(p)
                .get(c.hist_idx)
                .map_or(0, |&v| v as i32)
        });
        if self.cont_history_prune(pd, n.improving, cont) && !pos.gives_check(mv) {
            return true;
        }
        match self.see_quiet_threshold(pd) {
            Some(t) => pos.see(mv) < t && !pos.gives_check(mv),
            None => false,
        }
    }
}
