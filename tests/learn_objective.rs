//! The parameterised objective (`learn mmto --objective-params`, issue 14) on tiny chess data:
//! its gradient equals finite differences for every term (J1 with per-position slope, margin and
//! weight; J2; L1 away from zero) with the PV leaves held fixed; with every category weight 1,
//! W2 = 0 and W4 = 0 a run is bit-identical to plain MMTO (and a non-default file does change
//! the weights); bad parameter files are refused with a clear error and a non-zero exit before
//! any data loads.

use kishi::chess::features::ChessFeatures;
use kishi::chess::ChessPos;
use kishi::eval::FeatureSet;
use kishi::learn::dataset;
use kishi::learn::grad::SparseGrad;
use kishi::learn::leaves::LeafStore;
use kishi::learn::objective::categories::Category;
use kishi::learn::objective::params::ObjectiveParams;
use kishi::learn::objective::weighted::{objective_store_weighted, PositionWeights, Terms};
use kishi::learn::step1::{build_eval, step1_store_with, StoreExtras};
use kishi::learn::{l1_term, run, LearnArgs, Learned};
use std::path::{Path, PathBuf};

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kishi-objective-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The first `n` games of the chess training file, as a small line-format file.
fn chess_games(dir: &Path, n: usize) -> PathBuf {
    use std::io::Read;
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/chess/chess_gm2400_train.txt.xz");
    let mut text = String::new();
    xz2::read::XzDecoder::new(std::fs::File::open(src).unwrap())
        .take(200_000)
        .read_to_string(&mut text)
        .unwrap_or(0);
    let lines: Vec<&str> = text.lines().take(n).collect();
    assert_eq!(lines.len(), n);
    let p = dir.join("games.txt");
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    p
}

