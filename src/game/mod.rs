//! The `Game` trait: everything the search, the evaluation and the learner need from a game's rules.
//!
//! Search and learner are written once, generic over `G: Game`; shogi (`crate::shogi`) and chess
//! (`crate::chess`) implement it. A position type *is* the game: `G` is the position, its moves are
//! `G::Move`, and positions are copy-made (`play` returns a new position), so the search keeps a stack.

pub mod history;
pub mod outcome;
pub mod records;
pub mod score;
pub mod search_params;

use std::fmt::Debug;
use std::hash::Hash;

pub use history::GameHistory;
pub use outcome::{DrawReason, Outcome, WinReason};
pub use score::*;

/// The two players. Shogi: `First` = sente (black, moves first); chess: `First` = white.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    First,
    Second,
}

impl Side {
    pub fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
}

/// An error in a position text, a move text or a rule check. The message names the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesError(pub String);

impl std::fmt::Display for RulesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RulesError {}

impl RulesError {
    pub fn new(msg: impl Into<String>) -> Self {
        RulesError(msg.into())
    }
}

/// Shogi entering-king (nyugyoku) declaration rules, as YaneuraOu and shogiarena name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EnteringKingRule {
    /// No declaration.
    NoEnteringKing,
    /// CSA 24-point rule: a declaration with 31 points or more wins.
    CsaRule24,
    /// CSA 24-point rule for handicap games.
    CsaRule24H,
    /// CSA 27-point rule: sente needs 28 points, gote 27.
    #[default]
    CsaRule27,
    /// CSA 27-point rule for handicap games.
    CsaRule27H,
}

impl EnteringKingRule {
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s.to_ascii_lowercase().as_str() {
            "noenteringking" => Self::NoEnteringKing,
            "csarule24" => Self::CsaRule24,
            "csarule24h" => Self::CsaRule24H,
            "csarule27" => Self::CsaRule27,
            "csarule27h" => Self::CsaRule27H,
            _ => return None,
        })
    }
    pub fn name(self) -> &'static str {
        match self {
            Self::NoEnteringKing => "NoEnteringKing",
            Self::CsaRule24 => "CSARule24",
            Self::CsaRule24H => "CSARule24H",
            Self::CsaRule27 => "CSARule27",
            Self::CsaRule27H => "CSARule27H",
        }
    }
}

/// Rule settings that vary between tournaments (set through engine options).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleOptions {
    pub entering_king: EnteringKingRule,
    /// A game that reaches this many plies is a draw (0 = no limit). Shogi's `MaxMovesToDraw`.
    pub max_moves_to_draw: u32,
}

impl Default for RuleOptions {
    fn default() -> Self {
        RuleOptions {
            entering_king: EnteringKingRule::CsaRule27,
            max_moves_to_draw: 0,
        }
    }
}

/// `Game::escape_classes`' bit for a direct check.
pub const CHECK_CLASS: u8 = 4;
/// `Game::escape_classes`' en-prise level (bits 3–5, 0–6) starts at this bit.
pub const EN_PRISE_SHIFT: u8 = 3;

