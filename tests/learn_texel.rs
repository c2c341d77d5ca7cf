//! `learn texel` (regression on labelled positions), tiny and fast:
//! * EPD `ce` and `c9` reach the learner as the teacher's score and the result, from the side to
//!   move;
//! * the gradient of the cross-entropy equals finite differences of the loss;
//! * from wrong piece values, a run on positions labelled by a known material evaluation moves
//!   the piece values close to that evaluation's;
//! * a run stopped after an iteration and resumed (with another thread count) writes the same
//!   weights as an uninterrupted run; bad arguments and bad data exit 2 with a message.

use kishi::chess::features::{ChessFeatures, DEFAULT_MATERIAL, WEIGHT_UNIT};
use kishi::chess::ChessPos;
use kishi::eval::{FeatureSet, LinearEval, Weights};
use kishi::game::Game;
use kishi::learn::dataset::{self, DataOptions};
use kishi::learn::texel::leaves::Leaves;
use kishi::learn::texel::optim;
use kishi::search::learner::{LeafSearcher, SearchParams};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kishi-tx-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn epd_teacher_scores_and_results_reach_the_samples() {
    let d = tmpdir("epd");
    let f = d.join("l.epd");
    std::fs::write(
        &f,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 sm e5; ce -35; c9 \"1-0\";\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 sm d4; ce 20; c9 \"1/2-1/2\";\n\
         rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 sm Nf3; c9 \"12 3\";\n\
         rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2 sm Nc6; ce 4x;\n",
    )
    .unwrap();
    let ds = dataset::load::<ChessPos>(&DataOptions {
        train_files: vec![f],
        ..Default::default()
    })
    .expect("the file loads");
    assert_eq!(ds.train.len(), 3, "three good entries");
    assert_eq!(ds.errors.len(), 1, "the bad ce is an error naming its line");
    assert!(ds.errors[0].message.contains("ce"), "{:?}", ds.errors[0]);
    // Black to move after 1.e4, white won: the result from black's side is a loss.
    assert_eq!(ds.train[0].teacher, Some(-35));
    assert_eq!(ds.train[0].result, Some(0.0));
    assert_eq!(ds.train[1].teacher, Some(20));
    assert_eq!(ds.train[1].result, Some(0.5));
    // A c9 that is not a result (STS keeps scores there) is no result.
    assert_eq!(ds.train[2].teacher, None);
    assert_eq!(ds.train[2].result, None);
}

#[test]
fn a_games_scores_line_labels_every_position_and_a_bad_one_is_refused() {
    let d = tmpdir("scores");
    let f = d.join("g.txt");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    std::fs::write(
        &f,
        format!("#scores 30 -25 40\n1-0 3 fen {start} moves e2e4 e7e5 g1f3\n"),
    )
    .unwrap();
    let ds = dataset::load::<ChessPos>(&DataOptions {
        train_files: vec![f.clone()],
        ..Default::default()
    })
    .expect("the file loads");
    let teachers: Vec<Option<i32>> = ds.train.iter().map(|s| s.teacher).collect();
    assert_eq!(teachers, vec![Some(30), Some(-25), Some(40)]);
    // A scores line with a score per move missing (or not a number) is an error, not a guess.
    for bad in ["#scores 30 -25", "#scores 30 -25 x"] {
        std::fs::write(
            &f,
            format!("{bad}\n1-0 3 fen {start} moves e2e4 e7e5 g1f3\n"),
        )
        .unwrap();
        let Err(e) = dataset::load::<ChessPos>(&DataOptions {
            train_files: vec![f.clone()],
            ..Default::default()
        }) else {
            panic!("{bad}: the file was accepted");
        };
        assert!(e.contains("one integer score per move"), "{e}");
    }
}

