//! Helpers shared by the evaluation tests: random playouts, colour-reversed and mirrored position
//! texts, the game records of ../shared/data (xz-compressed line format), and the chess
//! evaluation rebuilt from its feature vector.
#![allow(dead_code)]

use kishi::chess::features::ChessFeatures;
use kishi::chess::{endgame, ChessPos};
use kishi::eval::evaluate_features;
use kishi::eval::rng::SplitMix64;
use kishi::game::{Game, Side};
use std::path::PathBuf;

/// A random playout from the start position: the positions and the moves between them.
pub fn random_playout<G: Game>(rng: &mut SplitMix64, max_plies: usize) -> (Vec<G>, Vec<G::Move>) {
    let mut positions = vec![G::startpos()];
    let mut moves = Vec::new();
    let mut list = Vec::new();
    while moves.len() < max_plies {
        let pos = positions.last().expect("nonempty");
        if pos.position_outcome().is_some() {
            break;
        }
        list.clear();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        let mv = list[rng.below(list.len())];
        let next = pos.play(mv);
        moves.push(mv);
        positions.push(next);
    }
    (positions, moves)
}

/// `../shared/data` next to the repository.
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data")
}

/// Lines of a game file (`.txt` or `.txt.xz`, via the `xz` program), at most `limit`.
pub fn read_lines(rel: &str, limit: usize) -> Vec<String> {
    let path = data_dir().join(rel);
    let text = if rel.ends_with(".xz") {
        let out = std::process::Command::new("xz")
            .arg("-dc")
            .arg(&path)
            .output()
            .unwrap_or_else(|e| panic!("cannot run xz on {}: {e}", path.display()));
        assert!(out.status.success(), "xz failed on {}", path.display());
        String::from_utf8(out.stdout).expect("utf-8 records")
    } else {
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    text.lines().take(limit).map(str::to_string).collect()
}

/// Parses a record line `<result> <plies> (fen|sfen) <position> moves <m1> ...` into positions.
pub fn replay<G: Game>(line: &str) -> (Vec<G>, Vec<G::Move>) {
    let toks: Vec<&str> = line.split_whitespace().collect();
    let start = toks
        .iter()
        .position(|t| *t == "fen" || *t == "sfen")
        .expect("position keyword");
    let mv_at = toks
        .iter()
        .position(|t| *t == "moves")
        .unwrap_or(toks.len());
    let text = toks[start + 1..mv_at].join(" ");
    let mut pos = G::from_text(&text).unwrap_or_else(|e| panic!("{e}"));
    let mut positions = vec![pos.clone()];
    let mut moves = Vec::new();
    for m in toks.iter().skip(mv_at + 1) {
        let Ok(mv) = pos.parse_move(m) else { break };
        pos = pos.play(mv);
        moves.push(mv);
        positions.push(pos.clone());
    }
    (positions, moves)
}

fn sfen_grid(board: &str) -> Vec<Vec<Option<String>>> {
    board
        .split('/')
        .map(|rank| {
            let mut row = Vec::new();
            let mut pending_plus = false;
            for c in rank.chars() {
                if let Some(d) = c.to_digit(10) {
                    row.extend((0..d).map(|_| None));
                } else if c == '+' {
                    pending_plus = true;
                } else {
                    let s = if pending_plus {
                        format!("+{c}")
                    } else {
                        c.to_string()
                    };
                    pending_plus = false;
                    row.push(Some(s));
                }
            }
            row
        })
        .collect()
}

fn grid_text(grid: &[Vec<Option<String>>]) -> String {
    grid.iter()
        .map(|row| {
            let mut s = String::new();
            let mut empty = 0;
            for cell in row {
                match cell {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s += &empty.to_string();
                            empty = 0;
                        }
                        s += p;
                    }
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            s
        })
        .collect::<Vec<_>>()
        .join("/")
}

fn swap_case(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect()
}

/// The shogi position with black and white exchanged: board turned around, colours, hands and
/// side to move swapped.
pub fn sfen_colour_reversed(sfen: &str) -> String {
    let f: Vec<&str> = sfen.split_whitespace().collect();
    let mut grid = sfen_grid(f[0]);
    grid.reverse();
    for row in &mut grid {
        row.reverse();
        for p in row.iter_mut().flatten() {
            *p = swap_case(p);
        }
    }
    let side = if f[1] == "b" { "w" } else { "b" };
    let hand = if f[2] == "-" {
        "-".to_string()
    } else {
        // Re-emit in the canonical order (black's pieces first).
        let mut counts: Vec<(char, u32)> = Vec::new();
        let mut n = 0;
        for c in f[2].chars() {
            if let Some(d) = c.to_digit(10) {
                n = n * 10 + d;
            } else {
                counts.push((
                    swap_case(&c.to_string()).chars().next().expect("c"),
                    n.max(1),
                ));
                n = 0;
            }
        }
        let order = "RBGSNLPrbgsnlp";
        let mut s = String::new();
        for o in order.chars() {
            for &(c, k) in &counts {
                if c == o {
                    if k > 1 {
                        s += &k.to_string();
                    }
                    s.push(c);
                }
            }
        }
        s
    };
    format!(
        "{} {side} {hand} {}",
        grid_text(&grid),
        f.get(3).unwrap_or(&"1")
    )
}

/// The shogi position mirrored left-right (file f ↔ 10 − f).
pub fn sfen_mirrored(sfen: &str) -> String {
    let f: Vec<&str> = sfen.split_whitespace().collect();
    let mut grid = sfen_grid(f[0]);
    for row in &mut grid {
        row.reverse();
    }
    let mut out = vec![grid_text(&grid)];
    out.extend(f[1..].iter().map(|s| s.to_string()));
    out.join(" ")
}

/// The chess position with colours exchanged: ranks flipped, colours, side, castling and the en
/// passant square swapped.
pub fn fen_colour_reversed(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let ranks: Vec<String> = f[0].split('/').rev().map(swap_case).collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    let castling = if f[2] == "-" {
        "-".to_string()
    } else {
        let s = swap_case(f[2]);
        let mut v: Vec<char> = s.chars().collect();
        // Uppercase (white) first, as FEN orders them.
        v.sort_by_key(|c| (c.is_ascii_lowercase(), "KQkq".find(*c).unwrap_or(9), *c));
        v.into_iter().collect()
    };
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        let b = f[3].as_bytes();
        let rank = if b[1] == b'3' { '6' } else { '3' };
        format!("{}{}", b[0] as char, rank)
    };
    format!(
        "{} {side} {castling} {ep} {} {}",
        ranks.join("/"),
        f.get(4).unwrap_or(&"0"),
        f.get(5).unwrap_or(&"1")
    )
}

