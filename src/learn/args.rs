//! The arguments of `learn` (`kishi learn …` on the command line and `learn …` at the engine
//! console): one clap parser for both, so both accept the same words, print the same help and
//! report the same errors. Defaults that depend on the game (`--a`, `--l1`, `--piece-sum`,
//! `--window`) are applied after parsing, once the game is known.

use super::config::{LearnConfig, Method, Step};
use super::dataset::DataOptions;
use clap::{CommandFactory, FromArgMatches, Parser, ValueEnum};
use std::path::PathBuf;

/// Everything `learn` accepts.
#[derive(Debug, Clone)]
pub struct LearnArgs {
    pub method: Method,
    pub game: String,
    pub data: DataOptions,
    pub out: PathBuf,
    pub init: Option<PathBuf>,
    pub material_init: Option<i32>,
    pub keep_defaults: Option<Vec<String>>,
    pub tables: Vec<String>,
    pub iterations: usize,
    pub reuse: usize,
    pub depth: i32,
    pub window: i32,
    pub threads: usize,
    pub a: f64,
    pub l1: f64,
    pub step: Step,
    pub piece_sum: Option<i64>,
    pub seed: u64,
    pub resume: bool,
    pub quiet: bool,
    /// Stop after this many iterations without a better test agreement (0 = never).
    pub patience: usize,
    /// Bytes the learner may hold; leaves beyond go to a scratch file (`None`: all in memory).
    pub max_memory: Option<u64>,
    /// LZ4-compress the leaf store (`--leaf-codec lz4`); the learned weights do not depend on it.
    pub compress_leaves: bool,
    pub ct_rate: f64,
    pub ct_scale: f64,
    pub ct_c: f64,
    /// The parameterised objective's parameter file (`objective::params`); `None`: plain MMTO.
    pub objective_params: Option<PathBuf>,
}

/// The learning method (the first word after `learn`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum MethodArg {
    /// Minimax Tree Optimization (Hoki & Kaneko 2014)
    Mmto,
    /// comparison training, the paper's baseline
    Ct,
}

// What clap reads; `LearnArgs::from_cli` checks it and fills in the game's defaults. (A `//`
// comment: a doc comment here would become clap's long description.)
#[derive(Debug, Parser)]
#[command(
    name = "learn",
    about = "Learn evaluation weights from game records (kishi learn …, or learn … at the console)",
    override_usage = "learn <mmto|ct> --game <shogi|chess> --out DIR [options]",
    after_help = AFTER_HELP,
    args_override_self = true,
    allow_negative_numbers = true,
    disable_version_flag = true
)]
struct LearnCli {
    /// the learning method
    #[arg(value_enum, hide_possible_values = true, value_name = "mmto|ct")]
    method: MethodArg,

    /// the game (the console's game when absent there)
    #[arg(long, value_name = "shogi|chess", help_heading = "Data")]
    game: Option<String>,
    /// training records
    #[arg(long, value_name = "FILE|DIR[,...]", help_heading = "Data")]
    data: Option<String>,
    /// records split by game into train and test (--test-fraction)
    #[arg(long, value_name = "FILE|DIR[,...]", help_heading = "Data")]
    split: Option<String>,
    /// test-only records
    #[arg(long, value_name = "FILE|DIR[,...]", help_heading = "Data")]
    test: Option<String>,
    /// share of the --split games that go to the test set
    #[arg(long, value_name = "F", default_value_t = 0.1, help_heading = "Data")]
    test_fraction: f64,
    /// seed of the split, the sampling and random steps
    #[arg(long, value_name = "N", default_value_t = 1, help_heading = "Data")]
    seed: u64,
    /// skip games shorter than N plies
    #[arg(long, value_name = "N", default_value_t = 0, help_heading = "Data")]
    min_plies: usize,
    /// skip the first N positions of every game
    #[arg(long, value_name = "N", default_value_t = 0, help_heading = "Data")]
    skip_plies: usize,
    /// keep at most N training positions (0 = all)
    #[arg(long, value_name = "N", default_value_t = 0, help_heading = "Data")]
    max_positions: usize,
    /// keep at most N test positions (0 = all)
    #[arg(long, value_name = "N", default_value_t = 0, help_heading = "Data")]
    max_test: usize,

