//! Command-line subcommands of the `kishi` binary (`perft`, `bench`, `learn`, `weights`, `mate`), and the
//! protocol loop when no subcommand is given. clap reads the command line (help, version and
//! errors with usage come from it); `weights` has its own clap subcommands (`weights::WeightsCmd`),
//! and `learn` takes the rest of the words and parses them with the clap parser the console
//! shares. Errors go to stderr with a non-zero exit code.

pub mod bench;
pub mod learn;
pub mod mate;
pub mod perft;
pub mod rules_dump;
pub mod search_params;
pub mod weights;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// kishi: a shogi (USI) and chess (UCI) engine with a built-in MMTO learner.
///
/// Without a subcommand, kishi reads USI or UCI from stdin (first command: usi | uci).
#[derive(Debug, Parser)]
#[command(name = "kishi", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// The search bench's depth, threads and hash (`kishi bench`, `kishi weights bench`).
#[derive(Debug, Clone, Copy, Args)]
pub struct BenchSize {
    /// search depth [default: the game's bench depth]
    #[arg(value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    #[arg(default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    #[arg(default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=65_536))]
    pub hash_mb: u64,
}

/// `kishi mate --futile`: which interpositions are no defence (`mate::FutileRule`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FutileName {
    /// drops nothing of the defender's guards (the miniosl suite's convention)
    Unguarded,
    /// also drops next to the king that the checker takes with mate (the Shogi Zukou source's)
    NextToKing,
}

/// The game a subcommand works on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GameName {
    Shogi,
    Chess,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Move-path counts: one `<move>: <count>` line per root move, then `Nodes searched: N`
    Perft {
        game: GameName,
        /// an SFEN / FEN, or startpos
        #[arg(value_name = "sfen|fen|startpos", allow_hyphen_values = true)]
        position: String,
        #[arg(value_parser = clap::value_parser!(u32).range(1..=20))]
        depth: u32,
    },
    /// The fixed search benchmark: Nodes searched / Nodes/second
    Bench {
        #[arg(default_value = "chess")]
        game: GameName,
        #[command(flatten)]
        size: BenchSize,
    },
    /// The learners: learn <mmto|ct|texel|treestrap|rootstrap|tdleaf|results> --game <shogi|chess> --out DIR ... (kishi learn --help)
    #[command(disable_help_flag = true)]
    Learn {
        /// the learner's words (kishi learn --help lists them)
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Weight files: inspect, verify, make-random, annotate, hold, eval, bench, evalbench
    #[command(subcommand)]
    Weights(weights::WeightsCmd),
    /// Mate solver on a file of problems (TSV with an sfen column, or SFEN/FEN lines)
    Mate {
        /// the problem file
        file: std::path::PathBuf,
        /// time limit per problem in ms [default: 1000 unless --nodes is given]
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        time_ms: Option<u64>,
        /// node limit per problem
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: Option<u64>,
        /// proof / disproof table size in MiB
        #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=65_536))]
        hash_mb: u64,
        /// write the result lines to this file (atomically) instead of stdout
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// only the problems with these ids (comma-separated)
        #[arg(long, value_delimiter = ',')]
        ids: Vec<String>,
        /// answer with the first proof's PV (no shortest-mate search): time to solve, as
        /// solvers that answer at their first proof report it
        #[arg(long)]
        first_proof: bool,
        /// which interpositions are futile (no defence, not in the PV or the length)
        #[arg(long, value_enum, default_value_t = FutileName::Unguarded)]
        futile: FutileName,
        /// do not prove an interposition by replaying its proven sibling's proof (Kawano's
        /// simulation): search it like any other node (for measuring what the replay gains)
        #[arg(long)]
        no_replay: bool,
        /// do not count two children of a defender's node that lead into one subtree once (as a
        /// maximum) when the join is found: sum their proof numbers (for measuring the gain)
        #[arg(long)]
        no_double_count: bool,
        /// do not search the attacker's capturing checks first among checks of equal proof
        /// numbers: generation order only (for measuring the gain)
        #[arg(long)]
        no_captures_first: bool,
        /// solver threads sharing the table until the first proof (the PV and the
        /// shortest-mate search run on one); the node limit counts the main thread's nodes
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
    },
    /// Rules cross-check dump for tests/clients/test_crosscheck.py (developer command)
    #[command(hide = true)]
    RulesDump { game: GameName },
    /// The game's search parameter table as an SPSA parameter file (scripts/spsa.py)
    #[command(hide = true)]
    SearchParams { game: GameName },
}

/// Runs the binary with its arguments (program name excluded); returns the exit code.
pub fn run(args: &[String]) -> i32 {
    let words = std::iter::once("kishi".to_string()).chain(args.iter().cloned());
    let cli = match Cli::try_parse_from(words) {
        Ok(c) => c,
        Err(e) => {
            // Help and version go to stdout with code 0, errors to stderr with code 2.
            let _ = e.print();
            return e.exit_code();
        }
    };
    match cli.command {
        None => protocol_loop(),
        Some(Command::Perft {
            game,
            position,
            depth,
        }) => perft::run(game, &position, depth),
        Some(Command::Bench { game, size }) => bench::run(game, size),
        Some(Command::Learn { args }) => learn::run(&args),
        Some(Command::Weights(cmd)) => weights::run(cmd),
        Some(Command::Mate {
            file,
            time_ms,
            nodes,
            hash_mb,
            out,
            ids,
            first_proof,
            futile,
            no_replay,
            no_double_count,
            no_captures_first,
            threads,
        }) => mate::run(&mate::MateArgs {
            file,
            time_ms,
            nodes,
            hash_mb: hash_mb as usize,
            out,
            ids,
            first_proof,
            futile: match futile {
                FutileName::Unguarded => crate::mate::FutileRule::Unguarded,
                FutileName::NextToKing => crate::mate::FutileRule::NextToKing,
            },
            replay: !no_replay,
            double_count: !no_double_count,
            captures_first: !no_captures_first,
            threads: threads as usize,
        }),
        Some(Command::RulesDump { game }) => rules_dump::run(game),
        Some(Command::SearchParams { game }) => search_params::run(game),
    }
}

/// The USI/UCI loop on stdin/stdout. stdout is wrapped unbuffered-by-line by `protocol::info::Out`
/// (every line is flushed), so a GUI behind a pipe sees each line at once.
fn protocol_loop() -> i32 {
    let stdin = std::io::BufReader::new(std::io::stdin());
    crate::protocol::run(stdin, std::io::stdout())
}