/// The rules of one game, implemented by its position type.
///
/// Move lists are plain `Vec`s owned by the caller (the search reuses one per ply, so there is no
/// allocation in the hot path); generators push to them and never clear them.
pub trait Game: Clone + Debug + Send + Sync + 'static {
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    /// "shogi" or "chess".
    const NAME: &'static str;
    /// Occurrences of the same position that make a draw by rule (shogi 4, chess 3).
    const REPETITION_COUNT: usize;
    /// Whether a repetition in which one side checked with every move loses for that side (shogi).
    const PERPETUAL_CHECK_LOSES: bool;
    /// Size of the index space of `history_index`.
    const HISTORY_SIZE: usize;
    /// Number of values of `captured_kind`.
    const CAPTURE_KINDS: usize;
    /// The search's margins and limits for this game (`search_params`).
    const SEARCH_PARAMS: search_params::SearchParamTable;

    fn startpos() -> Self;
    /// Reads a position text (SFEN / FEN). The error names the problem.
    fn from_text(text: &str) -> Result<Self, RulesError>;
    /// The position text (SFEN / 6-field FEN).
    fn to_text(&self) -> String;
    /// Reads a move text (USI / UCI). A text that is not a legal move here is an error.
    fn parse_move(&self, text: &str) -> Result<Self::Move, RulesError>;
    /// The protocol text of a move (USI / UCI).
    fn move_text(&self, mv: Self::Move) -> String;

    /// Zobrist key (shogi: hands included).
    fn key(&self) -> u64;
    fn side_to_move(&self) -> Side;
    fn in_check(&self) -> bool;
    /// Plies played from the start (used for the maximum game length).
    fn ply(&self) -> u32;
    /// Plies since the last irreversible move (chess: the fifty-move counter). Repetition scans stop
    /// there. Shogi has no irreversible moves, so it returns `u32::MAX`.
    fn reversible_plies(&self) -> u32;

    /// Pushes every legal move.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);
    /// Number of legal moves (perft's bulk count at the leaves).
    fn count_legal_moves(&self) -> u64;
    /// Pushes the legal captures and promotions (quiescence search). Not called in check.
    fn tactical_moves(&self, out: &mut Vec<Self::Move>);
    /// Whether `mv` is a legal move in this position (validates TT and killer moves).
    fn is_legal(&self, mv: Self::Move) -> bool;
    /// Plays a legal move (copy-make).
    fn play(&self, mv: Self::Move) -> Self;
    /// Passes the move, when that is legal (not in check). Used by null-move pruning.
    fn play_null(&self) -> Option<Self>;

    fn is_capture(&self, mv: Self::Move) -> bool;
    /// Capture or promotion.
    fn is_tactical(&self, mv: Self::Move) -> bool;
    fn gives_check(&self, mv: Self::Move) -> bool;
    /// Static exchange evaluation of `mv` in the game's own piece values (centipawn-like).
    fn see(&self, mv: Self::Move) -> i32;
    /// Value of the piece `mv` captures (0 if none) plus the gain of a promotion: MVV for ordering.
    fn victim_value(&self, mv: Self::Move) -> i32;
    /// Value of the moving piece: LVA for ordering.
    fn attacker_value(&self, mv: Self::Move) -> i32;
    /// An index below `HISTORY_SIZE` for history tables: the moving piece (with colour) and target.
    fn history_index(&self, mv: Self::Move) -> usize;
    /// The kind of piece a tactical move `mv` captures, below `CAPTURE_KINDS`; a promotion that
    /// captures nothing gives `CAPTURE_KINDS − 1`. With `history_index`, the capture history's index.
    fn captured_kind(&self, mv: Self::Move) -> usize;

    /// The square a move goes to (for recapture tests).
    fn move_to(mv: Self::Move) -> u8;
    /// Packs a move into 16 bits for the transposition table.
    fn encode_move(mv: Self::Move) -> u16;
    /// Unpacks a move stored by `encode_move`; `None` when it is not legal in this position.
    fn decode_move(&self, code: u16) -> Option<Self::Move>;

    /// Material balance from the side to move's point of view in the game's own piece values
    /// (pieces in hand included). Eval-independent: used for pruning guards and as a fallback eval.
    fn material(&self) -> i32;
    /// Whether null-move pruning is safe (chess: not in pawn-only endgames, for zugzwang).
    fn null_move_allowed(&self) -> bool;
    /// The outcome decided by this position alone when the side to move has no legal move or a
    /// rule ends the game here (chess: fifty moves, insufficient material). Repetition and game
    /// length need the history: see `GameHistory::outcome`.
    fn position_outcome(&self) -> Option<Outcome>;
    /// A cheap draw-by-rule test for the search (chess: fifty moves, insufficient material); no move
    /// generation. Repetitions are the search's own business.
    fn is_draw_by_rule(&self) -> bool {
        false
    }
    /// For move ordering (Stockfish's escape and check bonuses): for each of `moves`, written
    /// into `out` (cleared first), in bits 0–1 the escape class — 3, 2 or 1 when the move takes a
    /// queen, rook or minor piece that a lesser enemy piece attacks to a square no lesser enemy
    /// piece attacks, else 0 — and in bit 2 (`CHECK_CLASS`) whether the moving piece attacks
    /// the enemy king from its target square (a direct check; discovered checks not counted), and
    /// from bit `EN_PRISE_SHIFT` the en-prise level of a move that is not an escape: 1 a minor
    /// onto a square an enemy pawn attacks, 2 / 3 a rook onto one a minor / pawn attacks, 4 / 5 / 6
    /// a queen onto one a rook / minor / pawn attacks (Stockfish 16's malus), else 0.
    /// Games without the notion leave every class 0 (shogi).
    fn escape_classes(&self, moves: &[Self::Move], out: &mut Vec<u8>) {
        out.clear();
        out.resize(moves.len(), 0);
    }
    /// Whether the side to move may declare a win (shogi entering king). Chess: never.
    fn can_declare_win(&self, _rule: EnteringKingRule) -> bool {
        false
    }
    /// The outcome of a declaration by the side to move under `rule`: a win, a draw (shogi's
    /// 24-point rule at 24–30 points), or `None` when the conditions are not met. Chess: `None`.
    /// (Added with a default so existing implementations keep compiling.)
    fn declaration_outcome(&self, _rule: EnteringKingRule) -> Option<Outcome> {
        None
    }
    /// A move that mates at once, found by a cheap and deliberately incomplete test (the play
    /// search calls it at many nodes), or `None`. Called only when the side to move is not in
    /// check. A returned move must be legal and must mate. Default: no test (chess).
    fn mate_in_one(&self) -> Option<Self::Move> {
        None
    }
    /// A key of the position's slow-changing structure, for the search's correction history
    /// (`CorrHist`): positions with the same key tend to share the evaluation's errors, so what
    /// the searches found there corrects the static value of the next one. Chess: the pawns.
    /// Default 0 (no structure: the switch would then correct by side to move alone).
    fn structure_key(&self) -> u64 {
        0
    }
    /// A key of `side`'s pieces other than pawns and where they stand, for the search's second
    /// correction history (`CorrNonPawn`): one per side, so positions that share one side's
    /// pieces share that side's entry whatever the other side holds. Default 0.
    fn pieces_key(&self, _side: Side) -> u64 {
        0
    }
}

