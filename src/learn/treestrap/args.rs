//! The arguments of `learn treestrap|rootstrap|tdleaf`: self-play learning needs no records, so
//! it has its own parser (the records learners' `LearnArgs` requires `--data`). The three methods
//! are names of their own, like `mmto` and `ct`, because they are peers in the paper's Table 1
//! that differ only in which nodes move towards which target; everything else (games, search,
//! files) is shared and their runs are compared at equal game counts.

use crate::learn::learned::Learned;
use clap::{CommandFactory, Parser, ValueEnum};
use std::path::PathBuf;

/// Which backup the self-play learner makes (Veness et al. 2009, Table 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Variant {
    /// TreeStrap(αβ): every stored node of each search towards its bounds.
    Treestrap,
    /// RootStrap(αβ): the root towards its search value.
    Rootstrap,
    /// TD-Leaf(λ): the principal leaf towards the next search's value.
    Tdleaf,
}

impl Variant {
    pub fn name(self) -> &'static str {
        match self {
            Variant::Treestrap => "treestrap",
            Variant::Rootstrap => "rootstrap",
            Variant::Tdleaf => "tdleaf",
        }
    }
}

/// TreeStrap's training search (`--search`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum TreeSearch {
    /// The play search in training mode and the table walk: TreeStrap(αβ), bounds.
    Alphabeta,
    /// A full-width minimax tree: TreeStrap(minimax), exact values.
    Minimax,
}

/// What TreeStrap takes as a walked node's heuristic value H (`--node-value`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum NodeValue {
    /// Its own static evaluation (the paper's).
    Static,
    /// The static evaluation of its quiescence search's leaf.
    Quiescence,
}

