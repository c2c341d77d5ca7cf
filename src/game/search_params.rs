//! The search's tunable margins and limits, one table per game (`Game::SEARCH_PARAMS`): name,
//! default, range and SPSA step of each. The search reads the defaults as constants; in a build
//! with the `tune` cargo feature the protocols also declare them as spin options, so a tuner
//! (shogiarena's SPSA) can set them through `setoption`.
//!
//! The table is here, under the rules interface, because the game supplies the values (its score
//! scale decides the margins), while `search` reads them by the indices below. The standard table
//! holds the values the search was written with (new prunings off); shogi's and chess's differ
//! from it where a match said so. Structural choices (the ordering
//! score bands, the history table's scale, the quiescence depth cap) stay constants in `search`.

/// One tunable integer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tunable {
    /// The option name in a `tune` build.
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// SPSA's perturbation size.
    pub step: i32,
}

/// A game's table, indexed by the constants below.
pub type SearchParamTable = [Tunable; COUNT];

/// Reverse futility pruning: at most this depth…
pub const RFP_DEPTH: usize = 0;
/// …when eval − margin·depth + improving·bonus ≥ beta.
pub const RFP_MARGIN: usize = 1;
pub const RFP_IMPROVING: usize = 2;
/// Null move: from this depth on…
pub const NMP_DEPTH: usize = 3;
/// …reduced by base + depth/div + min((eval − beta)/eval_div, eval_max).
pub const NMP_BASE: usize = 4;
pub const NMP_DEPTH_DIV: usize = 5;
pub const NMP_EVAL_DIV: usize = 6;
pub const NMP_EVAL_MAX: usize = 7;
/// Late move pruning of quiet moves: up to this depth, after base + depth²/(2 − improving) moves.
pub const LMP_DEPTH: usize = 8;
pub const LMP_BASE: usize = 9;
/// Futility pruning of quiet moves: up to this depth, when eval + base + margin·depth ≤ alpha.
pub const FUTILITY_DEPTH: usize = 10;
pub const FUTILITY_BASE: usize = 11;
pub const FUTILITY_MARGIN: usize = 12;
/// SEE pruning of losing captures: up to this depth, when SEE < −margin·depth.
pub const SEE_DEPTH: usize = 13;
pub const SEE_MARGIN: usize = 14;
/// Late move reductions from this depth on.
pub const LMR_DEPTH: usize = 15;
/// Aspiration windows from this iteration on, with this first half-width, doubled after each
/// failure until it passes the maximum (then the window is full).
pub const ASPIRATION_DEPTH: usize = 16;
pub const ASPIRATION_DELTA: usize = 17;
pub const ASPIRATION_MAX: usize = 18;
/// The late move reduction table: base/100 + ln(depth)·ln(move number)/(div/100) plies, then one
/// ply less per history/LMR_HISTORY_DIV of the move's ordering score.
pub const LMR_BASE: usize = 19;
pub const LMR_DIV: usize = 20;
pub const LMR_HISTORY_DIV: usize = 21;
/// The history bonus of a quiet cut-off move (and malus of the quiets before it):
/// min(depth², max)·mul.
pub const HISTORY_BONUS_MUL: usize = 22;
pub const HISTORY_BONUS_MAX: usize = 23;
/// From this quiescence depth on, only recaptures on the last move's square are searched.
pub const QS_RECAPTURE_DEPTH: usize = 24;
/// Time management (`search::time`): sudden death spends (time − overhead)/moves-to-go plus
/// inc·percent/100 (times SlowMover), never more than hard_mul times that nor more than
/// (time − overhead)/cap_div + inc/2; with byoyomi, time/main_div + byoyomi − margin.
/// At a fixed number of nodes per move these have no effect, so SPSA at fixed nodes leaves them.
pub const TIME_MOVES_TO_GO: usize = 25;
pub const TIME_INC_PERCENT: usize = 26;
pub const TIME_HARD_MUL: usize = 27;
pub const TIME_CAP_DIV: usize = 28;
pub const TIME_BYOYOMI_MAIN_DIV: usize = 29;
/// Internal iterative reduction: a node without a table move at this depth or more is searched a
/// ply shallower.
pub const IIR_DEPTH: usize = 30;
/// Singular extension from this depth on, when every other move fails low against the table's
/// score − margin·depth in a half-depth search without the table move.
pub const SE_DEPTH: usize = 31;
pub const SE_MARGIN: usize = 32;
/// Continuation-history pruning of a quiet move at depth ≤ this (one less when improving; 0: off)
/// when its history after the previous move is below the first limit or its history after the
/// move two plies back is below the second.
pub const CONT_PRUNE_DEPTH: usize = 33;
pub const CONT_PRUNE_LIMIT1: usize = 34;
pub const CONT_PRUNE_LIMIT2: usize = 35;
/// SEE pruning of a quiet move (one that gives no check): up to this depth (0: off), when SEE <
/// −margin·depth² (a move that hangs material near the leaves).
pub const SEE_QUIET_DEPTH: usize = 36;
pub const SEE_QUIET_MARGIN: usize = 37;
/// 1: the pruning decisions before the move loop (reverse futility, razoring, null move, ProbCut)
/// and futility read the table's score in place of the static evaluation when its bound says
/// the true value lies beyond the static one (0: the static evaluation only).
pub const TT_EVAL_ADJUST: usize = 38;
/// Razoring: up to this depth (0: off), a non-PV node whose evaluation is below
/// alpha − margin·depth² is resolved by quiescence when quiescence agrees it fails low.
pub const RAZOR_DEPTH: usize = 39;
pub const RAZOR_MARGIN: usize = 40;
/// ProbCut: from this depth on (0: off), a capture whose quiescence and then a search four plies
/// shallower beat beta + margin (− the improving bonus) cuts the node.
pub const PROBCUT_DEPTH: usize = 41;
pub const PROBCUT_MARGIN: usize = 42;
pub const PROBCUT_IMPROVING: usize = 43;
/// 1: futility, continuation-history and quiet SEE pruning judge a quiet move by the depth its
/// late move reduction would leave (depth − reduction), not by the node's depth (0: the node's).
pub const PRUNE_LMR_DEPTH: usize = 44;
/// The fifty-move damping of the static evaluation (0: off): with r reversible plies since the
/// last capture or pawn move (`Game::reversible_plies`), the search sees eval·(n − r)/n, so a
/// side that is better prefers progress (a capture or pawn move restores the full value) to
/// shuffling towards the fifty-move draw. Only the play search: the learners' leaves must stay
/// the evaluation's own values (`SearchParams::rule50_damping`).
pub const RULE50_DAMP: usize = 45;
/// Double extension (0: off): a singular table move whose exclusion search failed low by more
/// than this margin below the singular beta, at a non-PV node, is extended by two plies, at most
/// `DOUBLE_EXTENSIONS_MAX` times on a path (Stockfish 15.1's `doubleExtensions`).
pub const SE_DOUBLE_MARGIN: usize = 46;
/// Internal iterative reduction's extra plies at a PV node without a table move (0: the same
/// single ply as elsewhere; Stockfish 15.1 reduces such a PV node by three).
pub const IIR_PV_EXTRA: usize = 47;
/// The prior-countermove bonus on a fail low, in percent of a cut-off's history bonus (0: off).
pub const PRIOR_CM_BONUS: usize = 48;
/// Stockfish 15.1's `ttPv` (0: off, 1: on). A node is "tt-PV" when it is a PV node or its table
/// entry says it was on a PV; a node that fails low below a tt-PV parent becomes one too. Such
/// nodes skip reverse futility pruning, and their late moves are reduced two plies less unless
/// the node is likely to fail low (a PV node whose table entry is an upper bound at this depth).
pub const TT_PV: usize = 49;
/// Time management by a falling evaluation (0: off; else centipawns): after each iteration the
/// soft limit is scaled by 1 + d / (2·this), clamped to [0.6, 1.6], where d is how far the best
/// score lies below the last search's (twice weighted) and below this search's score four
/// iterations back, averaged (Stockfish 15.1's `fallingEval`, on kishi's centipawns).
pub const TIME_FALLING: usize = 50;
/// Late move reductions one ply smaller at a node reached by a late move (0: off; else the
/// parent's move count it must exceed, Stockfish 15.1's `(ss-1)->moveCount > 7`): that node was
/// itself reduced, and reducing its moves as much again compounds the error.
pub const LMR_PARENT_COUNT: usize = 51;
/// Late move reductions one ply larger at a non-PV node whose earlier children's subtrees cut
/// off often (0: off; else the count of cut-offs one ply below, since the parent started, it
/// must exceed, Stockfish 15.1's `(ss+1)->cutoffCnt > 3`): moves here are then refuted easily.
pub const LMR_CUTOFFS: usize = 52;
/// The re-search of a reduced move that beat alpha goes a ply deeper when its score beat alpha
/// by more than this + 11·reduction, and a ply shallower when it did not beat the best score by
/// the depth (0: off; Stockfish's `doDeeperSearch` margin is 64, `doShallowerSearch` as in 16).
pub const LMR_DEEPER: usize = 53;
/// 1: the best move of a node whose score raised alpha without a cut-off (an exact PV node) takes
/// the history, continuation-history, killer and counter-move updates of a cut-off, and the moves
/// tried before it the malus (0: only cut-offs update; Stockfish 15.1 updates on any best move).
pub const HISTORY_EXACT: usize = 54;
/// 1: a cut-off by the transposition table with a quiet table move updates the histories as if
/// that move had been searched: a bonus (and killer, counter move) when the table's score beat
/// beta, a malus to its history and continuation history when it failed low (Stockfish 15.1).
pub const TT_CUT_HISTORY: usize = 55;
/// 1: late move reductions one ply larger at a node whose table move is a capture or promotion
/// (Stockfish 15.1's `ttCapture`): the quiet moves after a tactical best rarely matter.
pub const TT_CAPTURE_LMR: usize = 56;
/// 1: late move reductions apply to quiet moves that give check too (0: never to a check;
/// Stockfish 15.1 reduces checks like other moves).
pub const LMR_CHECKS: usize = 57;
/// The moves a PV node searches before late move reductions start, beyond the first (2: the
/// third move is the first reduced at a PV node; Stockfish 15.1 starts at the second below ply 2).
pub const LMR_PV_EXTRA: usize = 58;
/// Futility pruning of captures near the leaves, margin per ply (0: off; see
/// `capture_futility_prune`).
pub const CAPTURE_FUTILITY: usize = 59;
/// Check extensions only at this remaining depth or more (1: at every depth, as kishi always
/// did; Stockfish 15.1 extends checks only above depth 9, where its search is deep).
pub const CHECK_EXT_DEPTH: usize = 60;
/// 1: late move pruning at PV nodes too (0: cut and all nodes only; Stockfish 15.1 prunes by
/// move count at every node but the root).
pub const LMP_PV: usize = 61;
/// 1: late move pruning skips quiet checks too (0: a check is never pruned by move count;
/// Stockfish's move picker skips every quiet move once the count is reached).
pub const LMP_CHECKS: usize = 62;
/// How far back the continuation history looks: 2 = the moves one and two plies back (as kishi
/// always did), 4 adds the own move four plies back, 6 also the one six back (Stockfish 15.1 reads
/// 1, 2, 4 and 6 in its move ordering and updates all four on a cut-off).
pub const CONT_PLIES: usize = 63;
/// Stockfish 15.1's escape bonus in the ordering of quiet moves, in percent of its values
/// (a threatened queen, rook or minor piece moved out of the threat: 50,000, 25,000, 15,000 on
/// its history scale; kishi's summed histories span about 40% of Stockfish's). 0: off. Late move
/// reductions and prunings keep reading the move's histories alone.
pub const THREAT_ORDER: usize = 64;
/// A quiet move that checks directly is ordered this much higher (0: off; Stockfish's move
/// picker adds 16,384 on its history scale). As with `ThreatOrder`, the reductions do not see it.
pub const CHECK_ORDER: usize = 65;
/// Stockfish 16's malus in the ordering of quiet moves, in percent of its values: an unthreatened
/// queen, rook or minor moved onto a square a lesser enemy piece attacks is ordered lower (80,000
/// down to 15,000 on its history scale). 0: off. The reductions do not see it.
pub const EN_PRISE: usize = 66;
/// 1: the ordering of quiet moves counts the main history and the previous move's continuation
/// history twice (Stockfish 15.1's move picker); 0: every history once. The reductions and
/// prunings keep reading the plain sum.
pub const ORDER_WEIGHTS: usize = 67;
/// A capture is ordered with the good ones (before the killers) when its SEE loses at most
/// this percentage of the victim's value (0: SEE ≥ 0). Stockfish's picker keeps a capture good
/// while SEE ≥ −(6 × victim + capture history), so that a knight taking a defended pawn comes
/// early. SEE pruning still reads SEE itself.
pub const CAPTURE_SLACK: usize = 68;
/// Plies by which each fail high of the root's aspiration window shallows the search again
/// (Stockfish's `failedHighCnt`: a fail high is usually confirmed, and a shallower re-search
/// confirms it sooner); a fail low restores the iteration's depth. 0: off.
pub const FAIL_HIGH_REDUCE: usize = 69;
/// Stockfish 15.1's static condition on the null move (0: off): the null move is tried only when
/// the static evaluation itself is at least beta − `NmpStaticSlope`·depth + this margin, and
/// the pruning evaluation (the table's estimate) is not below the static one. Near the leaves a
/// null move then needs a static evaluation well above beta, where a shallow null-move search
/// is least reliable; from depth margin/slope on it needs only the evaluation above beta.
pub const NMP_STATIC: usize = 70;
pub const NMP_STATIC_SLOPE: usize = 71;
/// Quiescence search in check (0: off): once an evasion has scored above a mate, evasions that
/// lose material (SEE < 0) are skipped and at most this many quiet evasions are searched
/// (Stockfish 15.1 stops after two quiet evasions). Without it every evasion of every check
/// in quiescence is searched.
pub const QS_EVASIONS: usize = 72;
/// 1: after a quiet table move proved singular, the node's other moves are reduced a ply less
/// (Stockfish 15.1's `singularQuietLMR`: the node is sharp, its alternatives deserve a deeper
/// look); 0: off.
pub const SINGULAR_QUIET_LMR: usize = 73;
/// Futility pruning of a quiet move counts its histories too (0: off; else a divisor): the
/// margin grows by the move's summed history / this, so a move that has done well elsewhere is
/// kept and one that has done badly goes sooner (Stockfish 15.1 adds its history / 52 in its
/// units; kishi's histories span about 40% of Stockfish's and its centipawn about two of
/// Stockfish's internal units, hence about 42 here). Killers and the countermove count no history.
pub const FUTILITY_HISTORY: usize = 74;
/// Reverse futility reads the move into the node too (0: off; else a divisor): the margin grows
/// by that move's summed histories / this, so after a move that has often been good (for the
/// side that made it) the node is cut less readily, after a poor one more readily (Stockfish
/// 15.1 subtracts the previous move's `statScore` / 306; with kishi's scales about 245).
/// Captures, null moves and root moves count 0.
pub const RFP_STAT: usize = 75;
/// Correction history (0: off; else a divisor): each side keeps, per pawn structure
/// (`Game::structure_key`), a running average of how far the searches' results stood from the
/// static evaluation there, and the static evaluation of the next node with that structure
/// moves by that average / this (Stockfish 16's `correctionHistory`: entries up to 1024, each
/// update (best − static)·depth/8 within ±256, the correction entry / 32).
pub const CORR_HIST: usize = 76;
/// A second correction history per side to move and per colour, indexed by that colour's
/// pieces other than pawns (`Game::pieces_key`; Stockfish 17's `nonPawnCorrectionHistory`),
/// updated like `CorrHist`'s; the sum of the two colours' entries / this moves the evaluation
/// (0: off; independent of `CorrHist`).
pub const CORR_NON_PAWN: usize = 77;
/// The soft time limit follows the share of the search's nodes that went to the best root move
/// (0: off; else a weight in percent): with share `f`, the factor `max(0.5, 0.4 + 2·(1 − f))`
/// (Ethereal's node time management: a best move that took most of the nodes is settled, so
/// stop sooner; one that took few is contested, so look longer), applied as
/// `1 + weight/100 · (factor − 1)` beside the stability and falling-evaluation factors.
pub const TIME_NODES: usize = 78;
/// A third correction history per side to move, keyed by the last two moves (their history
/// indices; Stockfish 17's `continuationCorrectionHistory`), updated like `CorrHist`'s; its entry
/// / this moves the evaluation (0: off).
pub const CORR_CONT: usize = 79;
/// Number of tunables.
pub const COUNT: usize = 80;

