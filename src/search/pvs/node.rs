//! The alpha-beta search of an inner node (ply > 0): draws and mate distance, the transposition
//! table, the static evaluation, then the pruning decisions of `pruning` before and during the
//! move loop, the singular-extension search of the table move (the node again, that move
//! excluded), late move reductions with re-searches, and the killer, history, continuation-history,
//! capture-history and counter-move updates of a cut-off (and, by switch, of an exact node's best
//! move and of a table cut-off's move).

use super::super::ordering;
use super::super::tt::Bound;
use super::move_prune::{Candidate, NodeFacts};
use super::{Searcher, NO_PREV};
use crate::eval::Evaluator;
use crate::game::search_params::{
    CAPTURE_SLACK, CHECK_EXT_DEPTH, CHECK_ORDER, CONT_PLIES, EN_PRISE, HISTORY_BONUS_MAX,
    HISTORY_BONUS_MUL, HISTORY_EXACT, LMP_CHECKS, LMR_CUTOFFS, LMR_DEEPER, LMR_PARENT_COUNT,
    ORDER_WEIGHTS, PRIOR_CM_BONUS, RFP_STAT, SINGULAR_QUIET_LMR, THREAT_ORDER, TT_CAPTURE_LMR,
    TT_CUT_HISTORY, TT_PV,
};
use crate::game::*;