#[derive(Parser, Debug)]
#[command(
    name = "learn",
    about = "Learn evaluation weights from self-play alone (TreeStrap and its baselines)",
    override_usage = "learn <treestrap|rootstrap|tdleaf> --game <shogi|chess> --out DIR [options]",
    args_override_self = true,
    allow_negative_numbers = true,
    disable_version_flag = true
)]
struct Cli {
    /// the backup
    #[arg(
        value_enum,
        hide_possible_values = true,
        value_name = "treestrap|rootstrap|tdleaf"
    )]
    variant: Variant,
    /// the game (the console's game when absent there)
    #[arg(long, value_name = "shogi|chess")]
    game: Option<String>,
    /// output directory
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// training games to play (a resumed run plays up to this many in all)
    #[arg(long, value_name = "N", default_value_t = 1000)]
    games: u64,
    /// search depth D of every move (plus quiescence, check extensions)
    #[arg(long, value_name = "D", default_value_t = 3)]
    depth: i32,
    /// TreeStrap: update nodes searched to at least this depth (the paper's d)
    #[arg(long, value_name = "d", default_value_t = 1)]
    min_depth: i32,
    /// TreeStrap: update only tactically quiet nodes (not in check, no capture that wins material
    /// by static exchange). Inside an exchange a node's static value misses the recapture the
    /// search sees, and the step then goes to the one piece the node is short of (a defended pawn
    /// taken by a bigger piece pulls the pawn's value down).
    #[arg(long)]
    quiet_nodes: bool,
    /// TreeStrap and RootStrap: what a node's (the root's) heuristic value H is: `static` (its
    /// own evaluation, the paper's) or `quiescence` (the evaluation of its quiescence search's
    /// leaf under the search's weights, the gradient through that leaf's features: a node inside
    /// an exchange is valued after the exchange, as its bounds are)
    #[arg(
        long,
        value_enum,
        hide_possible_values = true,
        value_name = "static|quiescence",
        default_value = "static"
    )]
    node_value: NodeValue,
    /// TreeStrap: the training search: `alphabeta` (TreeStrap(αβ): the play search in training
    /// mode, every stored node towards its bounds) or `minimax` (TreeStrap(minimax), the paper's
    /// Algorithm 1: a full-width minimax tree of depth D with quiescence at the leaves, every
    /// interior node towards its exact value; far shallower for the same work)
    #[arg(
        long,
        value_enum,
        hide_possible_values = true,
        value_name = "alphabeta|minimax",
        default_value = "alphabeta"
    )]
    search: TreeSearch,
    /// step size η, per evaluation unit² (Δw = η·δ·count·scale/unit² in weight units; unit: 1 in shogi, 64 in chess) [default: treestrap 3e-8, rootstrap and tdleaf 6e-6]
    #[arg(long, value_name = "ETA")]
    eta: Option<f64>,
    /// per-table step sizes that replace --eta for those tables, e.g. `material=3e-11` (shogi's
    /// piece values count 32 per piece, so at KP's η they move a thousand times faster)
    #[arg(long, value_name = "TABLE=ETA[,..]")]
    table_eta: Option<String>,
    /// also write weights averaged over about the last N games (weights_avg.kwt and
    /// weights_avg_<N>.kwt snapshots; the games are still played with the current weights):
    /// self-play updates are noisy from game to game, and an average plays better (0 = off)
    #[arg(long, value_name = "N", default_value_t = 0)]
    average: u64,
    /// TD-Leaf's λ
    #[arg(long, value_name = "L", default_value_t = 0.7)]
    lambda: f64,
    /// tables to learn (letters, names or `all`) [default: chess material,kp,positional, shogi
    /// material,kp]
    #[arg(long, value_name = "A[,B,..]")]
    tables: Option<String>,
    /// learned weights start uniform in ±R weight units (seeded), added to --init's values
    #[arg(long, value_name = "R", default_value_t = 16)]
    init_range: i32,
    /// starting weights: a weight file or params.bin. The tables not learned keep its values
    /// (e.g. hand-set piece values under a learned KP table); the learned ones start at its
    /// values plus the --init-range noise [default: none: every table at zero]
    #[arg(long, value_name = "FILE")]
    init: Option<PathBuf>,
    /// seed of the starting weights and the openings
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// opening file (EPD with c0 "moves …" / `startpos moves …` / one position a line), or none
    /// [default: book/chess_openings.epd, book/shogi_openings.sfen]
    #[arg(long, value_name = "FILE|none")]
    openings: Option<String>,
    /// random legal plies after the opening (more diverse games; no learning during them)
    #[arg(long, value_name = "N", default_value_t = 2)]
    random_plies: u32,
    /// a game stops (unscored) after this many learning plies
    #[arg(long, value_name = "N", default_value_t = 200)]
    max_plies: u32,
    /// search values are clamped into ±CAP (mates count as ±CAP) before they are targets
    #[arg(long, value_name = "CAP", default_value_t = 2000)]
    score_cap: i32,
    /// games played from the same weights and summed into one update (1 = the paper's sequential
    /// games); the parallelism of --threads
    #[arg(long, value_name = "N", default_value_t = 2)]
    batch: u64,
    /// transposition table per thread, MB
    #[arg(long, value_name = "MB", default_value_t = 8)]
    hash: usize,
    /// games between checkpoints (rounded up to whole batches): metrics line, weights, checkpoint
    #[arg(long, value_name = "N", default_value_t = 20)]
    checkpoint_every: u64,
    /// also keep weights_<N>.kwt after these game counts
    #[arg(
        long,
        value_name = "N,..",
        default_value = "10,20,50,100,200,500,1000,2000,5000,10000"
    )]
    snapshots: String,
    /// self-play threads
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// continue from DIR/checkpoint.bin
    #[arg(long)]
    resume: bool,
    /// no progress bar
    #[arg(long)]
    quiet: bool,
}

/// The checked settings of a self-play run.
#[derive(Debug, Clone)]
pub struct SelfPlayArgs {
    pub variant: Variant,
    pub game: String,
    pub out: PathBuf,
    pub games: u64,
    pub depth: i32,
    pub min_depth: i32,
    /// TreeStrap updates only nodes `crate::game::is_quiet` accepts.
    pub quiet_nodes: bool,
    /// TreeStrap values a node by its quiescence leaf (`--node-value quiescence`).
    pub quiescence_values: bool,
    /// TreeStrap(minimax) (`--search minimax`) instead of TreeStrap(αβ).
    pub minimax: bool,
    pub eta: f64,
    /// (table name or letter, η) that replace `eta` for those tables.
    pub table_eta: Vec<(String, f64)>,
    /// Games the averaged weights reach back (0: none are kept).
    pub average: u64,
    pub lambda: f64,
    pub tables: Vec<String>,
    pub init_range: i32,
    /// Starting weights (`--init`): `None`, every table starts at zero.
    pub init: Option<PathBuf>,
    pub seed: u64,
    /// `None`: no opening file (random plies from the start position only).
    pub openings: Option<PathBuf>,
    pub random_plies: u32,
    pub max_plies: u32,
    pub score_cap: i32,
    pub batch: u64,
    pub hash_mb: usize,
    pub checkpoint_every: u64,
    pub snapshots: Vec<u64>,
    pub threads: usize,
    pub resume: bool,
    pub quiet: bool,
}

