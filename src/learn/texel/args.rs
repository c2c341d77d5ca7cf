//! The arguments of `learn texel`: its own parser, because the method has settings the records
//! learners do not (the optimiser's rate, epochs and batch, the target's mix) and none of their
//! search settings (step 1 here is one quiescence search per position).

use clap::{CommandFactory, Parser};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "learn texel",
    about = "Learn evaluation weights by regression on labelled positions: a teacher's score \
             (EPD `ce`) and/or the game result, through the quiescence leaf of each position",
    override_usage = "learn texel --game <shogi|chess> --data FILE[,FILE..] --out DIR [options]",
    args_override_self = true,
    allow_negative_numbers = true,
    disable_version_flag = true
)]
struct Cli {
    /// the game (the console's game when absent there)
    #[arg(long, value_name = "shogi|chess")]
    game: Option<String>,
    /// training data: record files or directories (EPD with `ce` teacher scores and `c9`
    /// results, or game records, whose results are the targets); comma-separated or repeated
    #[arg(
        long,
        value_name = "FILE[,FILE..]",
        value_delimiter = ',',
        required = true
    )]
    data: Vec<PathBuf>,
    /// test data (held out): record files or directories
    #[arg(long, value_name = "FILE[,FILE..]", value_delimiter = ',')]
    test: Vec<PathBuf>,
    /// output directory
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// starting weights: a weight file or params.bin [default: the feature set's hand-set tables]
    #[arg(long, value_name = "FILE")]
    init: Option<PathBuf>,
    /// tables to learn (letters, names or `all`) [default: chess all, shogi material,kp]
    #[arg(long, value_name = "A[,B,..]")]
    tables: Option<String>,
    /// iterations: each recomputes the quiescence leaves with the current weights, then runs
    /// --epochs passes over the training set
    #[arg(long, value_name = "N", default_value_t = 8)]
    iterations: u32,
    /// passes over the training set per iteration
    #[arg(long, value_name = "N", default_value_t = 4)]
    epochs: u32,
    /// positions per Adam step
    #[arg(long, value_name = "N", default_value_t = 16384)]
    batch: usize,
    /// Adam's step size, in weight units (chess 1/32 cp, shogi 1/32 of Bonanza's unit)
    #[arg(long, value_name = "X", default_value_t = 1.0)]
    lr: f64,
    /// weight of the teacher's score in the target (the rest is the game result): y = λ·g(ce) +
    /// (1 − λ)·result; a position with only one of them uses that one
    #[arg(long, value_name = "L", default_value_t = 1.0)]
    lambda: f64,
    /// slope k of g(v) = 1/(1 + exp(−k·v)), per evaluation unit [default: chess ln10/400, shogi 1/600]
    #[arg(long, value_name = "K")]
    slope: Option<f64>,
    /// the teacher's scores are multiplied by this before the logistic: the ratio of this
    /// evaluation's units to the teacher's (Stockfish 15.1 reports a pawn as about 60 "cp" in
    /// endgames, kishi-chess as 120)
    #[arg(long, value_name = "S", default_value_t = 1.0)]
    teacher_scale: f64,
    /// L2 pull of every learned weight towards its starting value, per weight unit² (0: none)
    #[arg(long, value_name = "X", default_value_t = 0.0)]
    l2: f64,
    /// keep only quiet positions: not in check, and the record's move (a teacher's best move)
    /// neither captures, promotes nor checks; a teacher's score of a position with a tactic
    /// under way says little about its static features
    #[arg(long)]
    quiet_only: bool,
    /// keep at most this many training positions (a seeded sample), 0 = all
    #[arg(long, value_name = "N", default_value_t = 0)]
    max_positions: usize,
    /// keep at most this many test positions, 0 = all
    #[arg(long, value_name = "N", default_value_t = 0)]
    max_test: usize,
    /// skip the first N plies of every game (positions of known move number)
    #[arg(long, value_name = "N", default_value_t = 0)]
    skip_plies: usize,
    /// seed of the sampling and of the order of the positions in each epoch
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// threads for the quiescence leaves
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// continue from DIR/checkpoint.bin
    #[arg(long)]
    resume: bool,
    /// no progress bar
    #[arg(long)]
    quiet: bool,
}

