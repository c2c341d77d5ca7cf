//! `learn results` (self-play games fitted to their results by `learn texel`), tiny and fast:
//! * a two-generation shogi run writes the current weights, one metrics line and one games file
//!   per generation, whose records read back as legal games with stated results, as many as
//!   `--games`; the weights moved from the start; each generation's fresh loss (W_k on its own
//!   new games) is measured, and for generation 0 equals its fit's first measurement;
//! * `--threads 2` plays the same games and learns the same weights as one thread;
//! * a run stopped after one generation and resumed with `--generations 2` ends bit-identical to
//!   the straight run, and so does a generation interrupted after its games file (reused, its fit
//!   resumed from texel's checkpoint);
//! * a resume with other settings, and a new run over an old one, are refused;
//! * `--lambda` mixes the search's scores (a `#scores` line per game) into the fit without
//!   changing the games, and `--nodes-spread` makes other games, alike for any thread count;
//! * bad arguments are errors (exit 2), never panics.

use kishi::eval::{FeatureSet, Verify, Weights};
use kishi::game::records::{GameRecords, RecordResult, TEACHER_SCORES};
use kishi::game::Game;
use kishi::learn::checkpoint::read_params;
use kishi::shogi::features::Bonanza;
use kishi::shogi::ShogiPos;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

const GAMES: usize = 4;

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kishi-lr-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// `kishi learn results` on shogi with tiny settings, plus `extra`.
fn learn(dir: &Path, extra: &[&str]) -> Output {
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("book/shogi_openings_977.sfen");
    Command::new(env!("CARGO_BIN_EXE_kishi"))
        .args(["learn", "results", "--game", "shogi", "--out"])
        .arg(dir)
        .arg("--openings")
        .arg(&book)
        .args(["--games", &GAMES.to_string()])
        .args(["--nodes", "200", "--max-plies", "40", "--hash", "1"])
        .args([
            "--iterations",
            "1",
            "--epochs",
            "2",
            "--batch",
            "64",
            "--lr",
            "4",
        ])
        .arg("--quiet")
        .args(extra)
        .output()
        .expect("kishi runs")
}

fn ok(o: Output) {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The error text of a run that must be refused with exit code 2 and no panic.
fn refused(o: Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("error"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The straight two-generation, one-thread run every test compares with (made once).
fn reference() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        // Under target/ with a fixed name: no test owns it to remove it at the end, so the next
        // test run replaces it instead of leaving one per run in the temporary directory.
        let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("learn-results-reference");
        let _ = std::fs::remove_dir_all(&d);
        ok(learn(&d, &["--generations", "2", "--threads", "1"]));
        d
    })
}

/// The files a run's result consists of (timings live only in metrics lines and games.json).
fn same_result(a: &Path, b: &Path) {
    for f in [
        "weights.kwt",
        "initial.params",
        "gen-000/games.txt",
        "gen-001/games.txt",
        // Not the fits' weight files: texel's provenance names their run's paths.
        "gen-000/fit/params.bin",
        "gen-001/fit/params.bin",
    ] {
        assert!(
            read(&a.join(f)) == read(&b.join(f)),
            "{f} of {} differs from {}",
            b.display(),
            a.display()
        );
    }
}

