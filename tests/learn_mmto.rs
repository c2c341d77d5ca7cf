//! Learner tests on tiny data: the analytic gradient of J for the piece values matches finite
//! differences with the PV leaves held fixed; the constrained piece-value sum never changes; L1
//! drives weights of features that never occur to zero; one thread and a fixed seed give identical
//! weight files; a run resumed from its checkpoint ends identical to an uninterrupted one;
//! malformed records are skipped and reported; the sparse gradient and update equal the dense
//! ones bit for bit; the scratch-file leaf store learns what the in-memory one does, and resumes
//! exactly.

use kishi::eval::FeatureSet;
use kishi::learn::dataset::{self, DataOptions, Rng};
use kishi::learn::grad::SparseGrad;
use kishi::learn::leaves::{EncodedBlock, LeafStore};
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

/// A metrics line without its clock readings.
fn metrics_without_times(dir: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("metrics.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            if let Some(o) = v.as_object_mut() {
                o.retain(|k, _| {
                    !k.starts_with("seconds") && k != "unix_time" && k != "positions_per_second"
                });
            }
            v
        })
        .collect()
}

/// Leaves of e_AB step 1 on a few positions, and weights with non-zero KP entries scattered over
/// the table (so L1 moves weights no leaf touches).
fn e_ab_leaves(dir: &Path) -> (Learned, Vec<learn::PositionData>, Vec<i32>) {
    let s = samples(dir, 120);
    let learned = Learned::select::<ShogiPos, Bonanza>(&["A".into(), "B".into()], true).unwrap();
    let mut params = material_500();
    let mut rng = Rng(99);
    for _ in 0..3000 {
        let i = 13 + rng.below((learned.n_local - 13) as u64) as usize;
        params[learned.global(i)] = rng.below(7) as i32 - 3;
    }
    let eval = learn::build_eval::<ShogiPos, Bonanza>(&params, "{}").unwrap();
    let (data, stats) =
        learn::step1::<ShogiPos, Bonanza>(&s, &params, &learned, &cfg(), &eval, true, &|_| {});
    assert!(stats.in_window > 500, "{stats:?}");
    let w = (0..learned.n_local)
        .map(|l| params[learned.global(l)])
        .collect();
    (learned, data, w)
}

/// The leaves in a store with a memory budget of `budget` bytes (0: all in the scratch file).
fn store_of(data: &[learn::PositionData], budget: u64, scratch: &Path) -> LeafStore {
    store_with(data, budget, scratch, false)
}

/// `store_of`, the blocks LZ4-compressed when `lz4` (as step 1 does with `--leaf-codec lz4`).
fn store_with(data: &[learn::PositionData], budget: u64, scratch: &Path, lz4: bool) -> LeafStore {
    let mut store = LeafStore::new(budget, scratch).with_compression(lz4);
    fill(&mut store, data, lz4);
    store
}

/// Inserts `data`'s blocks into `store` out of order, as step 1's workers do, and finishes it.
fn fill(store: &mut LeafStore, data: &[learn::PositionData], lz4: bool) {
    let blocks: Vec<_> = data.chunks(16).enumerate().collect();
    for (b, chunk) in blocks.into_iter().rev() {
        let block = EncodedBlock::encode(chunk);
        store.insert(b, if lz4 { block.compressed() } else { block });
    }
    store.finish().unwrap();
    assert_eq!(store.len(), data.len());
}

