//! USI `go mate <ms>|infinite` with the df-pn solver (`crate::mate`), answered with
//! `checkmate <moves>`, `checkmate nomate` (only when the solver proved there is no mate) or
//! `checkmate timeout` (out of time, stopped, or the answer could not be established).
//!
//! The solver runs on its own thread (not the engine's: it needs neither the evaluation nor the
//! search's hash table), with its own table sized by the `MateHash` option (MiB). It is a separate
//! option rather than `USI_Hash` because the play search's table stays allocated while the mate
//! table exists: one number for both would double the memory a GUI asked for, and tsume users
//! want a large mate table without a large play table.
//!
//! `stop` sets the solver's stop flag, which it reads every 1024 nodes, so the answer (the mate
//! if the proof and its PV are already complete, else `checkmate timeout`) comes in milliseconds.
//! A position that is not a mate problem (no king for the side not to move, that side in check, or
//! the last `position` was rejected) gets `info string error: …` and `checkmate timeout`: the
//! USI answers have no "error", `nomate` would be a false claim, and YaneuraOu's mate engines
//! answer such positions with `timeout` / their unknown answer too.
//!
//! UCI `go mate N` (chess) first asks the same solver, briefly and on the protocol thread (at most
//! `UCI_PROOF_NODES` nodes / `UCI_PROOF_MS`), for a mate of checks only within N moves; a proof is
//! answered at once with `info … score mate M … pv …` and `bestmove`. Chess mates often need quiet
//! moves, which a checks-only solver cannot see, so without a proof the alpha-beta search with its
//! mate target runs as before.

use super::super::engine::Limits;
use super::super::info::{bestmove_line, Out};
use super::slot::Slot;
use super::{Controller, Flavour, GoRequest};
use crate::game::Game;
use crate::mate::{
    solve, solve_in, FutileRule, MateGame, MateLimits, MateProgress, MateReport, MateResult,
    MateTable,
};
use crate::protocol::tokenizer::printable;
use parking_lot::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// Mate table size when the option is absent (MiB).
pub const DEFAULT_MATE_HASH_MB: i64 = 256;

/// Budget of the checks-only proof tried before a UCI `go mate N` search.
const UCI_PROOF_NODES: u64 = 200_000;
const UCI_PROOF_MS: u64 = 300;

/// Table of the root proof before a USI play search (MiB): a few thousand nodes use a few
/// hundred KiB, and the table is emptied before every move.
const ROOT_MATE_HASH_MB: usize = 4;

/// The running `go mate`, if any: its stop flag and its thread, and the solver's table, kept
/// between solves (the thread takes it and hands it back emptied, after its answer is out: a
/// fresh table per solve paid the kernel's page zeroing inside the solve, docs/mate.md §19).
#[derive(Default)]
pub(super) struct MateJob {
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<Option<MateTable>>>,
    table: Option<MateTable>,
    /// The small table of the play search's root proof (`RootMateNodes`).
    root_table: Option<MateTable>,
}

impl MateJob {
    /// Asks the running solve to end (it answers at its next budget check).
    pub(super) fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Waits for the running solve's thread (after `stop` it ends within milliseconds).
    pub(super) fn wait(&mut self) {
        if let Some(h) = self.handle.take() {
            // A solver thread that panicked loses its table; the next solve makes a new one.
            if let Ok(table) = h.join() {
                self.table = table;
            }
        }
    }

    /// The kept table if it has `mb` MiB, else a new one (the old one freed first).
    fn take_table(&mut self, mb: usize) -> MateTable {
        // `filter` drops a table of another size before the new one is made.
        let kept = self.table.take().filter(|t| t.mb() == mb);
        kept.unwrap_or_else(|| MateTable::new(mb))
    }
}

/// One `info` line of the solver's progress (the fields GUIs show for a tsume search).
fn progress_line(p: &MateProgress) -> String {
    let ms = p.elapsed.as_millis() as u64;
    let nps = p.nodes * 1000 / ms.max(1);
    format!(
        "info time {ms} nodes {} nps {nps} hashfull {}",
        p.nodes,
        p.hashfull.min(1000)
    )
}

impl<F: Flavour> Controller<F> {
    /// Rejects what only `go mate` can do with a mate problem read without the attacker's king
    /// (the play search and the evaluation need both kings).
    pub(super) fn check_playable(
        &self,
        req: Option<&GoRequest<<F::G as Game>::Move>>,
    ) -> Result<(), String> {
        if self.mate_only && !matches!(req, Some(GoRequest::Mate(_)) | Some(GoRequest::Perft(_))) {
            return Err(
                "the position is a mate problem without the attacker's king: only 'go mate' (or perft) can use it"
                    .into(),
            );
        }
        Ok(())
    }

