//! The search parameters table (`game::search_params`): each game's table is well-formed and holds
//! the margins the search was written with; a normal build keeps them out of the option list, and
//! a `tune` build (`cargo test --release --features tune`) declares them as spin options that
//! `setoption` changes and that reach the search.

use kishi::chess::ChessPos;
use kishi::game::search_params::{check, CHESS, NAMES, SHOGI, STANDARD};
use kishi::game::Game;
use kishi::shogi::ShogiPos;
use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn both_games_tables_are_well_formed_with_todays_values() {
    check(&ShogiPos::SEARCH_PARAMS).expect("shogi table");
    check(&ChessPos::SEARCH_PARAMS).expect("chess table");
    // Shogi's differs from the standard table in continuation-history pruning only (off).
    assert_eq!(ShogiPos::SEARCH_PARAMS, SHOGI);
    // Chess's holds the values of two SPSA runs (docs/tuning/spsa.md) and the prunings its A/B
    // matches kept (quiet SEE pruning, the table-adjusted pruning evaluation:
    // docs/search_report.md §17; double extensions: §21; the falling-evaluation time factor:
    // §25; the escape bonus in the move ordering: §29; correction histories: §37, §38); only
    // the defaults differ, never the names, ranges or steps a tuner reads.
    assert_eq!(ChessPos::SEARCH_PARAMS, CHESS);
    let changed: Vec<&str> = (0..NAMES.len())
        .filter(|&i| CHESS[i].default != STANDARD[i].default)
        .map(|i| NAMES[i])
        .collect();
    assert_eq!(changed.len(), 22, "{changed:?}");
    for i in 0..NAMES.len() {
        let (c, s) = (CHESS[i], STANDARD[i]);
        assert_eq!(
            (c.name, c.min, c.max, c.step),
            (s.name, s.min, s.max, s.step)
        );
    }
}

fn console(input: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kishi"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn kishi");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("output");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(String::from)
        .collect()
}

#[cfg(not(feature = "tune"))]
#[test]
fn a_normal_build_declares_no_search_parameter() {
    for cmd in ["usi", "uci"] {
        let lines = console(&format!(
            "{cmd}\nsetoption name RfpMargin value 100\nquit\n"
        ));
        for name in kishi::game::search_params::NAMES {
            assert!(
                !lines
                    .iter()
                    .any(|l| l.starts_with(&format!("option name {name} "))),
                "{cmd} declares {name}"
            );
        }
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error: unknown option 'RfpMargin'")),
            "{lines:?}"
        );
    }
}

#[cfg(feature = "tune")]
#[test]
fn a_tune_build_lists_the_parameters_and_setoption_changes_them() {
    for (cmd, table) in [
        ("usi", ShogiPos::SEARCH_PARAMS),
        ("uci", ChessPos::SEARCH_PARAMS),
    ] {
        let lines = console(&format!(
            "{cmd}\nsetoption name RfpMargin value 150\nsetoption name RfpMargin value 100000\nquit\n"
        ));
        for p in table {
            let want = format!(
                "option name {} type spin default {} min {} max {}",
                p.name, p.default, p.min, p.max
            );
            assert!(lines.contains(&want), "{cmd}: missing '{want}'");
        }
        let errors: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info string error"))
            .collect();
        assert_eq!(
            errors.len(),
            1,
            "only the out-of-range value fails: {errors:?}"
        );
    }
    // The values reach the search: a different margin searches a different tree.
    let nodes = |setup: &str| {
        use std::io::BufRead;
        let mut child = Command::new(env!("CARGO_BIN_EXE_kishi"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("spawn kishi");
        let mut stdin = child.stdin.take().expect("stdin");
        let stdout = std::io::BufReader::new(child.stdout.take().expect("stdout"));
        write!(
            stdin,
            "uci\n{setup}position startpos moves e2e4 e7e5 g1f3\ngo depth 9\n"
        )
        .expect("write");
        stdin.flush().expect("flush");
        let mut found = None;
        for line in stdout.lines() {
            let line = line.expect("a line");
            if line.starts_with("info depth 9 ") {
                let w: Vec<&str> = line.split_whitespace().collect();
                found = w
                    .iter()
                    .position(|&x| x == "nodes")
                    .and_then(|i| w.get(i + 1))
                    .and_then(|n| n.parse::<u64>().ok());
            }
            if line.starts_with("bestmove") {
                break;
            }
        }
        let _ = writeln!(stdin, "quit");
        let _ = child.wait();
        found.expect("a depth-9 info line with nodes")
    };
    // Setting chess's own default changes nothing (the table's value, not the standard one).
    let base = nodes("");
    let same = format!(
        "setoption name FutilityMargin value {}\n",
        CHESS[kishi::game::search_params::FUTILITY_MARGIN].default
    );
    assert_eq!(base, nodes(&same));
    assert_ne!(
        base,
        nodes("setoption name FutilityMargin value 10\nsetoption name RfpMargin value 10\n")
    );
}

#[test]
fn search_params_prints_each_games_table_as_an_spsa_space() {
    for (game, table) in [
        ("shogi", ShogiPos::SEARCH_PARAMS),
        ("chess", ChessPos::SEARCH_PARAMS),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_kishi"))
            .args(["search-params", game])
            .output()
            .expect("run kishi");
        assert!(out.status.success());
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        // shogiarena's space format (schema v1): USI options, one entry per parameter.
        assert_eq!(v["schema_version"], "shogiarena.spsa.space.v1");
        assert_eq!(v["target"]["protocol"], "usi_options");
        let params = v["parameters"].as_array().expect("a list");
        assert_eq!(params.len(), table.len());
        for (q, p) in params.iter().zip(table.iter()) {
            assert_eq!(q["id"], p.name);
            assert_eq!(q["target"]["option"], p.name);
            assert_eq!(q["value_type"], "int");
            assert_eq!(q["initial"], p.default);
            assert_eq!(q["bounds"]["min"], p.min);
            assert_eq!(q["bounds"]["max"], p.max);
            assert_eq!(q["schedule"]["c_end"], p.step);
            assert!(q["schedule"]["r_end"].as_f64().expect("r_end") > 0.0);
        }
    }
    let bad = Command::new(env!("CARGO_BIN_EXE_kishi"))
        .args(["search-params", "go"])
        .output()
        .expect("run kishi");
    assert_eq!(bad.status.code(), Some(2));
}
