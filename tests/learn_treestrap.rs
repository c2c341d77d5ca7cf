//! Self-play learning (`learn treestrap|rootstrap|tdleaf`, issue 15), tiny and fast:
//! * the table walk after a training search visits nodes of that search only;
//! * TreeStrap's backup, on positions whose bounds come from a search with a known linear
//!   evaluation (chess material), moves random weights towards that evaluation's weights;
//! * a run killed after a checkpoint and resumed ends bit-identical to an uninterrupted run, and
//!   `--threads 2` learns exactly what one thread learns;
//! * `--table-eta` sets one table's step size and no other's;
//! * `--average` writes averaged weights, which resume exactly;
//! * `--quiet-nodes` backs up exactly the quiet nodes, and `--node-value quiescence` (nodes
//!   valued by their quiescence leaf) also moves random weights towards a known evaluation;
//! * TreeStrap(minimax) (`--search minimax`): the tree hands every interior node its exact
//!   minimax value (checked against the quiescence values of the leaves), and the backup moves
//!   random weights towards a known evaluation; RootStrap refuses the option;
//! * `--init`: the tables not learned keep the file's weights and count in every node's H (the
//!   evaluation the games are played with), and a resume refuses another file's weights.

use kishi::chess::features::{ChessFeatures, DEFAULT_MATERIAL, WEIGHT_UNIT};
use kishi::chess::ChessPos;
use kishi::eval::{FeatureSet, LinearEval, Weights};
use kishi::game::{Game, GameHistory};
use kishi::learn::learned::Learned;
use kishi::learn::model::Model;
use kishi::learn::treestrap::backup::Backup;
use kishi::learn::treestrap::openings;
use kishi::search::learner::{LeafSearcher, SearchParams, TrainingSearch};
use kishi::search::minimax::MinimaxSearch;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kishi-ts-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn book() -> Vec<GameHistory<ChessPos>> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("book/chess_openings.epd");
    openings::load::<ChessPos>(&p).expect("the chess book loads")
}

/// The material-only target: the hand-set piece values, every other weight zero.
fn target_params() -> Vec<i32> {
    let mut p = vec![0i32; ChessFeatures::num_params()];
    for ph in 0..2 {
        for k in 0..5 {
            p[ph * 5 + k] = DEFAULT_MATERIAL[ph][k] * WEIGHT_UNIT;
        }
    }
    p
}

fn target_eval() -> LinearEval<ChessPos, ChessFeatures> {
    let w = Weights::from_params::<ChessPos, ChessFeatures>(&target_params(), "{}").unwrap();
    LinearEval::new(Arc::new(w))
}

#[test]
fn the_walk_sees_only_nodes_of_the_last_search() {
    let eval = target_eval();
    let b = book();
    let (a, c) = (&b[0], &b[1]);
    let mut ts = TrainingSearch::new(2);
    let r = ts.search(&eval, a, 3).expect("moves");
    assert!(r.nodes > 0);
    let mut seen = Vec::new();
    let stats = ts.walk(a.current(), 1, &mut |n| {
        seen.push((n.pos.key(), n.depth, n.ply));
    });
    assert!(
        stats.visited > 10,
        "a depth-3 search leaves a tree: {stats:?}"
    );
    assert_eq!(stats.visited, seen.len());
    // Depths are the search's remaining depths: at most D − 1 below the root (D + extensions
    // deeper only through checks), at least the minimum asked for.
    assert!(seen.iter().all(|&(_, d, _)| (1..=4).contains(&d)));
    let mut keys: Vec<u64> = seen.iter().map(|s| s.0).collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), seen.len(), "a transposed node is visited once");
    // A higher minimum depth visits a subset.
    let deep = ts.walk(a.current(), 2, &mut |n| assert!(n.depth >= 2));
    assert!(deep.visited < stats.visited);

    // The table entries stay, but a new generation hides them from the walk.
    ts.age_table();
    let stale = ts.walk(a.current(), 1, &mut |_| {});
    assert_eq!(
        stale.visited, 0,
        "entries of an earlier search are not walked"
    );

    // After a search of another position, nothing of the first search's tree is walked, and
    // walking from the new root finds the new tree.
    ts.search(&eval, c, 3).expect("moves");
    let old = ts.walk(a.current(), 1, &mut |_| {});
    assert_eq!(old.visited, 0);
    let new = ts.walk(c.current(), 1, &mut |_| {});
    assert!(new.visited > 10);
}