/// The parameters that divide: their range must exclude zero.
const DIVISORS: [usize; 7] = [
    NMP_DEPTH_DIV,
    NMP_EVAL_DIV,
    LMR_DIV,
    LMR_HISTORY_DIV,
    TIME_MOVES_TO_GO,
    TIME_CAP_DIV,
    TIME_BYOYOMI_MAIN_DIV,
];

/// The option names in index order (every game's table must list them in this order).
pub const NAMES: [&str; COUNT] = [
    "RfpDepth",
    "RfpMargin",
    "RfpImproving",
    "NmpDepth",
    "NmpBase",
    "NmpDepthDiv",
    "NmpEvalDiv",
    "NmpEvalMax",
    "LmpDepth",
    "LmpBase",
    "FutilityDepth",
    "FutilityBase",
    "FutilityMargin",
    "SeeDepth",
    "SeeMargin",
    "LmrDepth",
    "AspirationDepth",
    "AspirationDelta",
    "AspirationMax",
    "LmrBase",
    "LmrDiv",
    "LmrHistoryDiv",
    "HistoryBonusMul",
    "HistoryBonusMax",
    "QsRecaptureDepth",
    "TimeMovesToGo",
    "TimeIncPercent",
    "TimeHardMul",
    "TimeCapDiv",
    "TimeByoyomiMainDiv",
    "IirDepth",
    "SeDepth",
    "SeMargin",
    "ContPruneDepth",
    "ContPruneLimit1",
    "ContPruneLimit2",
    "SeeQuietDepth",
    "SeeQuietMargin",
    "TtEvalAdjust",
    "RazorDepth",
    "RazorMargin",
    "ProbCutDepth",
    "ProbCutMargin",
    "ProbCutImproving",
    "PruneLmrDepth",
    "Rule50Damp",
    "SeDoubleMargin",
    "IirPvExtra",
    "PriorCmBonus",
    "TtPv",
    "TimeFalling",
    "LmrParentCount",
    "LmrCutoffs",
    "LmrDeeper",
    "HistoryExact",
    "TtCutHistory",
    "TtCaptureLmr",
    "LmrChecks",
    "LmrPvExtra",
    "CaptureFutility",
    "CheckExtDepth",
    "LmpPv",
    "LmpChecks",
    "ContPlies",
    "ThreatOrder",
    "CheckOrder",
    "EnPrise",
    "OrderWeights",
    "CaptureSlack",
    "FailHighReduce",
    "NmpStatic",
    "NmpStaticSlope",
    "QsEvasions",
    "SingularQuietLmr",
    "FutilityHistory",
    "RfpStat",
    "CorrHist",
    "CorrNonPawn",
    "TimeNodes",
    "CorrCont",
];

