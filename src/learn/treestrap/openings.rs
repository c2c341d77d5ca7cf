//! The opening set of self-play: the match books under `book/` (or any file of the same forms),
//! each line replayed into a game history so that repetitions count from the start. Forms, one a
//! line: an EPD line whose `c0 "moves …"` lists the moves from the start position (the chess
//! book), `startpos [moves …]` (the shogi book), `sfen|fen <position> [moves …]`, or a bare
//! position text. Blank lines and `#` comments are skipped; a bad line is an error naming it.

use crate::game::{Game, GameHistory};
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
