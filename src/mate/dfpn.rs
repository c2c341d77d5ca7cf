//! Depth-first proof-number search (Nagai 2002) with the 1 + ε trick (Pawlewicz & Lew 2007),
//! proof / disproof pieces for hands, mate-in-1 tests at new leaves (every check of an OR node is
//! tested for "no evasion"; every evasion of an AND node for a mate in one of the attacker, with
//! the game's cheap test), delayed expansion (moves of one [`MateGame::delay_group`] are counted
//! and searched one after another, so that seven interpositions on one square weigh as one) and
//! repetition handling.
//!
//! OR nodes are the attacker's (to move at even plies), AND nodes the defender's. A position
//! repeated on the current path is a failure for the attacker (perpetual check is illegal for the
//! checking side in shogi, and a repetition is at best a draw elsewhere); a disproof that rests on
//! such a repetition, or on the length bound of the shortest-mate re-search, depends on the path,
//! so it is stored with a flag and trusted only within the same search generation. A root
//! disproof that depends on the path is reported as unknown, never as "no mate".

use super::path::Path;
use super::table::{Table, INF};
use super::{FutileRule, Hand, MateGame, MateLimits, HAND_KINDS};
use crate::game::Side;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

mod children;
mod double_count;
mod proof;
mod simulate;

use children::{saturating_sum, settled, Child};

/// Plies beyond which an OR node counts as a (path-dependent) failure: a guard against runaway
/// depth; the longest known tsume is 1525 plies.
pub const MAX_PLY: u32 = 3000;

/// The result of a node: numbers, mate length (proven) or plies left (path-dependent disproof),
/// and the proof / disproof hand.
#[derive(Debug, Clone, Copy)]
pub struct NodeResult {
    pub pn: u32,
    pub dn: u32,
    pub len: u16,
    pub hand: Hand,
    /// For a disproof: what it depends on besides the position. `INDEPENDENT`; `ALWAYS` (the
    /// length bound, or a table entry that depended on its path); or `1 + ply` of the shallowest
    /// ancestor whose repetition it used. A node at that ply or above sees the repetition as
    /// internal to its own subtree, so for it the disproof holds whatever the path above.
    pub dep: u32,
}

/// `NodeResult::dep` of a result that holds on any path.
pub const INDEPENDENT: u32 = u32::MAX;
/// `NodeResult::dep` of a disproof that holds only on this path (or under this length bound).
pub const ALWAYS: u32 = 0;

impl NodeResult {
    pub fn path_dependent(&self) -> bool {
        self.dep != INDEPENDENT
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootOutcome {
    Proven,
    Disproven,
    Unknown,
}

/// One `mid` frame's buffers: the moves, the children's keys, the children.
type Buffers<G> = (Vec<<G as crate::game::Game>::Move>, Vec<u64>, Vec<Child<G>>);

pub struct Solver<'a, G: MateGame> {
    pub(crate) table: &'a Table,
    attacker: Side,
    nodes: u64,
    node_limit: u64,
    start: Instant,
    time_limit: Option<Duration>,
    /// The node and time limits the solve was given (the current ones may include a grace).
    limits: (Option<u64>, Option<Duration>),
    stop: &'a AtomicBool,
    aborted: bool,
    /// Full keys (hands included) of the positions on the current path.
    pub(crate) path: Path,
    /// Plies allowed from the root (the shortest-mate re-search bounds it).
    max_ply: u32,
    /// Which interpositions are no defence.
    futile: FutileRule,
    /// Called about once a second with the statistics so far (a GUI's `info` lines).
    progress: Option<&'a mut ProgressFn<'a>>,
    next_report: Duration,
    /// Replay proven siblings' proofs (`MateLimits::replay`).
    replay: bool,
    /// Nodes proven by a replay.
    replayed: u64,
    /// Move, key and child buffers of finished `mid` frames, reused by the next ones (one
    /// allocation each per node otherwise).
    pool: Vec<Buffers<G>>,
    /// Double-count elimination (`MateLimits::double_count`).
    double_count: bool,
    /// Capturing checks first among equal proof numbers (`MateLimits::captures_first`).
    captures_first: bool,
    /// Per path index, what each `mid` frame on the path shows the detection below it.
    frames: Vec<double_count::Frame>,
    /// Double counts found: (path index of the branch root, full key of a child of it to count
    /// as a maximum).
    marks: Vec<(usize, u64)>,
    /// 0 for the main thread; a helper (1, 2, …) breaks ties between children its own way
    /// ([`Solver::select_helper`]), so that the threads part at the first tie.
    helper: u32,
    /// A second stop flag (the main thread's: a helper settled the root).
    also_stop: Option<&'a AtomicBool>,
    _game: std::marker::PhantomData<G>,
}

/// A progress callback: called on the solver thread, so it must be `Send`.
pub type ProgressFn<'a> = dyn FnMut(&super::MateProgress) + Send + 'a;

/// Interval between progress reports.
const REPORT_EVERY: Duration = Duration::from_secs(1);

impl<'a, G: MateGame> Solver<'a, G> {
    /// A solver of `root` with `table` (empty: a fresh table or one cleared since its last
    /// solve; its size is the table's, not `limits.hash_mb`).
    pub fn new(
        root: &G,
        limits: &MateLimits,
        stop: &'a AtomicBool,
        start: Instant,
        table: &'a Table,
    ) -> Self {
        Solver {
            table,
            attacker: root.side_to_move(),
            nodes: 0,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            start,
            time_limit: limits.time,
            limits: (limits.nodes, limits.time),
            stop,
            aborted: false,
            path: Path::with_capacity(256),
            max_ply: MAX_PLY,
            futile: limits.futile,
            progress: None,
            next_report: REPORT_EVERY,
            replay: limits.replay,
            replayed: 0,
            pool: Vec::new(),
            double_count: limits.double_count,
            captures_first: limits.captures_first,
            frames: Vec::new(),
            marks: Vec::new(),
            helper: 0,
            also_stop: None,
            _game: std::marker::PhantomData,
        }
    }

