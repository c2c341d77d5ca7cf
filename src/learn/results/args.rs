//! The arguments of `learn results`: its own parser, because the method has no records to read
//! (the records learners' `LearnArgs` requires `--data`) and it owns both the games' settings
//! (play search at fixed nodes, adjudication) and the fit's (passed through to `learn texel`).

use clap::{CommandFactory, Parser};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "learn results",
    about = "Learn evaluation weights from the results of self-play games alone: generations of \
             games at fixed nodes with the current weights, each followed by a `learn texel` fit \
             of the weights to the games' results",
    override_usage = "learn results --game <shogi|chess> --out DIR [options]",
    args_override_self = true,
    allow_negative_numbers = true,
    disable_version_flag = true
)]
struct Cli {
    /// the game (the console's game when absent there)
    #[arg(long, value_name = "shogi|chess")]
    game: Option<String>,
    /// output directory: gen-KKK/games.txt and gen-KKK/fit/ per generation, weights.kwt (the
    /// current weights), metrics.jsonl, state.json
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// generations to run (a resumed run may raise it: it is not part of the settings a resume
    /// checks)
    #[arg(long, value_name = "N", default_value_t = 10)]
    generations: u32,
    /// self-play games per generation
    #[arg(long, value_name = "N", default_value_t = 100)]
    games: u64,
    /// nodes of a search per move (one side searches N+100, so that the two sides' searches
    /// differ, as in the match script: the second player in even-numbered games, the first in
    /// odd ones)
    #[arg(long, value_name = "N", default_value_t = 1000)]
    nodes: u64,
    /// each side of a game searches up to this many nodes more, drawn per game and side from the
    /// game's seed: without it (or random plies) a game is decided by its opening and which side
    /// has the 100 extra nodes, so a generation has at most twice as many distinct games as the
    /// book has openings
    #[arg(long, value_name = "N", default_value_t = 0)]
    nodes_spread: u64,
    /// a side whose search score is at most −S on --resign-moves consecutive own moves resigns
    #[arg(long, value_name = "S", default_value_t = 1000)]
    resign_score: i32,
    /// consecutive own moves at or below −--resign-score before a side resigns
    #[arg(long, value_name = "N", default_value_t = 3)]
    resign_moves: u32,
    /// a game is a draw after this many plies played after its opening
    #[arg(long, value_name = "N", default_value_t = 320)]
    max_plies: u32,
    /// opening file (EPD with c0 "moves …" / `startpos moves …` / one position a line)
    /// [default: book/chess_openings.epd, book/shogi_openings.sfen]
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// random legal plies after the opening (more diverse games, but each may be a blunder that
    /// decides the result the fit learns from)
    #[arg(long, value_name = "N", default_value_t = 0)]
    random_plies: u32,
    /// seed of the openings drawn (each game's own stream: generation, game index, seed) and of
    /// the fit's order of positions
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// starting weights W_0: a weight file or params.bin [default: the feature set's hand-set
    /// tables]
    #[arg(long, value_name = "FILE")]
    init: Option<PathBuf>,
    /// tables the fit learns (letters, names or `all`)
    #[arg(long, value_name = "A[,B,..]", default_value = "material")]
    tables: String,
    /// the fit uses the games of the last P generations (0 = every generation so far)
    #[arg(long, value_name = "P", default_value_t = 0)]
    pool: u32,
    /// the fit's iterations (`learn texel --iterations`)
    #[arg(long, value_name = "N", default_value_t = 8)]
    iterations: u32,
    /// the fit's passes over its positions per iteration (`learn texel --epochs`)
    #[arg(long, value_name = "N", default_value_t = 4)]
    epochs: u32,
    /// the fit's positions per Adam step (`learn texel --batch`)
    #[arg(long, value_name = "N", default_value_t = 16384)]
    batch: usize,
    /// the fit's Adam step size in weight units (`learn texel --lr`)
    #[arg(long, value_name = "X", default_value_t = 2.0)]
    lr: f64,
    /// the fit's L2 pull towards the generation's starting weights (`learn texel --l2`)
    #[arg(long, value_name = "X", default_value_t = 0.0)]
    l2: f64,
    /// weight of the play search's own score of each position in the fit's target, the rest
    /// being the game's result: y = λ·g(score) + (1 − λ)·result (`learn texel --lambda`; 0: the
    /// result alone)
    #[arg(long, value_name = "L", default_value_t = 0.0)]
    lambda: f64,
    /// transposition table of each side's search, MB (cleared at the start of every game)
    #[arg(long, value_name = "MB", default_value_t = 4)]
    hash: usize,
    /// worker threads: games in parallel (one search thread each), and the fit's threads
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// continue the run in DIR: finished generations are kept, an unfinished one reuses its
    /// games file and resumes its fit
    #[arg(long)]
    resume: bool,
    /// no progress bar
    #[arg(long)]
    quiet: bool,
}