/// Whether the words after `learn` name a self-play method.
pub fn is_selfplay_method(word: &str) -> bool {
    Variant::from_str(word, true).is_ok()
}

/// The help text (`learn treestrap --help`).
pub fn help_text() -> String {
    Cli::command().render_help().to_string()
}

impl SelfPlayArgs {
    /// Parses the words after `learn` (`args[0]` is the method). `Err(None)`: help was asked for;
    /// `Err(Some(text))`: the error report.
    pub fn try_parse(args: &[String], default_game: Option<&str>) -> Result<Self, Option<String>> {
        let words = std::iter::once("learn").chain(args.iter().map(String::as_str));
        let c: Cli = crate::learn::args::parse_method_words(words)?;
        Self::check(c, default_game).map_err(|e| Some(format!("error: {e}")))
    }

    fn check(c: Cli, default_game: Option<&str>) -> Result<Self, String> {
        let (game, shogi) = crate::learn::args::parse_game(c.game.as_deref(), default_game)?;
        let out = c.out.ok_or("--out DIR is required")?;
        if !(1..=20).contains(&c.depth) {
            return Err("--depth must be 1..20".into());
        }
        if !(1..=20).contains(&c.min_depth) {
            return Err("--min-depth must be 1..20".into());
        }
        // Options that only some backups read are refused by the others rather than ignored.
        if c.quiet_nodes && c.variant != Variant::Treestrap {
            return Err("--quiet-nodes is TreeStrap's (learn treestrap)".into());
        }
        if c.node_value == NodeValue::Quiescence && c.variant == Variant::Tdleaf {
            return Err(
                "--node-value is TreeStrap's and RootStrap's (TD-Leaf's leaves are quiescence leaves already)"
                    .into(),
            );
        }
        let minimax = c.search == TreeSearch::Minimax;
        if minimax && c.variant != Variant::Treestrap {
            return Err("--search minimax is TreeStrap's (learn treestrap)".into());
        }
        // A full-width tree grows as (moves)^D: a shogi or chess tree of depth 5 would not finish.
        if minimax && c.depth > 4 {
            return Err("--search minimax: --depth must be 1..4 (a full-width tree)".into());
        }
        if minimax && c.quiet_nodes {
            return Err("--search minimax does not take --quiet-nodes".into());
        }
        // TreeStrap's default from a short sweep (docs/learning/treestrap.md: 2e-6 diverged,
        // 5e-7 was at the edge); the root-only methods update one node per search, and get the
        // paper's ratio of step sizes (1e-5 against 5e-7: 20 times).
        let eta = c.eta.unwrap_or(match c.variant {
            // 3e-8: against RootStrap at 500 and 1,000 games it lost far less than 3e-7, whose
            // bound errors grew all run (docs/learning/treestrap.md).
            Variant::Treestrap => 3e-8,
            Variant::Rootstrap | Variant::Tdleaf => 6e-6,
        });
        if !(eta > 0.0 && eta.is_finite()) {
            return Err("--eta must be a positive number".into());
        }
        let mut table_eta = Vec::new();
        for item in c.table_eta.as_deref().unwrap_or("").split(',') {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            let (name, v) = item
                .split_once('=')
                .ok_or_else(|| format!("--table-eta: '{item}' is not TABLE=ETA"))?;
            let v: f64 = v
                .trim()
                .parse()
                .map_err(|_| format!("--table-eta: '{v}' is not a number"))?;
            if !(v > 0.0 && v.is_finite()) {
                return Err(format!("--table-eta: {name}'s η must be a positive number"));
            }
            table_eta.push((name.trim().to_string(), v));
        }
        if !(0.0..=1.0).contains(&c.lambda) {
            return Err("--lambda must be in [0, 1]".into());
        }
        if !(0..=1_000_000).contains(&c.init_range) {
            return Err("--init-range must be 0..1000000".into());
        }
        if !(1..=30_000).contains(&c.score_cap) {
            return Err("--score-cap must be 1..30000".into());
        }
        if c.batch == 0 || c.batch > 4096 {
            return Err("--batch must be 1..4096".into());
        }
        if c.max_plies == 0 {
            return Err("--max-plies must be at least 1".into());
        }
        if !(1..=65_536).contains(&c.hash) {
            return Err("--hash must be 1..65536 MB".into());
        }
        let mut snapshots = Vec::new();
        for s in c.snapshots.split(',').filter(|s| !s.trim().is_empty()) {
            snapshots.push(
                s.trim()
                    .parse::<u64>()
                    .map_err(|_| format!("--snapshots: bad game count '{s}'"))?,
            );
        }
        let openings = match c.openings.as_deref() {
            Some("none") => None,
            Some(p) => Some(PathBuf::from(p)),
            None => Some(PathBuf::from(if shogi {
                "book/shogi_openings.sfen"
            } else {
                "book/chess_openings.epd"
            })),
        };
        let tables = c
            .tables
            .unwrap_or_else(|| if shogi { "A,B" } else { "A,B,C" }.to_string());
        // Whole batches: a checkpoint never falls inside one.
        let every = c.checkpoint_every.max(1).div_ceil(c.batch) * c.batch;
        Ok(SelfPlayArgs {
            variant: c.variant,
            game,
            out,
            games: c.games,
            depth: c.depth,
            min_depth: c.min_depth,
            quiet_nodes: c.quiet_nodes,
            quiescence_values: c.node_value == NodeValue::Quiescence,
            minimax,
            eta,
            table_eta,
            average: c.average,
            lambda: c.lambda,
            tables: tables.split(',').map(|s| s.trim().to_string()).collect(),
            init_range: c.init_range,
            init: c.init,
            seed: c.seed,
            openings,
            random_plies: c.random_plies,
            max_plies: c.max_plies,
            score_cap: c.score_cap,
            batch: c.batch,
            hash_mb: c.hash,
            checkpoint_every: every,
            snapshots,
            threads: c.threads.clamp(1, 256),
            resume: c.resume,
            quiet: c.quiet,
        })
    }

