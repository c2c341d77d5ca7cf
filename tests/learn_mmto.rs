//! Learner tests on tiny data: the analytic gradient of J for the piece values matches finite
//! differences with the PV leaves held fixed; the constrained piece-value sum never changes; L1
//! drives weights of features that never occur to zero; one thread and a fixed seed give identical
//! weight files; a run resumed from its checkpoint ends identical to an uninterrupted one;
//! malformed records are skipped and reported.

use kishi::eval::FeatureSet;
use kishi::learn::dataset::{self, DataOptions, Rng};
use kishi::learn::{self, LearnConfig, Learned, Method, Step};
use kishi::learn::{run, LearnArgs};
use kishi::shogi::features::Bonanza;
use kishi::shogi::ShogiPos;
use std::path::{Path, PathBuf};

fn shared(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(rel)
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kishi-learn-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The three sample shogi games plus one malformed line in the middle.
fn data_file(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(shared("shogi/shogi_sample_games.txt")).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines.insert(1, "1-0 3 sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 3c3d 9z9z".into());
    let p = dir.join("games.txt");
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    p
}

fn cfg() -> LearnConfig {
    LearnConfig {
        method: Method::Mmto,
        a: 0.0273,
        l1: 0.00625,
        step: Step::Fixed(1),
        piece_sum: Some(6500),
        depth: 1,
        window: 256,
        reuse: 4,
        threads: 1,
        seed: 1,
        ct_rate: 0.5,
        ct_scale: 0.0025,
        ct_c: 2.0,
    }
}

fn samples(dir: &Path, max: usize) -> Vec<dataset::Sample<ShogiPos>> {
    let opts = DataOptions {
        train_files: vec![data_file(dir)],
        max_train: max,
        seed: 3,
        ..Default::default()
    };
    dataset::load::<ShogiPos>(&opts).unwrap().train
}

fn material_500() -> Vec<i32> {
    let mut p = vec![0; Bonanza::num_params()];
    p[..13].fill(500);
    p
}

#[test]
fn malformed_records_are_skipped_and_reported() {
    let dir = tmpdir("malformed");
    let opts = DataOptions {
        train_files: vec![data_file(&dir)],
        ..Default::default()
    };
    let ds = dataset::load::<ShogiPos>(&opts).unwrap();
    assert_eq!(ds.errors.len(), 1, "{:?}", ds.errors);
    assert_eq!(ds.errors[0].line, 2);
    assert!(
        ds.errors[0].message.contains("9z9z"),
        "{}",
        ds.errors[0].message
    );
    assert_eq!(ds.games_read, 3);
    assert!(ds.train.len() > 350, "{}", ds.train.len());
}

#[test]
fn analytic_gradient_matches_finite_differences_for_piece_values() {
    let dir = tmpdir("grad");
    let s = samples(&dir, 60);
    let params = material_500();
    let learned = Learned::select::<ShogiPos, Bonanza>(&["A".into()], true).unwrap();
    let cfg = cfg();
    let eval = learn::build_eval::<ShogiPos, Bonanza>(&params, "{}").unwrap();
    let (data, stats) =
        learn::step1::<ShogiPos, Bonanza>(&s, &params, &learned, &cfg, &eval, true, &|_| {});
    assert!(stats.in_window > 100, "{stats:?}");
    assert_eq!(
        stats.inconsistent, 0,
        "leaf features must reproduce the search scores"
    );
    // Use uneven values so the derivatives differ.
    let w: Vec<i32> = (0..13).map(|i| 300 + 37 * i).collect();
    let obj = learn::objective(&data, &w, Bonanza::SCALE, &cfg);
    let mut checked = 0;
    for i in 0..13 {
        let mut up = w.clone();
        let mut down = w.clone();
        up[i] += 1;
        down[i] -= 1;
        let fd = (learn::objective(&data, &up, Bonanza::SCALE, &cfg).j
            - learn::objective(&data, &down, Bonanza::SCALE, &cfg).j)
            / 2.0;
        let g = obj.grad[i];
        assert!(
            (fd - g).abs() <= 1e-3 * g.abs().max(1e-3),
            "piece {i}: analytic {g} finite difference {fd}"
        );
        if g.abs() > 1e-6 {
            checked += 1;
        }
    }
    assert!(checked >= 5, "too few pieces have a gradient: {checked}");
}

#[test]
fn piece_value_sum_is_invariant_under_updates() {
    let learned = Learned::select::<ShogiPos, Bonanza>(&["A".into()], true).unwrap();
    let mut rng = Rng(7);
    for step in [Step::Fixed(1), Step::Fixed(3), Step::Random] {
        let mut c = cfg();
        c.step = step;
        let mut w: Vec<i32> = (0..13).map(|i| 400 + 17 * i).collect();
        let sum: i32 = w.iter().sum();
        for _ in 0..200 {
            let grad: Vec<f64> = (0..13).map(|_| rng.unit() - 0.5).collect();
            learn::grid_update(&mut w, &grad, &learned, &c, &mut rng);
            assert_eq!(w.iter().sum::<i32>(), sum, "{step:?}");
        }
    }
}

#[test]
fn l1_drives_weights_of_features_that_never_occur_to_zero() {
    let dir = tmpdir("l1");
    let s = samples(&dir, 40);
    let mut params = material_500();
    let learned = Learned::select::<ShogiPos, Bonanza>(&["A".into(), "B".into()], true).unwrap();
    let cfg = cfg();
    let eval = learn::build_eval::<ShogiPos, Bonanza>(&params, "{}").unwrap();
    let (data, _) =
        learn::step1::<ShogiPos, Bonanza>(&s, &params, &learned, &cfg, &eval, true, &|_| {});
    let mut seen = vec![false; learned.n_local];
    for p in &data {
        for &(i, _) in &p.record.feats {
            seen[i as usize] = true;
        }
        for c in &p.children {
            if let learn::Child::Window(l) = c {
                for &(i, _) in &l.feats {
                    seen[i as usize] = true;
                }
            }
        }
    }
    let unseen: Vec<usize> = (13..learned.n_local)
        .filter(|&i| !seen[i])
        .take(500)
        .collect();
    assert!(unseen.len() == 500);
    for (k, &i) in unseen.iter().enumerate() {
        params[learned.global(i)] = if k % 2 == 0 { 3 } else { -2 };
    }
    let mut w: Vec<i32> = (0..learned.n_local)
        .map(|l| params[learned.global(l)])
        .collect();
    let mut rng = Rng(1);
    for round in 0..5 {
        let obj = learn::objective(&data, &w, Bonanza::SCALE, &cfg);
        learn::grid_update(&mut w, &obj.grad, &learned, &cfg, &mut rng);
        if round >= 3 {
            assert!(unseen.iter().all(|&i| w[i] == 0), "round {round}");
        }
    }
}

fn args(dir: &Path, data: &Path, iterations: usize, extra: &[&str]) -> LearnArgs {
    let mut a: Vec<String> = [
        "mmto",
        "--game",
        "shogi",
        "--data",
        data.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
        "--tables",
        "A",
        "--material-init",
        "500",
        "--iterations",
        &iterations.to_string(),
        "--reuse",
        "4",
        "--threads",
        "1",
        "--seed",
        "5",
        "--max-positions",
        "150",
        "--quiet",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    a.extend(extra.iter().map(|s| s.to_string()));
    LearnArgs::parse(&a, None).unwrap()
}

#[test]
fn one_thread_and_a_seed_give_identical_weight_files_and_resume_is_exact() {
    let base = tmpdir("det");
    let data = data_file(&base);
    let (a, b, c) = (base.join("a"), base.join("b"), base.join("c"));
    let mut sink = Vec::new();
    run::run::<ShogiPos, Bonanza>(&args(&a, &data, 3, &[]), &mut sink).unwrap();
    run::run::<ShogiPos, Bonanza>(&args(&b, &data, 3, &[]), &mut sink).unwrap();
    let wa = std::fs::read(a.join("weights.kwt")).unwrap();
    assert_eq!(wa, std::fs::read(b.join("weights.kwt")).unwrap());
    // Workers take positions from a shared counter: two threads learn exactly what one does.
    let t2 = base.join("t2");
    run::run::<ShogiPos, Bonanza>(&args(&t2, &data, 3, &["--threads", "2"]), &mut sink).unwrap();
    assert!(
        std::fs::read(t2.join("params.bin")).unwrap()
            == std::fs::read(a.join("params.bin")).unwrap(),
        "two threads learned other weights than one"
    );
    // Interrupted after one iteration, then resumed to three.
    run::run::<ShogiPos, Bonanza>(&args(&c, &data, 1, &[]), &mut sink).unwrap();
    let first = std::fs::read(c.join("weights.kwt")).unwrap();
    assert_ne!(first, wa, "one iteration must differ from three");
    let s = run::run::<ShogiPos, Bonanza>(&args(&c, &data, 3, &["--resume"]), &mut sink).unwrap();
    assert_eq!(s.iterations_done, 3);
    assert_eq!(std::fs::read(c.join("weights.kwt")).unwrap(), wa);
    assert_eq!(
        std::fs::read(c.join("params.bin")).unwrap(),
        std::fs::read(a.join("params.bin")).unwrap()
    );
    let lines = |d: &Path| {
        std::fs::read_to_string(d.join("metrics.jsonl"))
            .unwrap()
            .lines()
            .count()
    };
    assert_eq!(lines(&c), 3);
    assert_eq!(lines(&a), 3);
    // The piece values moved and kept their sum.
    let p = kishi::learn::checkpoint::read_params(&a.join("params.bin"), Bonanza::num_params())
        .unwrap();
    assert_eq!(p[..13].iter().sum::<i32>(), 6500);
    assert!(p[..13].iter().any(|&v| v != 500));
    let _ = std::fs::remove_dir_all(&base);
}

/// `args` with the games split into training and test sets instead of all training.
fn split_args(dir: &Path, data: &Path, iterations: usize, extra: &[&str]) -> LearnArgs {
    let mut a = args(dir, data, iterations, extra);
    a.data.split_files = std::mem::take(&mut a.data.train_files);
    a
}

/// `"name":value` of a metrics line (value as text).
fn field<'a>(line: &'a str, name: &str) -> &'a str {
    let key = format!("\"{name}\":");
    let at = line.find(&key).unwrap() + key.len();
    let rest = &line[at..];
    &rest[..rest.find([',', '}']).unwrap()]
}