#[test]
fn the_gradient_equals_finite_differences() {
    // Three positions over four weights, one with a constant part, one skipped.
    let leaves = Leaves {
        start: vec![0, 3, 5, 7],
        feats: vec![(0, 24), (1, -12), (3, 5), (1, 7), (2, 24), (0, -3), (3, 1)],
        constant: vec![100.0, -250.0, 0.0],
        skip: vec![false, false, true],
    };
    let y = [0.8f32, 0.1, 0.5];
    let teacher = [None, None, None];
    let theta = vec![40.0, -17.0, 90.0, 3.0];
    let (k, scale) = (std::f64::consts::LN_10 / 400.0, 24.0);
    let mut grad = vec![0.0; 4];
    let used = optim::batch_gradient(&leaves, &y, &[0, 1, 2], &theta, k, scale, &mut grad);
    assert_eq!(used, 2);
    for i in 0..4 {
        let h = 1e-3;
        let mut a = theta.clone();
        a[i] += h;
        let mut b = theta.clone();
        b[i] -= h;
        let fa = optim::fit(&leaves, &y, &teacher, &a, k, scale).loss;
        let fb = optim::fit(&leaves, &y, &teacher, &b, k, scale).loss;
        let num = (fa - fb) / (2.0 * h);
        assert!(
            (num - grad[i]).abs() <= 1e-6 * num.abs().max(1e-6),
            "weight {i}: analytic {} numeric {num}",
            grad[i]
        );
    }
}

/// Piece values only, in weight units: `mg`/`eg` centipawns per piece (P N B R Q).
fn material_params(values: [[i32; 5]; 2]) -> Vec<i32> {
    let mut p = vec![0i32; ChessFeatures::num_params()];
    for ph in 0..2 {
        for k in 0..5 {
            p[ph * 5 + k] = values[ph][k] * WEIGHT_UNIT;
        }
    }
    p
}

/// Positions of short random games from the book, labelled with the quiescence score of the
/// material-only evaluation with the default piece values (the teacher), written as EPD.
fn write_labelled(path: &Path, n_games: usize, seed: u64) {
    write_labelled_by(path, n_games, seed, DEFAULT_MATERIAL)
}

/// As `write_labelled`, with the teacher's piece values given.
fn write_labelled_by(path: &Path, n_games: usize, seed: u64, values: [[i32; 5]; 2]) {
    let target = material_params(values);
    let w = Weights::from_params::<ChessPos, ChessFeatures>(&target, "{}").unwrap();
    let eval = LinearEval::<ChessPos, ChessFeatures>::new(Arc::new(w));
    let mut searcher = LeafSearcher::new(SearchParams::learner(), 1);
    let mut rng = kishi::learn::dataset::Rng(seed);
    let mut out = String::new();
    let mut moves = Vec::new();
    for _ in 0..n_games {
        let mut pos = ChessPos::startpos();
        for _ in 0..60 {
            moves.clear();
            pos.legal_moves(&mut moves);
            if moves.len() < 2 {
                break;
            }
            // Captures are favoured, so that material goes off the board and the counts vary.
            let caps: Vec<_> = moves
                .iter()
                .copied()
                .filter(|&m| pos.is_tactical(m))
                .collect();
            let pool = if !caps.is_empty() && rng.below(3) > 0 {
                &caps
            } else {
                &moves
            };
            let mv = pool[rng.below(pool.len() as u64) as usize];
            if let Some(r) = searcher.search_full(&eval, &pos, 0) {
                if r.score.abs() < 5000 {
                    out.push_str(&format!(
                        "{} sm {}; ce {};\n",
                        pos.to_text(),
                        cozy_chess::util::display_san_move(pos.board(), mv),
                        r.score
                    ));
                }
            }
            pos = pos.play(mv);
        }
    }
    std::fs::write(path, out).unwrap();
}

/// A material-only weight file with these piece values, as `DIR/init.kwt`: its parameters and path.
fn write_init(dir: &Path, values: [[i32; 5]; 2]) -> (Vec<i32>, PathBuf) {
    let start = material_params(values);
    let init = dir.join("init.kwt");
    Weights::from_params::<ChessPos, ChessFeatures>(&start, "{}")
        .unwrap()
        .write(&init)
        .unwrap();
    (start, init)
}

fn kishi() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kishi"))
}

fn texel(
    dir: &Path,
    data: &Path,
    test: &Path,
    init: &Path,
    extra: &[&str],
) -> std::process::Output {
    kishi()
        .args(["learn", "texel", "--game", "chess", "--quiet", "--out"])
        .arg(dir)
        .arg("--data")
        .arg(data)
        .arg("--test")
        .arg(test)
        .arg("--init")
        .arg(init)
        .args([
            "--tables", "material", "--epochs", "4", "--batch", "64", "--lr", "128",
        ])
        .args(extra)
        .output()
        .expect("kishi runs")
}