/// The chess evaluation (side to move's view) that the feature vector `feats` of `pos` and the
/// parameters `params` give: the learned linear sum, then the known-endgame rules, which are
/// scored on top of it from White's view, outside the feature vector (`chess::endgame`).
pub fn chess_eval_from_features(pos: &ChessPos, params: &[i32], feats: &[(u32, i32)]) -> i32 {
    let sign = if pos.side_to_move() == Side::First {
        1
    } else {
        -1
    };
    let learned = evaluate_features::<ChessPos, ChessFeatures>(params, feats);
    sign * endgame::adjust(pos.board(), sign * learned)
}

/// One optional chess table checked alone: with only its `len` parameters from `off` set (a
/// fixed spread of values), the evaluation of `fen` is not zero, equals that of `turned` (the
/// same position with the colours swapped) and equals the feature vector's dot product.
pub fn chess_table_moves_the_evaluation(off: usize, len: usize, fen: &str, turned: &str) {
    use kishi::chess::features::N_PARAMS;
    use kishi::eval::{FeatureSet, Weights};
    let mut params = vec![0i32; N_PARAMS];
    for i in 0..len {
        params[off + i] = 32 * ((i as i32 * 7) % 23 - 11);
    }
    let w = Weights::from_params::<ChessPos, ChessFeatures>(&params, "{}").expect("weights");
    let pos = |text: &str| ChessPos::from_text(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let eval = |text: &str| {
        let p = pos(text);
        let mut acc = Default::default();
        ChessFeatures::refresh(&w, &p, &mut acc);
        ChessFeatures::evaluate(&w, &p, &acc)
    };
    assert_ne!(eval(fen), 0);
    assert_eq!(eval(fen), eval(turned));
    let mut f = Vec::new();
    ChessFeatures::features(&pos(fen), &mut f);
    let dot: i64 = f
        .iter()
        .map(|&(i, c)| params[i as usize] as i64 * c as i64)
        .sum();
    assert_eq!(dot / ChessFeatures::SCALE as i64, eval(fen) as i64);
}