    /// Makes this solver helper number `helper` (≥ 1) of a shared table.
    pub fn set_helper(&mut self, helper: u32) {
        self.helper = helper;
    }

    /// Also stop when `flag` is set (`None`: only the solve's own stop flag).
    pub fn set_also_stop(&mut self, flag: Option<&'a AtomicBool>) {
        self.also_stop = flag;
    }

    pub fn set_progress(&mut self, progress: &'a mut ProgressFn<'a>) {
        self.progress = Some(progress);
    }

    /// The statistics so far.
    pub fn stats(&self) -> super::MateProgress {
        super::MateProgress {
            nodes: self.nodes,
            elapsed: self.start.elapsed(),
            hashfull: self.table.hashfull(),
        }
    }

    /// Reports progress when the interval has passed (checked with the budget, every 1024 nodes).
    fn maybe_report(&mut self) {
        if self.progress.is_none() {
            return;
        }
        let elapsed = self.start.elapsed();
        if elapsed < self.next_report {
            return;
        }
        self.next_report = elapsed + REPORT_EVERY;
        let stats = self.stats();
        if let Some(f) = self.progress.as_mut() {
            f(&stats);
        }
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Nodes proven by replaying a sibling's proof.
    pub fn replayed(&self) -> u64 {
        self.replayed
    }

    pub fn aborted(&self) -> bool {
        self.aborted
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Whether the budget (nodes, time, stop flag) is used up.
    fn out_of_budget(&self) -> bool {
        self.stopped()
            || self.also_stop.is_some_and(|f| f.load(Ordering::Relaxed))
            || self.nodes >= self.node_limit
            || self.time_limit.is_some_and(|t| self.start.elapsed() >= t)
    }

    /// Lets the PV of a proof found at the very end of the budget be read: the PV read after the
    /// first proof gets what is left of the budget, or a thirty-second of it if that is more (at
    /// least 1024 nodes / 5 ms), so a proof is not lost for want of the few nodes that reading it
    /// takes. [`Solver::restore_budget`] ends the grace. The shortest-mate search gets no grace:
    /// a GUI's `go mate <ms>` must be answered within the limit (YaneuraOu-style mate engines
    /// answer at the limit), so the solver answers within it plus this small reserve.
    pub fn grant_pv_grace(&mut self) {
        self.aborted = false;
        if let Some(limit) = self.limits.0 {
            let extra = (limit / 32).max(1024);
            self.node_limit = limit.max(self.nodes + extra);
        }
        if let Some(t) = self.limits.1 {
            let extra = (t / 32).max(Duration::from_millis(5));
            self.time_limit = Some(t.max(self.start.elapsed() + extra));
        }
    }

    /// Back to the budget the solve was given (after [`Solver::grant_pv_grace`]); the search is
    /// marked aborted when that budget is already used up.
    pub fn restore_budget(&mut self) {
        self.node_limit = self.limits.0.unwrap_or(u64::MAX);
        self.time_limit = self.limits.1;
        self.aborted = self.out_of_budget();
    }

    /// Runs `f` without the length bound (below a futile interposition: it must be refuted
    /// however long that takes, and its length does not count). The table generation stays, so
    /// entries stored meanwhile keep their meaning: a proof is used where its length fits, a
    /// bound's disproof where no more plies are left than it had.
    pub fn unbounded<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let bound = self.max_ply;
        self.max_ply = MAX_PLY;
        let r = f(self);
        self.max_ply = bound;
        r
    }

    /// Plies allowed at `ply` under the current bound.
    pub fn plies_left(&self, ply: u32) -> u32 {
        self.max_ply.saturating_sub(ply)
    }

    /// The futility rule of this solve.
    pub fn futile_rule(&self) -> FutileRule {
        self.futile
    }

    pub fn max_ply(&self) -> u32 {
        self.max_ply
    }

    pub fn set_max_ply(&mut self, max_ply: u32) {
        self.max_ply = max_ply.min(MAX_PLY);
        self.table.new_generation();
    }

    /// `pos` enters the current path (for the repetition test of [`Solver::probe`]).
    pub(crate) fn push_path(&mut self, pos: &G) {
        self.path
            .push(pos.key(), pos.board_key(), pos.hand(self.attacker));
    }

    /// What the table knows about `pos` at `ply` (a repetition of a path position with the
    /// attacker no better off counts as a failure; `path.rs`).
    pub fn probe(&self, pos: &G, ply: u32) -> NodeResult {
        self.probe_found(pos, ply).0
    }

    /// [`Solver::probe`], and whether the position was known (in the table or on the path): an
    /// unknown one gets the leaf tests (mate in one) once, not at every re-expansion.
    fn probe_found(&self, pos: &G, ply: u32) -> (NodeResult, bool) {
        self.probe_keyed(pos, pos.board_key(), ply)
    }

    /// [`Solver::probe_found`] with the board key already computed.
    fn probe_keyed(&self, pos: &G, board_key: u64, ply: u32) -> (NodeResult, bool) {
        let hand = pos.hand(self.attacker);
        if let Some(i) = self.path.dominating(board_key, &hand) {
            let r = NodeResult {
                pn: INF,
                dn: 0,
                len: 0,
                hand,
                dep: i as u32 + 1,
            };
            return (r, true);
        }
        let p = self.table.probe(board_key, &hand, self.plies_left(ply));
        let r = NodeResult {
            pn: p.pn,
            dn: p.dn,
            len: p.len,
            hand: p.hand,
            dep: if p.path_dependent {
                ALWAYS
            } else {
                INDEPENDENT
            },
        };
        (r, p.found)
    }

    /// Searches the root until it is proven, disproven or the budget is used up.
    pub fn solve_root(&mut self, root: &G) -> RootOutcome {
        self.table.new_generation();
        self.search(root, 0)
    }

    /// Searches `pos` (at `ply` from the root) with infinite thresholds.
    pub fn search(&mut self, pos: &G, ply: u32) -> RootOutcome {
        let r = self.mid(pos, ply, INF, INF);
        if r.pn == 0 {
            RootOutcome::Proven
        } else if r.dn == 0 && !r.path_dependent() {
            RootOutcome::Disproven
        } else {
            RootOutcome::Unknown
        }
    }

    fn defender(&self) -> Side {
        self.attacker.opponent()
    }

    /// A mate in one of the attacker at a new OR child of an AND node (the game's cheap test),
    /// stored as a proof: then an AND node whose evasions all allow one is proven (a mate in
    /// three) without searching its children.
    fn leaf_mate(&mut self, child: &G, key: u64, child_ply: u32, or: bool) -> Option<NodeResult> {
        if or || self.plies_left(child_ply) == 0 || child.in_check() {
            return None;
        }
        let m = child.mate_in_one()?;
        let mated = child.play(m);
        // The mated position too, as an OR node's expansion stores it: the PV reader finds the
        // mating move by its entry (without it, it would search every check of `child` in turn).
        let pp = self.store_mated(&mated, mated.board_key());
        let hand = pp
            .proof_before(child.hand_effect(m))
            .min(&child.hand(self.attacker));
        self.table.store(key, hand, 0, INF, 1, false, 1);
        Some(NodeResult {
            pn: 0,
            dn: INF,
            len: 1,
            hand,
            dep: INDEPENDENT,
        })
    }

    fn finish(&mut self, key: u64, r: NodeResult, work: u64) -> NodeResult {
        // A disproof resting on a repetition above this node is not stored: read back on another
        // path it would be wrong (the graph-history interaction); the node is searched again.
        if !(r.dn == 0 && r.dep != INDEPENDENT && r.dep != ALWAYS) {
            self.table
                .store(key, r.hand, r.pn, r.dn, r.len, r.path_dependent(), work);
        }
        r
    }

    /// The multiple-iterative-deepening step of df-pn: searches `pos` until its proof number
    /// reaches `thpn` or its disproof number reaches `thdn`.
    pub fn mid(&mut self, pos: &G, ply: u32, thpn: u32, thdn: u32) -> NodeResult {
        let or = ply.is_multiple_of(2);
        let start_nodes = self.nodes;
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            if self.out_of_budget() {
                self.aborted = true;
            }
            self.maybe_report();
        }
        let key = pos.board_key();
        let hand = pos.hand(self.attacker);
        let plies_left = self.plies_left(ply);

        let (mut moves, mut keys, mut slots) = self.pool.pop().unwrap_or_default();
        if or {
            if plies_left == 0 {
                // Bound reached: no mate within it (depends on the bound, so on the path).
                self.pool.push((moves, keys, slots));
                return NodeResult {
                    pn: INF,
                    dn: 0,
                    len: 0,
                    hand,
                    dep: ALWAYS,
                };
            }
            pos.check_moves(&mut moves);
            if moves.is_empty() {
                let mut dp = Hand::ANY;
                for k in 0..HAND_KINDS {
                    if hand.get(k) == 0 {
                        dp.set(k, 0);
                    }
                }
                let r = NodeResult {
                    pn: INF,
                    dn: 0,
                    len: 0,
                    hand: dp,
                    dep: INDEPENDENT,
                };
                self.pool.push((moves, keys, slots));
                return self.finish(key, r, 1);
            }
        } else {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                let r = NodeResult {
                    pn: 0,
                    dn: INF,
                    len: 0,
                    hand: self.and_proof_hand(pos, Hand::EMPTY, &hand),
                    dep: INDEPENDENT,
                };
                self.pool.push((moves, keys, slots));
                return self.finish(key, r, 1);
            }
        }

