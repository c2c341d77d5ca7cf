//! The search's decisions to prune, reduce or extend, each with its margin: reverse futility, null
//! move and internal iterative reduction before the move loop, late move pruning, futility,
//! continuation-history and SEE pruning inside it, the singular-extension test of the table move,
//! and the late move reduction of a quiet move. The margins come from the game's table (`Game::SEARCH_PARAMS`,
//! `game::search_params`): constants in a normal build, option values in a `tune` build.

use super::super::ordering;
use super::super::tt::{Bound, TtEntry};
use super::Searcher;
use crate::eval::Evaluator;
use crate::game::search_params::*;
use crate::game::Game;
use crate::search::SearchParams;

/// Search parameter `i` (an index of `game::search_params`) under `params`: the game's constant
/// in a normal build, so the compiler folds it into the code.
#[inline(always)]
pub(super) fn param<G: Game>(params: &SearchParams, i: usize) -> i32 {
    #[cfg(feature = "tune")]
    if let Some(v) = &params.tuned {
        return v[i];
    }
    let _ = params;
    G::SEARCH_PARAMS[i].default
}

/// At most this many double extensions on one path.
const DOUBLE_EXTENSIONS_MAX: u8 = 10;

impl<G: Game, E: Evaluator<G>> Searcher<'_, G, E> {
    /// Search parameter `i` (an index of `game::search_params`).
    #[inline(always)]
    pub(super) fn sp(&self, i: usize) -> i32 {
        param::<G>(&self.params, i)
    }

    /// Reverse futility: the static evaluation beats beta by a depth-scaled margin (moved by
    /// the summed histories `prev_stat` of the move into the node, with `RfpStat`).
    #[inline]
    pub(super) fn reverse_futility_cut(
        &self,
        depth: i32,
        eval: i32,
        beta: i32,
        improving: bool,
        prev_stat: i32,
    ) -> bool {
        let div = self.sp(RFP_STAT);
        let stat = if div > 0 { prev_stat / div } else { 0 };
        self.params.reverse_futility
            && depth <= self.sp(RFP_DEPTH)
            && eval - self.sp(RFP_MARGIN) * depth + self.sp(RFP_IMPROVING) * improving as i32 - stat
                >= beta
    }

    /// A quiet move's summed histories (what the child's reverse futility reads with `RfpStat`):
    /// its ordering score `mscore`, or for a killer or the countermove, whose ordering score is
    /// a rank, its histories looked up (`hist_idx` in the rows of `prevs`).
    pub(super) fn stat_score(&self, mscore: i32, hist_idx: usize, prevs: [usize; 4]) -> i32 {
        if mscore < ordering::SCORE_COUNTER {
            mscore
        } else {
            let t = &self.buf.tables;
            ordering::quiet_score(t, prevs.map(|p| t.cont_row(p)), hist_idx)
        }
    }

    /// Whether to try a null move here (the position must also allow one): `eval` is the
    /// pruning evaluation, `static_eval` the evaluation itself (`NmpStatic`).
    #[inline]
    pub(super) fn null_move_allowed(
        &self,
        allow_null: bool,
        depth: i32,
        eval: i32,
        static_eval: i32,
        beta: i32,
    ) -> bool {
        let margin = self.sp(NMP_STATIC);
        self.params.null_move
            && allow_null
            && depth >= self.sp(NMP_DEPTH)
            && eval >= beta
            && beta.abs() < crate::game::MATE_BOUND
            && (margin == 0
                || (eval >= static_eval
                    && static_eval >= beta - self.sp(NMP_STATIC_SLOPE) * depth + margin))
    }

    /// The null move's depth reduction.
    #[inline]
    pub(super) fn null_move_reduction(&self, depth: i32, eval: i32, beta: i32) -> i32 {
        self.sp(NMP_BASE)
            + depth / self.sp(NMP_DEPTH_DIV)
            + ((eval - beta) / self.sp(NMP_EVAL_DIV)).min(self.sp(NMP_EVAL_MAX))
    }

    /// Late move pruning of a quiet move (the caller checks that it gives no check unless
    /// `LmpChecks`): at cut and all nodes, and at PV nodes with `LmpPv`.
    #[inline]
    pub(super) fn late_move_prune(
        &self,
        pv_node: bool,
        depth: i32,
        move_count: i32,
        improving: bool,
    ) -> bool {
        self.params.late_move_pruning
            && (!pv_node || self.sp(LMP_PV) != 0)
            && depth <= self.sp(LMP_DEPTH)
            && move_count > self.sp(LMP_BASE) + depth * depth / (2 - improving as i32)
    }

    /// Futility pruning of a quiet move (the caller checks that it gives no check); `mscore` is
    /// the move's ordering score (its summed histories unless it is a killer or the
    /// countermove), which moves the margin with `FutilityHistory`.
    #[inline]
    pub(super) fn futility_prune(&self, depth: i32, eval: i32, alpha: i32, mscore: i32) -> bool {
        let div = self.sp(FUTILITY_HISTORY);
        let history = if div > 0 && mscore < ordering::SCORE_COUNTER {
            mscore / div
        } else {
            0
        };
        self.params.futility
            && depth <= self.sp(FUTILITY_DEPTH)
            && eval + self.sp(FUTILITY_BASE) + self.sp(FUTILITY_MARGIN) * depth + history <= alpha
    }

    /// Futility pruning of a capture (the caller checks that it gives no check and is not the
    /// table move): near the leaves, a capture whose `gain` (what it takes, moved by its capture
    /// history) cannot lift the evaluation to alpha with `CaptureFutility`·(depth + 1) to spare
    /// (0: off; Stockfish 15.1 prunes captures so, at about a pawn a ply).
    #[inline]
    pub(super) fn capture_futility_prune(
        &self,
        depth: i32,
        eval: i32,
        alpha: i32,
        gain: i32,
    ) -> bool {
        let margin = self.sp(CAPTURE_FUTILITY);
        self.params.futility
            && margin > 0
            && depth <= self.sp(FUTILITY_DEPTH)
            && eval + gain + margin * (depth + 1) <= alpha
    }

    /// Continuation-history pruning of a quiet move (the caller checks that it gives no check):
    /// near the leaves, a move that has done badly after the previous move (`cont[0]`) or after
    /// the move two plies back (`cont[1]`) is not searched.
    #[inline]
    pub(super) fn cont_history_prune(&self, depth: i32, improving: bool, cont: [i32; 2]) -> bool {
        // A form of late move pruning: off with it (the learners' and the training search's).
        self.params.late_move_pruning
            && depth <= self.sp(CONT_PRUNE_DEPTH) - improving as i32
            && (cont[0] < self.sp(CONT_PRUNE_LIMIT1) || cont[1] < self.sp(CONT_PRUNE_LIMIT2))
    }

    /// SEE pruning of a capture: applies up to a depth, and then prunes when SEE is below the
    /// (negative) returned threshold. A capture ordered with the good ones has SEE ≥ 0 and is
    /// not looked at — unless `CaptureSlack` lets a losing capture be ordered good.
    #[inline]
    pub(super) fn see_prune_applies(&self, depth: i32, mscore: i32) -> bool {
        self.params.see_pruning
            && depth <= self.sp(SEE_DEPTH)
            && (mscore < ordering::SCORE_GOOD_CAPTURE || self.sp(CAPTURE_SLACK) > 0)
            && mscore != ordering::SCORE_TT
    }

    #[inline]
    pub(super) fn see_prune_threshold(&self, depth: i32) -> i32 {
        -self.sp(SEE_MARGIN) * depth
    }

    /// The late move reduction of a quiet move that gives no check (0: none), `less` plies
    /// fewer (the `TtPv` allowance).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn lmr_reduction(
        &self,
        depth: i32,
        new_depth: i32,
        move_count: i32,
        pv_node: bool,
        improving: bool,
        mscore: i32,
        less: i32,
    ) -> i32 {
        let mut r = self.lmr[(depth as usize).min(63)][(move_count as usize).min(63)] as i32;
        r -= less;
        r += (!pv_node) as i32;
        r -= improving as i32;
        if mscore >= ordering::SCORE_COUNTER {
            r -= 1;
        } else {
            r -= mscore / self.sp(LMR_HISTORY_DIV);
        }
        r.clamp(0, new_depth - 1)
    }

    /// The evaluation the pruning decisions read: the static one, or with `TtEvalAdjust` the
    /// table's score when its bound says the true value lies beyond the static value in that
    /// direction (a lower bound above it, an upper bound below it, or exact). The static value
    /// stays the one stored and compared for `improving`.
    #[inline]
    pub(super) fn pruning_eval(&self, eval: i32, tte: Option<TtEntry>, ply: usize) -> i32 {
        let Some(e) = tte else {
            return eval;
        };
        if self.sp(TT_EVAL_ADJUST) == 0 || e.score.abs() >= crate::game::MATE_BOUND {
            return eval;
        }
        let s = crate::game::score_from_tt(e.score, ply);
        let beyond = match e.bound {
            Bound::Exact => true,
            Bound::Lower => s > eval,
            Bound::Upper => s < eval,
        };
        if beyond {
            s
        } else {
            eval
        }
    }

    /// The depth the pruning of a quiet move judges it by: the node's, or with `PruneLmrDepth`
    /// what its late move reduction would leave (a late, badly scored move is pruned as if it
    /// were already that much nearer the leaves).
    #[inline]
    pub(super) fn prune_depth(
        &self,
        depth: i32,
        move_count: i32,
        pv_node: bool,
        improving: bool,
        mscore: i32,
    ) -> i32 {
        if self.sp(PRUNE_LMR_DEPTH) == 0 || !self.params.lmr {
            return depth;
        }
        depth - self.lmr_reduction(depth, depth, move_count, pv_node, improving, mscore, 0)
    }

    /// Razoring: a node far below alpha near the leaves is tried by quiescence first.
    #[inline]
    pub(super) fn razor_applies(&self, depth: i32, eval: i32, alpha: i32) -> bool {
        self.params.reverse_futility
            && depth <= self.sp(RAZOR_DEPTH)
            && alpha.abs() < crate::game::MATE_BOUND
            && eval < alpha - self.sp(RAZOR_MARGIN) * depth * depth
    }

    /// SEE pruning of a quiet move (the caller checks that it gives no check): near the leaves,
    /// a move whose SEE is below the returned threshold (`None`: not at this depth).
    #[inline]
    pub(super) fn see_quiet_threshold(&self, depth: i32) -> Option<i32> {
        (self.params.see_pruning && depth <= self.sp(SEE_QUIET_DEPTH))
            .then(|| -self.sp(SEE_QUIET_MARGIN) * depth * depth)
    }

    /// Internal iterative reduction: a node without a table move is searched a ply shallower
    /// (its move order is a guess; the shallower search stores a move for the next iteration),
    /// a PV node `IirPvExtra` plies more, never below one ply (0: none).
    #[inline]
    pub(super) fn iir_reduction(&self, depth: i32, tt_move: u16, excluded: u16, pv: bool) -> i32 {
        if self.params.iir && depth >= self.sp(IIR_DEPTH) && tt_move == 0 && excluded == 0 {
            (1 + pv as i32 * self.sp(IIR_PV_EXTRA)).min(depth - 1)
        } else {
            0
        }
    }

    /// The bound of a singular-extension search for the table move `e.mv` of a node at `depth`
    /// (`None`: no such search here). Only a table entry that is a lower bound or exact, at most
    /// three plies shallower and not a mate score qualifies, and not inside another such search.
    #[inline]
    pub(super) fn singular_beta(
        &self,
        e: &TtEntry,
        depth: i32,
        ply: usize,
        excluded: u16,
    ) -> Option<i32> {
        (self.params.singular
            && excluded == 0
            && depth >= self.sp(SE_DEPTH)
            && e.depth >= depth - 3
            && e.bound != Bound::Upper
            && e.score.abs() < crate::game::MATE_BOUND
            && (ply as i32) < 2 * self.root_depth)
            .then(|| crate::game::score_from_tt(e.score, ply) - self.sp(SE_MARGIN) * depth)
    }

    /// Whether a singular move (its exclusion search returned `s` below `s_beta`) is extended
    /// twice: far below, off the PV, and few double extensions on the path so far (the cap keeps
    /// a line of forced moves from growing the tree without bound).
    #[inline]
    pub(super) fn double_extension(&self, pv_node: bool, s: i32, s_beta: i32, ply: usize) -> bool {
        let margin = self.sp(SE_DOUBLE_MARGIN);
        margin > 0
            && !pv_node
            && s < s_beta - margin
            && self.buf.double_ext[ply] < DOUBLE_EXTENSIONS_MAX
    }

    /// Whether late move reductions apply to this move at all: a quiet move (one that gives
    /// check only with `LmrChecks`), late enough (a PV node's after `LmrPvExtra` more).
    #[inline]
    pub(super) fn lmr_applies(
        &self,
        depth: i32,
        move_count: i32,
        pv_node: bool,
        tactical: bool,
        gives_check: bool,
    ) -> bool {
        self.params.lmr
            && depth >= self.sp(LMR_DEPTH)
            && move_count > 1 + self.sp(LMR_PV_EXTRA) * pv_node as i32
            && !tactical
            && (!gives_check || self.sp(LMR_CHECKS) != 0)
    }
}

