//! The controller, written once for both games: it holds the game so far, the options, the
//! evaluation and the search engine, and carries out the commands both dialects share.
//!
//! The dialects (`usi.rs`, `uci.rs`) only translate words: they implement `Flavour`, which names the
//! game, the evaluation, the option table and how `go` is read, and they handle the few commands
//! only one protocol has. Every handler returns `Result<Flow, String>`; the error text becomes the one
//! `info string error: <what>: <line>` line, and a handler checks everything before it changes any
//! state, so a rejected line changes nothing.
//!
//! `bestmove` is guarded by `Slot`: the search reports its result on its own thread, but in
//! `ponder` and `infinite` mode the protocols forbid a `bestmove` before `ponderhit`/`stop`, so a
//! result that arrives early is parked there and released by the command that allows it.
//!
//! Files: this one holds the controller's state, the command dispatch, `isready` (the engine and
//! EvalFile) and `position`; `controller/slot.rs` the go/stop/answer slot, `controller/mate.rs`
//! USI `go mate` (the df-pn solver), `controller/console.rs`
//! the console commands (`d`, `eval`, `perft`, `bench`, `learn`, `help`), `controller/settings.rs`
//! option handling, `controller/hash.rs` the hash size (fallible), `controller/ending.rs` `quit`
//! and end of input (a running search still answers).

mod console;
mod ending;
mod hash;
mod mate;
mod settings;
mod slot;

pub use console::board_diagram;
use console::help_lines;
pub use mate::DEFAULT_MATE_HASH_MB;
pub use settings::{entering_king_rule, rule_options, time_options};
use slot::Slot;

use super::engine::{Clock, Engine, Limits, SearchConfig};

/// The evaluator a flavour plays with.
type EvalOf<F> = <<F as Flavour>::G as GameEval>::Eval;
use super::info::Out;
use super::options::{Options, Spec};
use super::tokenizer::{printable, Tokens};
use crate::eval::GameEval;
use crate::game::{Game, GameHistory, RulesError};
use crate::mate::MateGame;
use parking_lot::Mutex;
use std::sync::Arc;

/// Whether the protocol loop goes on after a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// What a `go` line asks for, once a dialect has read it.
#[derive(Debug, Clone)]
pub enum GoRequest<M> {
    Search(Limits<M>),
    Perft(u32),
    /// USI `go mate <ms>|infinite`: answered with `checkmate …` instead of `bestmove`.
    Mate(Option<u64>),
}

/// A game and protocol pairing: everything the shared controller needs to know about a dialect.
pub trait Flavour: Sized + 'static {
    type G: GameEval + MateGame;
    /// USI (mate distances in plies, `resign`/`win`, `sfen`) or UCI.
    const USI: bool;
    /// Keyword before a position text in `position`: `sfen` or `fen`.
    const POSITION_KEYWORD: &'static str;
    /// `bestmove` when there is no legal move.
    const NO_MOVE: &'static str;

    fn option_specs() -> Vec<Spec>;
    /// A position text the game rejects but `go mate` can solve (a tsume without the attacker's
    /// king); `None` when the text is not one.
    fn mate_problem(_text: &str) -> Option<Result<Self::G, RulesError>> {
        None
    }
    /// Reads the words of a `go` line after `go`.
    fn parse_go(
        ctrl: &Controller<Self>,
        t: &mut Tokens,
    ) -> Result<GoRequest<<Self::G as Game>::Move>, String>;
    /// Search settings from the options.
    fn search_config(options: &Options) -> SearchConfig;
    /// Thread count and hash size from the options.
    fn threads_and_hash(options: &Options) -> (usize, usize);
    /// `id`, options and `usiok`/`uciok`.
    fn handshake(ctrl: &Controller<Self>) -> Vec<String>;
    /// A command only this dialect has; `None` when the word is not one.
    fn dialect_command(
        ctrl: &mut Controller<Self>,
        cmd: &str,
        t: &mut Tokens,
    ) -> Option<Result<Flow, String>>;
}

