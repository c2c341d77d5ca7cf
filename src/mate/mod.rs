//! Mate solver: depth-first proof-number search (df-pn, Nagai 2002) for forced mates where the
//! attacker plays only checks and the defender every legal evasion (shogi tsume first).
//!
//! The solver core names no game: it is written against [`MateGame`], which adds to [`Game`] what
//! a tsume solver needs beyond the rules: a key of the position without the attacker's hand (so
//! that positions differing only in hand share table entries and proof / disproof pieces can be
//! compared), the pieces in hand, and how a move changes the mover's hand. Games without pieces in
//! hand (chess) return empty hands.
//!
//! Layout: `hand` (hand sets and their order), `table` (the proof / disproof table with bounded
//! memory, replacement and garbage collection), `dfpn` (the search), `pv` (the shortest mate and
//! its principal variation). [`solve`] is the entry point; with `MateLimits::threads` above one,
//! helper threads search the root on the shared table until the first proof.

mod dfpn;
mod hand;
mod links;
mod path;
mod pv;
mod slots;
mod table;

use crate::game::{Game, RulesError, Side};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

pub use hand::{Hand, HAND_KINDS};

/// How a move changes the hand of the side that makes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandEffect {
    None,
    /// A piece of this hand kind leaves the hand (a drop).
    Drop(usize),
    /// A captured piece of this hand kind enters the hand.
    Capture(usize),
}

/// What the mate solver needs from a game beyond [`Game`].
pub trait MateGame: Game {
    /// Key of the position without the pieces in hand (board and side to move). Within one
    /// problem the defender's hand follows from the board and the attacker's hand, so this key
    /// plus the attacker's hand identifies the position.
    fn board_key(&self) -> u64;
    /// [`MateGame::board_key`] of `child`, the position after a move of `self` whose effect on
    /// the mover's hand is `effect`, given `self`'s board key `key`. A game can derive it from the
    /// parent's instead of from scratch (the solver asks it for every child it builds).
    fn child_board_key(&self, key: u64, effect: HandEffect, child: &Self) -> u64 {
        let _ = (key, effect);
        child.board_key()
    }
    /// The pieces `side` holds in hand.
    fn hand(&self, side: Side) -> Hand;
    /// How `mv` changes the mover's hand.
    fn hand_effect(&self, mv: Self::Move) -> HandEffect;
    /// Whether a move is a drop (the PV prefers other evasions of equal length).
    fn is_drop(&self, mv: Self::Move) -> bool {
        matches!(self.hand_effect(mv), HandEffect::Drop(_))
    }
    /// Pushes every legal move that gives check.
    fn check_moves(&self, out: &mut Vec<Self::Move>) {
        let mut all = Vec::with_capacity(128);
        self.legal_moves(&mut all);
        out.extend(all.into_iter().filter(|&mv| self.gives_check(mv)));
    }
    /// Whether the side to move (in check) could answer the check by dropping a piece between
    /// the checker and its king: then the attacker's hand matters to the defender, whose hand
    /// holds what the attacker does not (proof pieces must account for that).
    fn interposable(&self) -> bool;
    /// The delayed-expansion group of `mv` in this position (`or`: the attacker to move), or
    /// `None` for a move searched at once. Moves of one group are searched one after another in
    /// generation order: a later one counts and is searched only once every earlier one is
    /// settled (KomoringHeights' delayed expansion). Shogi groups the defender's drops: each
    /// interposition on one square, or each futile one anywhere, would otherwise add its own 1
    /// to the defender's proof number, which then overstates how hard the node is to prove.
    fn delay_group(&self, _mv: Self::Move, _or: bool) -> Option<u32> {
        None
    }
    /// Whether `mv`, the defender's answer to a check, is a futile interposition (無駄合) under
    /// `rule`: a piece put between the checker and the king only to be captured for nothing. By
    /// the convention of mate problems it is no defence: the principal variation never plays
    /// one, and a line ends where nothing else is left. The solver still refutes such moves in
    /// its proofs; only the reading of the line and its length skip them.
    fn is_futile(&self, _mv: Self::Move, _rule: FutileRule) -> bool {
        false
    }
    /// [`MateGame::is_futile`] for the defender's `mv` whose [`MateGame::delay_group`] (asked
    /// with `or` false) is `group`: the solver has it already, and the test reads it.
    fn is_futile_in_group(&self, mv: Self::Move, _group: Option<u32>, rule: FutileRule) -> bool {
        self.is_futile(mv, rule)
    }
    /// Makes `self` the position after `mv` in `parent`, in place. The solver keeps its
    /// children's boards in reused slots, so a game whose position is plain data can copy the
    /// parent's board once, straight into the slot (building the child and then moving it into
    /// the slot copied it three times: 5.9% of the instructions of a solve, §32 of
    /// docs/mate.md).
    fn play_into(&mut self, parent: &Self, mv: Self::Move) {
        *self = parent.play(mv);
    }
    /// Whether the side to move has any legal move.
    fn has_legal_move(&self) -> bool {
        self.count_legal_moves() > 0
    }
    /// Checks that the position is a mate problem: the defender (not to move) has a king and is
    /// not in check.
    fn validate_problem(&self) -> Result<(), RulesError>;
}

