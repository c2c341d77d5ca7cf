//! A STAND-IN for `crate::search`, with the API the lead is landing there, so the protocol front end
//! can be built and played by real clients before the real search exists.
//!
//! It is deliberately small: single-threaded iterative-deepening alpha-beta over the evaluator with
//! captures ordered first and no transposition table. It honours stop, ponderhit, node/depth/time
//! limits and a simple clock budget, which is all the protocol needs to be exercised. It is deleted
//! when `crate::search::Engine` lands; nothing outside `protocol` uses it.

use crate::eval::Evaluator;
use crate::game::history::{repetition_verdict, Repetition};
use crate::game::{
    is_mate_score, mate_in, mated_in, Game, GameHistory, RuleOptions, Side, DRAW, INFINITE, MAX_PLY,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Remaining clock of both sides (by `Side::index`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Clock {
    pub time_ms: [u64; 2],
    pub inc_ms: [u64; 2],
    pub byoyomi_ms: [u64; 2],
    pub movestogo: Option<u32>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Limits<M> {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime_ms: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
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

#[derive(Debug, Clone, Default, PartialEq)]
pub struct TimeOptions {
    pub move_overhead_ms: u64,
    pub network_delay_ms: u64,
    pub network_delay2_ms: u64,
    pub minimum_thinking_ms: u64,
    pub slow_mover_percent: u32,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct SearchConfig {
    pub rules: RuleOptions,
    pub draw_value: [i32; 2],
    pub time: TimeOptions,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Debug, Clone, PartialEq)]
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

#[derive(Debug, Clone, PartialEq)]
pub struct SearchOutcome<M> {
    pub best: Option<M>,
    pub ponder: Option<M>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<M>,
}

type OnInfo = Box<dyn FnMut(&Info) + Send>;
type OnDone<M> = Box<dyn FnOnce(SearchOutcome<M>) + Send>;

pub struct Engine<G: Game, E: Evaluator<G>> {
    eval: Arc<E>,
    config: SearchConfig,
    stop: Arc<AtomicBool>,
    ponder: Arc<AtomicBool>,
    /// Set at ponderhit: the clock budget starts from there.
    ponderhit_at: Arc<parking_lot::Mutex<Option<Instant>>>,
    handle: Option<JoinHandle<()>>,
    _g: std::marker::PhantomData<G>,
}

impl<G: Game, E: Evaluator<G>> Engine<G, E> {
    pub fn new(eval: E, _threads: usize, _hash_mb: usize) -> Self {
        Engine {
            eval: Arc::new(eval),
            config: SearchConfig::default(),
            stop: Arc::new(AtomicBool::new(false)),
            ponder: Arc::new(AtomicBool::new(false)),
            ponderhit_at: Arc::new(parking_lot::Mutex::new(None)),
            handle: None,
            _g: std::marker::PhantomData,
        }
    }
    pub fn set_threads(&mut self, _threads: usize) {}
    pub fn set_hash_mb(&mut self, _mb: usize) {}
    pub fn clear_hash(&mut self) {}
    pub fn set_eval(&mut self, eval: E) {
        self.eval = Arc::new(eval);
    }
    pub fn eval(&self) -> &E {
        &self.eval
    }
    pub fn set_config(&mut self, config: SearchConfig) {
        self.config = config;
    }
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }
    pub fn ponderhit(&self) {
        *self.ponderhit_at.lock() = Some(Instant::now());
        self.ponder.store(false, Ordering::SeqCst);
    }
    pub fn is_searching(&self) -> bool {
        self.handle.as_ref().is_some_and(|h| !h.is_finished())
    }
    pub fn wait(&mut self) {
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }

    pub fn start(
        &mut self,
        history: GameHistory<G>,
        limits: Limits<G::Move>,
        mut on_info: OnInfo,
        on_done: OnDone<G::Move>,
    ) {
        self.wait();
        self.stop.store(false, Ordering::SeqCst);
        self.ponder.store(limits.ponder, Ordering::SeqCst);
        *self.ponderhit_at.lock() = None;
        let mut s = Searcher {
            eval: self.eval.clone(),
            stop: self.stop.clone(),
            ponder: self.ponder.clone(),
            ponderhit_at: self.ponderhit_at.clone(),
            start: Instant::now(),
            budget: budget(&limits, &self.config, history.current().side_to_move()),
            nodes: 0,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            infinite: limits.infinite,
            rules: self.config.rules,
            history,
        };
        self.handle = Some(std::thread::spawn(move || {
            let outcome = s.run(&limits, &mut *on_info);
            on_done(outcome);
        }));
    }

    pub fn search_sync(
        &mut self,
        history: GameHistory<G>,
        limits: Limits<G::Move>,
    ) -> SearchOutcome<G::Move> {
        let (tx, rx) = crossbeam::channel::bounded(1);
        self.start(
            history,
            limits,
            Box::new(|_| {}),
            Box::new(move |o| {
                let _ = tx.send(o);
            }),
        );
        self.wait();
        rx.recv().expect("the search thread always reports")
    }
}

/// Time to spend on this move, or `None` for no time limit.
fn budget<M>(limits: &Limits<M>, cfg: &SearchConfig, us: Side) -> Option<Duration> {
    let overhead = cfg.time.move_overhead_ms + cfg.time.network_delay2_ms;
    if let Some(mt) = limits.movetime_ms {
        return Some(Duration::from_millis(mt.saturating_sub(overhead).max(1)));
    }
    let c = limits.clock.as_ref()?;
    let i = us.index();
    let time = c.time_ms[i];
    let byo = c.byoyomi_ms[i];
    let mtg = c.movestogo.unwrap_or(30).max(1) as u64;
    let mut ms = time / mtg + c.inc_ms[i] * 3 / 4 + byo;
    // Never plan to use more than what is left; keep a safety margin.
    let hard = (time + byo + c.inc_ms[i]).saturating_sub(overhead + 50);
    ms = ms
        .min(hard * 9 / 10)
        .max(cfg.time.minimum_thinking_ms.min(hard));
    Some(Duration::from_millis(ms.max(1)))
}

struct Searcher<G: Game, E: Evaluator<G>> {
    eval: Arc<E>,
    stop: Arc<AtomicBool>,
    ponder: Arc<AtomicBool>,
    ponderhit_at: Arc<parking_lot::Mutex<Option<Instant>>>,
    start: Instant,
    budget: Option<Duration>,
    nodes: u64,
    node_limit: u64,
    infinite: bool,
    rules: RuleOptions,
    history: GameHistory<G>,
}

impl<G: Game, E: Evaluator<G>> Searcher<G, E> {
    fn out_of_time(&mut self) -> bool {
        if self.stop.load(Ordering::Relaxed) || self.nodes >= self.node_limit {
            return true;
        }
        if !self.nodes.is_multiple_of(512) || self.infinite || self.ponder.load(Ordering::Relaxed) {
            return false;
        }
        let Some(b) = self.budget else { return false };
        let from = self.ponderhit_at.lock().unwrap_or(self.start);
        if from.elapsed() >= b {
            self.stop.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }

    fn run(
        &mut self,
        limits: &Limits<G::Move>,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchOutcome<G::Move> {
        let root = self.history.current().clone();
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        if !limits.searchmoves.is_empty() {
            moves.retain(|m| limits.searchmoves.contains(m));
        }
        let mut out = SearchOutcome {
            best: moves.first().copied(),
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: moves.first().copied().into_iter().collect(),
        };
        if moves.is_empty() {
            return out;
        }
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32).clamp(1, 64);
        let mut path: Vec<G> = self.history.positions().to_vec();
        for depth in 1..=max_depth {
            // Best move of the last iteration first.
            if let Some(b) = out.best {
                if let Some(i) = moves.iter().position(|&m| m == b) {
                    moves[..=i].rotate_right(1);
                }
            }
            let mut alpha = -INFINITE;
            let mut best = None;
            let mut best_pv = Vec::new();
            for &mv in &moves {
                path.push(root.play(mv));
                let mut pv = Vec::new();
                let v = -self.negamax(&mut path, depth - 1, 1, -INFINITE, -alpha, &mut pv);
                path.pop();
                if self.stop.load(Ordering::Relaxed) && depth > 1 {
                    break;
                }
                if v > alpha {
                    alpha = v;
                    best = Some(mv);
                    best_pv = vec![mv];
                    best_pv.extend(pv);
                }
            }
            if self.stop.load(Ordering::Relaxed) && depth > 1 {
                break;
            }
            if let Some(b) = best {
                out.best = Some(b);
                out.score = alpha;
                out.depth = depth;
                out.pv = best_pv.clone();
                out.ponder = best_pv.get(1).copied();
            }
            let ms = self.start.elapsed().as_millis() as u64;
            let mut texts = Vec::new();
            let mut p = root.clone();
            for &m in &out.pv {
                texts.push(p.move_text(m));
                p = p.play(m);
            }
            on_info(&Info {
                depth,
                seldepth: depth,
                multipv: 1,
                score: out.score,
                bound: Bound::Exact,
                nodes: self.nodes,
                nps: self.nodes * 1000 / ms.max(1),
                time_ms: ms,
                hashfull: 0,
                pv: texts,
            });
            if is_mate_score(out.score) && !self.infinite {
                break;
            }
            if let Some(m) = limits.mate {
                if out.score >= mate_in(2 * m as usize) {
                    break;
                }
            }
            if self.stop.load(Ordering::Relaxed) {
                break;
            }
        }
        out.nodes = self.nodes;
        out
    }

    fn negamax(
        &mut self,
        path: &mut Vec<G>,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        pv: &mut Vec<G::Move>,
    ) -> i32 {
        self.nodes += 1;
        if ply > 1 && self.out_of_time() {
            return 0;
        }
        let pos = path[path.len() - 1].clone();
        if let Some(crate::game::Outcome::Win(s, _)) = pos.position_outcome() {
            return if s == pos.side_to_move() {
                mate_in(ply)
            } else {
                mated_in(ply)
            };
        }
        if pos.position_outcome().is_some()
            || repetition_verdict::<G>(path, 2) != Repetition::None
            || (self.rules.max_moves_to_draw > 0 && pos.ply() >= self.rules.max_moves_to_draw)
        {
            return DRAW;
        }
        if depth == 0 || ply >= MAX_PLY - 1 {
            let mut acc = E::Acc::default();
            self.eval.refresh(&pos, &mut acc);
            return self.eval.evaluate(&pos, &acc);
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        moves.sort_by_key(|&m| -pos.victim_value(m));
        for mv in moves {
            path.push(pos.play(mv));
            let mut child = Vec::new();
            let v = -self.negamax(path, depth - 1, ply + 1, -beta, -alpha, &mut child);
            path.pop();
            if self.stop.load(Ordering::Relaxed) {
                return 0;
            }
            if v > alpha {
                alpha = v;
                pv.clear();
                pv.push(mv);
                pv.extend(child);
                if v >= beta {
                    break;
                }
            }
        }
        alpha
    }
}