    /// tables to learn: letters, names (material,kp,kkp,kpp / material,kp,positional,positional_ext)
    /// or `all`
    #[arg(
        long,
        value_name = "A[,B,C,D]",
        default_value = "A",
        help_heading = "Model"
    )]
    tables: String,
    /// start from a weight file of the feature set (expanded shogi tables are folded back into
    /// the learner's parameters) or a learner params.bin
    #[arg(long, value_name = "FILE", help_heading = "Model")]
    init: Option<PathBuf>,
    /// every piece value starts at V (e.g. 500 for the paper's §4.2)
    #[arg(long, value_name = "V", help_heading = "Model")]
    material_init: Option<i32>,
    /// only these tables start from their initial values, the others at 0
    #[arg(long, value_name = "A[,..]", help_heading = "Model")]
    keep_defaults: Option<String>,

    /// iterations (step 1 each)
    #[arg(long, value_name = "N", default_value_t = 40, help_heading = "Method")]
    iterations: usize,
    /// steps 2-3 per iteration on the same leaves
    #[arg(long, value_name = "N", default_value_t = 32, help_heading = "Method")]
    reuse: usize,
    /// nominal search depth, 1..8 (1 = quiescence)
    #[arg(long, value_name = "D", default_value_t = 1, help_heading = "Method")]
    depth: i32,
    /// search window around the record move's value [default: 7/a, 256 for shogi]
    #[arg(long, value_name = "W", help_heading = "Method")]
    window: Option<i32>,
    /// slope of T(x) = 1/(1+e^(ax)) [default: shogi 0.0273, chess 0.00341]
    #[arg(long, value_name = "A", help_heading = "Method")]
    a: Option<f64>,
    /// L1 per weight unit [default: shogi 0.00625, chess 0.156/32]
    #[arg(long, value_name = "L", help_heading = "Method")]
    l1: Option<f64>,
    /// grid step: 1..16 or random
    #[arg(
        long,
        value_name = "1|2|random",
        default_value = "1",
        help_heading = "Method"
    )]
    step: String,
    /// sum the piece values keep, or none [default: shogi 6500, chess none]
    #[arg(long, value_name = "S|none", help_heading = "Method")]
    piece_sum: Option<String>,
    /// comparison training's rate, per evaluation unit²
    // 0.5 per centipawn² at chess's old whole-centipawn scale of 24: 0.5 / 24².
    #[arg(
        long,
        value_name = "R",
        default_value_t = 0.00087,
        help_heading = "Method"
    )]
    ct_rate: f64,
    /// comparison training's sigmoid scale
    #[arg(
        long,
        value_name = "K",
        default_value_t = 0.0025,
        help_heading = "Method"
    )]
    ct_scale: f64,
    /// comparison training's weight of negative differences
    #[arg(long, value_name = "C", default_value_t = 2.0, help_heading = "Method")]
    ct_c: f64,
    /// mmto: the parameterised objective's file (category weights, c1..c4, the win-probability
    /// slope; docs/learning/objective.md), checked before any data loads
    #[arg(long, value_name = "FILE", help_heading = "Method")]
    objective_params: Option<PathBuf>,

    /// output directory
    #[arg(long, value_name = "DIR", help_heading = "Run")]
    out: Option<PathBuf>,
    /// worker threads of step 1 and the objective
    #[arg(long, value_name = "N", default_value_t = 1, help_heading = "Run")]
    threads: usize,
    /// continue from DIR/checkpoint.bin
    #[arg(long, help_heading = "Run")]
    resume: bool,
    /// no progress bar
    #[arg(long, help_heading = "Run")]
    quiet: bool,
    /// stop once the test agreement has not improved for N iterations (0 = off); with a test
    /// set, best.kwt always holds the weights that measured best
    #[arg(long, value_name = "N", default_value_t = 0, help_heading = "Run")]
    patience: usize,
    /// memory bound (K/M/G suffixes): step 1's leaves beyond it go to DIR/leaves.scratch
    #[arg(long, value_name = "BYTES", help_heading = "Run")]
    max_memory: Option<String>,
    /// how step 1's leaves are kept: lz4 (compressed about 4x, decoded at each reuse pass) or
    /// plain; the learned weights are the same either way
    #[arg(long, value_enum, value_name = "lz4|plain", default_value_t = LeafCodec::Lz4, help_heading = "Run")]
    leaf_codec: LeafCodec,
}