/// Which of the defender's interpositions count as futile (無駄合, no defence). Sources differ on
/// drops next to the king: the miniosl suite counts them as defences (its A2-3, B5-2 and B5-4
/// are 3-ply mates through such a drop and its capture), the Shogi Zukou source as futile when
/// the checker takes them with mate (its lines 026, 073 and 093 end where only such drops are
/// left).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FutileRule {
    /// Only drops that nothing of the defender's guards, the king included (the miniosl
    /// suite's convention).
    #[default]
    Unguarded,
    /// Also drops next to the king that only the king guards, when the checker's capture there
    /// mates at once (the Shogi Zukou source's convention).
    NextToKing,
}

/// Budget of one solve. `None` means no limit of that kind.
#[derive(Debug, Clone)]
pub struct MateLimits {
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
    /// Proof / disproof table size in MiB.
    pub hash_mb: usize,
    /// After the first proof, search for shorter mates (re-searches with a length bound).
    pub shortest: bool,
    /// Which interpositions are no defence (the PV, the lengths and the line check follow it).
    pub futile: FutileRule,
    /// Prove an interposition by replaying the proof of its proven sibling (Kawano's
    /// simulation, `dfpn/simulate.rs`) before searching it. On by default; off only to measure.
    pub replay: bool,
    /// Count two children of an AND node that lead into one subtree once, as a maximum, when
    /// the join is found (`dfpn/double_count.rs`). On by default; off only to measure.
    pub double_count: bool,
    /// Of the attacker's checks with equal proof numbers, search a capture first (a tie rule:
    /// no number changes). On by default; off only to measure (docs/mate.md §35).
    pub captures_first: bool,
    /// Solver threads (at least 1). Helpers search the same root on the shared table until the
    /// first proof or disproof; the PV and the shortest-mate search run on one thread. The node
    /// limit counts the main thread's nodes.
    pub threads: usize,
}

impl Default for MateLimits {
    fn default() -> Self {
        MateLimits {
            nodes: None,
            time: None,
            hash_mb: 64,
            shortest: true,
            futile: FutileRule::default(),
            replay: true,
            double_count: true,
            captures_first: true,
            threads: 1,
        }
    }
}

/// The answer of a solve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MateResult<M> {
    /// A forced mate: the attacker's and defender's moves, ending in mate.
    Mate(Vec<M>),
    /// Proven: no mate (the attacker cannot force mate with checks).
    NoMate,
    /// Stopped by the budget or the stop flag, or the answer could not be established.
    Unknown,
}

/// A solve's answer with its statistics.
#[derive(Debug, Clone)]
pub struct MateReport<M> {
    pub result: MateResult<M>,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Proof / disproof table use at the end, in per mille.
    pub hashfull: usize,
    /// Whether the shortest-mate re-search finished (the PV is the shortest the solver can find
    /// within its rules), as opposed to being cut by the budget.
    pub shortest_proven: bool,
    /// When the root was first proven (nodes, time): the solving speed proper, apart from the
    /// shortest-mate search and the PV reading that follow it.
    pub first_proof: Option<(u64, Duration)>,
    /// Nodes proven by replaying a sibling's proof (`MateLimits::replay`).
    pub replayed: u64,
}

/// Statistics of a running solve, for progress reports.
#[derive(Debug, Clone, Copy)]
pub struct MateProgress {
    pub nodes: u64,
    pub elapsed: Duration,
    /// Proof / disproof table use in per mille.
    pub hashfull: usize,
}

/// A proof table kept between solves, as an engine keeps its hash between searches: made once
/// (with [`MateTable::map_now`], every page mapped up front), emptied between problems by
/// [`MateTable::clear`], which the owner calls after it has reported a result, so neither the
/// mapping nor the emptying is counted in a solve's time. A fresh table per solve paid the kernel's page zeroing inside the
/// search: up to 0.3 s for 256 MiB when no huge pages were free (docs/mate.md §19).
pub struct MateTable {
    table: table::Table,
    mb: usize,
    dirty: bool,
}

