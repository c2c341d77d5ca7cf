//! The generic PVS search (Lazy SMP, lock-free transposition table), written once for every game.
//!
//! `Engine` is what the protocols drive: it owns the shared table and the per-thread ordering tables
//! and runs a search on its own thread (`start`, `stop`, `ponderhit`), or synchronously
//! (`search_sync`, used by `bench`, tests and the learner). `Searcher` (in `pvs`) is one thread.

pub mod bench;
pub mod learner;
pub mod minimax;
pub mod ordering;
pub mod pvs;
pub mod time;
pub mod tt;
pub mod ttwalk;

use crate::eval::Evaluator;
use crate::game::{Game, GameHistory, RuleOptions, Side, MAX_PLY};
use ordering::OrderingTables;
use parking_lot::Mutex;
use pvs::{IterationResult, Searcher, Shared};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;
pub use tt::Bound;

/// Limits of one `go` command.
#[derive(Debug, Clone)]
pub struct Limits<M> {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime_ms: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
    /// Mate in N moves (UCI `go mate N`): stop once such a mate is proven.
    pub mate: Option<u32>,
    pub clock: Option<Clock>,
    pub searchmoves: Vec<M>,
    pub multipv: usize,
}

impl<M> Default for Limits<M> {
    fn default() -> Self {
        Limits {
            depth: None,
            nodes: None,
            movetime_ms: None,
            infinite: false,
            ponder: false,
            mate: None,
            clock: None,
            searchmoves: Vec::new(),
            multipv: 1,
        }
    }
}

impl<M> Limits<M> {
    pub fn depth(d: u32) -> Self {
        Limits {
            depth: Some(d),
            ..Default::default()
        }
    }
}

/// Clock state, indexed by `Side::index()` (First = sente / white).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clock {
    pub time_ms: [u64; 2],
    pub inc_ms: [u64; 2],
    pub byoyomi_ms: [u64; 2],
    pub movestogo: Option<u32>,
}

impl Clock {
    /// Takes `ms` already spent on this move (before the search started) off `side`'s clock:
    /// its main time first, then its byoyomi.
    pub fn spend(&mut self, side: Side, ms: u64) {
        let s = side.index();
        let main = self.time_ms[s].min(ms);
        self.time_ms[s] -= main;
        self.byoyomi_ms[s] = self.byoyomi_ms[s].saturating_sub(ms - main);
    }
}

/// Margins and pacing set by engine options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeOptions {
    pub move_overhead_ms: u64,
    pub network_delay_ms: u64,
    pub network_delay2_ms: u64,
    pub minimum_thinking_ms: u64,
    pub slow_mover_percent: u32,
}

impl Default for TimeOptions {
    fn default() -> Self {
        TimeOptions {
            move_overhead_ms: 50,
            network_delay_ms: 0,
            network_delay2_ms: 0,
            minimum_thinking_ms: 0,
            slow_mover_percent: 100,
        }
    }
}