fn ok(o: &std::process::Output) {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn material_of(path: &Path) -> Vec<i32> {
    let w = Weights::load::<ChessPos, ChessFeatures>(path, kishi::eval::Verify::All).unwrap();
    ChessFeatures::fold(&w).unwrap()[..10].to_vec()
}

fn distance(a: &[i32], b: &[i32]) -> i64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (*x as i64 - *y as i64).abs())
        .sum()
}

#[test]
fn piece_values_move_to_the_teachers_and_a_resumed_run_is_exact() {
    let d = tmpdir("learn");
    let (data, test) = (d.join("train.epd"), d.join("test.epd"));
    write_labelled(&data, 60, 1);
    write_labelled(&test, 10, 2);
    // Every piece starts at 300 cp.
    let (start, init) = write_init(&d, [[300; 5]; 2]);
    let whole = d.join("whole");
    ok(&texel(&whole, &data, &test, &init, &["--iterations", "4"]));
    let target = material_params(DEFAULT_MATERIAL)[..10].to_vec();
    let before = distance(&start[..10], &target);
    let after = distance(&material_of(&whole.join("weights.kwt")), &target);
    assert!(
        after * 10 < before,
        "piece values did not approach the teacher's: distance {before} -> {after}"
    );
    // The fit improved on the held-out positions.
    let metrics = std::fs::read_to_string(whole.join("metrics.jsonl")).unwrap();
    let losses: Vec<f64> = metrics
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["test_loss"].as_f64().unwrap()
        })
        .collect();
    assert_eq!(
        losses.len(),
        5,
        "one line per measurement: start and four iterations"
    );
    assert!(losses[4] < losses[0], "test loss {losses:?}");

    // Stopped after one iteration, then resumed to four on two threads: the same bytes.
    let part = d.join("part");
    ok(&texel(&part, &data, &test, &init, &["--iterations", "1"]));
    ok(&texel(
        &part,
        &data,
        &test,
        &init,
        &["--iterations", "4", "--resume", "--threads", "2"],
    ));
    for f in ["weights.kwt", "best.kwt", "params.bin"] {
        assert_eq!(
            std::fs::read(whole.join(f)).unwrap(),
            std::fs::read(part.join(f)).unwrap(),
            "{f} differs after a resume"
        );
    }
    let strip = |s: &str| -> Vec<String> {
        s.lines()
            .map(|l| {
                let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                for k in [
                    "seconds_leaves",
                    "seconds_epochs",
                    "leaves_per_second",
                    "unix_time",
                ] {
                    v[k] = serde_json::Value::Null;
                }
                v.to_string()
            })
            .collect()
    };
    let resumed = std::fs::read_to_string(part.join("metrics.jsonl")).unwrap();
    assert_eq!(strip(&metrics), strip(&resumed));

    // A resume with other settings is refused.
    let o = texel(
        &part,
        &data,
        &test,
        &init,
        &["--iterations", "5", "--resume", "--lr", "3"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("other settings"));
}

#[test]
fn a_test_set_without_teacher_scores_has_no_rms_rather_than_zero() {
    // The test positions carry results only (a games file's kind): their loss is measured, but
    // an RMS against a teacher they do not have must be absent, not 0 (which reads as perfect).
    let d = tmpdir("norms");
    let (data, test) = (d.join("train.epd"), d.join("test.epd"));
    write_labelled(&data, 20, 1);
    write_labelled(&test, 5, 2);
    let results_only: String = std::fs::read_to_string(&test)
        .unwrap()
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let head = l.split(" ce ").next().unwrap();
            let r = ["1-0", "0-1", "1/2-1/2"][i % 3];
            format!("{head} c9 \"{r}\";\n")
        })
        .collect();
    std::fs::write(&test, results_only).unwrap();
    let (_, init) = write_init(&d, [[300; 5]; 2]);
    let run = d.join("run");
    let o = texel(
        &run,
        &data,
        &test,
        &init,
        &["--iterations", "1", "--lambda", "0.5"],
    );
    ok(&o);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("test (no teacher scores)"),
        "the progress line names the missing RMS: {text}"
    );
    for line in std::fs::read_to_string(run.join("metrics.jsonl"))
        .unwrap()
        .lines()
    {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v["test_loss"].as_f64().is_some(), "{line}");
        assert!(v["test_rms_teacher"].is_null(), "{line}");
        assert!(v["train_rms_teacher"].as_f64().unwrap() > 0.0, "{line}");
    }

    // Without a test set the summary names the training loss, and the weights' provenance holds
    // no test loss (it once said 0.000000).
    let run2 = d.join("run2");
    let o = kishi()
        .args(["learn", "texel", "--game", "chess", "--out"])
        .arg(&run2)
        .arg("--data")
        .arg(&data)
        .arg("--init")
        .arg(&init)
        .args(["--tables", "material", "--batch", "64", "--iterations", "1"])
        .output()
        .expect("kishi runs");
    ok(&o);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("train loss (no test set)"), "{text}");
    let w = Weights::load::<ChessPos, ChessFeatures>(
        &run2.join("weights.kwt"),
        kishi::eval::Verify::All,
    )
    .unwrap();
    let prov: serde_json::Value = serde_json::from_str(w.provenance()).unwrap();
    assert!(prov.get("train_loss").is_some(), "{prov}");
    assert!(prov.get("test_loss").is_none(), "{prov}");
    assert!(prov.get("test_rms_teacher").is_none(), "{prov}");
}