#[test]
fn treestrap_moves_random_weights_towards_a_known_linear_evaluation() {
    moves_towards_the_target(false);
}

/// The same with every node valued by its quiescence leaf (`--node-value quiescence`).
#[test]
fn treestrap_with_quiescence_values_moves_towards_a_known_linear_evaluation() {
    moves_towards_the_target(true);
}

/// TreeStrap(minimax): every interior node of a depth-2 tree towards its exact value.
#[test]
fn treestrap_minimax_moves_random_weights_towards_a_known_linear_evaluation() {
    moves_towards_the_target_by(false, true);
}

fn moves_towards_the_target(quiescence: bool) {
    moves_towards_the_target_by(quiescence, false);
}

fn moves_towards_the_target_by(quiescence: bool, minimax: bool) {
    let target = target_params();
    let eval = target_eval();
    let learned = Learned::select::<ChessPos, ChessFeatures>(&["material".to_string()], false)
        .expect("material table");
    let mut model = Model::random::<ChessPos, ChessFeatures>(&learned, 16, 7);
    let dist = |m: &Model| -> f64 {
        (0..10)
            .map(|i| (m.theta[i] - target[i] as f64).powi(2))
            .sum::<f64>()
            .sqrt()
    };
    // The positions: book openings plus eight arbitrary plies (which leave pieces hanging, so
    // that material is unbalanced in many nodes), searched with the target evaluation: their
    // bounds are what the target says.
    let book = book();
    let roots: Vec<GameHistory<ChessPos>> = book
        .iter()
        .enumerate()
        .take(80)
        .map(|(i, h)| {
            let mut h = h.clone();
            let mut moves = Vec::new();
            for k in 0..8 {
                moves.clear();
                h.current().legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                h.push(moves[(i * 7 + k * 13) % moves.len()]);
            }
            h
        })
        .collect();
    // How far H is from the target evaluation over the positions' static values.
    let mut buf = Vec::new();
    let mut feats = Vec::new();
    let error = |m: &Model, buf: &mut Vec<(u32, i32)>, feats: &mut Vec<(u32, i32)>| -> f64 {
        let mut sq = 0.0;
        for h in &roots {
            kishi::learn::model::local_features::<ChessPos, ChessFeatures>(
                h.current(),
                &learned,
                buf,
                feats,
            );
            let t = eval.evaluate_scratch(h.current()) as f64;
            sq += (m.value(feats) - t).powi(2);
        }
        (sq / roots.len() as f64).sqrt()
    };
    let (d0, e0) = (dist(&model), error(&model, &mut buf, &mut feats));
    let mut ts = TrainingSearch::new(2);
    let mut backup = Backup::new(&learned, vec![3e-6; learned.tables.len()], 2000, 1);
    if quiescence {
        backup.value_by_quiescence();
    }
    let mut delta = vec![0.0; learned.n_local];
    let mut updated = 0;
    let mut mm = MinimaxSearch::new();
    for _pass in 0..5 {
        for h in &roots {
            if minimax {
                let mut nodes = Vec::new();
                let root = h.current();
                if mm
                    .search(&eval, root, 2, 1, &mut |n| {
                        nodes.push((n.pos.clone(), n.value.clamp(-2000, 2000) as f64))
                    })
                    .is_none()
                {
                    continue;
                }
                let s = backup.treestrap_minimax::<ChessPos, ChessFeatures, _>(
                    &mut model, &eval, &nodes, &mut delta,
                );
                updated += s.nodes_updated;
                continue;
            }
            let Some(r) = ts.search(&eval, h, 2) else {
                continue;
            };
            let root = h.current().clone();
            let s = backup.treestrap::<ChessPos, ChessFeatures, _>(
                &mut model, &eval, &ts, &root, &r, &mut delta,
            );
            updated += s.nodes_updated;
        }
    }
    let (d1, e1) = (dist(&model), error(&model, &mut buf, &mut feats));
    assert!(updated > 100, "nodes updated: {updated}");
    assert!(
        e1 < 0.5 * e0 && d1 < 0.9 * d0,
        "rms error against the target {e0:.0} -> {e1:.0}, distance to the target piece values \
         {d0:.0} -> {d1:.0} (weights {:?})",
        &model.theta[..10]
    );
    // The integer weights are the rounded float weights.
    for (i, &t) in model.theta.iter().enumerate() {
        assert_eq!(model.params[learned.global(i)], t.round() as i32);
    }
    // The learned order of the middlegame values: queen > minors > pawn. (Rooks are rarely
    // exchanged or hanging a few plies out of the opening, and move least.)
    let v = &model.theta;
    assert!(v[4] > v[1].max(v[2]) && v[1].min(v[2]) > v[0], "{v:?}");
    eprintln!("rms error {e0:.0} -> {e1:.0}, distance {d0:.0} -> {d1:.0}");
}

