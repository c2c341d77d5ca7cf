//! Command-line subcommands of the `kishi` binary (`perft`, `bench`, `learn`, `weights`), and the
//! protocol loop when no subcommand is given. Each subcommand parses its own arguments and returns
//! the process exit code; errors go to stderr with a non-zero code.

pub mod bench;
pub mod learn;
pub mod perft;
pub mod rules_dump;
pub mod weights;

/// Runs the binary with its arguments (program name excluded); returns the exit code.
pub fn run(args: &[String]) -> i32 {
    let Some(cmd) = args.first() else {
        return protocol_loop();
    };
    let rest = &args[1..];
    match cmd.as_str() {
        "perft" => perft::run(rest),
        "bench" => bench::run(rest),
        "learn" => learn::run(rest),
        // Developer command for the cross-check against cshogi / python-chess (not in HELP).
        "rules-dump" => rules_dump::run(rest),
        "weights" => weights::run(rest),
        "help" | "--help" | "-h" => {
            print!("{}", HELP);
            0
        }
        "--version" | "-V" => {
            println!("kishi {}", env!("CARGO_PKG_VERSION"));
            0
        }
        other => {
            eprintln!("error: unknown subcommand '{other}'\n\n{HELP}");
            2
        }
    }
}

const HELP: &str = "\
kishi: a shogi (USI) and chess (UCI) engine with a built-in MMTO learner

usage:
  kishi                                   read USI or UCI from stdin (first command: usi | uci)
  kishi perft <shogi|chess> <\"<sfen|fen>\"|startpos> <depth>
  kishi bench <shogi|chess> [depth] [threads] [hash-mb]
  kishi weights <inspect|verify|make-random|hold|eval|bench|evalbench> … (kishi weights help)
  kishi learn <mmto|ct> --game <shogi|chess> --out DIR ... (kishi learn mmto --help)
  kishi help
";

/// The USI/UCI loop on stdin/stdout. stdout is wrapped unbuffered-by-line by `protocol::info::Out`
/// (every line is flushed), so a GUI behind a pipe sees each line at once.
fn protocol_loop() -> i32 {
    let stdin = std::io::BufReader::new(std::io::stdin());
    crate::protocol::run(stdin, std::io::stdout())
}