impl<G: Game, E: Evaluator<G>> Searcher<'_, G, E> {
    /// The alpha-beta search of a node at `ply` > 0.
    pub fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        allow_null: bool,
    ) -> i32 {
        self.buf.pv[ply].clear();
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, 0);
        }
        let pv_node = beta - alpha > 1;
        if !self.count_node() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(s) = self.repetition_score(ply) {
            return s;
        }
        if self.buf.positions[ply].is_draw_by_rule() {
            return self.draw_score(ply);
        }
        if self.rules.max_moves_to_draw > 0
            && self.buf.positions[ply].ply() >= self.rules.max_moves_to_draw
        {
            return self.draw_score(ply);
        }
        // Mate distance pruning.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        if ply >= MAX_PLY - 2 {
            return self.evaluate(ply);
        }

        let in_check = self.buf.positions[ply].in_check();
        let key = self.buf.positions[ply].key();
        // No move searched here yet (what a null-move or ProbCut child reads).
        self.buf.move_count[ply] = 0;
        // A singular-extension search of this node (see the move loop) leaves one move out: its
        // result is not this node's value, so it neither takes a cut from the table nor stores.
        let excluded = self.buf.excluded[ply];
        let tte = if self.params.use_tt {
            self.shared.tt.probe(key)
        } else {
            None
        };
        let tt_move = tte.map_or(0, |e| e.mv);
        // A singular search of this node keeps the node's own flag.
        if excluded == 0 {
            self.buf.tt_pv[ply] = pv_node || tte.is_some_and(|e| e.pv);
        }
        let tt_pv = self.tt_pv_on() && self.buf.tt_pv[ply];
        if let Some(e) = tte {
            if !pv_node && excluded == 0 && e.depth >= depth {
                let s = score_from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    if e.mv != 0 && self.sp(TT_CUT_HISTORY) != 0 {
                        self.tt_cut_history(ply, depth, e.mv, s >= beta);
                    }
                    return s;
                }
            }
        }

        // A mate in one found by the game's cheap test ends the node: the move loop would find it
        // too (the child is in check, so its quiescence sees no evasion), but only after ordering
        // and searching moves before it. Stored as exact at this depth.
        if self.params.mate_in_one && !in_check && excluded == 0 {
            if let Some(mv) = self.buf.positions[ply].mate_in_one() {
                let s = mate_in(ply + 1);
                self.buf.pv[ply + 1].clear();
                self.update_pv(ply, mv);
                self.store_tt(key, s, INFINITE, G::encode_move(mv), s, depth, ply);
                return s;
            }
        }

        // The evaluation as the table stores it, then as this search reads it (moved by the
        // correction history of its pawn structure, `CorrHist`).
        let raw_eval = if in_check {
            -INFINITE
        } else {
            self.evaluate_or_tt(ply, tte)
        };
        let eval = if in_check {
            raw_eval
        } else {
            self.corrected_eval(ply, raw_eval)
        };
        self.buf.static_eval[ply] = eval;
        let improving = !in_check && ply >= 2 && eval > self.buf.static_eval[ply - 2];
        // What the pruning decisions read: the static value, or the table's better estimate.
        let static_eval = eval;
        let eval = if in_check {
            eval
        } else {
            self.pruning_eval(eval, tte, ply)
        };

        if !pv_node && !in_check && excluded == 0 && eval.abs() < MATE_BOUND {
            let prev_stat = if ply >= 1 {
                self.buf.stat_score[ply - 1]
            } else {
                0
            };
            if !tt_pv && self.reverse_futility_cut(depth, eval, beta, improving, prev_stat) {
                return eval;
            }
            if self.razor_applies(depth, eval, alpha) {
                let s = self.qsearch(alpha - 1, alpha, ply, 0);
                if self.shared.stopped() {
                    return 0;
                }
                if s < alpha {
                    return s;
                }
            }
            if self.null_move_allowed(allow_null, depth, eval, static_eval, beta)
                && self.buf.positions[ply].null_move_allowed()
            {
                if let Some(child) = self.buf.positions[ply].play_null() {
                    let r = self.null_move_reduction(depth, eval, beta);
                    self.push_null(ply, child);
                    self.buf.prev_hist[ply] = NO_PREV;
                    self.buf.prev_quiet[ply] = false;
                    self.buf.stat_score[ply] = 0;
                    let s = -self.search(-beta, -beta + 1, depth - 1 - r, ply + 1, false);
                    self.pop();
                    if self.shared.stopped() {
                        return 0;
                    }
                    if s >= beta {
                        return if s >= MATE_BOUND { beta } else { s };
                    }
                }
            }
            let tt_score = tte.map(|e| (score_from_tt(e.score, ply), e.depth));
            if let Some(s) = self.probcut(ply, depth, beta, eval, static_eval, improving, tt_score)
            {
                return s;
            }
        }

        depth -= self.iir_reduction(depth, tt_move, excluded, pv_node);
        // Stockfish's `likelyFailLow`: a PV node whose table entry, as deep as this search, is
        // an upper bound (or exact). Its late moves keep their usual reductions.
        // Only read when the flag is on (`tt_pv` is false with `TtPv` off).
        let likely_fail_low = || {
            pv_node && tte.is_some_and(|e| e.mv != 0 && e.bound != Bound::Lower && e.depth >= depth)
        };
        let mut lmr_less = 2 * (tt_pv && !likely_fail_low()) as i32;
        // Reached by a late move of the parent: that node was reduced already (`LmrParentCount`).
        let parent_count = self.sp(LMR_PARENT_COUNT);
        if parent_count > 0 && self.buf.move_count[ply - 1] > parent_count {
            lmr_less += 1;
        }
        let cutoffs_limit = self.sp(LMR_CUTOFFS);
        let deeper_margin = self.sp(LMR_DEEPER);

        let (mut moves, mut scores) = self.take_bufs(ply);
        // The table's move, when legal here, is searched before any move is generated or scored:
        // at most cut nodes it is the cut-off, and then the generation, the scoring (SEE of every
        // capture) and the selection are never needed. The other moves are scored after it, with
        // the history its subtree updated.
        let mut tt_first = if tt_move != 0 && tt_move != excluded {
            self.buf.positions[ply].decode_move(tt_move)
        } else {
            None
        };
        let mut generated = tt_first.is_none();
        if generated {
            self.buf.positions[ply].legal_moves(&mut moves);
            if moves.is_empty() {
                self.give_back_bufs(ply, moves, scores);
                return match self.buf.positions[ply].position_outcome() {
                    Some(Outcome::Draw(_)) => self.draw_score(ply),
                    _ => mated_in(ply),
                };
            }
        }
        let prevs = self.prevs(ply);
        let counter = match prevs[0] {
            NO_PREV => 0,
            h => self.buf.tables.counter[h],
        };
        if generated {
            self.score_moves(ply, &moves, &mut scores, tt_move, counter, prevs);
        }
        self.buf.killers[ply + 1] = [0; 2];
        self.buf.cutoffs[ply + 2] = 0;

        let mut best = -INFINITE;
        let mut best_code = 0u16;
        let mut best_tactical = false;
        let mut move_count = 0i32;
        let mut tried = Tried::default();
        // The move that raised alpha last: (history index, captured kind if tactical, its slot
        // in `tried`), for `HistoryExact`.
        let mut best_move: Option<(usize, Option<usize>, usize)> = None;
        let tt_capture_lmr = self.sp(TT_CAPTURE_LMR) != 0;
        let lmp_checks = self.sp(LMP_CHECKS) != 0;
        let check_ext_depth = self.sp(CHECK_EXT_DEPTH);
        let quiet_terms = self.sp(THREAT_ORDER) > 0
            || self.sp(CHECK_ORDER) > 0
            || self.sp(EN_PRISE) > 0
            || self.sp(ORDER_WEIGHTS) != 0;
        let mut tt_tactical = false;
        // `SingularQuietLmr`: the quiet table move proved singular here.
        let singular_quiet_on = self.sp(SINGULAR_QUIET_LMR) != 0;
        let rfp_stat = self.sp(RFP_STAT) > 0;
        let mut singular_quiet = false;
        let mut i = 0;
        let tt_searched = tt_first.is_some();
        loop {
            let (mv, mscore) = match tt_first.take() {
                Some(mv) => (mv, ordering::SCORE_TT),
                None => {
                    if !generated {
                        generated = true;
                        self.buf.positions[ply].legal_moves(&mut moves);
                        self.score_moves(ply, &moves, &mut scores, tt_move, counter, prevs);
                    }
                    match ordering::pick(&mut moves, &mut scores, i, &mut self.buf.sort_scratch) {
                        Some(picked) => {
                            i += 1;
                            picked
                        }
                        None => break,
                    }
                }
            };
            let pos = &self.buf.positions[ply];
            let code = G::encode_move(mv);
            if code == excluded || (tt_searched && generated && code == tt_move) {
                continue;
            }
            let tactical = pos.is_tactical(mv);
            let hist_idx = pos.history_index(mv);
            move_count += 1;
            // What the reductions and prunings read: the ordering score without the optional
            // quiet-move terms (`ThreatOrder`, `CheckOrder`, `EnPrise`, `OrderWeights`), i.e. a
            // quiet move's histories alone.
            let mscore = if quiet_terms && !tactical && mscore < ordering::SCORE_COUNTER {
                ordering::quiet_score(
                    &self.buf.tables,
                    prevs.map(|p| self.buf.tables.cont_row(p)),
                    hist_idx,
                )
            } else {
                mscore
            };
            if code == tt_move {
                tt_tactical = tactical;
            }

            if best > -MATE_BOUND && !in_check {
                let node = NodeFacts {
                    depth,
                    pv_node,
                    improving,
                    eval,
                    alpha,
                    lmp_checks,
                };
                let cand = Candidate {
                    mv,
                    tactical,
                    hist_idx,
                    mscore,
                    move_count,
                };
                if self.skip_move(ply, &node, &cand, prevs) {
                    continue;
                }
            }

            // Singular extension: is the table's move the only good one here? Searched before
            // the move is made (the same node, with the move excluded, at half depth).
            let mut singular = false;
            let mut double = false;
            let s_beta = match tte {
                Some(e) if code == tt_move => self.singular_beta(&e, depth, ply, excluded),
                _ => None,
            };
            if let Some(s_beta) = s_beta {
                self.buf.excluded[ply] = code;
                let s = self.search(s_beta - 1, s_beta, (depth - 1) / 2, ply, false);
                self.buf.excluded[ply] = 0;
                if self.shared.stopped() {
                    self.give_back_bufs(ply, moves, scores);
                    return 0;
                }
                if s < s_beta {
                    singular = true;
                    singular_quiet = singular_quiet_on && !tactical;
                    double = self.double_extension(pv_node, s, s_beta, ply);
                } else if s_beta >= beta {
                    // Multi-cut: another move also beats beta at the reduced depth.
                    self.give_back_bufs(ply, moves, scores);
                    return s_beta;
                }
            }

            self.buf.move_count[ply] = move_count;
            self.push(ply, mv);
            self.buf.prev_hist[ply] = hist_idx;
            self.buf.prev_quiet[ply] = !tactical;
            self.buf.stat_score[ply] = if rfp_stat && !tactical {
                self.stat_score(mscore, hist_idx, prevs)
            } else {
                0
            };
            let gives_check = self.buf.positions[ply + 1].in_check();
            let ext = (singular
                || (gives_check
                    && self.params.check_extension
                    && depth >= check_ext_depth
                    && (ply as i32) < 2 * self.root_depth
                    && self.buf.positions[ply].see(mv) >= 0)) as i32
                + double as i32;
            self.buf.double_ext[ply + 1] += double as u8;
            let mut new_depth = depth - 1 + ext;

            let mut score;
            if move_count == 1 {
                score = -self.search(-beta, -alpha, new_depth, ply + 1, true);
            } else {
                let mut r = 0;
                if self.lmr_applies(depth, move_count, pv_node, tactical, gives_check) {
                    // Many cut-offs one ply below: this node's moves are easily refuted.
                    let more = (cutoffs_limit > 0
                        && !pv_node
                        && self.buf.cutoffs[ply + 1] > cutoffs_limit as u32)
                        as i32;
                    r = self.lmr_reduction(
                        depth,
                        new_depth,
                        move_count,
                        pv_node,
                        improving,
                        mscore,
                        lmr_less - more - (tt_capture_lmr && tt_tactical) as i32
                            + singular_quiet as i32,
                    );
                }
                let reduced = new_depth - r;
                score = -self.search(-alpha - 1, -alpha, reduced, ply + 1, true);
                if score > alpha && r > 0 {
                    // `LmrDeeper`: how far the reduced search beat alpha says how deep the
                    // full one should go.
                    if deeper_margin > 0 {
                        new_depth += (score > alpha + deeper_margin + 11 * r) as i32
                            - (score < best + new_depth) as i32;
                    }
                    if new_depth > reduced {
                        score = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, true);
                    }
                }
                if score > alpha && score < beta {
                    score = -self.search(-beta, -alpha, new_depth, ply + 1, true);
                }
            }
            self.pop();
            if self.shared.stopped() {
                self.give_back_bufs(ply, moves, scores);
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_code = code;
                    best_tactical = tactical;
                    alpha = score;
                    self.update_pv(ply, mv);
                    let kind = tactical.then(|| self.buf.positions[ply].captured_kind(mv));
                    if score >= beta {
                        self.buf.cutoffs[ply] += 1;
                        self.reward_best(ply, depth, code, hist_idx, kind, &tried, prevs);
                        break;
                    }
                    best_move = Some((hist_idx, kind, tried.next_slot(tactical)));
                }
            }
            tried.push(
                hist_idx,
                tactical.then(|| self.buf.positions[ply].captured_kind(mv)),
            );
        }
        self.give_back_bufs(ply, moves, scores);
        // `HistoryExact`: an exact node's best move is rewarded like a cut-off's, the moves tried
        // before and after it punished (it is taken out of the tried list first).
        if best < beta && excluded == 0 && self.sp(HISTORY_EXACT) != 0 {
            if let Some((hist_idx, kind, slot)) = best_move {
                tried.remove(kind.is_some(), slot);
                self.reward_best(ply, depth, best_code, hist_idx, kind, &tried, prevs);
            }
        }
        if best == -INFINITE {
            // Every move was pruned: fail low at alpha.
            return alpha;
        }
        if best_code == 0 && excluded == 0 {
            self.prior_countermove_bonus(ply, depth, pv_node, prevs[0]);
            // No move raised alpha below a tt-PV parent: the parent's move into this node is
            // probably its best, so this node joins the PV-like part of the tree.
            if self.tt_pv_on() && depth > 3 && ply >= 1 && self.buf.tt_pv[ply - 1] {
                self.buf.tt_pv[ply] = true;
            }
        }
        if excluded == 0 {
            if !in_check && !best_tactical {
                self.update_correction(ply, depth, best, beta, best_code != 0, static_eval);
            }
            self.store_tt(key, best, beta, best_code, raw_eval, depth, ply);
        }
        best
    }

    /// The updates for the best move of a node (`code`, history index `hist_idx`, `kind` the
    /// captured kind if tactical): its capture history, or its killer slot, history,
    /// continuation histories and counter move; the `tried` moves before it take the malus.
    #[allow(clippy::too_many_arguments)]
    fn reward_best(
        &mut self,
        ply: usize,
        depth: i32,
        code: u16,
        hist_idx: usize,
        kind: Option<usize>,
        tried: &Tried,
        prevs: [usize; 4],
    ) {
        let bonus = self.history_bonus(depth);
        // Any best move: the captures tried before it did not refute the position.
        if let Some(kind) = kind {
            self.buf.tables.update_capture(hist_idx, kind, bonus);
        }
        for &(c, kind) in tried.captures() {
            self.buf.tables.update_capture(c, kind, -bonus);
        }
        if kind.is_none() {
            let k = &mut self.buf.killers[ply];
            if k[0] != code {
                k[1] = k[0];
                k[0] = code;
            }
            self.buf.tables.update_history(hist_idx, bonus);
            for &q in tried.quiets() {
                self.buf.tables.update_history(q, -bonus);
            }
            for &p in &prevs {
                self.buf.tables.update_cont(p, hist_idx, bonus);
                for &q in tried.quiets() {
                    self.buf.tables.update_cont(p, q, -bonus);
                }
            }
            if prevs[0] != NO_PREV {
                self.buf.tables.counter[prevs[0]] = code;
            }
        }
    }

    /// `TtCutHistory`: the table's move `code` cut this node off without a search. A quiet one
    /// that held (`high`: the table's score beat beta) takes a cut-off's bonus, killer and
    /// counter move; one that failed low a malus to its history and continuation histories.
    fn tt_cut_history(&mut self, ply: usize, depth: i32, code: u16, high: bool) {
        let pos = &self.buf.positions[ply];
        let Some(mv) = pos.decode_move(code) else {
            return;
        };
        if pos.is_tactical(mv) {
            return;
        }
        let hist_idx = pos.history_index(mv);
        let prevs = self.prevs(ply);
        if high {
            let none = Tried::default();
            self.reward_best(ply, depth, code, hist_idx, None, &none, prevs);
        } else {
            let malus = -self.history_bonus(depth);
            self.buf.tables.update_history(hist_idx, malus);
            for p in prevs {
                self.buf.tables.update_cont(p, hist_idx, malus);
            }
        }
    }

    /// A cut-off's history bonus at `depth`.
    #[inline]
    fn history_bonus(&self, depth: i32) -> i32 {
        (depth * depth).min(self.sp(HISTORY_BONUS_MAX)) * self.sp(HISTORY_BONUS_MUL)
    }

    /// The history indices of the moves one, two, four and six plies back (`NO_PREV` after a
    /// null move, before the root, or further back than `ContPlies` looks).
    fn prevs(&self, ply: usize) -> [usize; 4] {
        let plies = self.sp(CONT_PLIES) as usize;
        [1, 2, 4, 6].map(|back| {
            if back > plies {
                return NO_PREV;
            }
            ply.checked_sub(back)
                .and_then(|i| self.buf.prev_hist.get(i))
                .copied()
                .unwrap_or(NO_PREV)
        })
    }

    /// At a node where no move raised alpha, the opponent's quiet move that led here held: it
    /// was a good answer to the moves before it, so its continuation history after the moves two
    /// and three plies back takes a bonus (`PriorCmBonus` percent of a cut-off's; Stockfish 15.1's bonus for the
    /// prior countermove on a fail low).
    fn prior_countermove_bonus(&mut self, ply: usize, depth: i32, pv_node: bool, prev: usize) {
        let pct = self.sp(PRIOR_CM_BONUS);
        if pct == 0 || prev == NO_PREV || ply < 1 || !self.buf.prev_quiet[ply - 1] {
            return;
        }
        if depth < 3 && !pv_node {
            return;
        }
        let bonus = self.history_bonus(depth) * pct / 100;
        for back in [2, 3] {
            if let Some(&p) = ply
                .checked_sub(back)
                .and_then(|i| self.buf.prev_hist.get(i))
            {
                self.buf.tables.update_cont(p, prev, bonus);
            }
        }
    }

    /// Scores the generated moves of the node at `ply` for `ordering::pick`.
    fn score_moves(
        &mut self,
        ply: usize,
        moves: &[G::Move],
        scores: &mut Vec<i32>,
        tt_move: u16,
        counter: u16,
        prevs: [usize; 4],
    ) {
        let (pct, check, malus) = (
            self.sp(THREAT_ORDER),
            self.sp(CHECK_ORDER),
            self.sp(EN_PRISE),
        );
        let mut terms = if pct > 0 || check > 0 || malus > 0 {
            self.buf.positions[ply].escape_classes(moves, &mut self.buf.escape);
            ordering::OrderTerms {
                classes: &self.buf.escape,
                bonus: ordering::OrderTerms::bonus_for(pct),
                check,
                malus: ordering::OrderTerms::malus_for(malus),
                recent_twice: false,
                capture_slack: 0,
            }
        } else {
            ordering::OrderTerms::NONE
        };
        terms.recent_twice = self.sp(ORDER_WEIGHTS) != 0;
        terms.capture_slack = self.sp(CAPTURE_SLACK);
        ordering::score_moves(
            &self.buf.positions[ply],
            moves,
            scores,
            tt_move,
            self.buf.killers[ply],
            counter,
            &self.buf.tables,
            prevs.map(|p| self.buf.tables.cont_row(p)),
            terms,
        );
    }

    /// Stores a node's result: a fail high is a lower bound, a raised alpha exact, else an upper bound.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store_tt(
        &self,
        key: u64,
        best: i32,
        beta: i32,
        best_code: u16,
        eval: i32,
        depth: i32,
        ply: usize,
    ) {
        if !self.params.use_tt {
            return;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best_code != 0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            best_code,
            score_to_tt(best, ply),
            eval,
            depth,
            bound,
            self.buf.tt_pv[ply],
        );
    }

    /// Whether the `TtPv` parameter is on.
    #[inline]
    pub(super) fn tt_pv_on(&self) -> bool {
        self.sp(TT_PV) != 0
    }
}

