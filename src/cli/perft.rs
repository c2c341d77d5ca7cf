//! `kishi perft <shogi|chess> "<sfen|fen|startpos>" <depth>`: one `<move>: <count>` line per root
//! move, then `Nodes searched: N` (DESIGN §5).

use crate::game::{format_divide, perft_divide, Game};
use std::time::Instant;

pub fn run(args: &[String]) -> i32 {
    let (Some(game), Some(position), Some(depth)) = (args.first(), args.get(1), args.get(2)) else {
        eprintln!("error: usage: kishi perft <shogi|chess> \"<sfen|fen|startpos>\" <depth>");
        return 2;
    };
    let depth: u32 = match depth.parse() {
        Ok(d) if (1..=20).contains(&d) => d,
        _ => {
            eprintln!("error: perft depth must be a number from 1 to 20, got '{depth}'");
            return 2;
        }
    };
    let result = match game.as_str() {
        "shogi" => run_game::<crate::shogi::ShogiPos>(position, depth),
        "chess" => run_game::<crate::chess::ChessPos>(position, depth),
        other => Err(format!("unknown game '{other}' (expected shogi or chess)")),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

fn run_game<G: Game>(position: &str, depth: u32) -> Result<(), String> {
    let pos = if position.trim() == "startpos" {
        G::startpos()
    } else {
        G::from_text(position).map_err(|e| format!("bad position '{position}': {e}"))?
    };
    let start = Instant::now();
    let lines = perft_divide(&pos, depth);
    print!("{}", format_divide(&lines, start.elapsed().as_secs_f64()));
    Ok(())
}