impl MateTable {
    /// A table of about `mb` MiB, its pages mapped as they are first used (a short first solve
    /// touches few of them); [`MateTable::map_now`] maps them all at once.
    pub fn new(mb: usize) -> MateTable {
        MateTable {
            table: table::Table::new(mb),
            mb,
            dirty: false,
        }
    }

    /// Maps every page now (by writing the zeros), so that no solve pays for it.
    pub fn map_now(&mut self) {
        self.table.clear();
    }

    /// The size asked for (MiB).
    pub fn mb(&self) -> usize {
        self.mb
    }

    /// Empties the table if a solve used it.
    pub fn clear(&mut self) {
        if self.dirty {
            self.table.clear();
            self.dirty = false;
        }
    }
}

/// Solves `pos` (the attacker to move). Errors when the position is not a mate problem; never
/// claims `NoMate` for such a position. `stop` ends the search at once (the answer is then
/// `Unknown` unless already established).
pub fn solve<G: MateGame>(
    pos: &G,
    limits: &MateLimits,
    stop: &AtomicBool,
) -> Result<MateReport<G::Move>, RulesError> {
    solve_with_progress(pos, limits, stop, &mut |_: &MateProgress| {})
}

/// [`solve`] with a callback that receives the statistics about once a second (on the solver's
/// thread), for the `info` lines a GUI shows while a long problem is solved.
pub fn solve_with_progress<G: MateGame>(
    pos: &G,
    limits: &MateLimits,
    stop: &AtomicBool,
    progress: &mut (dyn FnMut(&MateProgress) + Send),
) -> Result<MateReport<G::Move>, RulesError> {
    pos.validate_problem()?;
    // A table for this solve only: mapped lazily, so a short solve touches few pages.
    let mut table = table::Table::new(limits.hash_mb);
    solve_on(pos, limits, stop, progress, &mut table)
}

/// [`solve_with_progress`] with a table kept between solves (`limits.hash_mb` is ignored: the
/// table has its own size). A table still holding a previous solve is emptied first, inside
/// this solve's time; the owner should [`MateTable::clear`] it once it has reported.
pub fn solve_in<G: MateGame>(
    pos: &G,
    limits: &MateLimits,
    stop: &AtomicBool,
    progress: &mut (dyn FnMut(&MateProgress) + Send),
    table: &mut MateTable,
) -> Result<MateReport<G::Move>, RulesError> {
    pos.validate_problem()?;
    table.clear();
    table.dirty = true;
    solve_on(pos, limits, stop, progress, &mut table.table)
}

fn solve_on<G: MateGame>(
    pos: &G,
    limits: &MateLimits,
    stop: &AtomicBool,
    progress: &mut (dyn FnMut(&MateProgress) + Send),
    table: &mut table::Table,
) -> Result<MateReport<G::Move>, RulesError> {
    // df-pn recurses once per ply and long problems run to hundreds of plies (and the search
    // may wander deeper): run it on a thread with a large stack.
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("mate".into())
            .stack_size(SOLVER_STACK)
            .spawn_scoped(s, || run(pos, limits, stop, progress, table))
            .map_err(|e| RulesError::new(format!("cannot start the mate solver thread: {e}")))?
            .join()
            .map_err(|_| RulesError::new("the mate solver panicked"))
    })
}

/// Stack of the solver thread (reserved address space; only what is used is committed).
const SOLVER_STACK: usize = 512 << 20;

fn run<'a, G: MateGame>(
    pos: &G,
    limits: &MateLimits,
    stop: &'a AtomicBool,
    progress: &'a mut (dyn FnMut(&MateProgress) + Send),
    table: &'a mut table::Table,
) -> MateReport<G::Move> {
    let start = Instant::now();
    let helpers = limits.threads.max(1) - 1;
    table.set_shared(helpers > 0);
    let table: &'a table::Table = table;
    let settled_by_helper = AtomicBool::new(false);
    let mut solver = dfpn::Solver::new(pos, limits, stop, start, table);
    solver.set_progress(progress);
    let (outcome, helper_nodes) = if helpers == 0 {
        (solver.solve_root(pos), 0)
    } else {
        solve_root_shared(
            pos,
            limits,
            (stop, start),
            &mut solver,
            helpers,
            &settled_by_helper,
        )
    };
    let first_proof = (outcome == dfpn::RootOutcome::Proven)
        .then(|| (solver.nodes() + helper_nodes, start.elapsed()));
    let (result, shortest_proven) = match outcome {
        dfpn::RootOutcome::Proven => {
            let (pv, shortest) = pv::shortest_pv(&mut solver, pos, limits.shortest);
            match pv {
                Some(pv) => (MateResult::Mate(pv), shortest),
                None => (MateResult::Unknown, false),
            }
        }
        dfpn::RootOutcome::Disproven => (MateResult::NoMate, false),
        dfpn::RootOutcome::Unknown => (MateResult::Unknown, false),
    };
    MateReport {
        result,
        nodes: solver.nodes() + helper_nodes,
        elapsed: start.elapsed(),
        hashfull: solver.table.hashfull(),
        shortest_proven,
        first_proof,
        replayed: solver.replayed(),
    }
}