/// The checked settings of a `learn texel` run.
#[derive(Debug, Clone)]
pub struct TexelArgs {
    pub game: String,
    pub data: Vec<PathBuf>,
    pub test: Vec<PathBuf>,
    pub out: PathBuf,
    pub init: Option<PathBuf>,
    pub tables: Vec<String>,
    pub iterations: u32,
    pub epochs: u32,
    pub batch: usize,
    pub lr: f64,
    pub lambda: f64,
    pub slope: f64,
    pub teacher_scale: f64,
    pub l2: f64,
    pub quiet_only: bool,
    pub max_positions: usize,
    pub max_test: usize,
    pub skip_plies: usize,
    pub seed: u64,
    pub threads: usize,
    pub resume: bool,
    pub quiet: bool,
}

/// Whether the words after `learn` name this method.
pub fn is_texel(word: &str) -> bool {
    word == "texel"
}

/// The help text (`learn texel --help`).
pub fn help_text() -> String {
    Cli::command().render_help().to_string()
}

impl TexelArgs {
    /// Parses the words after `learn` (`args[0]` is `texel`). `Err(None)`: help was asked for;
    /// `Err(Some(text))`: the error report.
    pub fn try_parse(args: &[String], default_game: Option<&str>) -> Result<Self, Option<String>> {
        let words = std::iter::once("learn texel").chain(args.iter().skip(1).map(String::as_str));
        let c: Cli = crate::learn::args::parse_method_words(words)?;
        Self::check(c, default_game).map_err(|e| Some(format!("error: {e}")))
    }

    fn check(c: Cli, default_game: Option<&str>) -> Result<Self, String> {
        let (game, shogi) = crate::learn::args::parse_game(c.game.as_deref(), default_game)?;
        let out = c.out.ok_or("--out DIR is required")?;
        check_fit(c.iterations, c.epochs, c.batch, c.lr, c.l2)?;
        if !(0.0..=1.0).contains(&c.lambda) {
            return Err("--lambda must be in [0, 1]".into());
        }
        let slope = c
            .slope
            .unwrap_or_else(|| crate::learn::objective::params::default_j2_slope(shogi));
        if !(slope > 0.0 && slope.is_finite()) {
            return Err("--slope must be a positive number".into());
        }
        if !(c.teacher_scale > 0.0 && c.teacher_scale.is_finite()) {
            return Err("--teacher-scale must be a positive number".into());
        }
        let tables = c
            .tables
            .unwrap_or_else(|| if shogi { "A,B" } else { "all" }.to_string());
        Ok(TexelArgs {
            game,
            data: c.data,
            test: c.test,
            out,
            init: c.init,
            tables: tables.split(',').map(|s| s.trim().to_string()).collect(),
            iterations: c.iterations,
            epochs: c.epochs,
            batch: c.batch,
            lr: c.lr,
            lambda: c.lambda,
            slope,
            teacher_scale: c.teacher_scale,
            l2: c.l2,
            quiet_only: c.quiet_only,
            max_positions: c.max_positions,
            max_test: c.max_test,
            skip_plies: c.skip_plies,
            seed: c.seed,
            threads: c.threads.clamp(1, 256),
            resume: c.resume,
            quiet: c.quiet,
        })
    }

    /// The settings a resume must share with the run that wrote the checkpoint (`--iterations`,
    /// `--threads`, `--quiet` may change; the data files are fingerprinted by content in `run`).
    pub fn fingerprint(&self) -> String {
        format!(
            "texel {} tables={} epochs={} batch={} lr={:e} lambda={} slope={:e} teacher_scale={:e} l2={:e} quiet_only={} max_positions={} max_test={} skip_plies={} seed={} init={}",
            self.game,
            self.tables.join(","),
            self.epochs,
            self.batch,
            self.lr,
            self.lambda,
            self.slope,
            self.teacher_scale,
            self.l2,
            self.quiet_only,
            self.max_positions,
            self.max_test,
            self.skip_plies,
            self.seed,
            self.init
                .as_ref()
                .map_or("default".to_string(), |p| p.display().to_string())
        )
    }
}

/// The checks of the fit's settings, shared with `learn results` (whose fits are texel's).
pub(crate) fn check_fit(
    iterations: u32,
    epochs: u32,
    batch: usize,
    lr: f64,
    l2: f64,
) -> Result<(), String> {
    if iterations == 0 || epochs == 0 {
        return Err("--iterations and --epochs must be at least 1".into());
    }
    if batch == 0 || batch > 1 << 24 {
        return Err("--batch must be 1..16777216".into());
    }
    if !(lr > 0.0 && lr.is_finite()) {
        return Err("--lr must be a positive number".into());
    }
    if !(l2 >= 0.0 && l2.is_finite()) {
        return Err("--l2 must be a non-negative number".into());
    }
    Ok(())
}