/// Switches for every pruning and heuristic. The learner turns off what depends on the weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchParams {
    pub use_tt: bool,
    pub null_move: bool,
    pub lmr: bool,
    pub futility: bool,
    pub reverse_futility: bool,
    pub late_move_pruning: bool,
    pub see_pruning: bool,
    pub check_extension: bool,
    pub aspiration: bool,
    /// Internal iterative reduction: a node at depth ≥ 4 without a transposition-table move is
    /// searched one ply shallower (its ordering is a guess, so a full-depth search is wasted
    /// effort; the next iteration finds the table move the shallower search stored).
    pub iir: bool,
    /// Singular extension (with multi-cut): the table's move is extended by a ply when every
    /// other move fails low against its score minus a margin in a reduced search that excludes
    /// it; when that search fails high above beta, the node is cut.
    pub singular: bool,
    /// The game's cheap mate-in-1 test (`Game::mate_in_one`) at inner nodes and at the first
    /// quiescence ply: a mate one ply past the horizon scores as a mate. Off by default: in
    /// shogi 0.1 s/move A/B matches it did not gain (docs/mate.md §5); the USI option `Mate1Ply`
    /// turns it on. Always off for the learner, whose leaf scores must be static evaluations.
    pub mate_in_one: bool,
    /// Reuse the static evaluation a transposition-table entry stores for its position instead
    /// of computing it again: a table hit that does not cut the node used to pay for the whole
    /// evaluation (chess's positional terms are over a quarter of a search's profile); the same
    /// tree in 0.94x the time. Off for the learners: their weights change between searches, and
    /// a stored value would be the old weights'.
    pub tt_eval: bool,
    /// The fifty-move damping of the static evaluation (search parameter `Rule50Damp`, off when
    /// that is 0). Off for the learners: their leaf scores must be the evaluation's own values,
    /// whose features the gradient goes through.
    pub rule50_damping: bool,
    /// `tune` builds: values of the game's search parameters set through options (`None`: the
    /// game's defaults, `Game::SEARCH_PARAMS`).
    #[cfg(feature = "tune")]
    pub tuned: Option<[i32; crate::game::search_params::COUNT]>,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            use_tt: true,
            null_move: true,
            lmr: true,
            futility: true,
            reverse_futility: true,
            late_move_pruning: true,
            see_pruning: true,
            check_extension: true,
            aspiration: true,
            iir: true,
            singular: true,
            mate_in_one: false,
            tt_eval: true,
            rule50_damping: true,
            #[cfg(feature = "tune")]
            tuned: None,
        }
    }
}

impl SearchParams {
    /// The values of the game's search parameters (`game::search_params`): the options' in a
    /// `tune` build when set, else the game's defaults.
    pub fn values<G: Game>(&self) -> [i32; crate::game::search_params::COUNT] {
        #[cfg(feature = "tune")]
        if let Some(v) = self.tuned {
            return v;
        }
        crate::game::search_params::defaults(&G::SEARCH_PARAMS)
    }

    /// Full-width search (plus quiescence): no pruning that depends on the evaluation, for the
    /// learner's PV leaves. SEE pruning stays on: it uses fixed piece values, not the weights, and
    /// without it the shogi quiescence search explodes (every capture sequence, promotions too).
    pub fn learner() -> Self {
        SearchParams {
            use_tt: false,
            null_move: false,
            lmr: false,
            futility: false,
            reverse_futility: false,
            late_move_pruning: false,
            see_pruning: true,
            check_extension: false,
            aspiration: false,
            iir: false,
            singular: false,
            mate_in_one: false,
            tt_eval: false,
            rule50_damping: false,
            #[cfg(feature = "tune")]
            tuned: None,
        }
    }
}

