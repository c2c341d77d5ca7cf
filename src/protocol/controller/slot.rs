//! The go/stop/answer slot: `go` (search, mate, perft), `stop`, `ponderhit`, `gameover`, and the
//! `Slot` that decides when a search's `bestmove` may be written (`ponder` and `infinite` hold it
//! until `ponderhit`/`stop`; every `go` opens a new generation, so a search still winding down
//! never answers a later one).

use super::super::engine::{Clock, Info, Limits, SearchOutcome};
use super::super::info::{bestmove_line, info_line, Out};
use super::{entering_king_rule, is_generated, legal_move, Controller, Flavour, GoRequest};
use crate::game::{Game, Side};
use parking_lot::Mutex;
use std::sync::Arc;

/// The result of the running search, and whether it may be sent yet.
///
/// Every `go` opens a new generation; callbacks carry the generation they were made for, so a
/// search that is still winding down can never answer (or print `info` for) a later `go`.
#[derive(Default)]
pub(super) struct Slot {
    pub(super) generation: u64,
    /// A `go` has been answered by nothing yet.
    pub(super) active: bool,
    /// `ponder` or `infinite`: hold the result until `ponderhit`/`stop`.
    pub(super) hold_ponder: bool,
    pub(super) hold_infinite: bool,
    /// The finished result waiting for release.
    pub(super) pending: Option<String>,
    /// The `bestmove` of the last completed iteration, sent at once on `stop` so the answer does
    /// not wait for the search thread to be scheduled (under load that costs tens of ms).
    pub(super) early: Option<String>,
    /// After `gameover`/`quit` nobody wants the result.
    pub(super) discard: bool,
    /// The search has written an `info` line (a first iteration is done): `quit` waits for this
    /// before it stops a search, so its answer is a searched move.
    pub(super) reported: bool,
    pub(super) stop_requested: bool,
    /// The side to move at the root of the running search (a `ponderhit` clock is read for it;
    /// the GUI may already have sent the next `position`).
    pub(super) root_side: Option<Side>,
}

impl Slot {
    pub(super) fn current(&self, generation: u64) -> bool {
        self.generation == generation && self.active
    }

    /// Called with the final line of a search (or an immediate answer) of `generation`.
    pub(super) fn finish(&mut self, generation: u64, line: String, out: &Out) {
        if !self.current(generation) {
            return;
        }
        if self.discard {
            self.active = false;
            self.pending = None;
        } else if self.hold_ponder || self.hold_infinite {
            self.pending = Some(line);
        } else {
            out.line(&line);
            self.active = false;
        }
    }

    pub(super) fn release(&mut self, out: &Out) {
        if self.hold_ponder || self.hold_infinite || !self.active {
            return;
        }
        if let Some(line) = self.pending.take() {
            if !self.discard {
                out.line(&line);
            }
            self.active = false;
        }
    }
}

impl<F: Flavour> Controller<F> {
    pub(super) fn go(&mut self, req: GoRequest<<F::G as Game>::Move>) -> Result<(), String> {
        self.settle_previous_search()?;
        match req {
            GoRequest::Perft(d) => return self.perft(d),
            GoRequest::Search(mut limits) => {
                if !self.mate_by_proof(&limits) && !self.root_mate_by_proof(&mut limits) {
                    self.start_search(limits)
                }
            }
            GoRequest::Mate(ms) => self.start_mate(ms),
        }
        Ok(())
    }

    /// A `go` while a search runs is only sound once that search has been told to stop: then we
    /// wait for it (it ends in milliseconds). Otherwise it is an error and the search goes on.
    pub(super) fn settle_previous_search(&mut self) -> Result<(), String> {
        if !self.searching() {
            return Ok(());
        }
        if !self.slot.lock().stop_requested {
            return Err("a search is running (send stop first)".into());
        }
        if let Some(e) = self.engine.as_mut() {
            e.wait();
        }
        self.mate_job.wait();
        let mut s = self.slot.lock();
        s.active = false;
        s.pending = None;
        Ok(())
    }

    /// Opens the slot for a new `go`; returns its generation.
    pub(super) fn begin(&self, ponder: bool, infinite: bool) -> u64 {
        let mut s = self.slot.lock();
        *s = Slot {
            generation: s.generation + 1,
            active: true,
            hold_ponder: ponder,
            hold_infinite: infinite,
            ..Slot::default()
        };
        s.generation
    }