#[test]
fn best_kwt_keeps_the_weights_of_the_lowest_test_loss() {
    // Training positions labelled by the default piece values, test positions by the starting
    // ones: every step towards the training labels raises the test loss, so the best weights are
    // the start's (a sentinel that a negated loss always beat once made best.kwt the last).
    let d = tmpdir("best");
    let (data, test) = (d.join("train.epd"), d.join("test.epd"));
    let start_values = [[300; 5]; 2];
    write_labelled(&data, 60, 1);
    write_labelled_by(&test, 10, 2, start_values);
    let (start, init) = write_init(&d, start_values);
    let out = d.join("run");
    ok(&texel(&out, &data, &test, &init, &["--iterations", "3"]));
    let metrics = std::fs::read_to_string(out.join("metrics.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = metrics
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let losses: Vec<f64> = lines
        .iter()
        .map(|v| v["test_loss"].as_f64().unwrap())
        .collect();
    assert!(
        losses[1..].iter().all(|&l| l > losses[0]),
        "the test loss should rise from the start: {losses:?}"
    );
    assert_eq!(lines[3]["best_iteration"].as_u64(), Some(0), "{metrics}");
    assert_eq!(material_of(&out.join("best.kwt")), start[..10].to_vec());
    assert_ne!(material_of(&out.join("weights.kwt")), start[..10].to_vec());
    // The final weights name their own held-out loss (the last measurement), as best.kwt does.
    let w = Weights::load::<ChessPos, ChessFeatures>(
        &out.join("weights.kwt"),
        kishi::eval::Verify::All,
    )
    .unwrap();
    let prov: serde_json::Value = serde_json::from_str(w.provenance()).unwrap();
    assert_eq!(
        prov["test_loss"].as_str(),
        Some(format!("{:.6}", losses[3]).as_str()),
        "{prov}"
    );
}

#[test]
fn bad_arguments_and_data_exit_2_with_a_message() {
    let d = tmpdir("bad");
    let good = d.join("g.epd");
    std::fs::write(
        &good,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 sm e4; ce 20;\n",
    )
    .unwrap();
    let unlabelled = d.join("u.epd");
    std::fs::write(
        &unlabelled,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 sm e4;\n",
    )
    .unwrap();
    let out = d.join("out");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--data", good.to_str().unwrap()], "--out"),
        (
            vec![
                "--data",
                good.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--lr",
                "-1",
            ],
            "--lr",
        ),
        (
            vec![
                "--data",
                good.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--lambda",
                "2",
            ],
            "--lambda",
        ),
        (
            vec!["--data", "/nonexistent.epd", "--out", out.to_str().unwrap()],
            "no such file",
        ),
        (
            vec![
                "--data",
                unlabelled.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ],
            "no labelled training position",
        ),
        (
            vec![
                "--data",
                good.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--tables",
                "Z9",
            ],
            "unknown table",
        ),
    ];
    for (args, expect) in cases {
        let o = kishi()
            .args(["learn", "texel", "--game", "chess", "--quiet"])
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(expect),
            "{args:?}: expected '{expect}' in: {err}"
        );
    }
}
