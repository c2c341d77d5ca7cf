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

use super::engine::{Clock, Engine, Info, Limits, SearchConfig, SearchOutcome, TimeOptions};

/// The evaluator a flavour plays with.
type EvalOf<F> = <<F as Flavour>::G as GameEval>::Eval;
use super::info::{bestmove_line, info_line, Out};
use super::options::{Changed, Options, Spec, Value};
use super::tokenizer::{printable, Tokens};
use crate::eval::{Evaluator, GameEval};
use crate::game::{
    perft_divide, EnteringKingRule, Game, GameHistory, RuleOptions, Side, MATE_BOUND, MAX_PLY,
};
use crate::learn::{ArgsError, LearnArgs};
use parking_lot::Mutex;
use std::sync::Arc;
use std::time::Instant;

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
    type G: GameEval;
    /// USI (mate distances in plies, `resign`/`win`, `sfen`) or UCI.
    const USI: bool;
    /// Keyword before a position text in `position`: `sfen` or `fen`.
    const POSITION_KEYWORD: &'static str;
    /// `bestmove` when there is no legal move.
    const NO_MOVE: &'static str;

    fn option_specs() -> Vec<Spec>;
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

/// The result of the running search, and whether it may be sent yet.
///
/// Every `go` opens a new generation; callbacks carry the generation they were made for, so a
/// search that is still winding down can never answer (or print `info` for) a later `go`.
#[derive(Default)]
struct Slot {
    generation: u64,
    /// A `go` has been answered by nothing yet.
    active: bool,
    /// `ponder` or `infinite`: hold the result until `ponderhit`/`stop`.
    hold_ponder: bool,
    hold_infinite: bool,
    /// The finished result waiting for release.
    pending: Option<String>,
    /// The `bestmove` of the last completed iteration, sent at once on `stop` so the answer does
    /// not wait for the search thread to be scheduled (under load that costs tens of ms).
    early: Option<String>,
    /// After `gameover`/`quit` nobody wants the result.
    discard: bool,
    stop_requested: bool,
}

impl Slot {
    fn current(&self, generation: u64) -> bool {
        self.generation == generation && self.active
    }