    pub(super) fn start_search(&mut self, mut limits: Limits<<F::G as Game>::Move>) {
        let pos = self.history.current().clone();
        let gen = self.begin(limits.ponder, limits.infinite);
        self.slot.lock().root_side = Some(pos.side_to_move());
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            self.slot
                .lock()
                .finish(gen, bestmove_line(F::NO_MOVE, None), &self.out);
            return;
        }
        if F::USI && pos.can_declare_win(entering_king_rule(&self.options)) {
            self.slot
                .lock()
                .finish(gen, bestmove_line("win", None), &self.out);
            return;
        }
        limits.multipv = (self.options.int("MultiPV").max(1) as usize).min(moves.len());
        let dl = self.options.int("DepthLimit");
        if dl > 0 {
            limits.depth = Some(limits.depth.map_or(dl as u32, |d| d.min(dl as u32)));
        }
        let nl = self.options.int("NodesLimit");
        if nl > 0 {
            limits.nodes = Some(limits.nodes.map_or(nl as u64, |n| n.min(nl as u64)));
        }
        let resign = if F::USI {
            self.options.int("ResignValue") as i32
        } else {
            i32::MAX
        };
        let out = self.out.clone();
        let slot = self.slot.clone();
        let root = pos.clone();
        let on_info = info_callback::<F>(
            self.out.clone(),
            self.slot.clone(),
            gen,
            pos.clone(),
            Some(resign),
        );
        let on_done = Box::new(move |o: SearchOutcome<<F::G as Game>::Move>| {
            let line = match o.best {
                None => bestmove_line(F::NO_MOVE, None),
                // ResignValue is a margin: resign when the score says we are at least that lost.
                Some(_) if resign < 99_999 && o.score <= -resign => bestmove_line("resign", None),
                Some(b) => {
                    // A ponder move is only offered when it is legal after the best move (a stale
                    // PV from the TT must never reach the GUI).
                    let after = root.play(b);
                    let ponder = o
                        .ponder
                        .filter(|&p| is_generated(&after, p))
                        .map(|p| after.move_text(p));
                    bestmove_line(&root.move_text(b), ponder.as_deref())
                }
            };
            slot.lock().finish(gen, line, &out);
        });
        let history = self.history.clone();
        self.prepare("go").start(history, limits, on_info, on_done);
    }

    pub(super) fn stop(&mut self) {
        if let Some(e) = &self.engine {
            e.stop();
        }
        self.mate_job.stop();
        let mut s = self.slot.lock();
        s.stop_requested = true;
        s.hold_ponder = false;
        s.hold_infinite = false;
        if s.active && s.pending.is_none() {
            s.pending = s.early.take();
        }
        s.release(&self.out);
    }

    /// `ponderhit`, with the clock when the GUI sent one (see `Engine::ponderhit_with_clock`).
    pub(super) fn ponderhit(&mut self, clock: Option<Clock>) {
        let side = self.slot.lock().root_side;
        if let Some(e) = &self.engine {
            match (clock, side) {
                (Some(c), Some(side)) => e.ponderhit_with_clock(&c, side),
                _ => e.ponderhit(),
            }
        }
        let mut s = self.slot.lock();
        s.hold_ponder = false;
        s.release(&self.out);
    }

    /// `gameover` (USI): the game is over, so a result still to come is of no use to anyone.
    pub fn game_over(&mut self) {
        self.slot.lock().discard = true;
        self.stop();
        if let Some(e) = self.engine.as_mut() {
            e.wait();
        }
        self.mate_job.wait();
        let mut s = self.slot.lock();
        s.active = false;
        s.pending = None;
    }
}

/// Prints `info` lines of generation `gen` while its `go` is unanswered, and (unless `resign` is
/// `None`) keeps the `bestmove` of the last completed iteration for an immediate answer to `stop`.
pub(super) fn info_callback<F: Flavour>(
    out: Out,
    slot: Arc<Mutex<Slot>>,
    gen: u64,
    root: F::G,
    resign: Option<i32>,
) -> Box<dyn FnMut(&Info) + Send> {
    Box::new(move |info: &Info| {
        let mut s = slot.lock();
        if !s.current(gen) {
            return; // answered already: a line now would belong to no search
        }
        out.line(&info_line(info, F::USI));
        s.reported = true;
        if let Some(resign) = resign {
            // Only exact scores of the first line end an iteration; a fail-high's move is not
            // yet confirmed.
            if info.bound == super::super::engine::Bound::Exact
                && info.multipv <= 1
                && !info.pv.is_empty()
            {
                // The move texts are checked like any input: only legal moves reach the GUI.
                if let Ok(best) = legal_move(&root, &info.pv[0]) {
                    let after = root.play(best);
                    let ponder = info.pv.get(1).filter(|p| legal_move(&after, p).is_ok());
                    s.early = Some(if resign < 99_999 && info.score <= -resign {
                        bestmove_line("resign", None)
                    } else {
                        bestmove_line(&info.pv[0], ponder.map(String::as_str))
                    });
                }
            }
        }
    })
}
