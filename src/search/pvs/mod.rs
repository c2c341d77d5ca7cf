//! One search thread: iterative deepening with aspiration windows over a principal variation search
//! (null-window search of non-first moves, re-search on fail high), repetition and perpetual-check
//! scoring on the path. Lazy SMP runs several of these over one shared table.
//!
//! Split by concern: this file holds the searcher's state, the root and iterative deepening;
//! `node` the search of an inner node, `qsearch` the quiescence search, `pruning` the decisions
//! to prune or reduce (null move, reverse futility, futility, late move pruning, SEE pruning, late
//! move reductions) with their margins, `correction` the correction histories' adjustment of the
//! static evaluation.

mod correction;
mod move_prune;
mod node;
mod probcut;
mod pruning;
mod qsearch;
mod scratch;

pub use scratch::Scratch;

use super::ordering::{self, OrderingTables};
use super::tt::{Bound, TranspositionTable, TtEntry};
use super::{Info, SearchParams};
use crate::eval::Evaluator;
use crate::game::search_params::{
    ASPIRATION_DELTA, ASPIRATION_DEPTH, ASPIRATION_MAX, CHECK_EXT_DEPTH, FAIL_HIGH_REDUCE,
    LMR_BASE, LMR_DIV, RULE50_DAMP, TIME_FALLING, TIME_NODES,
};
use crate::game::*;
use parking_lot::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::time::Instant;

/// State shared by all threads of one search.
pub struct Shared {
    pub tt: TranspositionTable,
    pub stop: AtomicBool,
    /// While set, time limits do not apply (pondering or `go infinite`).
    pub pondering: AtomicBool,
    pub infinite: AtomicBool,
    pub nodes: AtomicU64,
    pub start: Mutex<Instant>,
    pub soft_ms: AtomicU64,
    pub hard_ms: AtomicU64,
    pub node_limit: AtomicU64,
    /// The best score of the last search that finished an iteration (`i32::MIN`: none since the
    /// table was made or cleared); the falling-evaluation time factor compares with it.
    pub last_score: AtomicI32,
}

impl Shared {
    pub fn new(hash_mb: usize) -> Self {
        Self::with_table(TranspositionTable::new(hash_mb))
    }

    /// Like `new`, but an allocation failure of the table is returned, not an abort.
    pub fn try_new(hash_mb: usize) -> Result<Self, std::collections::TryReserveError> {
        TranspositionTable::try_new(hash_mb).map(Self::with_table)
    }

    fn with_table(tt: TranspositionTable) -> Self {
        Shared {
            tt,
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            infinite: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            start: Mutex::new(Instant::now()),
            soft_ms: AtomicU64::new(u64::MAX),
            hard_ms: AtomicU64::new(u64::MAX),
            node_limit: AtomicU64::new(u64::MAX),
            last_score: AtomicI32::new(i32::MIN),
        }
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.start.lock().elapsed().as_millis() as u64
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// A root move with its latest score and principal variation.
#[derive(Debug, Clone)]
pub struct RootMove<M> {
    pub mv: M,
    pub score: i32,
    pub prev_score: i32,
    pub pv: Vec<M>,
    pub seldepth: u32,
    /// The nodes this searcher spent below this move in this search, all iterations so far
    /// (`TimeNodes` reads the best move's share).
    pub nodes: u64,
}

/// What a finished iteration produced (read by the thread pool to pick the reported move).
#[derive(Debug, Clone)]
pub struct IterationResult<M> {
    pub depth: u32,
    pub root_moves: Vec<RootMove<M>>,
    /// False for a stopped iteration whose first root move (`root_moves[0]`) was searched to
    /// the end and beat the window's lower bound, the rest not all searched (see `iterate`).
    pub complete: bool,
}

const NO_PREV: usize = usize::MAX;
/// Nodes a searcher counts before it adds them to the shared counter and checks the limits.
const PUBLISH_BATCH: u64 = 1024;
const STACK: usize = MAX_PLY + 8;

/// The per-thread searcher. `positions[ply]` is the position at `ply` from the root.
pub struct Searcher<'a, G: Game, E: Evaluator<G>> {
    pub shared: &'a Shared,
    eval: &'a E,
    pub params: SearchParams,
    pub id: usize,
    /// The per-ply buffers, history and root moves (scratch.rs): kept in one field so that the
    /// learners can hand them from one search to the next.
    pub(in crate::search) buf: Scratch<G, E::Acc>,
    base: usize,
    reversible_before_root: u32,
    local_nodes: u64,
    /// This searcher's node count when it last added its nodes to the shared counter, and the
    /// count at which it adds them next (with the limit and clock checks that go with it): one
    /// compare per node, as the old mask test was.
    published: u64,
    publish_at: u64,
    /// Whether an iteration has finished: the node limit stops nothing before, so that a tiny
    /// `go nodes` still answers with a searched move and a score.
    iteration_done: bool,
    /// Whether the last `search_root` call searched a move to the end with a score above its
    /// alpha (that move is then at the front of the searched range, even when it was stopped;
    /// a later call of the same iteration keeps it there unless it finds another).
    root_found: bool,
    pub seldepth: usize,
    root_depth: i32,
    /// Score of a draw for the root side (contempt); negated for the other side.
    pub draw_value: i32,
    pub rules: RuleOptions,
    lmr: &'static pruning::LmrTable,
}

impl<'a, G: Game, E: Evaluator<G>> Searcher<'a, G, E> {
    pub fn new(shared: &'a Shared, eval: &'a E, params: SearchParams, id: usize) -> Self {
        // Construction is cheap enough for a searcher per search; the learners, which build one
        // per leaf, reuse the buffers through `with_scratch` (scratch.rs).
        Self::with_scratch(shared, eval, params, id, Scratch::new())
    }