/// The checked settings of a `learn results` run.
#[derive(Debug, Clone)]
pub struct ResultsArgs {
    pub game: String,
    pub shogi: bool,
    pub out: PathBuf,
    pub generations: u32,
    pub games: u64,
    pub nodes: u64,
    pub nodes_spread: u64,
    pub resign_score: i32,
    pub resign_moves: u32,
    pub max_plies: u32,
    pub openings: PathBuf,
    pub random_plies: u32,
    pub seed: u64,
    pub init: Option<PathBuf>,
    pub tables: Vec<String>,
    pub pool: u32,
    pub iterations: u32,
    pub epochs: u32,
    pub batch: usize,
    pub lr: f64,
    pub l2: f64,
    pub lambda: f64,
    pub hash_mb: usize,
    pub threads: usize,
    pub resume: bool,
    pub quiet: bool,
}

/// Whether the words after `learn` name this method.
pub fn is_results(word: &str) -> bool {
    word == "results"
}

/// The help text (`learn results --help`).
pub fn help_text() -> String {
    Cli::command().render_help().to_string()
}

impl ResultsArgs {
    /// Parses the words after `learn` (`args[0]` is `results`). `Err(None)`: help was asked for;
    /// `Err(Some(text))`: the error report.
    pub fn try_parse(args: &[String], default_game: Option<&str>) -> Result<Self, Option<String>> {
        let words = std::iter::once("learn results").chain(args.iter().skip(1).map(String::as_str));
        let c: Cli = crate::learn::args::parse_method_words(words)?;
        Self::check(c, default_game).map_err(|e| Some(format!("error: {e}")))
    }

    fn check(c: Cli, default_game: Option<&str>) -> Result<Self, String> {
        let (game, shogi) = crate::learn::args::parse_game(c.game.as_deref(), default_game)?;
        let out = c.out.ok_or("--out DIR is required")?;
        if c.generations == 0 || c.generations > 999 {
            // Three digits in gen-KKK: the directories sort in generation order.
            return Err("--generations must be 1..999".into());
        }
        if c.games == 0 || c.games > 1 << 32 {
            return Err("--games must be at least 1".into());
        }
        if c.nodes == 0 || c.nodes > 1 << 40 {
            return Err("--nodes must be at least 1".into());
        }
        if c.nodes_spread > 1 << 40 {
            return Err("--nodes-spread is too large".into());
        }
        if !(0.0..=1.0).contains(&c.lambda) {
            return Err("--lambda must be in 0..1".into());
        }
        if !(1..=30_000).contains(&c.resign_score) {
            return Err("--resign-score must be 1..30000".into());
        }
        if c.resign_moves == 0 {
            return Err("--resign-moves must be at least 1".into());
        }
        if c.max_plies == 0 {
            return Err("--max-plies must be at least 1".into());
        }
        crate::learn::texel::args::check_fit(c.iterations, c.epochs, c.batch, c.lr, c.l2)?;
        if !(1..=65_536).contains(&c.hash) {
            return Err("--hash must be 1..65536 MB".into());
        }
        let tables: Vec<String> = c
            .tables
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        if tables.is_empty() {
            return Err("--tables names no table".into());
        }
        let openings = c.openings.unwrap_or_else(|| {
            PathBuf::from(if shogi {
                "book/shogi_openings.sfen"
            } else {
                "book/chess_openings.epd"
            })
        });
        Ok(ResultsArgs {
            game,
            shogi,
            out,
            generations: c.generations,
            games: c.games,
            nodes: c.nodes,
            nodes_spread: c.nodes_spread,
            resign_score: c.resign_score,
            resign_moves: c.resign_moves,
            max_plies: c.max_plies,
            openings,
            random_plies: c.random_plies,
            seed: c.seed,
            init: c.init,
            tables,
            pool: c.pool,
            iterations: c.iterations,
            epochs: c.epochs,
            batch: c.batch,
            lr: c.lr,
            l2: c.l2,
            lambda: c.lambda,
            hash_mb: c.hash,
            threads: c.threads.clamp(1, 256),
            resume: c.resume,
            quiet: c.quiet,
        })
    }

    /// The settings a resume must share with the run it continues. Left out: `--generations`
    /// (a finished run may be extended), `--threads` (the result does not depend on it),
    /// `--quiet`, and the paths of `--openings` and `--init`, whose contents `run` fingerprints
    /// instead.
    pub fn fingerprint(&self) -> String {
        format!(
            "results {} games={} nodes={} resign_score={} resign_moves={} max_plies={} random_plies={} seed={} tables={} pool={} iterations={} epochs={} batch={} lr={:e} l2={:e} hash={}",
            self.game,
            self.games,
            self.nodes,
            self.resign_score,
            self.resign_moves,
            self.max_plies,
            self.random_plies,
            self.seed,
            self.tables.join(","),
            self.pool,
            self.iterations,
            self.epochs,
            self.batch,
            self.lr,
            self.l2,
            self.hash_mb
        ) + &self.newer_settings()
    }

    /// The settings added after runs were made without them, in the fingerprint only when they
    /// differ from their defaults, so that those runs can still be resumed.
    fn newer_settings(&self) -> String {
        let mut s = String::new();
        if self.nodes_spread != 0 {
            s += &format!(" nodes_spread={}", self.nodes_spread);
        }
        if self.lambda != 0.0 {
            s += &format!(" lambda={:e}", self.lambda);
        }
        s
    }
}