fn learn(dir: &Path, extra: &[&str]) -> std::process::Child {
    learn_by("treestrap", dir, extra)
}

fn learn_by(method: &str, dir: &Path, extra: &[&str]) -> std::process::Child {
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("book/chess_openings.epd");
    Command::new(env!("CARGO_BIN_EXE_kishi"))
        .args([
            "learn",
            method,
            "--game",
            "chess",
            "--out",
            dir.to_str().unwrap(),
            "--depth",
            "2",
            "--max-plies",
            "24",
            "--batch",
            "2",
            "--checkpoint-every",
            "2",
            "--hash",
            "1",
            "--eta",
            "3e-7",
            "--quiet",
            "--openings",
            book.to_str().unwrap(),
        ])
        .args(extra)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("kishi runs")
}

fn finish(c: std::process::Child) {
    let out = c.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn a_killed_run_resumes_exactly_and_threads_do_not_change_the_result() {
    let whole = tmpdir("whole");
    finish(learn(&whole, &["--games", "12"]));

    // Killed as soon as its first checkpoint is on disk, then resumed.
    let cut = tmpdir("cut");
    let mut child = learn(&cut, &["--games", "12"]);
    let ckpt = cut.join("checkpoint.bin");
    let t0 = std::time::Instant::now();
    while !ckpt.exists() && t0.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().ok();
    child.wait().ok();
    let games_at_kill = read(&cut.join("metrics.jsonl"))
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .count();
    assert!(
        games_at_kill < 6,
        "the run was killed early ({games_at_kill} lines)"
    );
    finish(learn(&cut, &["--games", "12", "--resume"]));

    let threads = tmpdir("threads");
    finish(learn(&threads, &["--games", "12", "--threads", "2"]));

    for dir in [&cut, &threads] {
        for f in ["weights.kwt", "checkpoint.bin", "initial.kwt"] {
            assert!(
                read(&whole.join(f)) == read(&dir.join(f)),
                "{f} of {} differs from the uninterrupted one-thread run",
                dir.display()
            );
        }
        let lines = |d: &Path| -> Vec<String> {
            String::from_utf8(read(&d.join("metrics.jsonl")))
                .unwrap()
                .lines()
                .map(|l| {
                    // Timings and the thread count differ; everything before them must not.
                    l.split("\"seconds\"").next().unwrap_or("").to_string()
                })
                .collect()
        };
        assert_eq!(lines(&whole), lines(dir));
    }
    // The weights moved from the start.
    assert!(read(&whole.join("weights.kwt")) != read(&whole.join("initial.kwt")));
    for d in [whole, cut, threads] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// All parameters of a chess weight file.
fn params_of(path: &Path) -> Vec<i32> {
    let w = Weights::load::<ChessPos, ChessFeatures>(path, kishi::eval::Verify::All)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    ChessFeatures::fold(&w).expect("foldable")
}

#[test]
fn table_eta_sets_one_tables_step_size_only() {
    let r = Learned::table_ranges::<ChessPos, ChessFeatures>();
    assert_eq!((r[0].0.as_str(), r[0].1), ("material", 0));
    let m_end = r[0].2;
    let base = tmpdir("teta-base");
    finish(learn(&base, &["--games", "4"]));
    // The same rate given per table (by letter): the same weights.
    let same = tmpdir("teta-same");
    finish(learn(&same, &["--games", "4", "--table-eta", "a=3e-7"]));
    // A vanishing rate for the piece values: they keep their random start, the rest learns.
    let frozen = tmpdir("teta-frozen");
    finish(learn(
        &frozen,
        &["--games", "4", "--table-eta", "material=1e-30"],
    ));

    let (b0, b1) = (
        params_of(&base.join("initial.kwt")),
        params_of(&base.join("weights.kwt")),
    );
    assert_ne!(b0[..m_end], b1[..m_end], "material learns at --eta");
    assert_eq!(b1, params_of(&same.join("weights.kwt")));
    let (f0, f1) = (
        params_of(&frozen.join("initial.kwt")),
        params_of(&frozen.join("weights.kwt")),
    );
    assert_eq!(f0, b0, "same random start");
    assert_eq!(f0[..m_end], f1[..m_end], "material did not move");
    assert_ne!(f0[m_end..], f1[m_end..], "the other tables learned");
    for d in [base, same, frozen] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// `learn rootstrap --node-value quiescence` values the root by its quiescence leaf: the same
/// games learn other weights than with the static root (the option was once accepted and
/// ignored by RootStrap). `learn treestrap --search minimax` runs from the command line, learns,
/// and names its search in the provenance.
#[test]
fn rootstrap_quiescence_values_and_minimax_runs_are_honoured() {
    let stat = tmpdir("rs-static");
    // RootStrap's own default step (one node a search: the helper's TreeStrap step barely moves it).
    finish(learn_by(
        "rootstrap",
        &stat,
        &["--games", "4", "--eta", "6e-6"],
    ));
    let qv = tmpdir("rs-qv");
    finish(learn_by(
        "rootstrap",
        &qv,
        &[
            "--games",
            "4",
            "--eta",
            "6e-6",
            "--node-value",
            "quiescence",
        ],
    ));
    let (s0, s1) = (
        params_of(&stat.join("initial.kwt")),
        params_of(&stat.join("weights.kwt")),
    );
    let (q0, q1) = (
        params_of(&qv.join("initial.kwt")),
        params_of(&qv.join("weights.kwt")),
    );
    // (Booleans: the vectors are 82,000 long.)
    assert!(s0 == q0, "same random start");
    assert!(s0 != s1, "RootStrap learns");
    assert!(q0 != q1, "RootStrap with quiescence values learns");
    assert!(s1 != q1, "the quiescence-valued root learns other weights");

    let mm = tmpdir("ts-minimax");
    finish(learn(&mm, &["--games", "2", "--search", "minimax"]));
    let (m0, m1) = (
        params_of(&mm.join("initial.kwt")),
        params_of(&mm.join("weights.kwt")),
    );
    assert!(m0 == s0, "same random start");
    assert!(m0 != m1, "TreeStrap(minimax) learns");
    let w =
        Weights::load::<ChessPos, ChessFeatures>(&mm.join("weights.kwt"), kishi::eval::Verify::All)
            .expect("a valid weight file");
    assert!(
        w.provenance().contains("\"search\":\"minimax\""),
        "{}",
        w.provenance()
    );
    for d in [stat, qv, mm] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn averaged_weights_are_written_and_resume_exactly() {
    // --average 1 is no averaging: the averaged file plays the current weights.
    let one = tmpdir("avg-one");
    finish(learn(&one, &["--games", "4", "--average", "1"]));
    assert_eq!(
        params_of(&one.join("weights_avg.kwt")),
        params_of(&one.join("weights.kwt"))
    );
    // A longer average differs from the current weights (a mean of the two batches' weights)
    // and is the same when the run stops after 4 games and resumes to 8.
    let whole = tmpdir("avg-whole");
    finish(learn(&whole, &["--games", "8", "--average", "100"]));
    let avg = params_of(&whole.join("weights_avg.kwt"));
    assert_ne!(avg, params_of(&whole.join("weights.kwt")));
    assert_ne!(avg, params_of(&whole.join("initial.kwt")));
    let cut = tmpdir("avg-cut");
    finish(learn(&cut, &["--games", "4", "--average", "100"]));
    finish(learn(
        &cut,
        &["--games", "8", "--average", "100", "--resume"],
    ));
    for f in ["weights_avg.kwt", "weights.kwt", "checkpoint.bin"] {
        assert!(read(&whole.join(f)) == read(&cut.join(f)), "{f} differs");
    }
    // The averaging is part of the settings a resume checks.
    let out = Command::new(env!("CARGO_BIN_EXE_kishi"))
        .args(["learn", "treestrap", "--game", "chess", "--resume", "--out"])
        .arg(&cut)
        .args(["--games", "10", "--depth", "2", "--max-plies", "24"])
        .args(["--checkpoint-every", "2", "--hash", "1", "--eta", "3e-7"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("other settings"),
        "{err}"
    );
    for d in [one, whole, cut] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// The minimax tree's values are exact: a depth-1 node's value is the best of its moves' leaves'
/// quiescence values (searched here apart), the root's the best of its children's values, the
/// chosen move reaches it, and `min_depth` leaves out the shallower nodes.
#[test]
fn the_minimax_tree_hands_every_interior_node_its_exact_value() {
    let eval = target_eval();
    let mut leaves = LeafSearcher::new(SearchParams::learner(), 1);
    let mut mm = MinimaxSearch::new();
    for h in book().iter().take(6) {
        let root = h.current();
        let mut seen: Vec<(ChessPos, i32, i32)> = Vec::new();
        let r = mm
            .search(&eval, root, 2, 1, &mut |n| {
                seen.push((n.pos.clone(), n.depth, n.value))
            })
            .expect("moves");
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        // Children first, the root last: one node per legal move, then the root.
        assert_eq!(seen.len(), moves.len() + 1);
        let (last, d, v) = seen.last().unwrap();
        assert_eq!((last.key(), *d, *v), (root.key(), 2, r.score));
        let mut best = i32::MIN;
        for (child, d, v) in &seen[..moves.len()] {
            assert_eq!(*d, 1);
            let mut replies = Vec::new();
            child.legal_moves(&mut replies);
            let exact = replies
                .iter()
                .map(|&m| {
                    -leaves
                        .search(&eval, &child.play(m), 0, -32001, 32001)
                        .expect("a quiescence value")
                        .score
                })
                .max()
                .expect("replies");
            assert_eq!(*v, exact, "{}", child.to_text());
            best = best.max(-v);
        }
        assert_eq!(r.score, best);
        let after_best = root.play(r.best);
        let chosen = seen.iter().find(|s| s.0.key() == after_best.key()).unwrap();
        assert_eq!(
            -chosen.2, r.score,
            "the chosen move reaches the root's value"
        );
        // With min_depth 2 only the root is handed over.
        let mut n = 0;
        mm.search(&eval, root, 2, 2, &mut |_| n += 1);
        assert_eq!(n, 1);
    }
}

/// Runs `learn METHOD --game chess --out DIR ARGS`, which must end with exit code 2 and an error
/// message; returns the message.
fn refused(dir: &Path, method: &str, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_kishi"))
        .args(["learn", method, "--game", "chess", "--out"])
        .arg(dir)
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{method} {args:?}: {err}");
    assert!(err.contains("error"), "{method} {args:?}: {err}");
    err
}

#[test]
fn bad_arguments_are_errors() {
    let d = tmpdir("bad");
    for args in [
        vec!["--depth", "0"],
        vec!["--eta", "-1"],
        vec!["--openings", "/nonexistent/book.epd"],
        vec!["--tables", "nosuch"],
        vec!["--table-eta", "material"],
        vec!["--table-eta", "material=-1"],
        vec!["--table-eta", "material=x"],
        // A table that is not learned (chess learns A, B, C by default).
        vec!["--tables", "a", "--table-eta", "kp=1e-8"],
        vec!["--node-value", "bogus"],
        vec!["--search", "bogus"],
        vec!["--search", "minimax", "--depth", "5"],
        vec!["--search", "minimax", "--quiet-nodes"],
    ] {
        refused(&d, "treestrap", &args);
    }
    // Options only some backups read are refused by the others, not ignored.
    assert!(refused(&d, "rootstrap", &["--search", "minimax"]).contains("TreeStrap's"));
    refused(&d, "rootstrap", &["--quiet-nodes"]);
    refused(&d, "tdleaf", &["--quiet-nodes"]);
    refused(&d, "tdleaf", &["--node-value", "quiescence"]);
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn quiet_nodes_keeps_only_nodes_without_check_or_a_winning_capture() {
    use kishi::game::is_quiet;
    let mut buf = Vec::new();
    let pos = |fen: &str| ChessPos::from_text(fen).expect("a legal FEN");
    assert!(is_quiet(&ChessPos::startpos(), &mut buf));
    // White's knight can take an undefended pawn on d5 … but not a pawn the e6 pawn defends
    // when only a knight takes it (SEE 100 − 300 < 0) …
    assert!(!is_quiet(
        &pos("4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1"),
        &mut buf
    ));
    assert!(is_quiet(
        &pos("4k3/8/4p3/3p4/8/4N3/8/4K3 w - - 0 1"),
        &mut buf
    ));
    // … and a side in check is never quiet.
    assert!(!is_quiet(&pos("4k3/8/8/8/8/8/8/r3K3 w - - 0 1"), &mut buf));

    // The backup with quiet_nodes sees exactly the root and walked nodes `is_quiet` accepts.
    let eval = target_eval();
    let learned = Learned::select::<ChessPos, ChessFeatures>(&["material".to_string()], false)
        .expect("material table");
    let mut ts = TrainingSearch::new(2);
    let (mut all, mut quiet, mut expected) = (0, 0, 0);
    for h in book().iter().take(20) {
        let mut h = h.clone();
        let mut moves = Vec::new();
        for k in 0..6 {
            moves.clear();
            h.current().legal_moves(&mut moves);
            h.push(moves[(k * 11) % moves.len()]);
        }
        let Some(r) = ts.search(&eval, &h, 3) else {
            continue;
        };
        let root = h.current().clone();
        for q in [false, true] {
            let mut model = Model::random::<ChessPos, ChessFeatures>(&learned, 16, 3);
            let mut backup = Backup::new(&learned, vec![3e-6; learned.tables.len()], 2000, 1);
            backup.quiet_nodes = q;
            let mut delta = vec![0.0; learned.n_local];
            let s = backup.treestrap::<ChessPos, ChessFeatures, _>(
                &mut model, &eval, &ts, &root, &r, &mut delta,
            );
            if q {
                quiet += s.nodes_seen;
            } else {
                all += s.nodes_seen;
            }
        }
        expected += is_quiet(&root, &mut buf) as u64;
        ts.walk(&root, 1, &mut |n| {
            expected += is_quiet(&n.pos, &mut buf) as u64
        });
    }
    assert_eq!(quiet, expected);
    assert!(
        quiet > 0 && quiet < all,
        "quiet nodes {quiet} of {all}: some, not all"
    );
    eprintln!("quiet nodes {quiet} of {all}");
}

/// Book openings with `plies` arbitrary plies played (unbalanced material in many of them).
fn scrambled(n: usize, plies: usize) -> Vec<ChessPos> {
    book()
        .iter()
        .take(n)
        .enumerate()
        .map(|(i, h)| {
            let mut h = h.clone();
            let mut moves = Vec::new();
            for k in 0..plies {
                moves.clear();
                h.current().legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                h.push(moves[(i * 7 + k * 13) % moves.len()]);
            }
            h.current().clone()
        })
        .collect()
}

#[test]
fn fixed_tables_count_in_h_as_in_the_evaluation() {
    // KP learned (random), the piece values fixed at the hand-set ones: H must be what the play
    // evaluation of the same parameters says, the fixed material included.
    let kp = Learned::select::<ChessPos, ChessFeatures>(&["kp".to_string()], false).unwrap();
    let model = Model::random_over_base::<ChessPos, ChessFeatures>(&kp, &target_params(), 16, 5);
    let w = Weights::from_params::<ChessPos, ChessFeatures>(&model.params, "{}").unwrap();
    let eval = LinearEval::<ChessPos, ChessFeatures>::new(Arc::new(w));
    let (mut buf, mut feats) = (Vec::new(), Vec::new());
    let mut unbalanced = 0;
    for pos in scrambled(60, 8) {
        let fixed = kishi::learn::model::features_and_fixed::<ChessPos, ChessFeatures>(
            &model, &pos, &kp, &mut buf, &mut feats,
        );
        let h = model.value(&feats) + fixed;
        let e = eval.evaluate_scratch(&pos) as f64;
        assert!((h - e).abs() <= 1.0, "H {h} against the evaluation {e}");
        if fixed.abs() >= 50.0 {
            unbalanced += 1;
        }
    }
    assert!(
        unbalanced >= 5,
        "material is unbalanced in {unbalanced} positions"
    );
    // Without fixed tables the learned part is the whole value (no --init: the rest is zero).
    let alone = Model::random::<ChessPos, ChessFeatures>(&kp, 16, 5);
    assert_eq!(
        alone.theta,
        model
            .theta
            .iter()
            .zip(&kp_base(&kp))
            .map(|(t, b)| t - b)
            .collect::<Vec<_>>()
    );
    for pos in scrambled(10, 8) {
        let fixed = kishi::learn::model::features_and_fixed::<ChessPos, ChessFeatures>(
            &alone, &pos, &kp, &mut buf, &mut feats,
        );
        assert_eq!(fixed, 0.0);
    }
}

/// `target_params()`'s values of the learned tables, local order.
fn kp_base(learned: &Learned) -> Vec<f64> {
    let t = target_params();
    (0..learned.n_local)
        .map(|l| t[learned.global(l)] as f64)
        .collect()
}

#[test]
fn init_keeps_the_tables_not_learned_and_a_resume_checks_them() {
    let r = Learned::table_ranges::<ChessPos, ChessFeatures>();
    let (m_end, kp_end) = (r[0].2, r[1].2);
    assert_eq!(r[1].0, "kp");
    let dir = tmpdir("init");
    let file = dir.join("material.kwt");
    Weights::from_params::<ChessPos, ChessFeatures>(&target_params(), "{}")
        .unwrap()
        .write(&file)
        .unwrap();
    let run = tmpdir("init-run");
    // The run's arguments: `games` games, KP learned from exactly the start, with the file or
    // without it; `--resume` appended when asked.
    let args = |games: &str, init: bool, resume: bool| -> Vec<String> {
        let mut a: Vec<String> = [
            "--games",
            games,
            "--tables",
            "kp",
            "--init-range",
            "0",
            "--average",
            "2",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        if init {
            a.extend(["--init".to_string(), file.display().to_string()]);
        }
        if resume {
            a.push("--resume".to_string());
        }
        a
    };
    let start =
        |dir: &Path, a: Vec<String>| learn(dir, &a.iter().map(String::as_str).collect::<Vec<_>>());
    finish(start(&run, args("2", true, false)));
    let init = params_of(&run.join("initial.kwt"));
    assert_eq!(
        init,
        target_params(),
        "the start is the file's (no noise with --init-range 0)"
    );
    for f in ["weights.kwt", "weights_avg.kwt"] {
        let p = params_of(&run.join(f));
        assert_eq!(
            p[..m_end],
            init[..m_end],
            "{f}: the piece values stay the file's"
        );
        assert_ne!(p[m_end..kp_end], init[m_end..kp_end], "{f}: KP learned");
        assert_eq!(
            p[kp_end..],
            init[kp_end..],
            "{f}: the other tables stay zero"
        );
    }
    // Without the file the games are played and valued without piece values: other KP weights.
    let zero = tmpdir("init-zero");
    finish(start(&zero, args("2", false, false)));
    assert_ne!(
        params_of(&zero.join("weights.kwt"))[m_end..kp_end],
        params_of(&run.join("weights.kwt"))[m_end..kp_end]
    );
    // A resume goes on from the file's weights; with another file's it is refused.
    finish(start(&run, args("4", true, true)));
    assert_eq!(params_of(&run.join("weights.kwt"))[..m_end], init[..m_end]);
    let mut other = target_params();
    other[0] += 32;
    Weights::from_params::<ChessPos, ChessFeatures>(&other, "{}")
        .unwrap()
        .write(&file)
        .unwrap();
    let out = start(&run, args("6", true, true))
        .wait_with_output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("other settings"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for d in [dir, run, zero] {
        let _ = std::fs::remove_dir_all(d);
    }
}
