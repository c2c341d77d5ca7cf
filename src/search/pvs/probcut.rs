//! ProbCut (Buro): at a non-PV node deep enough, a capture that beats beta by a margin both in
//! quiescence and in a search four plies shallower very probably beats beta at full depth too, so
//! the node is cut on the shallow search's word. The margin is a fixed parameter here
//! (`ProbCutMargin`, tuned by match); fitting it from shallow/deep score pairs is Buro's method
//! and a later step.

use super::super::ordering;
use super::Searcher;
use crate::eval::Evaluator;
use crate::game::search_params::{PROBCUT_DEPTH, PROBCUT_IMPROVING, PROBCUT_MARGIN};
use crate::game::*;

/// How much shallower than the node the verifying search is.
const PROBCUT_REDUCTION: i32 = 4;

impl<G: Game, E: Evaluator<G>> Searcher<'_, G, E> {
    /// ProbCut at the node at `ply` (not in check, not PV, no excluded move): `Some(score)` to
    /// return (a lower bound at least beta + margin, stored in the table), `None` to search on.
    /// `eval` is the pruning evaluation, `static_eval` the one stored with the entry.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn probcut(
        &mut self,
        ply: usize,
        depth: i32,
        beta: i32,
        eval: i32,
        static_eval: i32,
        improving: bool,
        tt: Option<(i32, i32)>,
    ) -> Option<i32> {
        let min_depth = self.sp(PROBCUT_DEPTH);
        // Weight-dependent pruning: off with reverse futility (the learners' searches).
        if !self.params.reverse_futility || min_depth == 0 || depth < min_depth {
            return None;
        }
        if beta.abs() >= MATE_BOUND {
            return None;
        }
        let pc_beta =
            beta + self.sp(PROBCUT_MARGIN) - self.sp(PROBCUT_IMPROVING) * improving as i32;
        // A table entry about as deep as the verifying search already says the captures will
        // not reach pc_beta: skip the work.
        if let Some((score, tt_depth)) = tt {
            if tt_depth >= depth - 3 && score < pc_beta {
                return None;
            }
        }
        let (mut moves, mut scores) = self.take_bufs(ply);
        self.buf.positions[ply].tactical_moves(&mut moves);
        {
            let pos = &self.buf.positions[ply];
            for &mv in &moves {
                scores.push(ordering::mvv_lva(pos, mv));
            }
        }
        // A capture must win at least what the static evaluation lacks to reach pc_beta.
        let need = pc_beta - eval;
        let key = self.buf.positions[ply].key();
        let mut i = 0;
        let mut found = None;
        while let Some((mv, _)) =
            ordering::pick(&mut moves, &mut scores, i, &mut self.buf.sort_scratch)
        {
            i += 1;
            if self.buf.positions[ply].see(mv) < need {
                continue;
            }
            let hist_idx = self.buf.positions[ply].history_index(mv);
            self.buf.qs_to[ply + 1] = G::move_to(mv);
            self.push(ply, mv);
            self.buf.prev_hist[ply] = hist_idx;
            self.buf.prev_quiet[ply] = false;
            self.buf.stat_score[ply] = 0;
            let mut s = -self.qsearch(-pc_beta, -pc_beta + 1, ply + 1, 0);
            if s >= pc_beta && !self.shared.stopped() {
                s = -self.search(
                    -pc_beta,
                    -pc_beta + 1,
                    depth - PROBCUT_REDUCTION,
                    ply + 1,
                    true,
                );
            }
            self.pop();
            if self.shared.stopped() {
                found = Some(0);
                break;
            }
            if s >= pc_beta {
                self.store_tt(
                    key,
                    s,
                    pc_beta,
                    G::encode_move(mv),
                    static_eval,
                    depth - PROBCUT_REDUCTION + 1,
                    ply,
                );
                found = Some(s);
                break;
            }
        }
        self.give_back_bufs(ply, moves, scores);
        found
    }
}