    /// Sets the root from a game history (its earlier positions feed repetition detection) and the
    /// root moves (all legal moves, or `only` when it names legal moves).
    pub fn set_root(&mut self, history: &GameHistory<G>, only: &[G::Move]) {
        let root = history.current().clone();
        self.buf.path_keys.clear();
        self.buf.path_checks.clear();
        let positions = history.positions();
        let window = (root.reversible_plies() as usize).min(positions.len() - 1);
        for p in &positions[positions.len() - 1 - window..positions.len() - 1] {
            self.buf.path_keys.push(p.key());
            self.buf.path_checks.push(p.in_check());
        }
        self.base = self.buf.path_keys.len();
        self.reversible_before_root = window as u32;
        self.buf.positions.clear();
        self.buf.positions.push(root);
        // The buffers of ply 0 and of the previous root's moves are reused: the learners set a
        // root per position, and a fresh vector per root move (a hundred in shogi) was a quarter
        // of e_ABCD's step 1, in malloc, once millions of stored leaves had filled the heap.
        let (mut moves, mut scores) = self.take_bufs(0);
        self.buf.positions[0].legal_moves(&mut moves);
        if only.iter().any(|m| moves.contains(m)) {
            moves.retain(|m| only.contains(m));
        }
        // Initial order: the ordering heuristics' view (captures by SEE, then history).
        ordering::score_moves(
            &self.buf.positions[0],
            &moves,
            &mut scores,
            0,
            [0; 2],
            0,
            &self.buf.tables,
            [&[], &[], &[], &[]],
            ordering::OrderTerms::NONE,
        );
        let mut idx: Vec<usize> = (0..moves.len()).collect();
        idx.sort_by_key(|&i| std::cmp::Reverse(scores[i]));
        let root_moves = &mut self.buf.root_moves;
        root_moves.truncate(idx.len());
        for (k, &i) in idx.iter().enumerate() {
            if k == root_moves.len() {
                root_moves.push(RootMove {
                    mv: moves[i],
                    score: -INFINITE,
                    prev_score: -INFINITE,
                    pv: Vec::new(),
                    seldepth: 0,
                    nodes: 0,
                });
            }
            let rm = &mut root_moves[k];
            rm.mv = moves[i];
            rm.score = -INFINITE;
            rm.prev_score = -INFINITE;
            rm.pv.clear();
            rm.pv.push(moves[i]);
            rm.seldepth = 0;
            rm.nodes = 0;
        }
        self.give_back_bufs(0, moves, scores);
        let eval = self.eval;
        eval.refresh(&self.buf.positions[0], &mut self.buf.accs[0]);
        self.local_nodes = 0;
        self.published = 0;
        self.iteration_done = false;
        self.publish_at = self.next_batch(self.shared.nodes.load(Ordering::Relaxed));
    }

    pub fn root(&self) -> &G {
        &self.buf.positions[0]
    }

    pub fn nodes(&self) -> u64 {
        self.local_nodes
    }

    fn draw_score(&self, ply: usize) -> i32 {
        if ply.is_multiple_of(2) {
            self.draw_value
        } else {
            -self.draw_value
        }
    }

