//! Correction histories (`CorrHist`, `CorrNonPawn`, `CorrCont`; Stockfish 16/17's
//! `correctionHistory` and its relatives): the static evaluation of a node moved by a running
//! average of how far the searches' results stood from it at earlier nodes with the same pawn
//! structure (and, by switch, the same pieces of one colour, or the same last two moves), and
//! the update of that average after a node's move loop. A linear evaluation's errors are
//! systematic per structure, which is what the averages catch (docs/search_report.md §37–38).
//! The tables live in `OrderingTables` (play search only).

use super::super::ordering;
use super::{Searcher, NO_PREV};
use crate::eval::rng::mix64;
use crate::eval::Evaluator;
use crate::game::search_params::{CORR_CONT, CORR_HIST, CORR_NON_PAWN};
use crate::game::*;

impl<G: Game, E: Evaluator<G>> Searcher<'_, G, E> {
    /// The key of the last two moves into the node at `ply` (`CorrCont`), `None` before two
    /// moves were made or after a null move. Both sides' moves are in it: the pair says which
    /// exchange of moves led here, which a static evaluation scores alike wherever it happens.
    #[inline]
    fn cont_key(&self, ply: usize) -> Option<u64> {
        if ply < 2 {
            return None;
        }
        let (a, b) = (self.buf.prev_hist[ply - 1], self.buf.prev_hist[ply - 2]);
        if a == NO_PREV || b == NO_PREV {
            return None;
        }
        Some(mix64(((a as u64) << 32) | b as u64))
    }

    /// The static evaluation `raw` at `ply` moved by the correction histories of its pawn
    /// structure (`CorrHist`), of each colour's other pieces (`CorrNonPawn`) and of the last two
    /// moves (`CorrCont`); unchanged with all off or without the tables, as in the learners.
    #[inline]
    pub(super) fn corrected_eval(&self, ply: usize, raw: i32) -> i32 {
        let (div, div_np) = (self.sp(CORR_HIST), self.sp(CORR_NON_PAWN));
        let div_cont = self.sp(CORR_CONT);
        if (div <= 0 && div_np <= 0 && div_cont <= 0) || self.buf.tables.corr.is_empty() {
            return raw;
        }
        let pos = &self.buf.positions[ply];
        let t = &self.buf.tables;
        let stm = pos.side_to_move().index();
        let mut c = 0;
        if div > 0 {
            c += t.corr_entry(stm, pos.structure_key()) / div;
        }
        if div_np > 0 {
            let sum: i32 = [Side::First, Side::Second]
                .map(|s| t.corr_entry(ordering::corr_row(stm, s.index()), pos.pieces_key(s)))
                .iter()
                .sum();
            c += sum / div_np;
        }
        if div_cont > 0 {
            if let Some(key) = self.cont_key(ply) {
                c += t.corr_entry(ordering::corr_cont_row(stm), key) / div_cont;
            }
        }
        (raw + c).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The node's result `best` against its (corrected) static evaluation moves the correction
    /// histories that are on (its pawn structure's, its pieces', its last two moves'), unless
    /// the result is only a bound on the side the evaluation already stands (a fail high at or
    /// below it, a fail low at or above it), where it says nothing about the evaluation's error.
    /// Tactical best moves are left out by the caller: their result is the capture's, not the
    /// structure's.
    pub(super) fn update_correction(
        &mut self,
        ply: usize,
        depth: i32,
        best: i32,
        beta: i32,
        raised: bool,
        static_eval: i32,
    ) {
        let (on, on_np) = (self.sp(CORR_HIST) > 0, self.sp(CORR_NON_PAWN) > 0);
        let on_cont = self.sp(CORR_CONT) > 0;
        if !(on || on_np || on_cont) || self.buf.tables.corr.is_empty() {
            return;
        }
        if (best >= beta && best <= static_eval) || (!raised && best >= static_eval) {
            return;
        }
        let pos = &self.buf.positions[ply];
        let stm = pos.side_to_move().index();
        let diff = best - static_eval;
        if on {
            let key = pos.structure_key();
            self.buf.tables.update_corr(stm, key, diff, depth);
        }
        if on_np {
            for s in [Side::First, Side::Second] {
                let (row, key) = (ordering::corr_row(stm, s.index()), pos.pieces_key(s));
                self.buf.tables.update_corr(row, key, diff, depth);
            }
        }
        if on_cont {
            if let Some(key) = self.cont_key(ply) {
                let row = ordering::corr_cont_row(stm);
                self.buf.tables.update_corr(row, key, diff, depth);
            }
        }
    }
}