const fn t(index: usize, default: i32, min: i32, max: i32, step: i32) -> Tunable {
    Tunable {
        name: NAMES[index],
        default,
        min,
        max,
        step,
    }
}

/// The values the search was written with (used by both games today): a game whose score scale
/// differs would scale the margins.
pub const STANDARD: SearchParamTable = [
    t(RFP_DEPTH, 7, 1, 15, 1),
    t(RFP_MARGIN, 90, 10, 400, 10),
    t(RFP_IMPROVING, 40, 0, 200, 10),
    t(NMP_DEPTH, 3, 1, 8, 1),
    t(NMP_BASE, 3, 1, 6, 1),
    t(NMP_DEPTH_DIV, 4, 1, 8, 1),
    t(NMP_EVAL_DIV, 200, 50, 800, 25),
    t(NMP_EVAL_MAX, 3, 0, 6, 1),
    t(LMP_DEPTH, 6, 1, 12, 1),
    t(LMP_BASE, 3, 0, 12, 1),
    t(FUTILITY_DEPTH, 6, 1, 12, 1),
    t(FUTILITY_BASE, 120, 0, 400, 10),
    t(FUTILITY_MARGIN, 90, 10, 400, 10),
    t(SEE_DEPTH, 6, 1, 12, 1),
    t(SEE_MARGIN, 100, 0, 400, 10),
    t(LMR_DEPTH, 3, 1, 8, 1),
    t(ASPIRATION_DEPTH, 5, 1, 12, 1),
    t(ASPIRATION_DELTA, 25, 5, 200, 5),
    t(ASPIRATION_MAX, 1000, 100, 4000, 100),
    t(LMR_BASE, 75, 0, 200, 10),
    t(LMR_DIV, 225, 100, 500, 15),
    t(LMR_HISTORY_DIV, 8192, 1024, 32768, 512),
    t(HISTORY_BONUS_MUL, 16, 4, 64, 2),
    t(HISTORY_BONUS_MAX, 400, 64, 1600, 32),
    t(QS_RECAPTURE_DEPTH, 4, 1, 16, 1),
    t(TIME_MOVES_TO_GO, 30, 10, 80, 2),
    t(TIME_INC_PERCENT, 75, 0, 100, 5),
    t(TIME_HARD_MUL, 5, 1, 10, 1),
    t(TIME_CAP_DIV, 3, 2, 10, 1),
    t(TIME_BYOYOMI_MAIN_DIV, 30, 5, 80, 2),
    t(IIR_DEPTH, 4, 2, 12, 1),
    t(SE_DEPTH, 8, 4, 16, 1),
    t(SE_MARGIN, 2, 0, 16, 1),
    t(CONT_PRUNE_DEPTH, 3, 0, 8, 1),
    t(CONT_PRUNE_LIMIT1, 0, -16384, 16384, 512),
    t(CONT_PRUNE_LIMIT2, -2000, -16384, 16384, 512),
    t(SEE_QUIET_DEPTH, 0, 0, 12, 1),
    t(SEE_QUIET_MARGIN, 30, 0, 200, 5),
    t(TT_EVAL_ADJUST, 0, 0, 1, 1),
    t(RAZOR_DEPTH, 0, 0, 6, 1),
    t(RAZOR_MARGIN, 250, 0, 1000, 25),
    t(PROBCUT_DEPTH, 0, 0, 12, 1),
    t(PROBCUT_MARGIN, 200, 0, 600, 10),
    t(PROBCUT_IMPROVING, 50, 0, 300, 10),
    t(PRUNE_LMR_DEPTH, 0, 0, 1, 1),
    t(RULE50_DAMP, 0, 0, 1000, 20),
    t(SE_DOUBLE_MARGIN, 0, 0, 200, 5),
    t(IIR_PV_EXTRA, 0, 0, 3, 1),
    t(PRIOR_CM_BONUS, 0, 0, 400, 25),
    t(TT_PV, 0, 0, 1, 1),
    t(TIME_FALLING, 0, 0, 200, 5),
    t(LMR_PARENT_COUNT, 0, 0, 30, 1),
    t(LMR_CUTOFFS, 0, 0, 16, 1),
    t(LMR_DEEPER, 0, 0, 300, 8),
    t(HISTORY_EXACT, 0, 0, 1, 1),
    t(TT_CUT_HISTORY, 0, 0, 1, 1),
    t(TT_CAPTURE_LMR, 0, 0, 1, 1),
    t(LMR_CHECKS, 0, 0, 1, 1),
    t(LMR_PV_EXTRA, 2, 0, 4, 1),
    t(CAPTURE_FUTILITY, 0, 0, 400, 10),
    t(CHECK_EXT_DEPTH, 1, 1, 16, 1),
    t(LMP_PV, 0, 0, 1, 1),
    t(LMP_CHECKS, 0, 0, 1, 1),
    t(CONT_PLIES, 2, 2, 6, 2),
    t(THREAT_ORDER, 0, 0, 100, 10),
    t(CHECK_ORDER, 0, 0, 32768, 1024),
    t(EN_PRISE, 0, 0, 100, 10),
    t(ORDER_WEIGHTS, 0, 0, 1, 1),
    t(CAPTURE_SLACK, 0, 0, 800, 50),
    t(FAIL_HIGH_REDUCE, 0, 0, 2, 1),
    t(NMP_STATIC, 0, 0, 400, 10),
    t(NMP_STATIC_SLOPE, 10, 0, 40, 2),
    t(QS_EVASIONS, 0, 0, 8, 1),
    t(SINGULAR_QUIET_LMR, 0, 0, 1, 1),
    t(FUTILITY_HISTORY, 0, 0, 200, 4),
    t(RFP_STAT, 0, 0, 1000, 20),
    t(CORR_HIST, 0, 0, 256, 4),
    t(CORR_NON_PAWN, 0, 0, 256, 4),
    t(TIME_NODES, 0, 0, 200, 10),
    t(CORR_CONT, 0, 0, 256, 4),
];