#[test]
fn best_kwt_holds_the_best_measured_weights_and_patience_stops_the_run() {
    let base = tmpdir("best");
    let data = data_file(&base);
    let (a, b, c) = (base.join("a"), base.join("b"), base.join("c"));
    let mut sink = Vec::new();
    let opts = [
        "--test-fraction",
        "0.5",
        "--reuse",
        "1",
        "--max-positions",
        "60",
        "--max-test",
        "60",
        "--patience",
        "2",
    ];
    let s = run::run::<ShogiPos, Bonanza>(&split_args(&a, &data, 30, &opts), &mut sink).unwrap();
    eprintln!("{}", s.describe());
    assert!(s.best.agreement >= 0.0, "a test set was measured");
    // The run stops two measurements after its best one.
    assert!(
        s.stopped_early,
        "agreement on 1-2 games cannot rise 30 times"
    );
    assert_eq!(s.iterations_done, s.best.updates as usize + 3);
    // Every metrics line carries the running maximum of the test agreement it measured (ties
    // counted as misses).
    let text = std::fs::read_to_string(a.join("metrics.jsonl")).unwrap();
    let mut max = -1.0f64;
    for (k, line) in text.lines().enumerate() {
        assert_eq!(field(line, "weights_measured"), k.to_string());
        let t: f64 = field(line, "agreement_test_strict").parse().unwrap();
        max = max.max(t);
        assert_eq!(field(line, "best_test").parse::<f64>().unwrap(), max);
    }
    // best.kwt is byte for byte the weight file of a plain run with that many updates.
    let k = s.best.updates as usize;
    let plain = &opts[..8];
    run::run::<ShogiPos, Bonanza>(&split_args(&b, &data, k, plain), &mut sink).unwrap();
    let expected = b.join(if k == 0 { "initial.kwt" } else { "weights.kwt" });
    let best = std::fs::read(a.join("best.kwt")).unwrap();
    assert!(best == std::fs::read(expected).unwrap(), "best.kwt differs");
    // An interrupted run resumes with its best-so-far and stops at the same point.
    run::run::<ShogiPos, Bonanza>(&split_args(&c, &data, 1, &opts), &mut sink).unwrap();
    let mut resume = opts.to_vec();
    resume.push("--resume");
    let r = run::run::<ShogiPos, Bonanza>(&split_args(&c, &data, 30, &resume), &mut sink).unwrap();
    assert_eq!(r.iterations_done, s.iterations_done);
    assert_eq!(r.best, s.best);
    assert!(
        std::fs::read(c.join("best.kwt")).unwrap() == best,
        "resumed best.kwt differs"
    );
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn patience_without_a_test_set_and_a_bad_init_file_are_refused_before_learning() {
    let base = tmpdir("refuse");
    let data = data_file(&base);
    let mut sink = Vec::new();
    let e = run::run::<ShogiPos, Bonanza>(
        &args(&base.join("p"), &data, 2, &["--patience", "1"]),
        &mut sink,
    )
    .unwrap_err();
    assert!(e.contains("--patience needs a test set"), "{e}");
    let bad = base.join("bad.kwt");
    std::fs::write(&bad, b"not a weight file").unwrap();
    let e = run::run::<ShogiPos, Bonanza>(
        &args(
            &base.join("i"),
            &data,
            2,
            &["--init", bad.to_str().unwrap()],
        ),
        &mut sink,
    )
    .unwrap_err();
    assert!(e.contains("bad.kwt"), "{e}");
    assert!(!base.join("i").join("metrics.jsonl").exists());
    let _ = std::fs::remove_dir_all(&base);
}
