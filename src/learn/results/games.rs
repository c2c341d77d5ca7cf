//! One generation's self-play games: each from an opening drawn by its own seed, every move
//! chosen by the play search (`search::Engine`, one thread, fixed nodes; one side searches 100
//! nodes more than the other, as the match script does, so that the two sides' searches differ:
//! the second player in even-numbered games, the first in odd ones, so that the extra nodes do
//! not favour one colour in the results the fit learns from), and adjudicated by resignation, a
//! ply limit or the rules. The games file holds, before each record, the search's score of every
//! position (a `#scores` comment line), for fits that mix scores into their targets (`--lambda`).
//!
//! Determinism: a game depends only on the weights, its generation and index, and the settings.
//! Each side has its own engine (as in a match of two processes), its table and ordering
//! tables cleared at the start of every game, and a search limited by nodes alone runs the same
//! on any thread at any load; so the games are the same for any `--threads`.

use super::args::ResultsArgs;
use crate::eval::rng::SplitMix64;
use crate::eval::{FeatureSet, LinearEval, Weights};
use crate::game::records::{self, Record, RecordResult};
use crate::game::{Game, GameHistory, Outcome, RuleOptions, Side};
use crate::learn::selfplay_common::{game_seed, opening, result_of};
use crate::search::{Engine, Limits};
use indicatif::ProgressBar;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// By the rules (`GameHistory::outcome`).
    Rules(Outcome),
    /// This side resigned.
    Resigned(Side),
    /// `--max-plies` reached: a draw.
    MaxPlies,
}

impl End {
    /// The result a record states.
    pub fn result(self) -> RecordResult {
        match self {
            End::Rules(Outcome::Win(s, _)) => RecordResult::Win(s),
            End::Rules(Outcome::Draw(_)) => RecordResult::Draw,
            End::Resigned(s) => RecordResult::Win(s.opponent()),
            End::MaxPlies => RecordResult::Draw,
        }
    }

    /// The first player's result: 1 win, 0 draw, −1 loss.
    fn score(self) -> i32 {
        match self {
            End::Rules(o) => result_of(o),
            End::Resigned(Side::First) => -1,
            End::Resigned(Side::Second) => 1,
            End::MaxPlies => 0,
        }
    }

    /// How the game ended, in words (the games file's comment lines).
    pub fn describe(self) -> String {
        match self {
            End::Rules(Outcome::Win(Side::First, r)) => {
                format!("first player won by {r:?}").to_lowercase()
            }
            End::Rules(Outcome::Win(Side::Second, r)) => {
                format!("second player won by {r:?}").to_lowercase()
            }
            End::Rules(Outcome::Draw(r)) => format!("draw by {r:?}").to_lowercase(),
            End::Resigned(Side::First) => "first player resigned".into(),
            End::Resigned(Side::Second) => "second player resigned".into(),
            End::MaxPlies => "draw at --max-plies".into(),
        }
    }
}

/// One finished game.
pub struct PlayedGame<G: Game> {
    /// From the position the search took over (after the opening and random plies).
    pub record: Record<G>,
    /// The search's score of the position before each move, from its side to move.
    pub scores: Vec<i32>,
    pub end: End,
    /// Nodes searched by both sides.
    pub nodes: u64,
}

/// What a generation's games add up to (also stored beside the games file, so that a resumed
/// run that reuses the file reports what was played).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GenStats {
    pub games: u64,
    pub wins_first: u64,
    pub draws: u64,
    pub losses_first: u64,
    pub resignations: u64,
    pub max_plies: u64,
    pub plies: u64,
    pub nodes: u64,
    pub seconds: f64,
}

impl GenStats {
    fn add<G: Game>(&mut self, g: &PlayedGame<G>) {
        self.games += 1;
        match g.end.score() {
            1 => self.wins_first += 1,
            0 => self.draws += 1,
            _ => self.losses_first += 1,
        }
        self.resignations += matches!(g.end, End::Resigned(_)) as u64;
        self.max_plies += (g.end == End::MaxPlies) as u64;
        self.plies += g.record.moves.len() as u64;
        self.nodes += g.nodes;
    }
}

/// A game's index and how its play went.
type Numbered<G> = (u64, Result<PlayedGame<G>, String>);

/// The games of one generation, as text (comment line + record line each) and their sums.
pub struct Generation {
    pub text: String,
    pub stats: GenStats,
}