    /// UCI `go mate N`: answers at once when the df-pn solver proves a mate of checks only within
    /// N moves (within a small budget); false when the search must run instead.
    pub(super) fn mate_by_proof(&mut self, limits: &Limits<<F::G as Game>::Move>) -> bool {
        let Some(n) = limits.mate else {
            return false;
        };
        // ponder / infinite hold the answer and searchmoves restricts it: leave those to the search.
        if F::USI || limits.ponder || limits.infinite || !limits.searchmoves.is_empty() {
            return false;
        }
        let pos = self.history.current().clone();
        if pos.validate_problem().is_err() {
            return false;
        }
        let ms = limits
            .movetime_ms
            .map_or(UCI_PROOF_MS, |m| (m / 2).min(UCI_PROOF_MS));
        let budget = MateLimits {
            nodes: Some(UCI_PROOF_NODES),
            time: Some(Duration::from_millis(ms)),
            hash_mb: 16,
            shortest: true,
            futile: FutileRule::default(),
            ..MateLimits::default()
        };
        let stop = AtomicBool::new(false);
        let Ok(report) = solve(&pos, &budget, &stop) else {
            return false;
        };
        let MateResult::Mate(pv) = &report.result else {
            return false;
        };
        if pv.is_empty() || pv.len() > 2 * n as usize - 1 {
            return false;
        }
        self.answer_with_proof(&pos, &report, pv, pv.len().div_ceil(2));
        true
    }

    /// Answers a play `go` with a proven mate: `pv` (the report's non-empty mate line) as the
    /// PV with `score mate <score>` (moves for UCI, plies for USI), its first move as the best
    /// move.
    fn answer_with_proof(
        &mut self,
        pos: &F::G,
        report: &MateReport<<F::G as Game>::Move>,
        pv: &[<F::G as Game>::Move],
        score: usize,
    ) {
        let gen = self.begin(false, false);
        let texts = pv_texts(pos, pv);
        let ms = report.elapsed.as_millis() as u64;
        self.out.lines(&[
            "info string mate proven by the df-pn solver (checks only)".to_string(),
            format!(
                "info depth {len} seldepth {len} multipv 1 score mate {score} nodes {} nps {} time {ms} hashfull {} pv {}",
                report.nodes,
                report.nodes * 1000 / ms.max(1),
                report.hashfull.min(1000),
                texts.join(" "),
                len = pv.len(),
            ),
        ]);
        let line = bestmove_line(&texts[0], texts.get(1).map(String::as_str));
        self.slot.lock().finish(gen, line, &self.out);
    }

    /// USI play `go`: a df-pn proof of at most `RootMateNodes` nodes on the root first (0: off).
    /// Alpha-beta at the depth a move's time allows misses mates of checks that a proof-number
    /// search finds in a few thousand nodes (tsume of 15 or 25 plies); a proven mate is played at
    /// once. True when the `go` was answered so.
    /// The proof's time is taken off the move's time (move time or clock) before the search.
    pub(super) fn root_mate_by_proof(&mut self, limits: &mut Limits<<F::G as Game>::Move>) -> bool {
        let budget = self.options.int("RootMateNodes");
        if !F::USI
            || budget <= 0
            || self.mate_only
            || limits.ponder
            || limits.infinite
            || limits.mate.is_some()
            || !limits.searchmoves.is_empty()
            || self.options.int("MultiPV") > 1
        {
            return false;
        }
        let pos = self.history.current().clone();
        if pos.validate_problem().is_err() {
            return false;
        }
        let budget = MateLimits {
            nodes: Some(budget as u64),
            time: None,
            hash_mb: ROOT_MATE_HASH_MB,
            // The first proof's line: any forced mate wins; the shortest costs more nodes.
            shortest: false,
            futile: FutileRule::default(),
            ..MateLimits::default()
        };
        let table = self
            .mate_job
            .root_table
            .get_or_insert_with(|| MateTable::new(ROOT_MATE_HASH_MB));
        let stop = AtomicBool::new(false);
        let Ok(report) = solve_in(&pos, &budget, &stop, &mut |_| {}, table) else {
            return false;
        };
        let MateResult::Mate(pv) = &report.result else {
            // The proof's time was this move's: the search gets what is left.
            let spent = report.elapsed.as_millis() as u64;
            if let Some(ms) = limits.movetime_ms.as_mut() {
                *ms = ms.saturating_sub(spent).max(1);
            }
            if let Some(clock) = limits.clock.as_mut() {
                clock.spend(pos.side_to_move(), spent);
            }
            return false;
        };
        if pv.is_empty() {
            return false;
        }
        self.answer_with_proof(&pos, &report, pv, pv.len());
        true
    }

