//! `kishi bench <shogi|chess> [depth] [threads] [hash-mb]`: the fixed-depth benchmark (DESIGN §5).
//! clap (`cli::Command::Bench`) has checked the numbers.

use super::{BenchSize, GameName};
use crate::eval::GameEval;
use crate::search::bench;

pub fn run(game: GameName, size: BenchSize) -> i32 {
    let (depth, threads, hash) = (size.depth, size.threads as usize, size.hash_mb as usize);
    let mut out = std::io::stdout();
    let result = match game {
        GameName::Shogi => {
            type G = crate::shogi::ShogiPos;
            let depth = depth.unwrap_or_else(bench::default_depth::<G>);
            bench::run::<G, _>(G::default_eval(), depth, threads, hash, &mut out)
        }
        GameName::Chess => {
            type G = crate::chess::ChessPos;
            let depth = depth.unwrap_or_else(bench::default_depth::<G>);
            bench::run::<G, _>(G::default_eval(), depth, threads, hash, &mut out)
        }
    };
    match result {
        Ok(_) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}
