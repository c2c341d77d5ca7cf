//! `quit` and end of input: the session ends, but a `go` still running is answered first.
//!
//! Scripts pipe `usi`/`uci`, `position`, `go depth 3`, `quit` and read the answer; Stockfish and
//! YaneuraOu print the `bestmove` of a search that `quit` ends, so the engine does the same: it
//! acts as `stop` (a held `ponder`/`infinite` result is released, a running search stops with its
//! best move so far) and waits until the running `go` has written its answer, whatever that
//! answer is (`bestmove …`, or `checkmate …` for USI `go mate`). The wait is on the answer slot,
//! not on a particular search thread, so it holds for any solver that reports through the slot.
//! `gameover` differs on purpose: after it nobody wants the result, and USI says not to send it.
//!
//! One nicety: a piped `quit` arrives a fraction of a millisecond after `go`, before the search
//! has finished even its first iteration, and a search stopped then can only answer with a move
//! it never looked at. So `quit` first waits (briefly) for the search's first `info` line.

use super::{Controller, Flavour, Slot};
use std::time::{Duration, Instant};

/// How long `quit` waits for a stopped search to answer. A stopped search answers in
/// milliseconds; the bound only guards against a solver that ignores `stop`, and stays below
/// ShogiHome's 5 s before it kills an engine that does not exit after `quit`.
const ANSWER_WAIT: Duration = Duration::from_secs(4);
/// How long `quit` lets a search run to finish its first iteration (which takes milliseconds).
const FIRST_ITERATION_WAIT: Duration = Duration::from_millis(1000);

impl<F: Flavour> Controller<F> {
    /// `quit` or end of input: stop, let the running `go` answer, then return (the caller exits).
    pub fn quit(&mut self) {
        self.wait_until(FIRST_ITERATION_WAIT, |s| !s.active || s.reported);
        self.stop();
        if !self.wait_until(ANSWER_WAIT, |s| !s.active) {
            self.out.line(&format!(
                "info string error: the search did not answer within {} s of quit; exiting without an answer",
                ANSWER_WAIT.as_secs()
            ));
        }
        // Nothing of a search still winding down may follow: from here on it is discarded.
        self.game_over();
    }

    /// Waits until `done` holds for the answer slot; false on timeout. Polling keeps the slot a
    /// plain mutex that any solver can report through.
    fn wait_until(&self, limit: Duration, done: impl Fn(&Slot) -> bool) -> bool {
        let deadline = Instant::now() + limit;
        while !done(&self.slot.lock()) {
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        true
    }
}
