//! `kishi perft <shogi|chess> "<sfen|fen|startpos>" <depth>`: one `<move>: <count>` line per root
//! move, then `Nodes searched: N` (DESIGN §5).

use super::GameName;
use crate::game::{format_divide, perft_divide, Game};
use std::time::Instant;

pub fn run(game: GameName, position: &str, depth: u32) -> i32 {
    let result = match game {
        GameName::Shogi => run_game::<crate::shogi::ShogiPos>(position, depth),
        GameName::Chess => run_game::<crate::chess::ChessPos>(position, depth),
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
