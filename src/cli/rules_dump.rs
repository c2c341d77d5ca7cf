//! `kishi rules-dump <shogi|chess>` (a developer command, not in the help text): reads game lines on
//! stdin and prints, for every position of every game, one JSON line with what the rules say there.
//! `tests/clients/test_crosscheck.py` compares these lines with cshogi and python-chess.
//!
//! Input, one game per line: `<start> [moves <m1> <m2> ...]`, where `<start>` is `startpos`, a
//! position text (SFEN / FEN) or either of those after `sfen` / `fen` / `position`. Output, per
//! position (the start and after each move):
//!
//! `{"g":<line index>,"ply":<moves played>,"text":"<to_text>","moves":[<legal moves, sorted>],
//!   "check":<in_check>,"outcome":"<win:first|second:reason | draw:reason | none>",
//!   "declare":<can declare under CSARule27>,"tactical":[...],"checks":[...],"errors":[...]}`
//!
//! `tactical` is `tactical_moves` (only when not in check, as the search calls it; else empty),
//! `checks` the legal moves for which `gives_check` holds, and `errors` the self-consistency
//! failures kishi finds on its own (move counts, `is_legal`, move encoding, text round trip, key
//! round trip, `gives_check` against playing the move). A line that cannot be read yields
//! `{"g":<index>,"error":"<message>"}` and the dump goes on.

use super::GameName;
use crate::game::{
    DrawReason, EnteringKingRule, Game, GameHistory, Outcome, RuleOptions, Side, WinReason,
};
use crate::util::json;
use serde::Serialize;
use std::io::{BufRead, Write};