/// Chess's table: the standard values moved where two fixed-node SPSA runs of chess games took
/// them (`scripts/spsa_chess.py`, docs/tuning/spsa.md: 6,000 games at 5,000 nodes from the
/// standard values, then 5,000 games at 6,000 nodes from those): reverse futility and futility
/// margins smaller (and almost no bonus when improving), null move reduced more for a large eval
/// margin, late moves reduced more, continuation-history pruning of a quiet with a history after
/// the previous move below −1399 instead of 0, narrower aspiration windows; quiet SEE pruning and
/// the table-adjusted pruning evaluation on (docs/search_report.md §17). Double extensions of a
/// singular move whose exclusion search failed 35 below the singular beta (§21: pooled
/// +10.0 [+1.1, +18.9] Elo in 4,000 games at 10,000 nodes, two seeds). More time when the best
/// score falls, at a scale of 30 cp (§24–25: three self-play runs at 2 s + 0.02 s, one SPRT(0, 10)
/// continued over them, accepted at +14.3 [+4.5, +24.2] in 2,764 games). Each step kept by an
/// A/B match against the previous values. Threatened pieces' escapes ordered first among the
/// quiet moves at 40% of Stockfish's bonuses (§29: SPRT(0, 10) accepted at +22.8 [+7.7, +38.1]
/// in 1,341 games at 10,000 nodes). Measured again deeper (§34), the escape bonus and the double
/// extension showed no significant gain at 2 s + 0.02 s (switched off: +1.7 [−18.3, +21.8] and
/// −14.5 [−35.2, +6.1], 600 games each); both stay on, as nothing shows that they cost.
/// Correction history by pawn structure (§37: +13.2 [+0.7, +25.8] in 2,000 games at 10,000
/// nodes, +18.5 [−1.5, +38.7] in 600 at 2 s + 0.02 s); and by the last two moves (§38:
/// +10.1 [−2.4, +22.6] in 2,000 games at 10,000 nodes, +13.3 [−7.9, +34.7] in 600 at 40,000).
pub const CHESS: SearchParamTable = {
    let mut t = STANDARD;
    t[RFP_MARGIN].default = 71;
    t[RFP_IMPROVING].default = 8;
    t[NMP_EVAL_DIV].default = 160;
    t[FUTILITY_BASE].default = 121;
    t[FUTILITY_MARGIN].default = 61;
    t[SEE_MARGIN].default = 97;
    t[LMR_BASE].default = 57;
    t[LMR_DIV].default = 183;
    t[LMR_HISTORY_DIV].default = 6521;
    t[HISTORY_BONUS_MUL].default = 15;
    t[HISTORY_BONUS_MAX].default = 371;
    t[ASPIRATION_DELTA].default = 17;
    t[CONT_PRUNE_LIMIT1].default = -1399;
    t[CONT_PRUNE_LIMIT2].default = -2217;
    t[SEE_QUIET_DEPTH].default = 4;
    t[SEE_QUIET_MARGIN].default = 27;
    t[TT_EVAL_ADJUST].default = 1;
    t[SE_DOUBLE_MARGIN].default = 35;
    t[TIME_FALLING].default = 30;
    t[THREAT_ORDER].default = 40;
    t[CORR_HIST].default = 32;
    t[CORR_CONT].default = 32;
    t
};