/// A late-move-reduction table by depth and move number.
pub(super) type LmrTable = [[u8; 64]; 64];

/// The late-move-reduction table base/100 + ln(depth)·ln(move number)/(div/100) (the defaults:
/// 0.75 + ln·ln/2.25), computed once per pair of values and kept for the process: a normal build
/// has one pair, a `tune` build one per pair the tuner tries (4 KiB each). Searchers are built
/// per search and per learner leaf, too often to recompute the logarithms each time.
pub(super) fn lmr_table(base: i32, div: i32) -> &'static LmrTable {
    type Cache = Vec<((i32, i32), &'static LmrTable)>;
    static CACHE: std::sync::Mutex<Cache> = std::sync::Mutex::new(Vec::new());
    // A poisoned lock only means another thread panicked mid-push; the entries are still valid.
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&(_, t)) = cache.iter().find(|(k, _)| *k == (base, div)) {
        return t;
    }
    let (b, q) = (base as f64 / 100.0, div.max(1) as f64 / 100.0);
    let mut t = [[0u8; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            let v = b + (d as f64).ln() * (m as f64).ln() / q;
            *r = v.clamp(0.0, 40.0) as u8;
        }
    }
    let t: &'static LmrTable = Box::leak(Box::new(t));
    cache.push(((base, div), t));
    t
}
