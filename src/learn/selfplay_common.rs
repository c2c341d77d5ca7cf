//! What the self-play learners share (`learn treestrap|rootstrap|tdleaf` and `learn results`):
//! the opening set, and how a game's start is drawn from it by the game's own seed.
//!
//! The opening set: the match books under `book/` (or any file of the same forms),
//! each line replayed into a game history so that repetitions count from the start. Forms, one a
//! line: an EPD line whose `c0 "moves …"` lists the moves from the start position (the chess
//! book), `startpos [moves …]` (the shogi book), `sfen|fen <position> [moves …]`, or a bare
//! position text. Blank lines and `#` comments are skipped; a bad line is an error naming it.

use crate::eval::rng::SplitMix64;
use crate::game::{Game, GameHistory, Outcome, RuleOptions, Side};
use std::path::Path;

/// Reads an opening file into the game histories it describes.
pub fn load<G: Game>(path: &Path) -> Result<Vec<GameHistory<G>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let h = parse_line::<G>(line).map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
        out.push(h);
    }
    if out.is_empty() {
        return Err(format!("{}: no openings", path.display()));
    }
    Ok(out)
}

/// One opening line.
pub fn parse_line<G: Game>(line: &str) -> Result<GameHistory<G>, String> {
    if let Some(i) = line.find("c0 \"moves") {
        let rest = &line[i + "c0 \"moves".len()..];
        let moves = rest.split('"').next().unwrap_or("");
        return GameHistory::from_moves(G::startpos(), moves.split_whitespace())
            .map_err(|e| e.to_string());
    }
    let (pos_text, moves) = match line.split_once(" moves") {
        Some((p, m)) => (p.trim(), m),
        None => (line, ""),
    };
    let start = if pos_text == "startpos" {
        G::startpos()
    } else {
        let t = pos_text
            .strip_prefix("sfen ")
            .or_else(|| pos_text.strip_prefix("fen "))
            .unwrap_or(pos_text);
        G::from_text(t.trim()).map_err(|e| e.to_string())?
    };
    GameHistory::from_moves(start, moves.split_whitespace()).map_err(|e| e.to_string())
}

/// The seed of game `index` of a run: each game draws its opening (and random plies) from its
/// own stream, so that it does not depend on which thread plays it or on the other games.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let mut r = SplitMix64::new(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    r.next_u64()
}

/// The starting history of game `index`: an opening drawn by the game's seed (the start position
/// when the set is empty), then `random_plies` random legal plies (fewer when the game ends).
pub fn opening<G: Game>(
    openings: &[GameHistory<G>],
    seed: u64,
    random_plies: u32,
    index: u64,
) -> GameHistory<G> {
    let mut rng = SplitMix64::new(game_seed(seed, index));
    let mut h = if openings.is_empty() {
        GameHistory::new(G::startpos())
    } else {
        openings[rng.below(openings.len())].clone()
    };
    let mut moves = Vec::new();
    for _ in 0..random_plies {
        if h.outcome(&RuleOptions::default()).is_some() {
            break;
        }
        moves.clear();
        h.current().legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        h.push(mv);
    }
    h
}

/// A game's result from the first player's side: 1 win, 0 draw, −1 loss.
pub fn result_of(o: Outcome) -> i32 {
    match o {
        Outcome::Win(Side::First, _) => 1,
        Outcome::Win(Side::Second, _) => -1,
        Outcome::Draw(_) => 0,
    }
}