/// Shogi's table: the standard values without continuation-history pruning, which lost in shogi's
/// fixed-node A/B (docs/search_report.md §10): with 100+ moves a node, most quiet moves have
/// taken a history malus after few updates, so the limits that suit chess prune too much.
pub const SHOGI: SearchParamTable = {
    let mut t = STANDARD;
    t[CONT_PRUNE_DEPTH].default = 0;
    t
};

/// A table's defaults, indexed like the table (what the search reads when nothing is tuned).
pub const fn defaults(table: &SearchParamTable) -> [i32; COUNT] {
    let mut v = [0; COUNT];
    let mut i = 0;
    while i < COUNT {
        v[i] = table[i].default;
        i += 1;
    }
    v
}

/// Whether a table is well-formed: the names in index order, each default inside its range,
/// every step positive, and no divisor able to be zero.
pub fn check(table: &SearchParamTable) -> Result<(), String> {
    for (i, p) in table.iter().enumerate() {
        if p.name != NAMES[i] {
            return Err(format!(
                "entry {i} is '{}', expected '{}'",
                p.name, NAMES[i]
            ));
        }
        if !(p.min <= p.default && p.default <= p.max) || p.step <= 0 {
            return Err(format!("'{}': bad range or step {p:?}", p.name));
        }
        if DIVISORS.contains(&i) && p.min < 1 {
            return Err(format!(
                "'{}' divides: its minimum must be at least 1",
                p.name
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_table_is_well_formed_and_holds_the_old_margins() {
        check(&STANDARD).expect("well-formed");
        // The constants the search had built in before the table (bench node counts depend on them).
        let d = |i: usize| STANDARD[i].default;
        assert_eq!((d(RFP_DEPTH), d(RFP_MARGIN), d(RFP_IMPROVING)), (7, 90, 40));
        assert_eq!(
            (
                d(NMP_DEPTH),
                d(NMP_BASE),
                d(NMP_DEPTH_DIV),
                d(NMP_EVAL_DIV),
                d(NMP_EVAL_MAX)
            ),
            (3, 3, 4, 200, 3)
        );
        assert_eq!((d(LMP_DEPTH), d(LMP_BASE)), (6, 3));
        assert_eq!(
            (d(FUTILITY_DEPTH), d(FUTILITY_BASE), d(FUTILITY_MARGIN)),
            (6, 120, 90)
        );
        assert_eq!((d(SEE_DEPTH), d(SEE_MARGIN), d(LMR_DEPTH)), (6, 100, 3));
        assert_eq!(
            (d(ASPIRATION_DEPTH), d(ASPIRATION_DELTA), d(ASPIRATION_MAX)),
            (5, 25, 1000)
        );
        assert_eq!(
            (d(LMR_BASE), d(LMR_DIV), d(LMR_HISTORY_DIV)),
            (75, 225, 8192)
        );
        assert_eq!(
            (
                d(HISTORY_BONUS_MUL),
                d(HISTORY_BONUS_MAX),
                d(QS_RECAPTURE_DEPTH)
            ),
            (16, 400, 4)
        );
        assert_eq!(
            (
                d(TIME_MOVES_TO_GO),
                d(TIME_INC_PERCENT),
                d(TIME_HARD_MUL),
                d(TIME_CAP_DIV),
                d(TIME_BYOYOMI_MAIN_DIV)
            ),
            (30, 75, 5, 3, 30)
        );
        assert_eq!((d(IIR_DEPTH), d(SE_DEPTH), d(SE_MARGIN)), (4, 8, 2));
        assert_eq!(
            (
                d(CONT_PRUNE_DEPTH),
                d(CONT_PRUNE_LIMIT1),
                d(CONT_PRUNE_LIMIT2)
            ),
            (3, 0, -2000)
        );
        // The switches added later are off in the standard table (so shogi's tree is unchanged).
        for i in [
            SEE_QUIET_DEPTH,
            TT_EVAL_ADJUST,
            RAZOR_DEPTH,
            PROBCUT_DEPTH,
            PRUNE_LMR_DEPTH,
        ] {
            assert_eq!(d(i), 0, "{}", NAMES[i]);
        }
        // Shogi differs only in continuation-history pruning (off).
        check(&SHOGI).expect("well-formed");
        for i in 0..COUNT {
            let want = if i == CONT_PRUNE_DEPTH { 0 } else { d(i) };
            assert_eq!(SHOGI[i].default, want, "{}", NAMES[i]);
        }
        assert_eq!(defaults(&STANDARD)[LMR_HISTORY_DIV], 8192);
        let mut bad = STANDARD;
        bad[3].name = "RfpDepth";
        assert!(check(&bad).is_err());
        let mut bad = STANDARD;
        bad[0].default = 99;
        assert!(check(&bad).is_err());
        let mut bad = STANDARD;
        bad[LMR_DIV].min = 0;
        assert!(check(&bad).unwrap_err().contains("LmrDiv"));
    }
}
