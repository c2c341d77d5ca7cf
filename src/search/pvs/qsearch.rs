//! Quiescence search: stand pat, then captures and promotions (all evasions when in check),
//! recaptures only once it is deep.

use super::super::ordering;
use super::super::tt::Bound;
use super::Searcher;
use crate::eval::Evaluator;
use crate::game::search_params::{CORR_CONT, QS_EVASIONS, QS_RECAPTURE_DEPTH};
use crate::game::*;

/// A safety cap on the quiescence depth (captures run out long before it).
const QS_MAX_DEPTH: usize = 32;

impl<G: Game, E: Evaluator<G>> Searcher<'_, G, E> {
    /// Quiescence search: stand pat, then captures and promotions (all evasions when in check).
    pub fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, qdepth: usize) -> i32 {
        self.buf.pv[ply].clear();
        if !self.count_node() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.buf.positions[ply].in_check();
        if ply >= MAX_PLY - 2 || (qdepth >= QS_MAX_DEPTH && !in_check) {
            return self.evaluate(ply);
        }
        let pv_node = beta - alpha > 1;
        let key = self.buf.positions[ply].key();
        let mut tt_move = 0;
        let mut tte = None;
        if self.params.use_tt {
            tte = self.shared.tt.probe(key);
            // Quiescence keeps what the table says (Stockfish's `pvHit`).
            self.buf.tt_pv[ply] = tte.is_some_and(|e| e.pv);
            if let Some(e) = tte {
                tt_move = e.mv;
                let s = score_from_tt(e.score, ply);
                if !pv_node
                    && match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => s >= beta,
                        Bound::Upper => s <= alpha,
                    }
                {
                    return s;
                }
            }
        }
        let mut best;
        // The evaluation as the table stores it; `stand` is it corrected (`CorrHist`).
        let raw;
        if in_check {
            best = -INFINITE;
            raw = -INFINITE;
        } else {
            raw = self.evaluate_or_tt(ply, tte);
            let stand = self.corrected_eval(ply, raw);
            if stand >= beta {
                // Stored (a lower bound at quiescence depth, with the evaluation): a later visit
                // takes the cut or at least the static value from the table instead of
                // evaluating again. An entry that already holds this position is kept.
                if tte.is_none() {
                    self.store_tt(key, stand, beta, 0, raw, -1, ply);
                }
                return stand;
            }
            // A mate in one that quiescence (captures only) cannot see. Only at the first
            // quiescence ply, where a mate threat past the main search's horizon matters most,
            // and only when it could change the result (stand pat below beta).
            if qdepth == 0 && self.params.mate_in_one {
                if let Some(mv) = self.buf.positions[ply].mate_in_one() {
                    self.buf.pv[ply + 1].clear();
                    self.update_pv(ply, mv);
                    return mate_in(ply + 1);
                }
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let (mut moves, mut scores) = self.take_bufs(ply);
        if in_check {
            self.buf.positions[ply].legal_moves(&mut moves);
            if moves.is_empty() {
                self.give_back_bufs(ply, moves, scores);
                return mated_in(ply);
            }
        } else {
            self.buf.positions[ply].tactical_moves(&mut moves);
        }
        {
            let pos = &self.buf.positions[ply];
            for &mv in &moves {
                let s = if G::encode_move(mv) == tt_move && tt_move != 0 {
                    ordering::SCORE_TT
                } else {
                    ordering::mvv_lva(pos, mv)
                };
                scores.push(s);
            }
        }
        let mut best_code = 0;
        let recapture_depth = self.sp(QS_RECAPTURE_DEPTH).max(0) as usize;
        // `QsEvasions`: how many quiet evasions may still be searched once one evasion has
        // escaped the mate (0: no limit). A pruning: off with SEE pruning (the learners').
        let evasions = self.sp(QS_EVASIONS);
        let mut quiet_evasions = 0;
        // The last two moves key `CorrCont`'s correction, so quiescence records its moves too
        // when that is on (nothing else reads them below the main search).
        let record_moves = self.sp(CORR_CONT) > 0;
        let mut i = 0;
        while let Some((mv, _)) =
            ordering::pick(&mut moves, &mut scores, i, &mut self.buf.sort_scratch)
        {
            i += 1;
            let to = G::move_to(mv);
            // From QsRecaptureDepth on, only recaptures on the square of the last move. Without
            // it, positions with several independent even trades (common in shogi, and everywhere
            // while the learner starts from equal piece values) search every order of the trades,
            // and a single learner search could take seconds.
            if !in_check && qdepth >= recapture_depth && to != self.buf.qs_to[ply] {
                continue;
            }
            if !in_check && self.params.see_pruning && self.buf.positions[ply].see(mv) < 0 {
                continue;
            }
            if in_check && evasions > 0 && self.params.see_pruning {
                let pos = &self.buf.positions[ply];
                let quiet = !pos.is_tactical(mv);
                if best > -MATE_BOUND && ((quiet && quiet_evasions >= evasions) || pos.see(mv) < 0)
                {
                    continue;
                }
                quiet_evasions += quiet as i32;
            }
            self.buf.qs_to[ply + 1] = to;
            if record_moves {
                self.buf.prev_hist[ply] = self.buf.positions[ply].history_index(mv);
            }
            self.push(ply, mv);
            let score = -self.qsearch(-beta, -alpha, ply + 1, qdepth + 1);
            self.pop();
            if self.shared.stopped() {
                self.give_back_bufs(ply, moves, scores);
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_code = G::encode_move(mv);
                    self.update_pv(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.give_back_bufs(ply, moves, scores);
        self.store_tt(key, best, beta, best_code, raw, -1, ply);
        best
    }
}
