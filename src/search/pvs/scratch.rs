//! A searcher's buffers kept between searches. The learners build one searcher per search (MMTO's
//! step 1: one per legal move of every training position, ~40,000 a second on 2 threads), and
//! allocating, zeroing and freeing its per-ply buffers each time was about a quarter of step 1's
//! profile. `Searcher::with_scratch` builds a searcher on the buffers of an earlier one, reset to
//! exactly what `Searcher::new` gives, so a search does not depend on the one before it.

use super::*;

/// The owned buffers of a `Searcher`, indexed by ply where they are per-ply.
pub struct Scratch<G: Game, A> {
    /// History, counter-move and capture tables; the play search carries them over between
    /// searches (`search::run_pool`).
    pub(in crate::search) tables: OrderingTables,
    pub(super) positions: Vec<G>,
    pub(super) accs: Vec<A>,
    pub(super) static_eval: Vec<i32>,
    pub(super) killers: Vec<[u16; 2]>,
    /// `excluded[ply]`: the move a singular-extension search at `ply` leaves out (0: none).
    pub(super) excluded: Vec<u16>,
    /// `double_ext[ply]`: how many double extensions the path to `ply` took.
    pub(super) double_ext: Vec<u8>,
    pub(super) prev_hist: Vec<usize>,
    /// `prev_quiet[ply]`: whether the move made at `ply` was quiet (the prior-countermove bonus
    /// rewards only quiet moves).
    pub(super) prev_quiet: Vec<bool>,
    /// `stat_score[ply]`: the summed histories of the quiet move made at `ply` (0 for a capture,
    /// a null move or a root move), what the child's reverse futility reads (`RfpStat`).
    pub(super) stat_score: Vec<i32>,
    /// `tt_pv[ply]`: the node at `ply` is on or was on a principal variation (`TtPv`); stored
    /// in its table entry.
    pub(super) tt_pv: Vec<bool>,
    /// `move_count[ply]`: the number of the move being searched at `ply` (1 for the first),
    /// what a child reads for `LmrParentCount`.
    pub(super) move_count: Vec<i32>,
    /// `cutoffs[ply]`: beta cut-offs at `ply` since the node at `ply − 2` started (`LmrCutoffs`).
    pub(super) cutoffs: Vec<u32>,
    pub(super) move_bufs: Vec<Vec<G::Move>>,
    pub(super) score_bufs: Vec<Vec<i32>>,
    pub(super) sort_scratch: ordering::SortScratch<G::Move>,
    /// The escape classes of the moves being scored (`ThreatOrder`; one node at a time).
    pub(super) escape: Vec<u8>,
    /// `qs_to[ply]`: the square the quiescence move into `ply` went to.
    pub(super) qs_to: Vec<u8>,
    pub(super) pv: Vec<Vec<G::Move>>,
    /// Keys and in-check flags of the game before the root, then of the search path.
    pub(super) path_keys: Vec<u64>,
    pub(super) path_checks: Vec<bool>,
    pub(in crate::search) root_moves: Vec<RootMove<G::Move>>,
}

impl<G: Game, A: Default> Scratch<G, A> {
    /// Fresh buffers, as `Searcher::new` allocates them.
    pub fn new() -> Self {
        Scratch {
            tables: OrderingTables::new(G::HISTORY_SIZE),
            positions: Vec::with_capacity(16),
            accs: (0..STACK).map(|_| A::default()).collect(),
            static_eval: vec![0; STACK],
            killers: vec![[0; 2]; STACK],
            excluded: vec![0; STACK],
            double_ext: vec![0; STACK],
            prev_hist: vec![NO_PREV; STACK],
            prev_quiet: vec![false; STACK],
            stat_score: vec![0; STACK],
            tt_pv: vec![false; STACK],
            move_count: vec![0; STACK],
            cutoffs: vec![0; STACK],
            move_bufs: (0..STACK).map(|_| Vec::new()).collect(),
            score_bufs: (0..STACK).map(|_| Vec::new()).collect(),
            sort_scratch: ordering::SortScratch::new(),
            escape: Vec::new(),
            qs_to: vec![0; STACK],
            pv: (0..STACK).map(|_| Vec::new()).collect(),
            path_keys: Vec::new(),
            path_checks: Vec::new(),
            root_moves: Vec::new(),
        }
    }

    /// Back to `new`'s state where a search reads before it writes: history, killers, the
    /// per-ply records and the PVs. Buffers a node empties before use (moves, scores, sort keys,
    /// the path, the root moves) and the accumulators (each written from its parent's before it
    /// is read; the root's by `set_root`) keep their contents and capacity.
    fn reset(&mut self) {
        self.tables.clear();
        self.positions.clear();
        self.static_eval.fill(0);
        self.killers.fill([0; 2]);
        self.excluded.fill(0);
        self.double_ext.fill(0);
        self.prev_hist.fill(NO_PREV);
        self.prev_quiet.fill(false);
        self.stat_score.fill(0);
        self.tt_pv.fill(false);
        self.move_count.fill(0);
        self.cutoffs.fill(0);
        self.qs_to.fill(0);
        for pv in &mut self.pv {
            pv.clear();
        }
        self.path_keys.clear();
        self.path_checks.clear();
        self.root_moves.clear();
    }
}

impl<G: Game, A: Default> Default for Scratch<G, A> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a, G: Game, E: Evaluator<G>> Searcher<'a, G, E> {
    /// `Searcher::new` on the buffers of an earlier searcher (`into_scratch`), reset first.
    pub fn with_scratch(
        shared: &'a Shared,
        eval: &'a E,
        params: SearchParams,
        id: usize,
        mut s: Scratch<G, E::Acc>,
    ) -> Self {
        s.reset();
        Searcher {
            shared,
            eval,
            params,
            id,
            buf: s,
            base: 0,
            reversible_before_root: 0,
            local_nodes: 0,
            published: 0,
            publish_at: PUBLISH_BATCH,
            iteration_done: false,
            root_found: false,
            seldepth: 0,
            root_depth: 0,
            draw_value: 0,
            rules: RuleOptions::default(),
            lmr: pruning::lmr_table(
                pruning::param::<G>(&params, LMR_BASE),
                pruning::param::<G>(&params, LMR_DIV),
            ),
        }
    }

    /// The buffers, for the next `with_scratch`.
    pub fn into_scratch(self) -> Scratch<G, E::Acc> {
        self.buf
    }
}
