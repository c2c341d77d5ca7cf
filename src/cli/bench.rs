//! `kishi bench <shogi|chess> [depth] [threads] [hash-mb]`: the fixed-depth benchmark (DESIGN §5).

use crate::eval::GameEval;
use crate::search::bench;

pub fn run(args: &[String]) -> i32 {
    let game = args.first().map(String::as_str).unwrap_or("chess");
    let num = |i: usize, name: &str, default: u64, max: u64| -> Result<u64, String> {
        match args.get(i) {
            None => Ok(default),
            Some(s) => match s.parse::<u64>() {
                Ok(v) if (1..=max).contains(&v) => Ok(v),
                _ => Err(format!(
                    "{name} must be a number from 1 to {max}, got '{s}'"
                )),
            },
        }
    };
    let result = (|| -> Result<(), String> {
        let threads = num(2, "threads", 1, 256)? as usize;
        let hash = num(3, "hash-mb", 16, 65_536)? as usize;
        let mut out = std::io::stdout();
        match game {
            "shogi" => {
                type G = crate::shogi::ShogiPos;
                let depth = num(1, "depth", bench::default_depth::<G>() as u64, 64)? as u32;
                bench::run::<G, _>(G::default_eval(), depth, threads, hash, &mut out)
            }
            "chess" => {
                type G = crate::chess::ChessPos;
                let depth = num(1, "depth", bench::default_depth::<G>() as u64, 64)? as u32;
                bench::run::<G, _>(G::default_eval(), depth, threads, hash, &mut out)
            }
            other => return Err(format!("unknown game '{other}' (expected shogi or chess)")),
        }
        .map(|_| ())
        .map_err(|e| e.to_string())
    })();
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}