pub struct Controller<F: Flavour> {
    pub out: Out,
    pub options: Options,
    history: GameHistory<F::G>,
    /// Built at the first `isready` (or `go`), not before `usiok`/`uciok`: the hash table and the
    /// evaluation tables are the heavy part of start-up.
    engine: Option<Engine<F::G, EvalOf<F>>>,
    /// The last EvalFile value acted on (so a bad file is reported once, not at every `isready`).
    eval_source: String,
    /// Where the evaluation in use came from ("" = the built-in evaluation).
    eval_in_use: String,
    applied_threads_hash: (usize, usize),
    /// A hash size that could not be allocated (reported once, retried after a new `setoption`).
    failed_hash: Option<usize>,
    clear_hash_pending: bool,
    slot: Arc<Mutex<Slot>>,
    /// The running `go mate` solve.
    mate_job: mate::MateJob,
    /// The position is a mate problem without the attacker's king: only `go mate` may use it.
    mate_only: bool,
    /// Why the last `position` was rejected: `go mate` must not answer for the earlier position
    /// as if it were the one the GUI sent.
    position_error: Option<String>,
    pub debug: bool,
}

impl<F: Flavour> Controller<F> {
    /// Cheap on purpose: nothing heavy may happen before `usiok`/`uciok`; weights load at `isready`.
    pub fn new(out: Out) -> Self {
        let options = Options::new(F::option_specs());
        Controller {
            out,
            history: GameHistory::new(F::G::startpos()),
            engine: None,
            eval_source: String::new(),
            eval_in_use: String::new(),
            applied_threads_hash: (0, 0),
            failed_hash: None,
            clear_hash_pending: false,
            options,
            slot: Arc::new(Mutex::new(Slot::default())),
            mate_job: mate::MateJob::default(),
            mate_only: false,
            position_error: None,
            debug: false,
        }
    }

    pub fn position(&self) -> &F::G {
        self.history.current()
    }