fn args(data: &Path, out: &Path, extra: &[&str]) -> LearnArgs {
    let mut a: Vec<String> = [
        "mmto",
        "--game",
        "chess",
        "--split",
        data.to_str().unwrap(),
        "--test-fraction",
        "0.3",
        "--out",
        out.to_str().unwrap(),
        "--tables",
        "material,kp,positional",
        "--iterations",
        "2",
        "--reuse",
        "3",
        "--threads",
        "1",
        "--seed",
        "3",
        "--max-positions",
        "120",
        "--quiet",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    a.extend(extra.iter().map(|s| s.to_string()));
    LearnArgs::parse(&a, None).unwrap()
}

fn all_ones() -> String {
    let mut s = String::from("# every category weight 1: plain MMTO\n");
    for i in 1..=4 {
        s.push_str(&format!(
            "w{i} progress 1 1 1 1 1 1 1 1\nw{i} change 1 1 1\nw{i} depth 1 1 1 1\n"
        ));
    }
    s
}

/// Category weights that differ by category (so W_i,p differs between positions).
fn varied(c: &str) -> ObjectiveParams {
    let mut p = ObjectiveParams::parse(&(all_ones() + c)).unwrap();
    for i in 0..4 {
        for j in 0..15 {
            p.w[i][j] = 0.5 + 0.1 * ((i * 7 + j * 3) % 11) as f64;
        }
    }
    p
}

type F = ChessFeatures;

#[test]
fn gradient_of_every_term_matches_finite_differences() {
    let dir = tmpdir("fd");
    let data = chess_games(&dir, 6);
    let a = args(&data, &dir.join("out"), &[]);
    let cfg = a.config();
    let ds = dataset::load::<ChessPos>(&a.data).unwrap();
    assert!(ds.train.len() >= 60, "{}", ds.train.len());
    let params = run::initial_params::<ChessPos, F>(&a).unwrap();
    let learned = Learned::select::<ChessPos, F>(&a.tables, cfg.piece_sum.is_some()).unwrap();
    let eval = build_eval::<ChessPos, F>(&params, "test").unwrap();
    let mut store = LeafStore::new(u64::MAX, &dir.join("scratch"));
    let extras = StoreExtras {
        keep_record: true,
        agree: None,
    };
    step1_store_with::<ChessPos, F>(
        &ds.train,
        &params,
        &learned,
        &cfg,
        &eval,
        Some(&mut store),
        extras,
        &|_| {},
    )
    .unwrap();
    // Every category of every class occurs among the positions.
    let cats: Vec<Category> = (0..ds.train.len())
        .map(|i| Category {
            progress: (i % 8) as u8,
            change: (i % 3) as u8,
            depth: ((i / 3) % 4) as u8,
        })
        .collect();
    // Some results unknown (J2 skipped there), the rest wins, draws and losses.
    let results: Vec<Option<f64>> = (0..ds.train.len())
        .map(|i| [Some(1.0), Some(0.5), None, Some(0.0)][i % 4])
        .collect();
    let w0: Vec<i32> = (0..learned.n_local)
        .map(|l| params[learned.global(l)])
        .collect();
    let mut grads = vec![SparseGrad::new(learned.n_local)];
    // J1 alone with slope, margin and weight per position; J2 alone; both.
    let cases = [
        ("J1", varied("c1 0.004\nc2 40\nc3 1\nc4 0\n")),
        ("J2", varied("c3 0\nc4 16\nj2_slope 0.006\n")),
        ("J1+J2", varied("c1 0.003\nc2 25\nc3 2\nc4 16\n")),
    ];
    for (name, p) in cases {
        let c1 = p.c1.unwrap_or(0.00341);
        let slope = p.j2_slope.unwrap_or(0.005);
        let mut pw = PositionWeights::new(&p, c1, slope, &cats, &results);
        // J2 reads the record leaves whenever the store has them.
        pw.j2 = true;
        let j = |w: &[i32], grads: &mut [SparseGrad]| -> Terms {
            objective_store_weighted(&store, w, F::SCALE, &pw, grads).unwrap()
        };
        let t0 = j(&w0, &mut grads);
        assert!(t0.pairs > 500, "{}", t0.pairs);
        match name {
            "J1" => assert!(t0.j2 == 0.0 && t0.j1 > 0.0, "{t0:?}"),
            "J2" => assert!(t0.j1 == 0.0 && t0.j2 > 0.0, "{t0:?}"),
            _ => assert!(t0.j1 > 0.0 && t0.j2 > 0.0, "{t0:?}"),
        }
        assert_eq!(t0.j2_positions > 0, name != "J1");
        let g = grads[0].values().to_vec();
        let mut idx: Vec<usize> = (0..g.len()).filter(|&i| g[i].abs() > 1e-6).collect();
        idx.sort_by(|&x, &y| g[y].abs().total_cmp(&g[x].abs()));
        assert!(
            idx.len() >= 20,
            "{name}: {} weights with a gradient",
            idx.len()
        );
        // The largest and a spread of smaller ones (material, KP, positional indices alike).
        let picks: Vec<usize> = idx.iter().step_by(idx.len() / 20).copied().collect();
        let mut scratch = vec![SparseGrad::new(learned.n_local)];
        for &i in &picks {
            // Weights are integers (1/32 cp): a central difference over ±2 units is far inside
            // the curvature of T and g.
            let h = 2;
            let mut w = w0.clone();
            w[i] += h;
            let up = j(&w, &mut scratch);
            w[i] -= 2 * h;
            let down = j(&w, &mut scratch);
            let fd = ((up.j1 + up.j2) - (down.j1 + down.j2)) / (2.0 * h as f64);
            let err = (fd - g[i]).abs() / g[i].abs().max(1e-9);
            assert!(err < 1e-3, "{name}: weight {i}: analytic {} fd {fd}", g[i]);
        }
    }
    // The margin's direction: T_p(x + W2) with W2 > 0 counts moves just below the record move
    // more, so J1 grows with the margin; W3 scales J1 and W4 scales J2.
    let mut j_of = |c: &str| {
        let p = ObjectiveParams::parse(&(all_ones() + c)).unwrap();
        let pw = PositionWeights::new(&p, 0.004, 0.006, &cats, &results);
        objective_store_weighted(&store, &w0, F::SCALE, &pw, &mut grads).unwrap()
    };
    let (plain, margin) = (j_of("c4 0\n"), j_of("c2 40\nc4 0\n"));
    assert!(margin.j1 > plain.j1, "{margin:?} {plain:?}");
    let (j2a, j2b) = (j_of("c3 2\nc4 1\n"), j_of("c3 2\nc4 3\n"));
    assert!((j2a.j1 - 2.0 * plain.j1).abs() < 1e-9 * plain.j1);
    assert!((j2b.j2 - 3.0 * j2a.j2).abs() < 1e-9 * j2b.j2 && j2a.j2 > 0.0);
    // L1 where it is differentiable (w ≠ 0): ∂J_R/∂w = λ1·sign(w) on the regularised tables (what
    // the update adds), 0 on the piece values.
    let l1 = 0.01;
    let mut w = w0.clone();
    for (k, v) in w.iter_mut().enumerate() {
        if *v == 0 && k % 5 == 0 {
            *v = if k % 2 == 0 { 7 } else { -7 };
        }
    }
    let mut checked = 0;
    for i in (0..w.len()).step_by(37) {
        if w[i].abs() < 2 {
            continue;
        }
        let mut up = w.clone();
        up[i] += 1;
        let mut down = w.clone();
        down[i] -= 1;
        let fd = (l1_term(&up, &learned, l1) - l1_term(&down, &learned, l1)) / 2.0;
        let want = if learned.is_regularized(i) {
            l1 * w[i].signum() as f64
        } else {
            0.0
        };
        assert!((fd - want).abs() < 1e-9, "L1 at {i}: {fd} vs {want}");
        checked += 1;
    }
    assert!(checked > 10);
    let _ = std::fs::remove_dir_all(&dir);
}

/// metrics.jsonl without the clock fields and the parameterised objective's own fields.
fn metrics(dir: &Path) -> Vec<serde_json::Map<String, serde_json::Value>> {
    let text = std::fs::read_to_string(dir.join("metrics.jsonl")).unwrap();
    text.lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let mut o = v.as_object().unwrap().clone();
            for k in [
                "seconds_step1",
                "seconds_steps23",
                "seconds_total",
                "positions_per_second",
                "unix_time",
            ] {
                assert!(o.remove(k).is_some());
            }
            o
        })
        .collect()
}