    /// USI `go mate`: the df-pn solver on the current position. Never held: the answer goes out
    /// as soon as it is known, `infinite` or not (as YaneuraOu does).
    pub(super) fn start_mate(&mut self, ms: Option<u64>) {
        let gen = self.begin(false, false);
        let answer =
            |slot: &Mutex<Slot>, out: &Out, line: String| slot.lock().finish(gen, line, out);
        if let Some(e) = &self.position_error {
            self.out.line(&format!(
                "info string error: no mate search: the last 'position' was rejected ({})",
                printable(e)
            ));
            answer(&self.slot, &self.out, "checkmate timeout".into());
            return;
        }
        let pos = self.history.current().clone();
        if let Err(e) = pos.validate_problem() {
            self.out.line(&format!(
                "info string error: no mate search: {}",
                printable(&e.to_string())
            ));
            answer(&self.slot, &self.out, "checkmate timeout".into());
            return;
        }
        let mb = match self.options.int("MateHash") {
            n if n > 0 => n,
            _ => DEFAULT_MATE_HASH_MB,
        };
        let limits = MateLimits {
            nodes: None,
            time: ms.map(Duration::from_millis),
            hash_mb: mb as usize,
            shortest: true,
            futile: if self.options.bool("MateFutileNextToKing") {
                FutileRule::NextToKing
            } else {
                FutileRule::Unguarded
            },
            // The engine's threads: helpers share the table until the first proof.
            threads: self.options.int("Threads").max(1) as usize,
            ..MateLimits::default()
        };
        self.mate_job.wait(); // a previous solve was stopped already (settle_previous_search)
        let mut table = self.mate_job.take_table(mb as usize);
        let stop = Arc::new(AtomicBool::new(false));
        self.mate_job.stop = stop.clone();
        let out = self.out.clone();
        let slot = self.slot.clone();
        let spawned = std::thread::Builder::new()
            .name("mate-driver".into())
            .spawn(move || {
                let mut progress = |p: &MateProgress| {
                    let s = slot.lock();
                    if s.current(gen) {
                        out.line(&progress_line(p));
                    }
                };
                let solved = solve_in(&pos, &limits, &stop, &mut progress, &mut table);
                let line = match solved {
                    Err(e) => {
                        out.line(&format!(
                            "info string error: no mate search: {}",
                            printable(&e.to_string())
                        ));
                        "checkmate timeout".to_string()
                    }
                    Ok(report) => {
                        let stats = MateProgress {
                            nodes: report.nodes,
                            elapsed: report.elapsed,
                            hashfull: report.hashfull,
                        };
                        let mut info = progress_line(&stats);
                        let line = match &report.result {
                            MateResult::Mate(pv) => {
                                let texts = pv_texts(&pos, pv);
                                info.push_str(&format!(
                                    " score mate {} pv {}",
                                    pv.len(),
                                    texts.join(" ")
                                ));
                                format!("checkmate {}", texts.join(" "))
                            }
                            MateResult::NoMate => "checkmate nomate".to_string(),
                            MateResult::Unknown => "checkmate timeout".to_string(),
                        };
                        if slot.lock().current(gen) {
                            out.line(&info);
                        }
                        line
                    }
                };
                slot.lock().finish(gen, line, &out);
                // Emptied after the answer is out, not before the next solve.
                table.clear();
                Some(table)
            });
        match spawned {
            Ok(h) => self.mate_job.handle = Some(h),
            Err(e) => {
                self.out.line(&format!(
                    "info string error: cannot start the mate solver: {e}"
                ));
                answer(&self.slot, &self.out, "checkmate timeout".into());
            }
        }
    }
}

/// The move texts of a PV, each from the position before it.
fn pv_texts<G: MateGame>(root: &G, pv: &[G::Move]) -> Vec<String> {
    let mut pos = root.clone();
    let mut texts = Vec::with_capacity(pv.len());
    for &m in pv {
        texts.push(pos.move_text(m));
        pos = pos.play(m);
    }
    texts
}