impl SearchParams {
    /// TreeStrap's training search (Veness et al. 2009, §5): transposition table, killers,
    /// history, quiescence and check extension on; null move, late move reductions, futility,
    /// reverse futility, late move pruning and aspiration windows off, so that the bounds the
    /// table holds are those of a plain alpha-beta search whose shape does not depend on the
    /// weights being learned. SEE pruning stays on for the reason given at `learner`.
    pub fn training() -> Self {
        SearchParams {
            use_tt: true,
            check_extension: true,
            ..Self::learner()
        }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchConfig {
    pub rules: RuleOptions,
    /// Score of a draw for the root side, when the root side is First / Second (contempt).
    pub draw_value: [i32; 2],
    pub time: TimeOptions,
    pub params: SearchParams,
}

/// One `info` line's content. Scores are from the side to move at the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: usize,
    pub score: i32,
    pub bound: Bound,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    pub pv: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchOutcome<M> {
    pub best: Option<M>,
    pub ponder: Option<M>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<M>,
    pub time_ms: u64,
}

type InfoFn = Box<dyn FnMut(&Info) + Send>;
type DoneFn<M> = Box<dyn FnOnce(SearchOutcome<M>) + Send>;

/// The search engine the protocols drive.
pub struct Engine<G: Game, E: Evaluator<G> + Clone> {
    shared: Arc<Shared>,
    eval: E,
    config: SearchConfig,
    threads: usize,
    tables: Arc<Mutex<Vec<OrderingTables>>>,
    handle: Option<JoinHandle<()>>,
    _game: std::marker::PhantomData<G>,
}

impl<G: Game, E: Evaluator<G> + Clone> Engine<G, E> {
    pub fn new(eval: E, threads: usize, hash_mb: usize) -> Self {
        Self::with_shared(eval, threads, Shared::new(hash_mb))
    }

    /// Like `new`, but a hash table that cannot be allocated is an error (with the evaluation
    /// handed back, so the caller can build a smaller engine with it).
    pub fn try_new(
        eval: E,
        threads: usize,
        hash_mb: usize,
    ) -> Result<Self, (E, std::collections::TryReserveError)> {
        match Shared::try_new(hash_mb) {
            Ok(shared) => Ok(Self::with_shared(eval, threads, shared)),
            Err(e) => Err((eval, e)),
        }
    }

    fn with_shared(eval: E, threads: usize, shared: Shared) -> Self {
        Engine {
            shared: Arc::new(shared),
            eval,
            config: SearchConfig::default(),
            threads: threads.clamp(1, 256),
            tables: Arc::new(Mutex::new(Vec::new())),
            handle: None,
            _game: std::marker::PhantomData,
        }
    }

    pub fn set_threads(&mut self, n: usize) {
        self.wait();
        self.threads = n.clamp(1, 256);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    pub fn set_hash_mb(&mut self, mb: usize) {
        self.wait();
        // The table is shared with finished threads only through this Arc: rebuild it.
        self.shared = Arc::new(Shared::new(mb));
    }

    /// Resizes the hash table; when the new size cannot be allocated the old table stays (and
    /// keeps its entries) and the error is returned. The old table is only freed once the new one
    /// exists, so the peak is old + new: the price of never being left without a table.
    pub fn try_set_hash_mb(&mut self, mb: usize) -> Result<(), std::collections::TryReserveError> {
        self.wait();
        self.shared = Arc::new(Shared::try_new(mb)?);
        Ok(())
    }

    /// The size of the hash table in use, in MB.
    pub fn hash_mb(&self) -> usize {
        self.shared.tt.size_mb()
    }

    pub fn clear_hash(&mut self) {
        self.wait();
        self.shared.tt.clear();
        self.shared
            .last_score
            .store(i32::MIN, std::sync::atomic::Ordering::Relaxed);
        for t in self.tables.lock().iter_mut() {
            t.clear();
        }
    }

    /// Switches the evaluation and clears the hash: its entries hold the old evaluation's
    /// static values, which the search reuses (`SearchParams::tt_eval`).
    pub fn set_eval(&mut self, eval: E) {
        self.wait();
        self.eval = eval;
        self.clear_hash();
    }

    pub fn eval(&self) -> &E {
        &self.eval
    }

    pub fn set_config(&mut self, config: SearchConfig) {
        self.config = config;
    }

    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Read-only access to the shared table (for a learner reading bounds, and for `hashfull`).
    pub fn tt(&self) -> &tt::TranspositionTable {
        &self.shared.tt
    }

    pub fn is_searching(&self) -> bool {
        self.handle.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Asks the running search to stop; `on_done` follows promptly with the best move so far.
    pub fn stop(&self) {
        self.shared.pondering.store(false, Ordering::Relaxed);
        self.shared.infinite.store(false, Ordering::Relaxed);
        self.shared.stop.store(true, Ordering::Relaxed);
    }

    /// The opponent played the pondered move: the clock starts now.
    pub fn ponderhit(&self) {
        *self.shared.start.lock() = Instant::now();
        self.shared.pondering.store(false, Ordering::Relaxed);
    }

    /// `ponderhit` with the clock as it stands now (YaneuraOu's extension, which ShogiHome's
    /// "early ponder" relies on: it sends `go ponder` without times and the times with
    /// `ponderhit`). The time limits are computed afresh for `side`, the side to move at the root;
    /// without this a ponder search started without a clock would never stop on its own.
    pub fn ponderhit_with_clock(&self, clock: &Clock, side: crate::game::Side) {
        let params = self.config.params.values::<G>();
        let b = time::budget(clock, side, &self.config.time, &params);
        self.shared.soft_ms.store(b.soft_ms, Ordering::Relaxed);
        self.shared.hard_ms.store(b.hard_ms, Ordering::Relaxed);
        self.ponderhit();
    }

    /// Waits for the running search (if any) to finish.
    pub fn wait(&mut self) {
        if let Some(h) = self.handle.take() {
            if h.join().is_err() {
                log::error!("a search thread panicked");
            }
        }
    }

    /// Starts a search on its own thread and returns at once.
    pub fn start(
        &mut self,
        history: GameHistory<G>,
        limits: Limits<G::Move>,
        on_info: InfoFn,
        on_done: DoneFn<G::Move>,
    ) {
        self.stop();
        self.wait();
        let shared = Arc::clone(&self.shared);
        let eval = self.eval.clone();
        let config = self.config;
        let threads = self.threads;
        let tables = Arc::clone(&self.tables);
        self.prepare(&history, &limits);
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let out = run_pool(
                    &shared, &eval, config, threads, &tables, &history, &limits, on_info,
                );
                on_done(out);
            });
        match handle {
            Ok(h) => self.handle = Some(h),
            Err(e) => log::error!("cannot start the search thread: {e}"),
        }
    }

    /// Searches to completion on the calling thread's pool and returns the result.
    pub fn search_sync(
        &mut self,
        history: &GameHistory<G>,
        limits: &Limits<G::Move>,
        on_info: InfoFn,
    ) -> SearchOutcome<G::Move> {
        self.stop();
        self.wait();
        self.prepare(history, limits);
        run_pool(
            &self.shared,
            &self.eval,
            self.config,
            self.threads,
            &self.tables,
            history,
            limits,
            on_info,
        )
    }

    fn prepare(&self, history: &GameHistory<G>, limits: &Limits<G::Move>) {
        let s = &self.shared;
        s.stop.store(false, Ordering::Relaxed);
        s.nodes.store(0, Ordering::Relaxed);
        *s.start.lock() = Instant::now();
        s.pondering.store(limits.ponder, Ordering::Relaxed);
        s.infinite.store(limits.infinite, Ordering::Relaxed);
        s.node_limit
            .store(limits.nodes.unwrap_or(u64::MAX), Ordering::Relaxed);
        let (mut soft, mut hard) = (u64::MAX, u64::MAX);
        if let Some(clock) = &limits.clock {
            let params = self.config.params.values::<G>();
            let side = history.current().side_to_move();
            let b = time::budget(clock, side, &self.config.time, &params);
            soft = b.soft_ms;
            hard = b.hard_ms;
        }
        if let Some(mt) = limits.movetime_ms {
            let mt = mt
                .saturating_sub(self.config.time.move_overhead_ms.min(mt / 2))
                .max(1);
            // `movetime` means "search this long": only the hard stop applies (a soft limit would
            // leave up to half of it unused when an iteration looks too long to start).
            if limits.clock.is_some() {
                soft = soft.min(mt);
            }
            hard = hard.min(mt);
        }
        s.soft_ms.store(soft, Ordering::Relaxed);
        s.hard_ms.store(hard, Ordering::Relaxed);
        s.tt.new_search();
    }
}

impl<G: Game, E: Evaluator<G> + Clone> Drop for Engine<G, E> {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

/// Runs `threads` searchers over the shared table (Lazy SMP) and returns the reported result: the
/// deepest iteration over all threads that finished or found a move before it was stopped
/// (`Searcher::iterate`; a finished one wins at equal depth, then the first reported).
#[allow(clippy::too_many_arguments)]
fn run_pool<G: Game, E: Evaluator<G>>(
    shared: &Shared,
    eval: &E,
    config: SearchConfig,
    threads: usize,
    tables: &Mutex<Vec<OrderingTables>>,
    history: &GameHistory<G>,
    limits: &Limits<G::Move>,
    on_info: InfoFn,
) -> SearchOutcome<G::Move> {
    let start = Instant::now();
    let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 8).max(1);
    let multipv = limits.multipv.max(1);
    let draw_value = config.draw_value[history.current().side_to_move().index()];
    let best: Mutex<Option<IterationResult<G::Move>>> = Mutex::new(None);
    let mut saved = std::mem::take(&mut *tables.lock());
    saved.resize_with(threads, || {
        OrderingTables::for_play(G::HISTORY_SIZE, G::CAPTURE_KINDS)
    });
    let mut reporter = Some(on_info);
    let results: Vec<OrderingTables> = crossbeam::scope(|scope| {
        let mut handles = Vec::new();
        for (id, mut t) in saved.drain(..).enumerate() {
            let best = &best;
            let mut report = if id == 0 { reporter.take() } else { None };
            let h = scope.builder().stack_size(64 << 20).spawn(move |_| {
                t.age();
                let mut s = Searcher::new(shared, eval, config.params, id);
                s.buf.tables = t;
                s.draw_value = draw_value;
                s.rules = config.rules;
                s.set_root(history, &limits.searchmoves);
                let mut noop = |_: &Info| {};
                let report_fn: &mut dyn FnMut(&Info) = match report.as_mut() {
                    Some(r) => r.as_mut(),
                    None => &mut noop,
                };
                s.iterate(max_depth, multipv, limits.mate, report_fn, &mut |r| {
                    let mut b = best.lock();
                    // Deeper wins; at equal depth a finished iteration beats a stopped one.
                    if b.as_ref().is_none_or(|old| {
                        r.depth > old.depth || (r.depth == old.depth && r.complete && !old.complete)
                    }) {
                        *b = Some(r.clone());
                    }
                });
                if id == 0 {
                    // While pondering or in `go infinite`, the answer waits for stop / ponderhit.
                    while !shared.stopped()
                        && (shared.pondering.load(Ordering::Relaxed)
                            || shared.infinite.load(Ordering::Relaxed))
                    {
                        std::thread::sleep(std::time::Duration::from_millis(1));
                    }
                    shared.stop.store(true, Ordering::Relaxed);
                }
                s.flush_nodes();
                s.buf.tables
            });
            match h {
                Ok(h) => handles.push(h),
                Err(e) => log::error!("cannot start search thread {id}: {e}"),
            }
        }
        handles
            .into_iter()
            .filter_map(|h| h.join().ok())
            .collect::<Vec<_>>()
    })
    .unwrap_or_default();
    *tables.lock() = results;
    finish(shared, history, best.into_inner(), start)
}

fn finish<G: Game>(
    shared: &Shared,
    history: &GameHistory<G>,
    best: Option<IterationResult<G::Move>>,
    start: Instant,
) -> SearchOutcome<G::Move> {
    let root = history.current();
    let nodes = shared.nodes.load(Ordering::Relaxed);
    let time_ms = start.elapsed().as_millis() as u64;
    match best {
        Some(r) if !r.root_moves.is_empty() => {
            let rm = &r.root_moves[0];
            SearchOutcome {
                best: Some(rm.mv),
                ponder: rm.pv.get(1).copied(),
                score: rm.score,
                depth: r.depth,
                nodes,
                pv: rm.pv.clone(),
                time_ms,
            }
        }
        _ => {
            // Stopped before the first iteration finished: any legal move beats none.
            let mut moves = Vec::new();
            root.legal_moves(&mut moves);
            SearchOutcome {
                best: moves.first().copied(),
                ponder: None,
                score: 0,
                depth: 0,
                nodes,
                pv: moves.first().copied().into_iter().collect(),
                time_ms,
            }
        }
    }
}