/// `--leaf-codec`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum LeafCodec {
    Lz4,
    Plain,
}

const AFTER_HELP: &str = "\
Data files: formats by file name, each also .xz-compressed: line format .txt (both games); shogi
CSA .csa, KIF .kif .kifu; chess PGN .pgn, EPD .epd (an entry is one position whose move is its sm,
else its bm if that names one move; other entries are skipped as malformed). A DIR is searched
recursively; files in it of other kinds are ignored (and counted). Malformed records are skipped
and reported with file and line.

Weights and --l1 are per weight unit: 1/32 of Bonanza's unit in shogi, 1/32 centipawn in chess.

Other learners, each with its own --help: learn texel (regression on positions labelled with a
teacher's score or the game result), learn treestrap|rootstrap|tdleaf (self-play, no records),
learn results (generations of self-play games, each fitted to their results by learn texel).";

/// Why the words after `learn` were not accepted.
#[derive(Debug)]
pub enum ArgsError {
    /// `--help` (or `help`): not an error, the caller prints `help_text()`.
    Help,
    /// clap's own report (unknown option, bad number, missing value…), with usage.
    Clap(clap::Error),
    /// A check after parsing (a value out of range, a required option missing).
    Invalid(String),
}

impl ArgsError {
    /// The whole report, for the command line.
    pub fn full_text(&self) -> String {
        match self {
            ArgsError::Help => help_text(),
            ArgsError::Clap(e) => e.render().to_string(),
            ArgsError::Invalid(s) => format!("error: {s}"),
        }
    }

    /// The first line without its `error: ` prefix, for the console's one `info string error:`.
    pub fn one_line(&self) -> String {
        let full = self.full_text();
        let first = full.lines().next().unwrap_or("").trim();
        first.strip_prefix("error: ").unwrap_or(first).to_string()
    }
}

impl std::fmt::Display for ArgsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.one_line())
    }
}

/// The help of `learn` (the same text for `kishi learn --help`, `-h`, `help` and the console's
/// `learn help`).
pub fn help_text() -> String {
    LearnCli::command().render_help().to_string()
}

fn list(v: &str) -> Vec<PathBuf> {
    v.split(',')
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
        .collect()
}

impl LearnArgs {
    /// Parses the words after `learn` (`args[0]` is the method). `default_game` is used when
    /// `--game` is absent (the console knows its game). Errors are one line.
    pub fn parse(args: &[String], default_game: Option<&str>) -> Result<LearnArgs, String> {
        Self::try_parse(args, default_game).map_err(|e| e.one_line())
    }

    /// As `parse`, keeping clap's report whole (for the command line) and `--help` apart.
    pub fn try_parse(args: &[String], default_game: Option<&str>) -> Result<LearnArgs, ArgsError> {
        if matches!(args.first().map(String::as_str), None | Some("help")) {
            return Err(ArgsError::Help);
        }
        let words = std::iter::once("learn").chain(args.iter().map(String::as_str));
        let matches = LearnCli::command()
            .try_get_matches_from(words)
            .map_err(|e| match e.kind() {
                clap::error::ErrorKind::DisplayHelp => ArgsError::Help,
                _ => ArgsError::Clap(e),
            })?;
        let cli = LearnCli::from_arg_matches(&matches).map_err(ArgsError::Clap)?;
        Self::from_cli(cli, default_game).map_err(ArgsError::Invalid)
    }