fn metrics(dir: &Path) -> Vec<serde_json::Value> {
    String::from_utf8(read(&dir.join("metrics.jsonl")))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn a_tiny_run_writes_legal_games_weights_and_metrics() {
    let d = reference();
    let lines = metrics(d);
    assert_eq!(lines.len(), 2);
    for (k, l) in lines.iter().enumerate() {
        assert_eq!(l["generation"], k as u64);
        assert_eq!(l["games"], GAMES as u64);
        let wdl: u64 = ["wins_first", "draws", "losses_first"]
            .iter()
            .map(|f| l[*f].as_u64().unwrap())
            .sum();
        assert_eq!(wdl, GAMES as u64, "{l}");
        assert!(l["nodes_searched"].as_u64().unwrap() > 0, "{l}");
        assert_eq!(l["piece_values"].as_array().unwrap().len(), 13, "{l}");
        assert!(l["train_loss"].as_f64().is_some(), "{l}");
        assert_eq!(l["pool_generations"], k as u64 + 1);
        let fresh = l["fresh_loss"].as_f64().unwrap_or(f64::NAN);
        assert!(fresh > 0.0 && fresh < 5.0, "{l}");
        assert!(l["fresh_positions"].as_u64().unwrap() > 0, "{l}");
    }
    // Generation 0's fit sees only its own games and starts from W_0: its first measurement (the
    // fit's iteration 0) is the same loss of the same weights on the same positions as the
    // generation's fresh loss, measured separately before the fit.
    let fit0: Vec<serde_json::Value> =
        String::from_utf8(read(&d.join("gen-000/fit/metrics.jsonl")))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
    assert_eq!(fit0[0]["iteration"], 0);
    assert_eq!(lines[0]["fresh_loss"], fit0[0]["train_loss"]);
    // (Positions whose leaf is a mate are left out of both; the fit counts them apart.)
    assert_eq!(
        lines[0]["fresh_positions"].as_u64().unwrap() + fit0[0]["mates_skipped"].as_u64().unwrap(),
        fit0[0]["train_positions"].as_u64().unwrap()
    );
    for (k, line) in lines.iter().enumerate() {
        let path = d.join(format!("gen-{k:03}/games.txt"));
        let records: Vec<_> = ShogiPos::open_records(&path)
            .unwrap()
            .map(|r| r.unwrap_or_else(|e| panic!("{e}")))
            .collect();
        assert_eq!(records.len(), GAMES, "{}", path.display());
        // The comment line before each record says how the game ended.
        let text = String::from_utf8(read(&path)).unwrap();
        let ends: Vec<&str> = text.lines().filter(|l| l.starts_with("# ")).collect();
        assert_eq!(ends.len(), GAMES);
        // And a `#scores` line holds the play search's score of every position of it.
        let scores: Vec<&str> = text.lines().filter(|l| l.starts_with("#scores")).collect();
        assert_eq!(scores.len(), GAMES);
        for (r, s) in records.iter().zip(&scores) {
            let v: Vec<i32> = s
                .split_whitespace()
                .skip(1)
                .map(|w| w.parse::<i32>().unwrap())
                .collect();
            assert_eq!(v.len(), r.moves.len(), "{s}");
            assert_eq!(r.meta(TEACHER_SCORES), Some(s["#scores".len()..].trim()));
        }
        let (mut resigned, mut cut) = (0, 0);
        for (r, end) in records.iter().zip(&ends) {
            let mut pos = r.start.clone();
            let mut buf = Vec::new();
            for &mv in &r.moves {
                buf.clear();
                pos.legal_moves(&mut buf);
                assert!(buf.contains(&mv), "an illegal move in {}", path.display());
                pos = pos.play(mv);
            }
            assert!(!r.moves.is_empty() && r.moves.len() <= 40, "{end}");
            let stated = RecordResult::text(r.result);
            if end.contains("first player resigned") {
                assert_eq!(stated, "0-1", "{end}");
                resigned += 1;
            } else if end.contains("second player resigned") {
                assert_eq!(stated, "1-0", "{end}");
                resigned += 1;
            } else if end.contains("max-plies") {
                assert_eq!((stated, r.moves.len()), ("1/2-1/2", 40), "{end}");
                cut += 1;
            } else {
                assert!(r.result.is_some(), "{end}");
            }
        }
        assert_eq!(line["resignations"].as_u64().unwrap(), resigned);
        assert_eq!(line["max_plies"].as_u64().unwrap(), cut);
    }
    // The weights moved: the current ones are generation 1's fit, and differ from W_0.
    let n = Bonanza::num_params();
    let start = read_params(&d.join("initial.params"), n).unwrap();
    let w = Weights::load::<ShogiPos, Bonanza>(&d.join("weights.kwt"), Verify::All).unwrap();
    let now = Bonanza::fold(&w).unwrap();
    assert_ne!(start, now, "the weights moved from the start");
    let fit = Weights::load::<ShogiPos, Bonanza>(&d.join("gen-001/fit/weights.kwt"), Verify::All);
    assert_eq!(now, Bonanza::fold(&fit.unwrap()).unwrap());
    assert_eq!(
        now,
        read_params(&d.join("gen-001/fit/params.bin"), n).unwrap()
    );
}

#[test]
fn threads_do_not_change_the_games_or_the_weights() {
    let d = tmpdir("threads");
    ok(learn(&d, &["--generations", "2", "--threads", "2"]));
    same_result(reference(), &d);
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn a_run_extended_by_resume_ends_where_the_straight_run_does() {
    let d = tmpdir("extended");
    ok(learn(&d, &["--generations", "1"]));
    assert_eq!(metrics(&d).len(), 1);
    assert!(!d.join("gen-001").exists());
    ok(learn(&d, &["--generations", "2", "--resume"]));
    assert_eq!(metrics(&d).len(), 2);
    same_result(reference(), &d);
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn an_interrupted_generation_reuses_its_games_and_resumes_its_fit() {
    // A straight run, then made to look like one killed after generation 1's fit checkpoint
    // but before its state file said so (its own directory: texel's checkpoint names its paths).
    let d = tmpdir("interrupted");
    ok(learn(&d, &["--generations", "2"]));
    let src = reference();
    same_result(src, &d);
    std::fs::write(
        d.join("metrics.jsonl"),
        [read(&d.join("metrics.jsonl")), b"{\"stray\":1}\n".to_vec()].concat(),
    )
    .unwrap();
    let state = d.join("state.json");
    let mut s: serde_json::Value = serde_json::from_slice(&read(&state)).unwrap();
    assert_eq!(s["generations"], 2);
    s["generations"] = 1.into();
    std::fs::write(&state, s.to_string()).unwrap();
    std::fs::remove_file(d.join("weights.kwt")).unwrap();
    std::fs::remove_file(d.join("gen-001/fit/weights.kwt")).unwrap();
    ok(learn(&d, &["--generations", "2", "--resume"]));
    let lines = metrics(&d);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["games_reused"], true);
    assert_eq!(lines[0]["games_reused"], false);
    same_result(src, &d);

    // Again with the fit gone entirely: the games file is reused and the fit redone.
    std::fs::write(&state, s.to_string()).unwrap();
    std::fs::remove_dir_all(d.join("gen-001/fit")).unwrap();
    ok(learn(&d, &["--generations", "2", "--resume"]));
    same_result(src, &d);
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn lambda_mixes_the_scores_into_the_fit_and_a_nodes_spread_varies_the_games() {
    let base = reference();
    // --lambda changes the fit's targets, not the games.
    let d = tmpdir("lambda");
    ok(learn(&d, &["--generations", "1", "--lambda", "0.5"]));
    assert_eq!(
        read(&d.join("gen-000/games.txt")),
        read(&base.join("gen-000/games.txt"))
    );
    assert_ne!(
        read(&d.join("gen-000/fit/params.bin")),
        read(&base.join("gen-000/fit/params.bin")),
        "the search's scores moved the fit elsewhere"
    );
    // And it is a setting a resume must share.
    let err = refused(learn(&d, &["--generations", "2", "--resume"]));
    assert!(err.contains("refusing to resume"), "{err}");
    let _ = std::fs::remove_dir_all(&d);

    // --nodes-spread: other games, the same for any thread count.
    let games = |extra: &[&str], name: &str| {
        let d = tmpdir(name);
        let mut a = vec!["--generations", "1", "--nodes-spread", "300"];
        a.extend_from_slice(extra);
        ok(learn(&d, &a));
        let g = read(&d.join("gen-000/games.txt"));
        let _ = std::fs::remove_dir_all(&d);
        g
    };
    let one = games(&["--threads", "1"], "spread1");
    assert_ne!(one, read(&base.join("gen-000/games.txt")));
    assert_eq!(one, games(&["--threads", "2"], "spread2"));
}

#[test]
fn other_settings_and_a_second_run_over_an_old_one_are_refused() {
    let d = tmpdir("refused");
    ok(learn(&d, &["--generations", "1", "--games", "2"]));
    let before = read(&d.join("weights.kwt"));
    let err = refused(learn(
        &d,
        &[
            "--generations",
            "2",
            "--games",
            "2",
            "--nodes",
            "300",
            "--resume",
        ],
    ));
    assert!(err.contains("refusing to resume"), "{err}");
    let err = refused(learn(&d, &["--generations", "1", "--games", "2"]));
    assert!(err.contains("--resume"), "{err}");
    // Nothing was touched by the refused runs.
    assert_eq!(before, read(&d.join("weights.kwt")));
    assert_eq!(metrics(&d).len(), 1);
    assert!(!d.join("gen-001").exists());
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn bad_arguments_are_errors() {
    let d = tmpdir("bad");
    for args in [
        vec!["--openings", "/nonexistent/book.sfen"],
        vec!["--games", "0"],
        vec!["--tables", "nosuch"],
        vec!["--nodes", "x"],
        vec!["--generations", "0"],
        vec!["--lr", "-1"],
        vec!["--init", "/nonexistent/weights.kwt"],
        vec!["--game", "go"],
        vec!["--lambda", "1.5"],
        vec!["--nodes-spread", "-3"],
    ] {
        refused(learn(&d, &args));
    }
    assert!(!d.join("state.json").exists(), "nothing was started");
    let _ = std::fs::remove_dir_all(d);
}