    /// Handles one input line; prints the error line if it is rejected.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        let mut t = Tokens::new(line);
        let Some(cmd) = t.next() else {
            return Flow::Continue; // blank lines are not commands and not errors
        };
        match self.command(cmd, &mut t) {
            Ok(flow) => flow,
            Err(what) => {
                self.error(&what, line);
                Flow::Continue
            }
        }
    }

    pub fn error(&self, what: &str, line: &str) {
        self.out.line(&format!(
            "info string error: {}: {}",
            printable(what),
            printable(line)
        ));
    }

    fn command(&mut self, cmd: &str, t: &mut Tokens) -> Result<Flow, String> {
        if let Some(r) = F::dialect_command(self, cmd, t) {
            return r;
        }
        let no_args = |t: &mut Tokens| -> Result<(), String> {
            match t.peek() {
                None => Ok(()),
                Some(w) => Err(format!("'{cmd}' takes no arguments, found '{w}'")),
            }
        };
        match cmd {
            "isready" => {
                no_args(t)?;
                self.isready();
            }
            "setoption" => self.setoption(t)?,
            "position" => {
                let r = self.set_position(t);
                self.position_error = r.as_ref().err().cloned();
                r?
            }
            "go" => {
                let req = F::parse_go(self, t)?;
                self.check_playable(Some(&req))?;
                self.go(req)?;
            }
            "stop" => {
                no_args(t)?;
                self.stop();
            }
            "ponderhit" => {
                let clock = ponderhit_clock(self, t)?;
                self.ponderhit(clock);
            }
            "quit" => {
                no_args(t)?;
                self.quit();
                return Ok(Flow::Quit);
            }
            "d" => {
                no_args(t)?;
                self.display();
            }
            "eval" => {
                no_args(t)?;
                self.check_playable(None)?;
                self.show_eval()?;
            }
            "bench" => {
                let depth = match t.next() {
                    None => None,
                    Some(w) => Some(super::tokenizer::parse_number::<u32>(w, "bench depth")?),
                };
                no_args(t)?;
                if let Some(d) = depth.filter(|d| !(1..=20).contains(d)) {
                    return Err(format!("bench depth must be from 1 to 20, not {d}"));
                }
                self.bench(depth)?;
            }
            "perft" => {
                let depth = perft_depth(t)?;
                self.perft(depth)?;
            }
            "learn" => {
                let args: Vec<String> = t.rest().into_iter().map(String::from).collect();
                self.learn(&args)?;
            }
            "help" => {
                no_args(t)?;
                self.out.lines(&help_lines::<F>());
            }
            _ => return Err(format!("unknown command '{cmd}'")),
        }
        Ok(Flow::Continue)
    }

    /// True from `go` until its `bestmove` has been written. The slot, not the engine thread, is
    /// the measure: the thread may still be winding down after it wrote `bestmove`, and the GUI
    /// rightly considers the search over by then.
    pub fn searching(&self) -> bool {
        self.slot.lock().active
    }

    fn isready(&mut self) {
        if !self.searching() {
            self.prepare("isready");
        }
        self.out.line("readyok");
    }

    /// Builds the engine on first use, loads EvalFile when it changed and pushes thread count, hash
    /// size, a pending hash clear and the search settings into it. Only called while no search
    /// runs: the engine must never be resized under a search. `cause` names the command for the
    /// error line of an EvalFile that cannot be used.
    fn prepare(&mut self, cause: &str) -> &mut Engine<F::G, EvalOf<F>> {
        let (threads, hash) = F::threads_and_hash(&self.options);
        let eval = self.eval_if_changed(cause);
        let engine = match self.engine.take() {
            None => {
                let eval = eval.unwrap_or_else(|| self.default_eval());
                self.clear_hash_pending = false;
                self.build_engine(eval, threads, hash, cause)
            }
            Some(mut e) => {
                e.wait();
                if let Some(eval) = eval {
                    e.set_eval(eval);
                }
                if threads != self.applied_threads_hash.0 {
                    e.set_threads(threads);
                }
                self.applied_threads_hash.0 = threads;
                if hash != self.applied_threads_hash.1 {
                    self.resize_hash(&mut e, hash, cause);
                }
                if self.clear_hash_pending {
                    e.clear_hash();
                    self.clear_hash_pending = false;
                }
                e
            }
        };
        let engine = self.engine.insert(engine);
        engine.set_config(F::search_config(&self.options));
        engine
    }

    /// The built-in evaluation; the first use in a process may unpack it into the cache, and
    /// says so in `info string` lines (how long it took).
    fn default_eval(&self) -> EvalOf<F> {
        let out = &self.out;
        F::G::default_eval_noted(&mut |note| out.line(&format!("info string {}", printable(note))))
    }

    /// The evaluation to switch to when EvalFile changed since the last load. A file that cannot be
    /// used is reported once and the current evaluation stays, so a typo in a GUI dialog never
    /// leaves the engine without an evaluation.
    fn eval_if_changed(&mut self, cause: &str) -> Option<EvalOf<F>> {
        let path = self.options.text("EvalFile").to_string();
        if path == self.eval_source {
            return None;
        }
        self.eval_source = path.clone();
        if path.is_empty() {
            self.eval_in_use.clear();
            return Some(self.default_eval());
        }
        // A shipped name or an `.xz` file resolves to a mappable file first (unpacked once into
        // the cache; progress lines go out as they happen, since a large file takes seconds).
        let out = &self.out;
        let resolved = crate::eval::shipped::resolve(&path, Some(F::G::NAME), &mut |note| {
            out.line(&format!("info string {}", printable(note)))
        });
        match resolved.and_then(|p| F::G::load_eval(&p)) {
            Ok(e) => {
                self.eval_in_use = path.clone();
                self.out.line(&format!(
                    "info string EvalFile '{}' loaded",
                    printable(&path)
                ));
                Some(e)
            }
            Err(e) => {
                self.out.line(&format!(
                    "info string error: EvalFile '{}' not loaded ({}), keeping the current evaluation: {cause}",
                    printable(&path),
                    printable(&e)
                ));
                None
            }
        }
    }

    pub fn new_game(&mut self) {
        self.clear_hash_pending = true;
    }

    /// `position startpos|<kw> <text> [moves m1 m2 …]`. The new history is built aside and only
    /// replaces the old one when every move is legal.
    fn set_position(&mut self, t: &mut Tokens) -> Result<(), String> {
        let (start, mate_only) = match t.next() {
            Some("startpos") => (F::G::startpos(), false),
            Some(kw) if kw == F::POSITION_KEYWORD => {
                let words = t.until(&["moves"]);
                if words.is_empty() {
                    return Err(format!("'{kw}' needs a position"));
                }
                let text = words.join(" ");
                match F::G::from_text(&text) {
                    Ok(p) => (p, false),
                    // Not a game position, but maybe a tsume (then the tsume's own error, if it
                    // is not one either, says less than the game's).
                    Err(e) => match F::mate_problem(&text) {
                        Some(Ok(p)) => (p, true),
                        _ => return Err(e.to_string()),
                    },
                }
            }
            Some(other) => {
                return Err(format!(
                    "expected 'startpos' or '{}' after 'position', found '{other}'",
                    F::POSITION_KEYWORD
                ))
            }
            None => return Err("'position' needs 'startpos' or a position".into()),
        };
        let moves = match t.next() {
            None => Vec::new(),
            Some("moves") => t.rest(),
            Some(other) => return Err(format!("expected 'moves', found '{other}'")),
        };
        let mut history = GameHistory::new(start);
        for (i, text) in moves.iter().enumerate() {
            let mv = legal_move(history.current(), text)
                .map_err(|e| format!("bad move {} '{text}': {e}; position unchanged", i + 1))?;
            history.push(mv);
        }
        self.history = history;
        self.mate_only = mate_only;
        Ok(())
    }
}
/// Reads a move text and checks it against the generated legal moves. Membership in the move list
/// is the check, not `Game::is_legal` alone: haitaka 0.3.2's `is_legal` accepts a drop of a piece
/// that is not in hand (found by the fuzz test), and playing it panics.
pub fn legal_move<G: Game>(pos: &G, text: &str) -> Result<G::Move, String> {
    let mv = pos.parse_move(text).map_err(|e| e.to_string())?;
    if !is_generated(pos, mv) {
        return Err(format!("'{text}' is not a legal move in this position"));
    }
    Ok(mv)
}