pub fn run(game: GameName) -> i32 {
    let result = match game {
        GameName::Shogi => dump::<crate::shogi::ShogiPos>(),
        GameName::Chess => dump::<crate::chess::ChessPos>(),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

fn dump<G: Game>() -> Result<(), String> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for (g, line) in stdin.lock().lines().enumerate() {
        let line = line.map_err(|e| format!("cannot read stdin: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let written = match parse_game_line::<G>(&line) {
            Ok((start, moves)) => dump_game(&mut out, g, start, &moves),
            Err(error) => writeln!(out, "{}", json::line(&ErrorLine { g, error })),
        };
        written.map_err(|e| format!("cannot write stdout: {e}"))?;
    }
    out.flush().map_err(|e| format!("cannot write stdout: {e}"))
}

/// Splits `<start> [moves ...]` into the start position and the move texts.
fn parse_game_line<G: Game>(line: &str) -> Result<(G, Vec<String>), String> {
    let (pos, moves) = match line.find(" moves") {
        Some(i) => (&line[..i], line[i + " moves".len()..].trim()),
        None => (line, ""),
    };
    let pos = pos.trim();
    let pos = pos.strip_prefix("position ").unwrap_or(pos).trim();
    let start = if pos == "startpos" {
        G::startpos()
    } else {
        let text = pos
            .strip_prefix("sfen ")
            .or_else(|| pos.strip_prefix("fen "))
            .unwrap_or(pos);
        G::from_text(text).map_err(|e| e.to_string())?
    };
    Ok((
        start,
        moves.split_whitespace().map(str::to_string).collect(),
    ))
}

fn dump_game<G: Game>(
    out: &mut impl Write,
    g: usize,
    start: G,
    moves: &[String],
) -> std::io::Result<()> {
    let mut history = GameHistory::new(start);
    let rules = RuleOptions::default();
    for ply in 0..=moves.len() {
        write_position(out, g, ply, &history, &rules)?;
        let Some(text) = moves.get(ply) else {
            break;
        };
        match history.current().parse_move(text) {
            Ok(mv) => history.push(mv),
            Err(e) => {
                let error = format!("move {} '{text}': {e}", ply + 1);
                return writeln!(out, "{}", json::line(&ErrorLine { g, error }));
            }
        }
    }
    Ok(())
}

/// A line that could not be read, or a move that could not be played.
#[derive(Serialize)]
struct ErrorLine {
    g: usize,
    error: String,
}

/// What the rules say at one position (key order as in the module documentation).
#[derive(Serialize)]
struct PositionLine {
    g: usize,
    ply: usize,
    text: String,
    moves: Vec<String>,
    check: bool,
    outcome: String,
    declare: bool,
    tactical: Vec<String>,
    checks: Vec<String>,
    errors: Vec<String>,
}

fn write_position<G: Game>(
    out: &mut impl Write,
    g: usize,
    ply: usize,
    history: &GameHistory<G>,
    rules: &RuleOptions,
) -> std::io::Result<()> {
    let pos = history.current();
    let mut errors = Vec::new();
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    if legal.len() as u64 != pos.count_legal_moves() {
        errors.push(format!(
            "count_legal_moves {} but legal_moves has {}",
            pos.count_legal_moves(),
            legal.len()
        ));
    }
    let mut checks = Vec::new();
    for &mv in &legal {
        let text = pos.move_text(mv);
        if !pos.is_legal(mv) {
            errors.push(format!("{text}: generated but is_legal says no"));
        }
        if pos.decode_move(G::encode_move(mv)) != Some(mv) {
            errors.push(format!("{text}: encode/decode round trip fails"));
        }
        if pos.parse_move(&text) != Ok(mv) {
            errors.push(format!("{text}: move text round trip fails"));
        }
        let gives = pos.gives_check(mv);
        if gives != pos.play(mv).in_check() {
            errors.push(format!("{text}: gives_check {gives} disagrees with play"));
        }
        if gives {
            checks.push(text);
        }
    }
    let mut tactical = Vec::new();
    if !pos.in_check() {
        let mut moves = Vec::new();
        pos.tactical_moves(&mut moves);
        for &mv in &moves {
            if !legal.contains(&mv) {
                errors.push(format!("{}: tactical but not legal", pos.move_text(mv)));
            }
            tactical.push(pos.move_text(mv));
        }
        let expected = legal.iter().filter(|&&mv| pos.is_tactical(mv)).count();
        if expected != moves.len() {
            errors.push(format!(
                "{} tactical moves generated, {} legal moves are tactical",
                moves.len(),
                expected
            ));
        }
    }
    let text = pos.to_text();
    match G::from_text(&text) {
        Ok(back) if back.key() != pos.key() => {
            errors.push("key changes on a text round trip".into())
        }
        Ok(back) if back.to_text() != text => errors.push("text changes on a round trip".into()),
        Ok(_) => {}
        Err(e) => errors.push(format!("own text does not parse: {e}")),
    }
    let mut moves: Vec<String> = legal.iter().map(|&mv| pos.move_text(mv)).collect();
    moves.sort();
    tactical.sort();
    checks.sort();
    let outcome = history
        .outcome(rules)
        .map_or("none".to_string(), outcome_text);
    let declare = pos.can_declare_win(EnteringKingRule::CsaRule27);
    let line = PositionLine {
        g,
        ply,
        text,
        moves,
        check: pos.in_check(),
        outcome,
        declare,
        tactical,
        checks,
        errors,
    };
    writeln!(out, "{}", json::line(&line))
}

/// `win:first:checkmate`, `draw:repetition`, … (stable names for the cross-check script).
pub fn outcome_text(o: Outcome) -> String {
    match o {
        Outcome::Win(side, reason) => {
            let side = match side {
                Side::First => "first",
                Side::Second => "second",
            };
            let reason = match reason {
                WinReason::Checkmate => "checkmate",
                WinReason::PerpetualCheck => "perpetual",
                WinReason::Declaration => "declaration",
            };
            format!("win:{side}:{reason}")
        }
        Outcome::Draw(reason) => {
            let reason = match reason {
                DrawReason::Stalemate => "stalemate",
                DrawReason::Repetition => "repetition",
                DrawReason::FiftyMoves => "fifty",
                DrawReason::InsufficientMaterial => "insufficient",
                DrawReason::MaxMoves => "maxmoves",
                DrawReason::Declaration => "declaration",
            };
            format!("draw:{reason}")
        }
    }
}