    /// Counts a node; `false` when the search is stopped (then the node is not counted, or it
    /// was the one that reached the limit). A stopped search counts nothing more: a parent
    /// that calls another search after a stopped child (the full-depth re-search after a
    /// reduced one) must not count it, or `go nodes N` ends at N + 1.
    #[inline]
    fn count_node(&mut self) -> bool {
        if self.shared.stopped() {
            return false;
        }
        self.local_nodes += 1;
        if self.local_nodes >= self.publish_at {
            let n = self.local_nodes - self.published;
            self.published = self.local_nodes;
            let total = self.shared.nodes.fetch_add(n, Ordering::Relaxed) + n;
            if total >= self.shared.node_limit.load(Ordering::Relaxed) && self.iteration_done {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
            self.publish_at = self.local_nodes + self.next_batch(total);
            if self.id == 0
                && !self.shared.pondering.load(Ordering::Relaxed)
                && !self.shared.infinite.load(Ordering::Relaxed)
                && self.shared.elapsed_ms() >= self.shared.hard_ms.load(Ordering::Relaxed)
            {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
            // Only this branch sets the stop; any other node reads it once, above.
            return !self.shared.stopped();
        }
        true
    }

    /// Nodes to count before the next addition to the shared counter, `total` nodes in: a batch
    /// (the shared atomic and the clock are too dear for every node), but no more than the node
    /// limit leaves, so that `go nodes N` stops at N with one thread (with whole batches a limit
    /// below 1,024 searched 1,024 nodes, and 5,000 searched 5,120).
    fn next_batch(&self, total: u64) -> u64 {
        let left = self
            .shared
            .node_limit
            .load(Ordering::Relaxed)
            .saturating_sub(total);
        left.clamp(1, PUBLISH_BATCH)
    }

    /// Adds the nodes not yet published to the shared counter (at the end of a search).
    pub fn flush_nodes(&mut self) {
        let rest = self.local_nodes - self.published;
        self.published = self.local_nodes;
        self.shared.nodes.fetch_add(rest, Ordering::Relaxed);
    }

    fn push(&mut self, ply: usize, mv: G::Move) {
        self.buf.double_ext[ply + 1] = self.buf.double_ext[ply];
        let child = self.buf.positions[ply].play(mv);
        self.shared.tt.prefetch(child.key());
        let (lo, hi) = self.buf.accs.split_at_mut(ply + 1);
        self.eval
            .update(&self.buf.positions[ply], mv, &child, &lo[ply], &mut hi[0]);
        self.buf.path_keys.truncate(self.base + ply);
        self.buf.path_keys.push(self.buf.positions[ply].key());
        self.buf.path_checks.truncate(self.base + ply);
        self.buf
            .path_checks
            .push(self.buf.positions[ply].in_check());
        self.buf.positions.push(child);
    }

    fn push_null(&mut self, ply: usize, child: G) {
        self.buf.double_ext[ply + 1] = self.buf.double_ext[ply];
        let (lo, hi) = self.buf.accs.split_at_mut(ply + 1);
        self.eval.update_null(&child, &lo[ply], &mut hi[0]);
        self.buf.path_keys.truncate(self.base + ply);
        // A null move breaks repetition chains: record an impossible key.
        self.buf.path_keys.push(0);
        self.buf.path_checks.truncate(self.base + ply);
        self.buf.path_checks.push(false);
        self.buf.positions.push(child);
    }

    fn pop(&mut self) {
        self.buf.positions.pop();
    }

    /// Repetition verdict on the path for the node at `ply` (> 0): a draw, or a perpetual-check
    /// win or loss under shogi rules. One repetition is enough inside the search.
    fn repetition_score(&self, ply: usize) -> Option<i32> {
        let pos = &self.buf.positions[ply];
        let key = pos.key();
        let i = self.base + ply; // index this position would have in path_keys
        let limit = (pos.reversible_plies() as usize).min(i);
        let mut back = 2;
        while back <= limit {
            let j = i - back;
            if self.buf.path_keys[j] == key {
                if !G::PERPETUAL_CHECK_LOSES {
                    return Some(self.draw_score(ply));
                }
                // Positions i-d for d in 0..back; even d: the opponent's move led here.
                let check_at = |idx: usize| -> bool {
                    if idx == i {
                        pos.in_check()
                    } else {
                        self.buf.path_checks[idx]
                    }
                };
                let opp_checked = (0..back).step_by(2).all(|d| check_at(i - d));
                let we_checked = (1..back).step_by(2).all(|d| check_at(i - d));
                return Some(if opp_checked {
                    mate_in(ply)
                } else if we_checked {
                    mated_in(ply)
                } else {
                    self.draw_score(ply)
                });
            }
            back += 2;
        }
        None
    }

    /// The move and score buffers of `ply`, emptied (a node reuses their capacity instead of
    /// allocating); every return of the node hands them back with `give_back_bufs`.
    #[inline]
    fn take_bufs(&mut self, ply: usize) -> (Vec<G::Move>, Vec<i32>) {
        let mut moves = std::mem::take(&mut self.buf.move_bufs[ply]);
        let mut scores = std::mem::take(&mut self.buf.score_bufs[ply]);
        moves.clear();
        scores.clear();
        (moves, scores)
    }

    #[inline]
    fn give_back_bufs(&mut self, ply: usize, moves: Vec<G::Move>, scores: Vec<i32>) {
        self.buf.move_bufs[ply] = moves;
        self.buf.score_bufs[ply] = scores;
    }

    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (lo, hi) = self.buf.pv.split_at_mut(ply + 1);
        let dst = &mut lo[ply];
        dst.clear();
        dst.push(mv);
        dst.extend_from_slice(&hi[0]);
    }

    /// Searches the root to `depth` within (alpha, beta) over root moves from `pv_idx` on; returns
    /// the best score. Root move scores and PVs are updated in place.
    pub fn search_root(&mut self, mut alpha: i32, beta: i32, depth: i32, pv_idx: usize) -> i32 {
        self.root_depth = depth;
        self.buf.pv[0].clear();
        // The root is a PV node (what a child failing low below it reads for `TtPv`).
        self.buf.tt_pv[0] = true;
        // The root's children start the count of cut-offs two plies below the root.
        self.buf.cutoffs[2] = 0;
        let mut best = -INFINITE;
        let mut best_idx = None;
        self.root_found = false;
        let n = self.buf.root_moves.len();
        for i in pv_idx..n {
            let mv = self.buf.root_moves[i].mv;
            self.seldepth = 0;
            self.buf.move_count[0] = (i - pv_idx + 1) as i32;
            self.push(0, mv);
            self.buf.prev_hist[0] = self.buf.positions[0].history_index(mv);
            self.buf.prev_quiet[0] = !self.buf.positions[0].is_tactical(mv);
            self.buf.stat_score[0] = 0;
            let gives_check = self.buf.positions[1].in_check();
            let ext = (gives_check
                && self.params.check_extension
                && depth >= self.sp(CHECK_EXT_DEPTH)) as i32;
            let new_depth = depth - 1 + ext;
            let nodes_before = self.local_nodes;
            let mut score;
            if i == pv_idx {
                score = -self.search(-beta, -alpha, new_depth, 1, true);
            } else {
                score = -self.search(-alpha - 1, -alpha, new_depth, 1, true);
                if score > alpha && score < beta && !self.shared.stopped() {
                    score = -self.search(-beta, -alpha, new_depth, 1, true);
                }
            }
            self.pop();
            self.buf.root_moves[i].nodes += self.local_nodes - nodes_before;
            if self.shared.stopped() {
                break;
            }
            let rm_seldepth = self.seldepth as u32;
            if i == pv_idx || score > alpha {
                let rm = &mut self.buf.root_moves[i];
                rm.score = score;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.buf.pv[1]);
                rm.seldepth = rm_seldepth;
            } else {
                self.buf.root_moves[i].score = -INFINITE;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_idx = Some(i);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        // Move the best to the front of the searched range, keeping the others in order.
        if let Some(b) = best_idx {
            self.root_found = true;
            let rm = self.buf.root_moves.remove(b);
            self.buf.root_moves.insert(pv_idx, rm);
        }
        best
    }

    fn evaluate(&self, ply: usize) -> i32 {
        let pos = &self.buf.positions[ply];
        let mut v = self.eval.evaluate(pos, &self.buf.accs[ply]);
        let n = self.sp(RULE50_DAMP);
        if n > 0 && self.params.rule50_damping {
            // eval·(n − r)/n, r the plies since the last capture or pawn move, at most n/2 (the
            // value is never more than halved); a game without the rule (u32::MAX) is left alone.
            let r = pos.reversible_plies();
            if r != u32::MAX {
                let r = (r as i64).min(n as i64 / 2);
                v = (v as i64 * (n as i64 - r) / n as i64) as i32;
            }
        }
        v.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The static evaluation at `ply`, taken from the position's table entry when it holds one
    /// (`SearchParams::tt_eval`). Entries of positions in check and of mates found by the
    /// mate-in-one test store values outside the evaluation's range, and are not used.
    fn evaluate_or_tt(&self, ply: usize, tte: Option<TtEntry>) -> i32 {
        match tte {
            Some(e) if self.params.tt_eval && e.eval.abs() < MATE_BOUND => e.eval,
            _ => self.evaluate(ply),
        }
    }

    /// Iterative deepening with aspiration windows. `report` is called by the main thread (id 0)
    /// after every iteration and on aspiration failures; it returns the result of every finished
    /// iteration, and of a stopped one that found a move, through `on_iteration` (used by the
    /// pool to pick the reported move).
    pub fn iterate(
        &mut self,
        max_depth: u32,
        multipv: usize,
        mate_limit: Option<u32>,
        report: &mut dyn FnMut(&Info),
        on_iteration: &mut dyn FnMut(&IterationResult<G::Move>),
    ) {
        if self.buf.root_moves.is_empty() {
            return;
        }
        let multipv = multipv.clamp(1, self.buf.root_moves.len());
        let mut last_best = None;
        let mut stable = 0u32;
        // The best scores of the last four iterations, seeded with the last search's.
        let last_search = self.shared.last_score.load(Ordering::Relaxed);
        let mut iter_scores = [last_search; 4];
        let start_depth = 1 + (self.id % 2) as u32;
        for depth in start_depth..=max_depth.min(MAX_PLY as u32 - 8) {
            for rm in &mut self.buf.root_moves {
                rm.prev_score = rm.score;
            }
            // The window of the last `search_root` call, and whether a call of this iteration
            // has searched a move to the end above its alpha (for a stopped iteration).
            let mut window = (-INFINITE, INFINITE);
            let mut found = false;
            for pv_idx in 0..multipv {
                let prev = self.buf.root_moves[pv_idx].prev_score;
                let mut delta = self.sp(ASPIRATION_DELTA);
                let (mut alpha, mut beta) = if depth as i32 >= self.sp(ASPIRATION_DEPTH)
                    && self.params.aspiration
                    && prev.abs() < MATE_BOUND
                {
                    (prev - delta, prev + delta)
                } else {
                    (-INFINITE, INFINITE)
                };
                // `FailHighReduce`: each fail high searches the root again one ply shallower
                // (Stockfish's `failedHighCnt`); a fail low goes back to the full depth.
                let mut failed_high = 0;
                loop {
                    window = (alpha, beta);
                    let d = (depth as i32 - failed_high).max(1);
                    let score = self.search_root(alpha, beta, d, pv_idx);
                    // A fail high that the wider search after it does not finish still counts.
                    found |= self.root_found;
                    if self.shared.stopped() {
                        break;
                    }
                    if score <= alpha {
                        if self.id == 0 && self.shared.elapsed_ms() > 1000 {
                            report(&self.info(depth, pv_idx, Bound::Upper));
                        }
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INFINITE);
                        failed_high = 0;
                    } else if score >= beta {
                        if self.id == 0 && self.shared.elapsed_ms() > 1000 {
                            report(&self.info(depth, pv_idx, Bound::Lower));
                        }
                        beta = (score + delta).min(INFINITE);
                        failed_high += self.sp(FAIL_HIGH_REDUCE);
                    } else {
                        break;
                    }
                    delta += delta;
                    if delta > self.sp(ASPIRATION_MAX) {
                        alpha = -INFINITE;
                        beta = INFINITE;
                    }
                }
                if self.shared.stopped() {
                    // Not sorted: the moves not searched yet hold the previous iteration's
                    // scores, which could put one of them before the move this one found.
                    break;
                }
                // Keep the lines found so far in order (the searched range may be reordered).
                self.buf.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            }
            if self.shared.stopped() {
                // A stopped iteration still counts when a move was searched to the end with a
                // score above the window's alpha (`search_root` put it first): the previous best
                // re-scored at this depth, or a move that beat it (perhaps only as a fail high
                // whose wider search was stopped), which the last finished iteration does not
                // know. Stockfish plays such a move too. MultiPV lines are left to finished
                // iterations.
                if multipv == 1 && found {
                    on_iteration(&IterationResult {
                        depth,
                        root_moves: self.buf.root_moves.clone(),
                        complete: false,
                    });
                    if self.id == 0 {
                        let score = self.buf.root_moves[0].score;
                        let bound = if score >= window.1 {
                            Bound::Lower
                        } else if score <= window.0 {
                            Bound::Upper
                        } else {
                            Bound::Exact
                        };
                        report(&self.info(depth, 0, bound));
                    }
                }
                break;
            }
            self.buf.root_moves[..multipv].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            self.iteration_done = true;
            on_iteration(&IterationResult {
                depth,
                root_moves: self.buf.root_moves.clone(),
                complete: true,
            });
            if self.id == 0 {
                for pv_idx in 0..multipv {
                    report(&self.info(depth, pv_idx, Bound::Exact));
                }
                let best = self.buf.root_moves[0].mv;
                if Some(best) == last_best {
                    stable += 1;
                } else {
                    stable = 0;
                }
                last_best = Some(best);
                let score = self.buf.root_moves[0].score;
                // What this iteration's falling-evaluation factor compares with: the score four
                // iterations back (the last search's until there are four).
                let four_back = std::mem::replace(&mut iter_scores[depth as usize % 4], score);
                self.shared.last_score.store(score, Ordering::Relaxed);
                if let Some(m) = mate_limit {
                    if score >= MATE_BOUND && ((MATE - score) as u32) < 2 * m {
                        break;
                    }
                }
                if !self.shared.pondering.load(Ordering::Relaxed)
                    && !self.shared.infinite.load(Ordering::Relaxed)
                {
                    let soft = self.shared.soft_ms.load(Ordering::Relaxed);
                    if soft != u64::MAX {
                        let factor = match stable {
                            0 => 1.6,
                            1 => 1.2,
                            2..=3 => 0.9,
                            _ => 0.6,
                        };
                        let falling = super::time::falling_eval_factor(
                            self.sp(TIME_FALLING),
                            score,
                            last_search,
                            four_back,
                        );
                        let limit =
                            (soft as f64 * factor * falling * self.node_time_factor()) as u64;
                        let elapsed = self.shared.elapsed_ms();
                        let hard = self.shared.hard_ms.load(Ordering::Relaxed);
                        // Don't start an iteration that cannot finish; one legal move needs no search.
                        if elapsed >= limit || elapsed * 2 >= hard || self.buf.root_moves.len() == 1
                        {
                            break;
                        }
                    }
                }
            }
        }
    }

    /// The soft limit's factor from the best root move's share of this searcher's nodes
    /// (`TimeNodes`, `time::node_share_factor`).
    fn node_time_factor(&self) -> f64 {
        let total: u64 = self.buf.root_moves.iter().map(|rm| rm.nodes).sum();
        super::time::node_share_factor(self.sp(TIME_NODES), self.buf.root_moves[0].nodes, total)
    }

    /// The `info` of line `pv_idx` after an iteration at `depth`.
    pub fn info(&self, depth: u32, pv_idx: usize, bound: Bound) -> Info {
        let rm = &self.buf.root_moves[pv_idx];
        let elapsed = self.shared.elapsed_ms();
        let nodes = self.shared.nodes.load(Ordering::Relaxed) + (self.local_nodes - self.published);
        let mut pos = self.buf.positions[0].clone();
        let mut pv = Vec::with_capacity(rm.pv.len());
        for &mv in &rm.pv {
            if !pos.is_legal(mv) {
                break;
            }
            pv.push(pos.move_text(mv));
            pos = pos.play(mv);
        }
        Info {
            depth,
            seldepth: rm.seldepth.max(depth),
            multipv: pv_idx + 1,
            score: rm.score,
            bound,
            nodes,
            nps: nodes * 1000 / elapsed.max(1),
            time_ms: elapsed,
            hashfull: self.shared.tt.hashfull(),
            pv,
        }
    }

    /// The principal variation found at ply 0 by the last `search`/`qsearch` call from the root.
    pub fn root_pv(&self) -> Vec<G::Move> {
        self.buf.pv[0].clone()
    }

    /// The position at the end of a principal variation from the root (the learner's PV leaf).
    pub fn pv_leaf(&self, pv: &[G::Move]) -> G {
        let mut pos = self.buf.positions[0].clone();
        for &mv in pv {
            if !pos.is_legal(mv) {
                break;
            }
            pos = pos.play(mv);
        }
        pos
    }
}