/// The moves a node searched without a cut-off, for the malus of its best move's update: quiet
/// moves by history index, captures by (history index, captured kind); the first 64 and 32.
struct Tried {
    quiets: [usize; 64],
    n_quiets: usize,
    captures: [(usize, usize); 32],
    n_captures: usize,
}

impl Default for Tried {
    fn default() -> Self {
        Tried {
            quiets: [0; 64],
            n_quiets: 0,
            captures: [(0, 0); 32],
            n_captures: 0,
        }
    }
}

impl Tried {
    fn quiets(&self) -> &[usize] {
        &self.quiets[..self.n_quiets]
    }

    fn captures(&self) -> &[(usize, usize)] {
        &self.captures[..self.n_captures]
    }

    /// The slot the next quiet move (or capture, if `capture`) will take.
    fn next_slot(&self, capture: bool) -> usize {
        if capture {
            self.n_captures
        } else {
            self.n_quiets
        }
    }

    /// Records a searched move: a quiet one by history index, a capture (`kind`: what it takes)
    /// by both; past the first 64 quiets or 32 captures nothing more is kept.
    fn push(&mut self, hist_idx: usize, kind: Option<usize>) {
        match kind {
            None if self.n_quiets < self.quiets.len() => {
                self.quiets[self.n_quiets] = hist_idx;
                self.n_quiets += 1;
            }
            Some(kind) if self.n_captures < self.captures.len() => {
                self.captures[self.n_captures] = (hist_idx, kind);
                self.n_captures += 1;
            }
            _ => {}
        }
    }

    /// Takes the entry at `slot` out (a capture's if `capture`), when it was recorded.
    fn remove(&mut self, capture: bool, slot: usize) {
        if capture {
            if slot < self.n_captures {
                self.n_captures -= 1;
                self.captures[slot] = self.captures[self.n_captures];
            }
        } else if slot < self.n_quiets {
            self.n_quiets -= 1;
            self.quiets[slot] = self.quiets[self.n_quiets];
        }
    }
}