#[test]
fn sparse_gradient_and_update_equal_the_dense_ones_to_the_last_bit() {
    let dir = tmpdir("sparse");
    let (learned, data, w0) = e_ab_leaves(&dir);
    let scratch = dir.join("leaves.scratch");
    let in_memory = store_of(&data, u64::MAX, &dir.join("unused.scratch"));
    let on_file = store_of(&data, 0, &scratch);
    assert_eq!(in_memory.bytes().1, 0);
    assert!(on_file.bytes().0 == 0 && on_file.bytes().1 == in_memory.bytes().0);
    assert!(scratch.exists());
    // Part in memory, part in a file.
    let total = in_memory.bytes().0;
    let half = store_of(&data, total / 2, &dir.join("half.scratch"));
    assert!(half.bytes().0 > 0 && half.bytes().1 > 0 && half.bytes().0 + half.bytes().1 == total);
    // LZ4-compressed blocks, in memory and on file: smaller, the same bytes before compression.
    let lz4_mem = store_with(&data, u64::MAX, &dir.join("unused2.scratch"), true);
    let lz4_file = store_with(&data, 0, &dir.join("lz4.scratch"), true);
    assert_eq!(lz4_mem.raw_bytes(), total);
    assert!(lz4_mem.bytes().0 < total && lz4_mem.bytes().1 == 0);
    assert!(lz4_file.bytes().0 == 0 && lz4_file.bytes().1 == lz4_mem.bytes().0);
    // A store cleared and filled again (the next iteration) frees its slabs and reuses its
    // scratch file: first plain blocks, part in memory, then the LZ4 blocks, all in memory.
    let budget = lz4_mem.bytes().0.max(total / 2);
    let mut again = store_of(&data, budget, &dir.join("again.scratch"));
    assert!(again.bytes().0 > 0 && again.bytes().1 > 0);
    again.clear().unwrap();
    fill(&mut again, &data, true);
    assert_eq!(again.bytes(), (lz4_mem.bytes().0, 0));
    let mut c = cfg();
    c.step = Step::Random;
    let method = kishi::learn::method::for_config(&c);
    for threads in [1, 2, 3] {
        c.threads = threads;
        let mut grads: Vec<SparseGrad> = (0..threads)
            .map(|_| SparseGrad::new(learned.n_local))
            .collect();
        let (mut wd, mut ws) = (w0.clone(), w0.clone());
        let (mut rd, mut rs) = (Rng(7), Rng(7));
        let mut nonzero = learn::nonzero_indices(&ws, &learned);
        let mut scratch_idx = Vec::new();
        let mut moved_untouched = false;
        for round in 0..6 {
            let dense = learn::objective(&data, &wd, Bonanza::SCALE, &c);
            for store in [&in_memory, &on_file, &half, &lz4_mem, &lz4_file, &again] {
                let (j, pairs) =
                    learn::objective_store(store, &ws, Bonanza::SCALE, method.as_ref(), &mut grads)
                        .unwrap();
                assert_eq!(j.to_bits(), dense.j.to_bits(), "J, round {round}");
                assert_eq!(pairs, dense.pairs);
                let g = grads[0].values();
                assert!(
                    g.iter()
                        .zip(&dense.grad)
                        .all(|(a, b)| a.to_bits() == b.to_bits()),
                    "gradient differs, {threads} threads, round {round}"
                );
                // Every non-zero derivative is listed as touched.
                let touched: std::collections::HashSet<u32> =
                    grads[0].touched().iter().copied().collect();
                assert!(dense
                    .grad
                    .iter()
                    .enumerate()
                    .all(|(i, &v)| v == 0.0 || touched.contains(&(i as u32))));
                assert!(grads[0].touched().windows(2).all(|p| p[0] < p[1]));
            }
            let untouched_nonzero: Vec<usize> = (0..ws.len())
                .filter(|&i| ws[i] != 0 && dense.grad[i] == 0.0 && i >= 13)
                .collect();
            let id = learn::grid_update(&mut wd, &dense.grad, &learned, &c, &mut rd);
            let is = learn::grid_update_sparse(
                &mut ws,
                &grads[0],
                &mut nonzero,
                &mut scratch_idx,
                &learned,
                &c,
                &mut rs,
            );
            assert_eq!(wd, ws, "weights differ after update {round}");
            assert_eq!(rd.0, rs.0, "random steps drawn differ");
            assert_eq!(
                (id.changed, id.lambda0.to_bits()),
                (is.changed, is.lambda0.to_bits())
            );
            assert_eq!(nonzero, learn::nonzero_indices(&ws, &learned));
            moved_untouched |= untouched_nonzero.iter().any(|&i| ws[i] != w0[i]);
        }
        assert!(
            moved_untouched,
            "L1 must move non-zero weights without a gradient"
        );
    }
    drop(on_file);
    assert!(
        !scratch.exists(),
        "the scratch file is removed with its store"
    );
    // A corrupt compressed scratch file is an error, not a crash or wrong leaves.
    let lz4_path = dir.join("lz4.scratch");
    let mut bytes = std::fs::read(&lz4_path).unwrap();
    for b in bytes.iter_mut().take(64) {
        *b = 0xff;
    }
    std::fs::write(&lz4_path, &bytes).unwrap();
    let mut grads = vec![SparseGrad::new(learned.n_local)];
    let e = learn::objective_store(&lz4_file, &w0, Bonanza::SCALE, method.as_ref(), &mut grads)
        .unwrap_err();
    assert!(e.contains("corrupt"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn scratch_file_leaf_store_learns_bit_identical_weights_and_resumes_exactly() {
    let base = tmpdir("scratch");
    let data = data_file(&base);
    let (a, b, d) = (base.join("a"), base.join("b"), base.join("d"));
    let e_ab = ["--tables", "A,B", "--step", "random"];
    let with = |extra: &[&'static str]| -> Vec<&'static str> {
        e_ab.iter().chain(extra).copied().collect()
    };
    let mut sink = Vec::new();
    run::run::<ShogiPos, Bonanza>(&args(&a, &data, 3, &with(&[])), &mut sink).unwrap();
    let mut out = Vec::new();
    run::run::<ShogiPos, Bonanza>(
        &args(&b, &data, 3, &with(&["--max-memory", "1K"])),
        &mut out,
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("every leaf goes to") && text.contains("KB in the scratch file"),
        "{text}"
    );
    assert!(
        !b.join("leaves.scratch").exists(),
        "the scratch file is removed at the end"
    );
    for f in ["weights.kwt", "params.bin", "checkpoint.bin"] {
        assert!(
            std::fs::read(a.join(f)).unwrap() == std::fs::read(b.join(f)).unwrap(),
            "{f} differs between the in-memory and the scratch-file store"
        );
    }
    assert_eq!(metrics_without_times(&a), metrics_without_times(&b));
    // Uncompressed leaves (`--leaf-codec plain`, in memory and on file) learn the same weights.
    for (dir, extra) in [
        (base.join("p"), &["--leaf-codec", "plain"][..]),
        (
            base.join("q"),
            &["--leaf-codec", "plain", "--max-memory", "1K"][..],
        ),
    ] {
        let mut out = Vec::new();
        run::run::<ShogiPos, Bonanza>(&args(&dir, &data, 3, &with(extra)), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(!text.contains("LZ4 from"), "{text}");
        for f in ["weights.kwt", "params.bin", "checkpoint.bin"] {
            assert!(
                std::fs::read(a.join(f)).unwrap() == std::fs::read(dir.join(f)).unwrap(),
                "{f} differs between the LZ4 and the plain leaf store"
            );
        }
        assert_eq!(metrics_without_times(&a), metrics_without_times(&dir));
    }
    assert!(String::from_utf8(sink.clone())
        .unwrap()
        .contains("LZ4 from"));
    // Interrupted after one iteration with the scratch store, then resumed to three.
    run::run::<ShogiPos, Bonanza>(
        &args(&d, &data, 1, &with(&["--max-memory", "1K"])),
        &mut sink,
    )
    .unwrap();
    assert_ne!(
        std::fs::read(d.join("params.bin")).unwrap(),
        std::fs::read(a.join("params.bin")).unwrap()
    );
    run::run::<ShogiPos, Bonanza>(
        &args(&d, &data, 3, &with(&["--max-memory", "1K", "--resume"])),
        &mut sink,
    )
    .unwrap();
    for f in ["weights.kwt", "params.bin"] {
        assert!(
            std::fs::read(a.join(f)).unwrap() == std::fs::read(d.join(f)).unwrap(),
            "{f} differs after a resume with the scratch-file store"
        );
    }
    assert_eq!(metrics_without_times(&a), metrics_without_times(&d));
    // A bad byte count is refused with a clear message.
    let mut words: Vec<String> = ["mmto", "--game", "shogi", "--data", "x", "--out", "y"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    words.extend(["--max-memory".to_string(), "lots".to_string()]);
    let e = LearnArgs::parse(&words, None).unwrap_err();
    assert!(e.contains("--max-memory") && e.contains("lots"), "{e}");
    let _ = std::fs::remove_dir_all(&base);
}
