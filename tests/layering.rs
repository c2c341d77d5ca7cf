//! The layering rule of `src/` (README "Layout"): arrows run downward only. The rules layer
//! (`game`), the evaluation (`eval`), the search (`search`) and the learner (`learn`) are written
//! once against the `Game` trait, so none of them may name a game (`shogi`, `chess`), the module
//! that binds both games (`games`) or a face (`cli`, `protocol`); and nothing outside the faces and
//! `main.rs` may name a face. This test scans every source file and fails naming each offending
//! line. Comments, string and character literals are ignored: only code paths count.

use std::path::{Path, PathBuf};

/// Top-level modules each folder may not name.
fn forbidden_for(rel: &str) -> &'static [&'static str] {
    const LOW: &[&str] = &["shogi", "chess", "games", "cli", "protocol"];
    const GAMES: &[&str] = &["search", "learn", "games", "cli", "protocol"];
    const MID: &[&str] = &["cli", "protocol"];
    let top = rel.split('/').next().unwrap_or("");
    match top {
        "game" | "eval" | "search" | "learn" | "util" => LOW,
        "shogi" | "chess" => GAMES,
        "cli" | "protocol" | "main.rs" => &[],
        _ => MID,
    }
}

/// The text with comments and the contents of string and char literals blanked out (newlines
/// kept, so line numbers stay right).
fn code_only(src: &str) -> String {
    let b: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && (i == 0 || !(b[i - 1].is_alphanumeric() || b[i - 1] == '_'))
        {
            // Raw string r"…", r#"…"#: ends at '"' followed by as many '#'.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            out.push_str(&" ".repeat(j + 1 - i));
            i = j + 1;
            while i < b.len() {
                if b[i] == '"' && (1..=hashes).all(|k| b.get(i + k) == Some(&'#')) {
                    out.push_str(&" ".repeat(hashes + 1));
                    i += hashes + 1;
                    break;
                }
                out.push(blank(b[i]));
                i += 1;
            }
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < b.len() {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' {
            // A char literal ('x', '\n', '\u{..}') or a lifetime ('a): only blank the former.
            let end = if next == Some('\\') {
                (i + 3..b.len().min(i + 12)).find(|&k| b[k] == '\'')
            } else if b.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(e) => {
                    out.push_str(&" ".repeat(e + 1 - i));
                    i = e + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The top-level modules a line of code names through a path: `crate::x`, `kishi::x`,
/// `super::super::x` (any number of `super`s, resolved against the file's depth), and the
/// first-level names of a group (`crate::{x, y::z}`).
fn named_modules(line: &str, depth: usize) -> Vec<String> {
    let words: Vec<&str> = line
        .split(|c: char| {
            !(c.is_alphanumeric() || c == '_' || c == ':' || c == '{' || c == '}' || c == ',')
        })
        .filter(|w| !w.is_empty())
        .collect();
    let text = words.join(" ");
    // Normalise spacing around `::` and braces so paths split over spaces still read.
    let text = text.replace(" ::", "::").replace(":: ", "::");
    let mut found = Vec::new();
    let bytes: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let at_word_start = i == 0 || !(bytes[i - 1].is_alphanumeric() || bytes[i - 1] == '_');
        let rest: String = bytes[i..].iter().collect();
        if !at_word_start {
            i += 1;
            continue;
        }
        let (prefix_len, resolved_to_root) = if rest.starts_with("crate::") {
            ("crate::".len(), true)
        } else if rest.starts_with("kishi::") {
            ("kishi::".len(), true)
        } else if rest.starts_with("super::") {
            let mut n = 0;
            let mut k = 0;
            while rest[k..].starts_with("super::") {
                n += 1;
                k += "super::".len();
            }
            (k, n >= depth)
        } else {
            (0, false)
        };
        if prefix_len == 0 || !resolved_to_root {
            i += prefix_len.max(1);
            continue;
        }
        let after = &rest[prefix_len..];
        if let Some(group) = after.strip_prefix('{') {
            // First-level names of the group.
            let mut level = 0;
            let mut name = String::new();
            let mut at_start = true;
            for c in group.chars() {
                match c {
                    '{' => level += 1,
                    '}' if level == 0 => break,
                    '}' => level -= 1,
                    ',' if level == 0 => {
                        at_start = true;
                        continue;
                    }
                    _ => {}
                }
                if level == 0 && at_start {
                    if c.is_alphanumeric() || c == '_' {
                        name.push(c);
                        continue;
                    } else if !name.is_empty() {
                        found.push(std::mem::take(&mut name));
                        at_start = false;
                    }
                }
            }
            if !name.is_empty() {
                found.push(name);
            }
        } else {
            let name: String = after
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                found.push(name);
            }
        }
        i += prefix_len;
    }
    found
}

/// Every rule violation in one file: `path:line: text (names X)`.
fn violations_in(rel: &str, src: &str) -> Vec<String> {
    let forbidden = forbidden_for(rel);
    // `super` from src/a/b.rs reaches the crate root after 1 step for mod.rs, 2 for others.
    let parts: Vec<&str> = rel.split('/').collect();
    // The module depth of the file: `crate::eval::linear` is 2, `crate::eval` (eval/mod.rs) 1.
    let depth = if parts.last() == Some(&"mod.rs") {
        parts.len() - 1
    } else {
        parts.len()
    };
    let code = code_only(src);
    let mut out = Vec::new();
    for (n, (line, original)) in code.lines().zip(src.lines()).enumerate() {
        for name in named_modules(line, depth.max(1)) {
            if forbidden.contains(&name.as_str()) {
                out.push(format!(
                    "src/{rel}:{}: {} (names `{name}`)",
                    n + 1,
                    original.trim()
                ));
            }
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn arrows_run_downward() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    assert!(files.len() > 40, "the scan found too few source files");
    let mut bad = Vec::new();
    for f in &files {
        let rel = f
            .strip_prefix(&src)
            .expect("under src")
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(f).expect("readable source file");
        bad.extend(violations_in(&rel, &text));
    }
    assert!(
        bad.is_empty(),
        "imports that run upward (see README, Layout):\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_scan_catches_every_spelling() {
    let cases = [
        ("eval/linear.rs", "use crate::shogi::ShogiPos;"),
        (
            "eval/linear.rs",
            "    let p = crate::chess::ChessPos::startpos();",
        ),
        (
            "eval/linear.rs",
            "use super::super::shogi::features::Bonanza;",
        ),
        ("eval/mod.rs", "use super::chess::ChessPos;"),
        ("learn/mmto/mod.rs", "use super::super::super::cli::x;"),
        (
            "learn/run.rs",
            "use crate::{eval::FeatureSet, protocol::Out};",
        ),
        ("learn/run.rs", "use crate::{game::{Game, Side}, cli};"),
        ("search/pvs.rs", "fn f() { kishi::games::learn(); }"),
        ("game/mod.rs", "pub use crate :: chess :: ChessPos;"),
        ("shogi/position.rs", "use crate::protocol::info::Out;"),
        ("chess/features.rs", "x = crate::cli::run(&[]);"),
        ("chess/position.rs", "use crate::search::Engine;"),
        ("util/json.rs", "use crate::shogi::ShogiPos;"),
        ("games.rs", "use crate::protocol::run;"),
    ];
    for (rel, line) in cases {
        assert!(
            !violations_in(rel, line).is_empty(),
            "not caught in {rel}: {line}"
        );
    }
    let allowed = [
        (
            "eval/linear.rs",
            "use super::weights::Weights; // crate::shogi::x",
        ),
        ("eval/linear.rs", "let s = \"crate::shogi::x\";"),
        ("eval/linear.rs", "/* crate::chess::x */ let a = 1;"),
        ("eval/linear.rs", "let s = r#\"crate::chess::x\"#;"),
        ("learn/run.rs", "use super::mmto::Mmto;"),
        ("learn/mmto/mod.rs", "use super::super::dataset::Sample;"),
        ("shogi/eval.rs", "use crate::eval::LinearEval;"),
        (
            "shogi/eval.rs",
            "use crate::{eval::LinearEval, game::Game};",
        ),
        (
            "protocol/controller.rs",
            "use crate::cli::x; use crate::shogi::y;",
        ),
        ("cli/mod.rs", "crate::protocol::run(stdin, stdout)"),
        (
            "games.rs",
            "use crate::{chess::ChessPos, learn, shogi::ShogiPos};",
        ),
        ("eval/linear.rs", "fn f<'a>(x: &'a str) -> char { 'c' }"),
        (
            "eval/linear.rs",
            "let q = '\\''; let s = 1; // crate::shogi",
        ),
    ];
    for (rel, line) in allowed {
        assert!(
            violations_in(rel, line).is_empty(),
            "wrongly flagged in {rel}: {line}: {:?}",
            violations_in(rel, line)
        );
    }
}