/// Whether `mv` is among the legal moves of `pos`.
pub fn is_generated<G: Game>(pos: &G, mv: G::Move) -> bool {
    let mut list = Vec::new();
    pos.legal_moves(&mut list);
    list.contains(&mv)
}

/// The optional clock words after `ponderhit` (YaneuraOu's extension: `ponderhit btime … wtime …
/// byoyomi …`, sent by ShogiHome's early ponder). They are read by the dialect's `go` reader, and
/// anything but clock words is an error, so a rejected line leaves the ponder search as it was.
fn ponderhit_clock<F: Flavour>(
    ctrl: &Controller<F>,
    t: &mut Tokens,
) -> Result<Option<Clock>, String> {
    if t.peek().is_none() {
        return Ok(None);
    }
    let only_clock = "'ponderhit' takes only the clock words of 'go' (times, increments, byoyomi)";
    match F::parse_go(ctrl, t)? {
        GoRequest::Search(l)
            if l.depth.is_none()
                && l.nodes.is_none()
                && l.movetime_ms.is_none()
                && !l.infinite
                && !l.ponder
                && l.mate.is_none()
                && l.searchmoves.is_empty() =>
        {
            l.clock.map(Some).ok_or_else(|| only_clock.to_string())
        }
        _ => Err(only_clock.into()),
    }
}

pub fn perft_depth(t: &mut Tokens) -> Result<u32, String> {
    let d: u32 = t.number("perft")?;
    if !(1..=20).contains(&d) {
        return Err(format!("perft depth must be from 1 to 20, not {d}"));
    }
    if let Some(w) = t.next() {
        return Err(format!("unexpected '{w}' after the perft depth"));
    }
    Ok(d)
}

/// Builds a clock from the by-side values a dialect read.
pub fn clock(
    time: [Option<u64>; 2],
    inc: [u64; 2],
    byoyomi: u64,
    movestogo: Option<u32>,
) -> Option<Clock> {
    if time[0].is_none() && time[1].is_none() && byoyomi == 0 && inc == [0, 0] {
        return None;
    }
    Some(Clock {
        time_ms: [time[0].unwrap_or(0), time[1].unwrap_or(0)],
        inc_ms: inc,
        byoyomi_ms: [byoyomi, byoyomi],
        movestogo,
    })
}