    /// The settings a resume must share with the run that wrote the checkpoint (`--games`,
    /// `--threads`, `--snapshots`, `--quiet` may change; so may the paths of the opening file and
    /// of `--init`, not their contents, which `run` fingerprints).
    pub fn fingerprint(&self) -> String {
        let mut f = format!(
            "{} {} depth={} min_depth={} eta={:e} lambda={} tables={} init_range={} seed={} random_plies={} max_plies={} cap={} batch={} hash={} every={}",
            self.variant.name(),
            self.game,
            self.depth,
            self.min_depth,
            self.eta,
            self.lambda,
            self.tables.join(","),
            self.init_range,
            self.seed,
            self.random_plies,
            self.max_plies,
            self.score_cap,
            self.batch,
            self.hash_mb,
            self.checkpoint_every
        );
        // Only when set, so that the checkpoints of runs from before the option still resume.
        if !self.table_eta.is_empty() {
            f.push_str(&format!(" table_eta={}", self.table_eta_text()));
        }
        if self.average > 0 {
            f.push_str(&format!(" average={}", self.average));
        }
        if self.quiet_nodes {
            f.push_str(" quiet_nodes");
        }
        if self.quiescence_values {
            f.push_str(" node_value=quiescence");
        }
        if self.minimax {
            f.push_str(" search=minimax");
        }

        f
    }

    /// `--table-eta` as given (names as typed, η in `{:e}`).
    pub fn table_eta_text(&self) -> String {
        self.table_eta
            .iter()
            .map(|(n, v)| format!("{n}={v:e}"))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The η of each learned table, in `learned.tables` order: `--table-eta`'s where it names the
    /// table (by name or letter), `--eta` otherwise. A name that is not a learned table is an
    /// error (a typo would otherwise silently leave the table at `--eta`).
    pub fn table_etas(&self, learned: &Learned) -> Result<Vec<f64>, String> {
        // The letter of a learned table is its position among all the feature set's tables.
        let letters: Vec<char> = learned
            .mask
            .iter()
            .enumerate()
            .filter(|(_, &m)| m)
            .map(|(k, _)| (b'A' + k as u8) as char)
            .collect();
        let mut etas = vec![self.eta; learned.tables.len()];
        for (name, v) in &self.table_eta {
            let j = learned
                .tables
                .iter()
                .enumerate()
                .position(|(j, t)| {
                    t.0.eq_ignore_ascii_case(name)
                        || letters
                            .get(j)
                            .is_some_and(|l| name.eq_ignore_ascii_case(&l.to_string()))
                })
                .ok_or_else(|| {
                    let names: Vec<&str> = learned.tables.iter().map(|t| t.0.as_str()).collect();
                    format!(
                        "--table-eta: '{name}' is not a learned table (learned: {})",
                        names.join(", ")
                    )
                })?;
            etas[j] = *v;
        }
        Ok(etas)
    }
}