        self.path.push(pos.key(), key, hand);
        if self.double_count {
            // Read by `enter_frame` once the children are made.
            self.table.links.prefetch(pos.key());
        }
        // Children and their keys first, their table buckets requested as they come; then the
        // probes (see `Table::prefetch`). Each child's board is written into a slot this frame
        // buffer kept from earlier use (`MateGame::play_into`): building a child and pushing it
        // copied the board three times, 6% of a solve's instructions (docs/mate.md §32).
        for (i, &mv) in moves.iter().enumerate() {
            let effect = pos.hand_effect(mv);
            let group = pos.delay_group(mv, or);
            let futile = !or && pos.is_futile_in_group(mv, group, self.futile);
            let to = G::move_to(mv);
            // The checks are generated drops first, then board moves by piece; of checks the
            // numbers cannot tell apart, one that takes a defender's man removes a guard or an
            // interposed piece and comes to a mate sooner (docs/mate.md §35).
            let tie = u8::from(or && self.captures_first && pos.is_capture(mv));
            if let Some(slot) = slots.get_mut(i) {
                slot.pos.play_into(pos, mv);
                slot.reset(effect, hand, group, futile, to, tie);
            } else {
                slots.push(Child::new(
                    pos.play(mv),
                    effect,
                    hand,
                    group,
                    futile,
                    to,
                    tie,
                ));
            }
            let child = &slots[i].pos;
            let key = pos.child_board_key(key, effect, child);
            self.table.prefetch(key);
            if self.double_count {
                // `detect` reads the best child's link; which one that is shows only later.
                self.table.links.prefetch(child.key());
            }
            keys.push(key);
        }
        let mut n = moves.len();
        for (i, &key) in keys.iter().enumerate() {
            let (child, group, futile) = (&slots[i].pos, slots[i].group, slots[i].futile);
            let (mut res, found) = if futile {
                self.unbounded(|s| s.probe_keyed(child, key, ply + 1))
            } else {
                self.probe_keyed(child, key, ply + 1)
            };
            // Waiting when an earlier move of its group is not settled yet (a settled result
            // counts at once: a proven check, a disproving evasion ends the node).
            let active = settled(&res) || Self::free_to_search(&slots[..i], group);
            if active && !found && !settled(&res) {
                // A position never searched: the leaf tests.
                if or && !child.has_legal_move() {
                    // Mate in one: no need to look further.
                    res = NodeResult {
                        pn: 0,
                        dn: INF,
                        len: 0,
                        hand: self.store_mated(child, key),
                        dep: INDEPENDENT,
                    };
                } else if let Some(r) = if futile {
                    self.unbounded(|s| s.leaf_mate(child, key, ply + 1, or))
                } else {
                    self.leaf_mate(child, key, ply + 1, or)
                } {
                    res = r;
                }
            }
            let decided = if or { res.pn == 0 } else { res.dn == 0 };
            slots[i].res = res;
            slots[i].active = active;
            if decided {
                n = i + 1;
                break;
            }
        }
        let children: &mut [Child<G>] = &mut slots[..n];