    /// The checks and game-dependent defaults clap cannot express.
    fn from_cli(c: LearnCli, default_game: Option<&str>) -> Result<LearnArgs, String> {
        let method = match c.method {
            MethodArg::Mmto => Method::Mmto,
            MethodArg::Ct => Method::Ct,
        };
        let (game, shogi) = parse_game(c.game.as_deref(), default_game)?;
        let out = c.out.ok_or("--out DIR is required")?;
        let step = match c.step.as_str() {
            "random" => Step::Random,
            s => match s.parse::<i32>() {
                Ok(h) if (1..=16).contains(&h) => Step::Fixed(h),
                _ => return Err(format!("--step: expected 1..16 or random, got '{s}'")),
            },
        };
        let piece_sum = match c.piece_sum.as_deref() {
            Some("none") => None,
            Some(s) => Some(
                s.parse()
                    .map_err(|_| format!("--piece-sum: bad value '{s}'"))?,
            ),
            None if shogi => Some(6500),
            None => None,
        };
        if !(0.0..1.0).contains(&c.test_fraction) {
            return Err("--test-fraction must be in [0, 1)".into());
        }
        if !(1..=8).contains(&c.depth) {
            return Err("--depth must be 1..8".into());
        }
        let data = DataOptions {
            train_files: c.data.as_deref().map(list).unwrap_or_default(),
            split_files: c.split.as_deref().map(list).unwrap_or_default(),
            test_files: c.test.as_deref().map(list).unwrap_or_default(),
            test_fraction: c.test_fraction,
            seed: c.seed,
            min_plies: c.min_plies,
            skip_plies: c.skip_plies,
            max_train: c.max_positions,
            max_test: c.max_test,
        };
        if data.train_files.is_empty() && data.split_files.is_empty() {
            return Err("no training data: give --data or --split".into());
        }
        let max_memory = match c.max_memory.as_deref() {
            Some(m) => Some(
                crate::learn::leaves::parse_bytes(m).map_err(|e| format!("--max-memory: {e}"))?,
            ),
            None => None,
        };
        if c.l1.is_some_and(|l| !(l >= 0.0 && l.is_finite())) {
            return Err("--l1 must be a number >= 0".into());
        }
        let a = c.a.unwrap_or(if shogi { 0.0273 } else { 0.00341 });
        if !(a > 0.0 && a.is_finite()) {
            return Err("--a must be a positive number".into());
        }
        Ok(LearnArgs {
            method,
            game,
            data,
            out,
            init: c.init,
            material_init: c.material_init,
            keep_defaults: c
                .keep_defaults
                .map(|v| v.split(',').map(|s| s.trim().to_string()).collect()),
            tables: c.tables.split(',').map(|s| s.trim().to_string()).collect(),
            iterations: c.iterations,
            reuse: c.reuse,
            depth: c.depth,
            window: c.window.unwrap_or_else(|| window_for(a)),
            threads: c.threads.clamp(1, 256),
            a,
            // The paper's chess λ1 (0.156) is per centipawn of Crafty's weights; kishi's chess
            // weights are in 1/32 cp, so the same regularisation is 0.156/32 per weight unit.
            l1: c.l1.unwrap_or(if shogi { 0.00625 } else { 0.156 / 32.0 }),
            step,
            piece_sum,
            seed: c.seed,
            resume: c.resume,
            quiet: c.quiet,
            patience: c.patience,
            max_memory,
            compress_leaves: c.leaf_codec == LeafCodec::Lz4,
            ct_rate: c.ct_rate,
            ct_scale: c.ct_scale,
            ct_c: c.ct_c,
            objective_params: c.objective_params,
        })
    }