#[test]
fn default_parameters_are_bit_identical_to_mmto_and_others_are_not() {
    let dir = tmpdir("ident");
    let data = chess_games(&dir, 8);
    let file = dir.join("ones.txt");
    std::fs::write(&file, all_ones()).unwrap();
    let margin = dir.join("margin.txt");
    std::fs::write(&margin, all_ones() + "c2 30\nc4 16\n").unwrap();
    let mut sink = Vec::new();
    let (a, b, c) = (dir.join("a"), dir.join("b"), dir.join("c"));
    run::run::<ChessPos, F>(&args(&data, &a, &[]), &mut sink).unwrap();
    let f = file.to_str().unwrap();
    run::run::<ChessPos, F>(&args(&data, &b, &["--objective-params", f]), &mut sink).unwrap();
    for name in ["params.bin", "weights.kwt", "initial.kwt", "best.kwt"] {
        assert!(
            std::fs::read(a.join(name)).unwrap() == std::fs::read(b.join(name)).unwrap(),
            "{name} differs"
        );
    }
    let (ma, mb) = (metrics(&a), metrics(&b));
    assert_eq!(ma.len(), 2);
    for (x, mut y) in ma.into_iter().zip(mb) {
        // The parameterised objective's fields: J1 is J, J2 is 0, categories per position.
        assert_eq!(y["j1"], x["J"]);
        assert_eq!(y["j2"].as_f64(), Some(0.0));
        let by = y["agreement_by_category_test"].as_object().unwrap();
        let n: u64 = by["progress_n"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .sum();
        assert_eq!(Some(n), x["test_used"].as_u64());
        for k in [
            "j1",
            "j2",
            "j1_after",
            "j2_after",
            "j2_positions",
            "agreement_by_category_train",
            "agreement_by_category_test",
        ] {
            assert!(y.remove(k).is_some(), "{k}");
        }
        assert_eq!(x, y);
    }
    // A margin and the win-probability term learn other weights.
    let m = margin.to_str().unwrap();
    run::run::<ChessPos, F>(&args(&data, &c, &["--objective-params", m]), &mut sink).unwrap();
    assert!(
        std::fs::read(a.join("params.bin")).unwrap()
            != std::fs::read(c.join("params.bin")).unwrap()
    );
    let mc = metrics(&c);
    assert!(mc[0]["j2"].as_f64().unwrap() > 0.0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_parameter_files_are_refused_before_any_data_loads() {
    let dir = tmpdir("refuse");
    let cases = [
        (
            all_ones().replace("w2 change 1 1 1\n", ""),
            "missing category weights 'w2 change'",
        ),
        (
            all_ones().replace("w3 depth 1 1 1 1", "w3 depth 1 1 -0.5 1"),
            "negative",
        ),
        ("\u{1}\u{2}PK garbage \u{7f}\n".to_string(), "unknown key"),
    ];
    for (k, (text, want)) in cases.iter().enumerate() {
        let f = dir.join(format!("bad{k}.txt"));
        std::fs::write(&f, text).unwrap();
        // The data file does not exist: had the data been read first, that would be the error.
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_kishi"))
            .args(["learn", "mmto", "--game", "chess", "--data"])
            .arg(dir.join("no-such-games.txt"))
            .arg("--out")
            .arg(dir.join("out"))
            .arg("--objective-params")
            .arg(&f)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success(),
            "case {k}: exit status {:?}",
            out.status
        );
        assert!(
            err.contains("--objective-params") && err.contains(want),
            "case {k}: {err}"
        );
        assert!(!err.contains("no-such-games"), "case {k}: {err}");
        assert!(!dir.join("out/metrics.jsonl").exists());
    }
    // Binary garbage (not UTF-8) and a method without the parameterised objective.
    let f = dir.join("binary.txt");
    std::fs::write(&f, [0xffu8, 0xfe, 0x00, 0x80]).unwrap();
    let ones = dir.join("ones.txt");
    std::fs::write(&ones, all_ones()).unwrap();
    for (method, file, want) in [
        ("mmto", &f, "not a text file"),
        ("ct", &ones, "only learn mmto"),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_kishi"))
            .args(["learn", method, "--game", "chess", "--data"])
            .arg(dir.join("no-such-games.txt"))
            .arg("--out")
            .arg(dir.join("out"))
            .arg("--objective-params")
            .arg(file)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        assert!(err.contains(want), "{method}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