        let frame = self.path.depth() - 1;
        // Whether a child counts as a maximum (then the thresholds take that into account).
        let mut masked = self.double_count && self.enter_frame(frame, pos.key(), children);
        let mut detected = !self.double_count;
        loop {
            let (pn, dn) = Self::numbers(or, children);
            if pn >= thpn || dn >= thdn || pn == 0 || dn == 0 || self.aborted {
                break;
            }
            let (best, second) = if self.helper > 0 {
                self.select_helper(or, children)
            } else {
                Self::select(or, children)
            };
            if !or && self.replay && self.replay_child(children, best, ply) {
                continue;
            }
            if !detected {
                detected = true;
                self.detect(or, children[best].pos.key(), frame);
            }
            let c = &children[best];
            let (cthpn, cthdn) = if masked {
                // The node's number less this child's share: the sum of the others, and their
                // largest maximum-counted term unless the child is one of those.
                let without = Self::without_best(or, children, best);
                let bound = second.saturating_add(second / 4).saturating_add(1);
                if or {
                    (
                        thpn.min(bound.max(c.res.pn + 1)),
                        thdn.saturating_sub(without).max(c.res.dn + 1).min(INF),
                    )
                } else {
                    (
                        thpn.saturating_sub(without).max(c.res.pn + 1).min(INF),
                        thdn.min(bound.max(c.res.dn + 1)),
                    )
                }
            } else if or {
                let bound = second.saturating_add(second / 4).saturating_add(1);
                (
                    thpn.min(bound.max(c.res.pn + 1)),
                    thdn.saturating_sub(dn - c.res.dn.min(dn))
                        .max(c.res.dn + 1)
                        .min(INF),
                )
            } else {
                let bound = second.saturating_add(second / 4).saturating_add(1);
                (
                    thpn.saturating_sub(pn - c.res.pn.min(pn))
                        .max(c.res.pn + 1)
                        .min(INF),
                    thdn.min(bound.max(c.res.dn + 1)),
                )
            };
            if self.double_count {
                let c = &children[best].res;
                let (sum, best_sum) = if or { (dn, c.dn) } else { (pn, c.pn) };
                self.descend(frame, or, sum, best_sum);
            }
            let r = if children[best].futile {
                self.unbounded(|s| s.mid(&children[best].pos, ply + 1, cthpn, cthdn))
            } else {
                self.mid(&children[best].pos, ply + 1, cthpn, cthdn)
            };
            children[best].res = r;
            if self.double_count && !self.marks.is_empty() {
                masked |= self.take_marks(frame, children);
            }
            if let (true, Some(g)) = (settled(&r), children[best].group) {
                Self::activate(children, g);
            }
        }
        self.path.pop();

        let r = self.result(or, pos, &hand, children, ply, plies_left);
        if self.double_count {
            self.leave_frame(frame, pos.key(), r.pn, r.dn, children);
        }
        moves.clear();
        keys.clear();
        self.pool.push((moves, keys, slots));
        let work = self.nodes - start_nodes;
        self.finish(key, r, work)
    }

    /// The moves the side to move considers at `ply`: checks at OR nodes, all moves at AND nodes.
    pub fn node_moves(&self, pos: &G, ply: u32) -> Vec<G::Move> {
        let mut moves = Vec::with_capacity(64);
        if ply.is_multiple_of(2) {
            pos.check_moves(&mut moves);
        } else {
            pos.legal_moves(&mut moves);
        }
        moves
    }
}