    pub fn config(&self) -> LearnConfig {
        LearnConfig {
            method: self.method,
            a: self.a,
            l1: self.l1,
            step: self.step,
            piece_sum: self.piece_sum,
            depth: self.depth,
            window: self.window,
            reuse: self.reuse,
            threads: self.threads,
            seed: self.seed,
            ct_rate: self.ct_rate,
            ct_scale: self.ct_scale,
            ct_c: self.ct_c,
        }
    }

    /// The settings a resumed run must share with the run that wrote the checkpoint. Paths are
    /// canonical, so a resume may name the same files by another (relative) path. `--iterations`,
    /// `--threads`, `--patience`, `--max-memory` and `--quiet` may change.
    pub fn fingerprint(&self) -> String {
        // The parameterised objective's file by content (absent: the fingerprint of plain MMTO).
        let objective = match &self.objective_params {
            Some(p) => format!(
                " objective={:?}",
                std::fs::read(p).map(|b| String::from_utf8_lossy(&b).into_owned())
            ),
            None => String::new(),
        };
        let canon = |v: &[PathBuf]| -> Vec<PathBuf> {
            v.iter()
                .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone()))
                .collect()
        };
        format!(
            "{:?} {} tables={} init={:?}/{:?}/{:?} a={} l1={} step={:?} sum={:?} depth={} window={} reuse={} seed={} data={:?}/{:?}/{:?} frac={} skip={} min={} max={}/{}",
            self.method,
            self.game,
            self.tables.join(","),
            self.init
                .as_ref()
                .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone())),
            self.material_init,
            self.keep_defaults,
            self.a,
            self.l1,
            self.step,
            self.piece_sum,
            self.depth,
            self.window,
            self.reuse,
            self.seed,
            canon(&self.data.train_files),
            canon(&self.data.split_files),
            canon(&self.data.test_files),
            self.data.test_fraction,
            self.data.skip_plies,
            self.data.min_plies,
            self.data.max_train,
            self.data.max_test
        ) + &objective
    }
}

/// The default search window: 7/a, where T(x) is flat (T' < 0.1% of its peak). For shogi's
/// a = 0.0273 this is Bonanza's 256; chess's a = 0.00341 needs about 2,050 (with 256, moves just
/// 256 cp worse still had T ≈ 0.3 and were dropped from the gradient).
fn window_for(a: f64) -> i32 {
    (7.0 / a).round().clamp(1.0, 30_000.0) as i32
}

/// Runs a learn method's own clap parser over `words` (its program name first): `Err(None)` when
/// help was asked for, `Err(Some(report))` with clap's whole report otherwise. Shared by the
/// methods with parsers of their own (`texel`, `treestrap|rootstrap|tdleaf`, `results`).
pub(crate) fn parse_method_words<'a, C: Parser>(
    words: impl IntoIterator<Item = &'a str>,
) -> Result<C, Option<String>> {
    let m = match C::command().try_get_matches_from(words) {
        Ok(m) => m,
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelp => return Err(None),
        Err(e) => return Err(Some(e.render().to_string())),
    };
    C::from_arg_matches(&m).map_err(|e| Some(e.render().to_string()))
}

/// `--game` (or the console's game): its name and whether it is shogi. Shared by every `learn`
/// method's argument check.
pub(crate) fn parse_game(
    given: Option<&str>,
    default_game: Option<&str>,
) -> Result<(String, bool), String> {
    let game = given
        .or(default_game)
        .ok_or("--game shogi|chess is required")?
        .to_string();
    let shogi = match game.as_str() {
        "shogi" => true,
        "chess" => false,
        other => return Err(format!("--game: unknown game '{other}' (shogi or chess)")),
    };
    Ok((game, shogi))
}