    /// Called with the final line of a search (or an immediate answer) of `generation`.
    fn finish(&mut self, generation: u64, line: String, out: &Out) {
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

    fn release(&mut self, out: &Out) {
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
    clear_hash_pending: bool,
    slot: Arc<Mutex<Slot>>,
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
            clear_hash_pending: false,
            options,
            slot: Arc::new(Mutex::new(Slot::default())),
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
            "position" => self.set_position(t)?,
            "go" => {
                let req = F::parse_go(self, t)?;
                self.go(req)?;
            }
            "stop" => {
                no_args(t)?;
                self.stop();
            }
            "ponderhit" => {
                no_args(t)?;
                self.ponderhit();
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
                let eval = eval.unwrap_or_else(F::G::default_eval);
                self.applied_threads_hash = (threads, hash);
                self.clear_hash_pending = false;
                Engine::new(eval, threads, hash)
            }
            Some(mut e) => {
                e.wait();
                if let Some(eval) = eval {
                    e.set_eval(eval);
                }
                if threads != self.applied_threads_hash.0 {
                    e.set_threads(threads);
                }
                if hash != self.applied_threads_hash.1 {
                    e.set_hash_mb(hash);
                }
                self.applied_threads_hash = (threads, hash);
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
            return Some(F::G::default_eval());
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

    fn setoption(&mut self, t: &mut Tokens) -> Result<(), String> {
        if t.next() != Some("name") {
            return Err("expected 'setoption name <name> [value <value>]'".into());
        }
        let name = t.until(&["value"]).join(" ");
        if name.is_empty() {
            return Err("missing option name".into());
        }
        let value = match t.next() {
            // Values keep their inner spaces (file names); an empty value is allowed for strings.
            Some(_) => Some(t.rest().join(" ")),
            None => None,
        };
        let changed = self.options.set(&name, value.as_deref())?;
        if let Changed {
            name: "Clear Hash",
            value: Value::None,
        } = changed
        {
            self.clear_hash_pending = true;
        }
        Ok(())
    }

    /// `position startpos|<kw> <text> [moves m1 m2 …]`. The new history is built aside and only
    /// replaces the old one when every move is legal.
    fn set_position(&mut self, t: &mut Tokens) -> Result<(), String> {
        let start = match t.next() {
            Some("startpos") => F::G::startpos(),
            Some(kw) if kw == F::POSITION_KEYWORD => {
                let words = t.until(&["moves"]);
                if words.is_empty() {
                    return Err(format!("'{kw}' needs a position"));
                }
                F::G::from_text(&words.join(" ")).map_err(|e| e.to_string())?
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
        Ok(())
    }

    fn go(&mut self, req: GoRequest<<F::G as Game>::Move>) -> Result<(), String> {
        self.settle_previous_search()?;
        match req {
            GoRequest::Perft(d) => return self.perft(d),
            GoRequest::Search(limits) => self.start_search(limits),
            GoRequest::Mate(ms) => self.start_mate(ms),
        }
        Ok(())
    }

    /// A `go` while a search runs is only sound once that search has been told to stop: then we
    /// wait for it (it ends in milliseconds). Otherwise it is an error and the search goes on.
    fn settle_previous_search(&mut self) -> Result<(), String> {
        if !self.searching() {
            return Ok(());
        }
        if !self.slot.lock().stop_requested {
            return Err("a search is running (send stop first)".into());
        }
        if let Some(e) = self.engine.as_mut() {
            e.wait();
        }
        let mut s = self.slot.lock();
        s.active = false;
        s.pending = None;
        Ok(())
    }

    /// Opens the slot for a new `go`; returns its generation.
    fn begin(&self, ponder: bool, infinite: bool) -> u64 {
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

    fn start_search(&mut self, mut limits: Limits<<F::G as Game>::Move>) {
        let pos = self.history.current().clone();
        let gen = self.begin(limits.ponder, limits.infinite);
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

    /// USI `go mate`: a normal search with a mate target; a positive mate score is the answer.
    fn start_mate(&mut self, ms: Option<u64>) {
        let pos = self.history.current().clone();
        // Never held: `go mate` is answered as soon as the search settles it, infinite or not.
        let gen = self.begin(false, false);
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            self.slot
                .lock()
                .finish(gen, "checkmate nomate".into(), &self.out);
            return;
        }
        let limits = Limits {
            movetime_ms: ms,
            // Without a time the search runs until it proves a mate, exhausts its depth or is
            // stopped; `infinite` would make the engine wait for `stop` even after a mate.
            infinite: false,
            mate: Some(MAX_PLY as u32 / 2),
            ..Limits::default()
        };
        let out = self.out.clone();
        let slot = self.slot.clone();
        let root = pos.clone();
        let started = Instant::now();
        let on_done = Box::new(move |o: SearchOutcome<<F::G as Game>::Move>| {
            let line = if o.score >= MATE_BOUND && !o.pv.is_empty() {
                let mut p = root.clone();
                let mut texts = Vec::new();
                for &m in &o.pv {
                    if !is_generated(&p, m) {
                        break;
                    }
                    texts.push(p.move_text(m));
                    p = p.play(m);
                }
                format!("checkmate {}", texts.join(" "))
            } else if slot.lock().stop_requested
                || ms.is_some_and(|ms| started.elapsed().as_millis() as u64 >= ms * 9 / 10)
            {
                "checkmate timeout".to_string()
            } else {
                "checkmate nomate".to_string()
            };
            slot.lock().finish(gen, line, &out);
        });
        // No early answer for `go mate`: its answer is `checkmate …`, known only at the end.
        let on_info =
            info_callback::<F>(self.out.clone(), self.slot.clone(), gen, pos.clone(), None);
        let history = self.history.clone();
        self.prepare("go").start(history, limits, on_info, on_done);
    }

    fn stop(&mut self) {
        if let Some(e) = &self.engine {
            e.stop();
        }
        let mut s = self.slot.lock();
        s.stop_requested = true;
        s.hold_ponder = false;
        s.hold_infinite = false;
        if s.active && s.pending.is_none() {
            s.pending = s.early.take();
        }
        s.release(&self.out);
    }

    fn ponderhit(&mut self) {
        if let Some(e) = &self.engine {
            e.ponderhit();
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
        let mut s = self.slot.lock();
        s.active = false;
        s.pending = None;
    }

    pub fn quit(&mut self) {
        self.game_over();
    }

    fn display(&self) {
        let pos = self.history.current();
        let text = pos.to_text();
        let mut lines = board_diagram(&text);
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut texts: Vec<String> = moves.iter().map(|&m| pos.move_text(m)).collect();
        texts.sort();
        lines.push(format!("Position: {} {}", F::POSITION_KEYWORD, text));
        lines.push(format!("Key: {:016x}", pos.key()));
        lines.push(format!(
            "Side to move: {}",
            side_name::<F>(pos.side_to_move())
        ));
        lines.push(format!(
            "In check: {}",
            if pos.in_check() { "yes" } else { "no" }
        ));
        lines.push(format!("Plies played: {}", self.history.len_plies()));
        lines.push(format!(
            "Legal moves ({}): {}",
            texts.len(),
            texts.join(" ")
        ));
        self.out.lines(&lines);
    }

    fn show_eval(&mut self) -> Result<(), String> {
        if self.searching() {
            return Err("eval while a search is running (send stop first)".into());
        }
        let pos = self.history.current().clone();
        let eval = self.prepare("eval").eval().clone();
        let source = if self.eval_in_use.is_empty() {
            "built-in".to_string()
        } else {
            self.eval_in_use.clone()
        };
        let mut lines = vec![format!(
            "Evaluation from the side to move ({}); weights: {}",
            side_name::<F>(pos.side_to_move()),
            source
        )];
        for (name, v) in eval.breakdown(&pos) {
            lines.push(format!("  {name:<24} {v:>8}"));
        }
        self.out.lines(&lines);
        Ok(())
    }

    fn perft(&mut self, depth: u32) -> Result<(), String> {
        if self.searching() {
            return Err("perft while a search is running (send stop first)".into());
        }
        let start = Instant::now();
        let lines = perft_divide(self.history.current(), depth);
        let text = crate::game::format_divide(&lines, start.elapsed().as_secs_f64());
        let lines: Vec<&str> = text.lines().collect();
        self.out.lines(&lines);
        Ok(())
    }

    /// `bench [depth]`: the search's fixed positions (`search::bench`) with the current evaluation,
    /// threads and hash size.
    /// `learn mmto|ct …`: the learner, run to completion on this thread (the same parser and code
    /// as `kishi learn`; the game is this dialect's unless `--game` says otherwise).
    fn learn(&mut self, args: &[String]) -> Result<(), String> {
        if self.searching() {
            return Err("learn while a search is running (send stop first)".into());
        }
        let a = match LearnArgs::try_parse(args, Some(<F::G as Game>::NAME)) {
            Ok(a) => a,
            Err(ArgsError::Help) => {
                // The same text as `kishi learn --help`, one `info string` per line.
                let lines: Vec<String> = crate::learn::help_text()
                    .lines()
                    .map(|l| format!("info string {l}").trim_end().to_string())
                    .collect();
                self.out.lines(&lines);
                return Ok(());
            }
            // One line: the console answers a bad command with one `info string error: …`.
            Err(e) => return Err(e.one_line()),
        };
        let mut sink = LineSink {
            out: self.out.clone(),
            buf: Vec::new(),
        };
        let summary = crate::games::learn(&a, &mut sink)?;
        self.out.info_string(&summary.describe());
        Ok(())
    }

    fn bench(&mut self, depth: Option<u32>) -> Result<(), String> {
        if self.searching() {
            return Err("bench while a search is running (send stop first)".into());
        }
        let (threads, hash) = F::threads_and_hash(&self.options);
        let eval = self.prepare("bench").eval().clone();
        let depth = depth.unwrap_or_else(crate::search::bench::default_depth::<F::G>);
        let mut text = Vec::new();
        crate::search::bench::run::<F::G, _>(eval, depth, threads, hash, &mut text)
            .map_err(|e| format!("bench failed: {e}"))?;
        let text = String::from_utf8_lossy(&text);
        let lines: Vec<&str> = text.lines().collect();
        self.out.lines(&lines);
        Ok(())
    }
}

/// Forwards the learner's text output to the protocol writer line by line.
struct LineSink {
    out: Out,
    buf: Vec<u8>,
}

impl std::io::Write for LineSink {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(data);
        while let Some(i) = self.buf.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.buf.drain(..=i).collect();
            self.out.line(String::from_utf8_lossy(&line).trim_end());
        }
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Prints `info` lines of generation `gen` while its `go` is unanswered, and (unless `resign` is
/// `None`) keeps the `bestmove` of the last completed iteration for an immediate answer to `stop`.
fn info_callback<F: Flavour>(
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
        if let Some(resign) = resign {
            // Only exact scores of the first line end an iteration; a fail-high's move is not
            // yet confirmed.
            if info.bound == super::engine::Bound::Exact && info.multipv <= 1 && !info.pv.is_empty()
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

pub fn entering_king_rule(options: &Options) -> EnteringKingRule {
    EnteringKingRule::parse(options.text("EnteringKingRule")).unwrap_or_default()
}

/// Rule options shared by the dialects' `search_config`.
pub fn rule_options(options: &Options) -> RuleOptions {
    RuleOptions {
        entering_king: entering_king_rule(options),
        max_moves_to_draw: options.int("MaxMovesToDraw").max(0) as u32,
    }
}

/// Time options from whichever of the names the dialect declares (absent ones read as 0).
pub fn time_options(options: &Options) -> TimeOptions {
    let ms = |n: &str| options.int(n).max(0) as u64;
    let slow = options.int("SlowMover");
    TimeOptions {
        move_overhead_ms: ms("Move Overhead"),
        network_delay_ms: ms("NetworkDelay"),
        network_delay2_ms: ms("NetworkDelay2"),
        minimum_thinking_ms: ms("MinimumThinkingTime"),
        slow_mover_percent: if slow > 0 { slow as u32 } else { 100 },
    }
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

fn side_name<F: Flavour>(s: Side) -> &'static str {
    match (F::USI, s) {
        (true, Side::First) => "sente (black, b)",
        (true, Side::Second) => "gote (white, w)",
        (false, Side::First) => "white",
        (false, Side::Second) => "black",
    }
}

/// A text diagram of the board field of an SFEN or FEN: both write ranks separated by '/', digits
/// for empty squares and letters for pieces (SFEN adds '+' for promoted ones), so one reader does.
pub fn board_diagram(text: &str) -> Vec<String> {
    let board = text.split_whitespace().next().unwrap_or("");
    let mut rows = Vec::new();
    for rank in board.split('/') {
        let mut cells: Vec<String> = Vec::new();
        let mut plus = false;
        for c in rank.chars() {
            if c == '+' {
                plus = true;
            } else if let Some(d) = c.to_digit(10) {
                cells.extend(std::iter::repeat_n(" .".to_string(), d as usize));
            } else {
                cells.push(format!("{}{}", if plus { '+' } else { ' ' }, c));
                plus = false;
            }
        }
        rows.push(cells.concat());
    }
    rows
}

fn help_lines<F: Flavour>() -> Vec<String> {
    let proto = if F::USI { "USI" } else { "UCI" };
    let kw = F::POSITION_KEYWORD;
    vec![
        format!("info string kishi speaks {proto}. Commands:"),
        format!("info string   position startpos|{kw} <text> [moves ...]; go ...; stop; ponderhit; isready; setoption name N [value V]; quit"),
        "info string   d: board, position text, key and legal moves; eval: static evaluation".into(),
        "info string   bench [depth]: fixed search benchmark; perft N (= go perft N): move-path counts".into(),
        "info string   learn mmto|ct --out DIR --data FILES [...]: learn weights (as `kishi learn`)".into(),
    ]
}