/// Whether `pos` is tactically quiet: the side to move is not in check and has no capture that wins
/// material by static exchange (`Game::see`, the game's own piece values, so the test does not
/// depend on any evaluation's weights). `buf` is scratch space for the moves.
pub fn is_quiet<G: Game>(pos: &G, buf: &mut Vec<G::Move>) -> bool {
    if pos.in_check() {
        return false;
    }
    buf.clear();
    pos.tactical_moves(buf);
    !buf.iter().any(|&mv| pos.is_capture(mv) && pos.see(mv) > 0)
}

/// Counts the leaves of the legal-move tree of depth `depth` (bulk-counted at the last ply).
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.count_legal_moves();
    }
    let mut moves = Vec::with_capacity(128);
    pos.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| perft(&pos.play(mv), depth - 1))
        .sum()
}

/// Perft split by root move: `(move text, count)` per legal move, in generation order.
pub fn perft_divide<G: Game>(pos: &G, depth: u32) -> Vec<(String, u64)> {
    let mut moves = Vec::with_capacity(128);
    pos.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let n = if depth <= 1 {
                1
            } else {
                perft(&pos.play(mv), depth - 1)
            };
            (pos.move_text(mv), n)
        })
        .collect()
}

/// The perft report shared by the CLI and the protocols' `go perft`.
pub fn format_divide(lines: &[(String, u64)], seconds: f64) -> String {
    let mut out = String::new();
    let mut total = 0;
    for (mv, n) in lines {
        out.push_str(&format!("{mv}: {n}\n"));
        total += n;
    }
    out.push_str(&format!("\nNodes searched: {total}\n"));
    let nps = if seconds > 0.0 {
        total as f64 / seconds
    } else {
        0.0
    };
    out.push_str(&format!("Time: {:.3} s ({:.0} nodes/s)\n", seconds, nps));
    out
}