/// The first proof (or disproof) of the root by `solver` and `helpers` more threads on the
/// shared table: each helper searches the root as the main thread does but breaks ties between
/// children its own way (`Solver::select_helper`), and whichever settles the root first stops
/// the others. Returns the outcome and the helpers' nodes. A helper that cannot be started is
/// left out (the solve goes on with fewer threads).
fn solve_root_shared<'a, G: MateGame>(
    pos: &G,
    limits: &MateLimits,
    (stop, start): (&'a AtomicBool, Instant),
    solver: &mut dfpn::Solver<'a, G>,
    helpers: usize,
    settled_by_helper: &'a AtomicBool,
) -> (dfpn::RootOutcome, u64) {
    let helper_stop = AtomicBool::new(false);
    let table = solver.table;
    // The generation the helpers share: the main thread starts it, they only search.
    table.new_generation();
    std::thread::scope(|s| {
        let handles: Vec<_> = (1..=helpers)
            .filter_map(|h| {
                let helper_stop = &helper_stop;
                std::thread::Builder::new()
                    .name(format!("mate helper {h}"))
                    .stack_size(SOLVER_STACK)
                    .spawn_scoped(s, move || {
                        let mut helper = dfpn::Solver::new(pos, limits, helper_stop, start, table);
                        helper.set_helper(h as u32);
                        helper.set_also_stop(Some(stop));
                        let outcome = helper.search(pos, 0);
                        if outcome != dfpn::RootOutcome::Unknown {
                            settled_by_helper.store(true, std::sync::atomic::Ordering::Relaxed);
                        }
                        helper.nodes()
                    })
                    .ok()
            })
            .collect();
        solver.set_also_stop(Some(settled_by_helper));
        let mut outcome = solver.search(pos, 0);
        solver.set_also_stop(None);
        helper_stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let nodes = handles.into_iter().map(|h| h.join().unwrap_or(0)).sum();
        if outcome == dfpn::RootOutcome::Unknown && !solver.stopped() {
            // Stopped because a helper settled the root: its result is in the table.
            let r = solver.probe(pos, 0);
            if r.pn == 0 {
                outcome = dfpn::RootOutcome::Proven;
            } else if r.dn == 0 && !r.path_dependent() {
                outcome = dfpn::RootOutcome::Disproven;
            }
        }
        (outcome, nodes)
    })
}

/// Replays `pv` from `pos` and checks it is a mate line: every move legal, every attacker move a
/// check, no defender move a futile interposition ([`MateGame::is_futile`]), the final position
/// mate or, by the convention of mate problems, in check with only futile interpositions left.
/// Returns the number of plies or what is wrong.
pub fn verify_mate_line<G: MateGame>(pos: &G, pv: &[G::Move]) -> Result<usize, String> {
    verify_mate_line_with(pos, pv, FutileRule::default())
}

/// [`verify_mate_line`] under a given futility rule.
pub fn verify_mate_line_with<G: MateGame>(
    pos: &G,
    pv: &[G::Move],
    rule: FutileRule,
) -> Result<usize, String> {
    let mut cur = pos.clone();
    for (i, &mv) in pv.iter().enumerate() {
        if !cur.is_legal(mv) {
            return Err(format!("ply {}: {} is illegal", i + 1, cur.move_text(mv)));
        }
        if i % 2 == 0 && !cur.gives_check(mv) {
            return Err(format!(
                "ply {}: {} gives no check",
                i + 1,
                cur.move_text(mv)
            ));
        }
        if i % 2 == 1 && cur.is_futile(mv, rule) {
            return Err(format!(
                "ply {}: {} is a futile interposition",
                i + 1,
                cur.move_text(mv)
            ));
        }
        cur = cur.play(mv);
    }
    if pv.len() % 2 == 0 {
        return Err("the line ends with a defender move".into());
    }
    if !cur.in_check() || !only_futile_answers(&cur, rule) {
        return Err("the final position is not mate".into());
    }
    Ok(pv.len())
}

/// Whether the side to move has no legal move but futile interpositions (none at all: mate).
pub fn only_futile_answers<G: MateGame>(pos: &G, rule: FutileRule) -> bool {
    if !pos.has_legal_move() {
        return true;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves.iter().all(|&mv| pos.is_futile(mv, rule))
}