/// Plays the generation's `args.games` games with `weights`, on `args.threads` workers; the
/// games file's text in game order. `bar` counts finished games.
pub fn play_generation<G: Game, F: FeatureSet<G>>(
    weights: Arc<Weights>,
    book: &[GameHistory<G>],
    args: &ResultsArgs,
    generation: u32,
    bar: &ProgressBar,
) -> Result<Generation, String> {
    let t0 = std::time::Instant::now();
    let threads = (args.threads as u64).min(args.games).max(1);
    let per_thread: Vec<Vec<Numbered<G>>> = crossbeam::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let weights = Arc::clone(&weights);
                scope.spawn(move |_| {
                    let eval = LinearEval::<G, F>::new(weights);
                    let mut engines = [
                        Engine::new(eval.clone(), 1, args.hash_mb),
                        Engine::new(eval, 1, args.hash_mb),
                    ];
                    let mut mine = Vec::new();
                    let mut i = t;
                    while i < args.games {
                        mine.push((i, play_game(&mut engines, book, args, generation, i)));
                        bar.inc(1);
                        i += threads;
                    }
                    mine
                })
            })
            .collect();
        crate::learn::join_all(handles)
    })
    .unwrap_or_else(|e| std::panic::resume_unwind(e));
    let mut all: Vec<Numbered<G>> = per_thread.into_iter().flatten().collect();
    all.sort_by_key(|(i, _)| *i);
    let mut out = Generation {
        text: String::new(),
        stats: GenStats::default(),
    };
    for (i, g) in all {
        let g = g?;
        out.stats.add(&g);
        // The line format has no metadata field: how the game ended goes into a comment line,
        // which every reader of the format skips.
        out.text.push_str(&format!(
            "# generation {generation} game {i}: {}, {} plies\n",
            g.end.describe(),
            g.record.moves.len()
        ));
        // The search's scores on a comment line of their own, which the line format's reader
        // attaches to the record below (`records::TEACHER_SCORES`) and other readers skip.
        out.text.push_str(records::SCORES_COMMENT);
        for s in &g.scores {
            out.text.push_str(&format!(" {s}"));
        }
        out.text.push('\n');
        out.text.push_str(&g.record.to_line());
        out.text.push('\n');
    }
    out.stats.seconds = t0.elapsed().as_secs_f64();
    Ok(out)
}

/// Plays game `index` of `generation`; `engines[side]` searches for that side.
fn play_game<G: Game, E: crate::eval::Evaluator<G> + Clone>(
    engines: &mut [Engine<G, E>; 2],
    book: &[GameHistory<G>],
    args: &ResultsArgs,
    generation: u32,
    index: u64,
) -> Result<PlayedGame<G>, String> {
    // Games of every generation draw from disjoint seeds: generation k's are k·G..k·G+G−1.
    let global = generation as u64 * args.games + index;
    let mut hist = opening(book, args.seed, args.random_plies, global);
    let mut record = Record::new(hist.current().clone());
    for e in engines.iter_mut() {
        e.clear_hash();
    }
    // Each side's extra nodes for this game (`--nodes-spread`), from a stream of the game's seed
    // apart from the opening's.
    let spread = if args.nodes_spread > 0 {
        let mut r = SplitMix64::new(game_seed(args.seed, global) ^ 0x6e6f_6465_7370_7264);
        [
            r.below(args.nodes_spread as usize + 1) as u64,
            r.below(args.nodes_spread as usize + 1) as u64,
        ]
    } else {
        [0, 0]
    };
    let rules = RuleOptions::default();
    let mut nodes = 0;
    let mut scores = Vec::new();
    let mut low = [0u32; 2];
    let end = loop {
        if let Some(o) = hist.outcome(&rules) {
            break End::Rules(o);
        }
        if record.moves.len() as u64 >= args.max_plies as u64 {
            break End::MaxPlies;
        }
        let side = hist.current().side_to_move();
        // Alternated, so that no colour always has the extra nodes (a confound in the results).
        let more = if index.is_multiple_of(2) {
            Side::Second
        } else {
            Side::First
        };
        let limits = Limits {
            nodes: Some(args.nodes + spread[side.index()] + if side == more { 100 } else { 0 }),
            ..Default::default()
        };
        let r = engines[side.index()].search_sync(&hist, &limits, Box::new(|_| {}));
        nodes += r.nodes;
        if r.score <= -args.resign_score {
            low[side.index()] += 1;
            if low[side.index()] >= args.resign_moves {
                break End::Resigned(side);
            }
        } else {
            low[side.index()] = 0;
        }
        let Some(mv) = r.best else {
            return Err(format!(
                "generation {generation} game {index}: the search found no move in an unfinished game at {}",
                hist.current().to_text()
            ));
        };
        hist.push(mv);
        record.moves.push(mv);
        scores.push(r.score);
    };
    record.result = Some(end.result());
    Ok(PlayedGame {
        record,
        scores,
        end,
        nodes,
    })
}
