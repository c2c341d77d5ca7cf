//! Mate solver tests: every problem of `shared/data/suites/tsume_miniosl.tsv` solved with exactly
//! its shortest mate length and a PV that replays as a mate; positions without a mate answered
//! `NoMate`; perpetual check and a pawn-drop "mate" never claimed as mates; malformed problems
//! refused with an error; the stop flag honoured at once.

use kishi::game::Game;
use kishi::mate::{solve, verify_mate_line, MateLimits, MateResult};
use kishi::shogi::mate::parse_problem;
use kishi::shogi::ShogiPos;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn limits(nodes: u64) -> MateLimits {
    MateLimits {
        nodes: Some(nodes),
        time: None,
        hash_mb: 16,
        shortest: true,
        ..Default::default()
    }
}

fn run(sfen: &str, nodes: u64) -> MateResult<haitaka::Move> {
    let pos = parse_problem(sfen).expect("a valid problem");
    let stop = AtomicBool::new(false);
    solve(&pos, &limits(nodes), &stop)
        .expect("a valid problem")
        .result
}

fn pv_text(pos: &ShogiPos, pv: &[haitaka::Move]) -> String {
    let mut cur = pos.clone();
    let mut out = Vec::new();
    for &mv in pv {
        out.push(cur.move_text(mv));
        cur = cur.play(mv);
    }
    out.join(" ")
}

/// Every problem of the shared suite on `threads` solver threads: a mate line of exactly the
/// stated length, shown to be the shortest.
fn miniosl_suite_exact_lengths_on(threads: usize) {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/suites/tsume_miniosl.tsv");
    let text = std::fs::read_to_string(&path).expect("the shared tsume suite");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split('\t').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("column {name} in {}", path.display()))
    };
    let (id_col, sfen_col, plies_col) = (col("id"), col("sfen"), col("mate_plies"));
    let mut failures = Vec::new();
    let mut count = 0;
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        let id = f[id_col];
        let plies: usize = f[plies_col].parse().expect("mate_plies is a number");
        let pos = parse_problem(f[sfen_col]).expect("a valid problem");
        let stop = AtomicBool::new(false);
        let l = MateLimits {
            threads,
            ..limits(2_000_000)
        };
        let report = solve(&pos, &l, &stop).expect("a valid problem");
        count += 1;
        match report.result {
            MateResult::Mate(pv) => {
                if let Err(e) = verify_mate_line(&pos, &pv) {
                    failures.push(format!(
                        "{id}: PV {} is not a mate: {e}",
                        pv_text(&pos, &pv)
                    ));
                } else if pv.len() != plies {
                    failures.push(format!(
                        "{id}: mate in {} ({}), expected {plies}",
                        pv.len(),
                        pv_text(&pos, &pv)
                    ));
                } else if !report.shortest_proven {
                    failures.push(format!("{id}: shortest mate not established"));
                }
            }
            other => failures.push(format!("{id}: {other:?}, expected a mate in {plies}")),
        }
    }
    assert!(count >= 30, "only {count} problems read");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn miniosl_suite_exact_lengths() {
    miniosl_suite_exact_lengths_on(1);
}

/// Threads change the order of the work, never the answers (`MateLimits::threads`; more in
/// tests/mate_threads.rs).
#[test]
fn miniosl_suite_exact_lengths_on_two_threads() {
    miniosl_suite_exact_lengths_on(2);
}

#[test]
fn no_checks_and_lone_gold_are_no_mate() {
    // No pieces to check with.
    assert_eq!(
        run("4k4/9/9/9/9/9/9/9/4K4 b - 1", 10_000),
        MateResult::NoMate
    );
    // A single gold cannot mate a king in the open (tsume form: gote holds the rest).
    assert_eq!(
        run("9/9/9/9/4k4/9/9/9/9 b G 1", 100_000),
        MateResult::NoMate
    );
    // A king in the open with gote holding every other piece to interpose.
    assert_eq!(
        run("9/9/9/9/4k4/9/9/9/9 b RG 1", 2_000_000),
        MateResult::NoMate
    );
}

#[test]
fn perpetual_check_is_not_mate() {
    // The rook can check forever; every line repeats. Never a mate.
    let r = run("9/9/9/9/4k4/9/9/9/R3K4 b - 1", 300_000);
    assert!(!matches!(r, MateResult::Mate(_)), "{r:?}");
    // Dragon and king: the defender walks between squares while the dragon checks.
    let r = run("8k/9/9/9/9/9/9/9/+R3K4 b - 1", 300_000);
    assert!(!matches!(r, MateResult::Mate(_)), "{r:?}");
}

#[test]
fn pawn_drop_mate_is_not_a_mate() {
    // P*1b would mate (the silver guards 1b and 2b, gote's own knight blocks 2a), so it is
    // illegal; no other check mates.
    let sfen = "7nk/9/7S1/9/9/9/9/9/4K4 b P 1";
    let pos = parse_problem(sfen).expect("a valid problem");
    assert!(
        pos.parse_move("P*1b").is_err(),
        "uchifuzume must be illegal"
    );
    assert_eq!(run(sfen, 100_000), MateResult::NoMate);
    // A pawn *push* that mates is legal: with the pawn already on 1c, 1c1b(+) mates.
    let push = "7nk/9/7SP/9/9/9/9/9/4K4 b - 1";
    match run(push, 100_000) {
        MateResult::Mate(pv) => {
            let pos = parse_problem(push).expect("a valid problem");
            assert!(
                pv_text(&pos, &pv).starts_with("1c1b"),
                "{}",
                pv_text(&pos, &pv)
            );
            assert_eq!(pv.len(), 1);
        }
        other => panic!("expected the pawn push mate, got {other:?}"),
    }
}

#[test]
fn bad_problems_are_errors() {
    for bad in [
        "",
        "xyz",
        "4k4/9 b - 1",
        "9/9/9/9/9/9/9/9/4K4 b G 1",     // no defender king
        "9/9/9/9/9/9/9/9/9 b G 1",       // no kings at all
        "4k4/4R4/9/9/9/9/9/9/4K4 b - 1", // the side not to move is in check
        "4k4/9/9/9/9/9/9/9/9 w G 1",     // no sente king, gote to move
        "4k4/9/9/9/9/9/9/9/4K4 b 19P 1", // more pawns than a set
        "4k4/4R4/9/9/9/9/9/9/9 b G 1",   // tsume form, defender in check
    ] {
        assert!(parse_problem(bad).is_err(), "'{bad}' must be refused");
    }
    // A position that bypasses the problem parser is still checked by `solve`.
    let board = haitaka::Board::tsume("4k4/4R4/9/9/9/9/9/9/9 b G 1");
    if let Ok(board) = board {
        let pos = ShogiPos::from_board(board);
        let stop = AtomicBool::new(false);
        assert!(solve(&pos, &limits(1000), &stop).is_err());
    }
}

#[test]
fn stop_flag_and_budget_end_the_search() {
    // Zukou #1 (69 plies) is far beyond a thousand nodes.
    let sfen = "1pG1B4/Gs+P6/pP7/n1ls5/3k5/nL4+r1b/1+p1p+R4/1S7/2N6 b SP2gn2l11p 1";
    let pos = parse_problem(sfen).expect("a valid problem");
    let stop = AtomicBool::new(true);
    let r = solve(&pos, &limits(u64::MAX / 2), &stop).expect("valid");
    assert_eq!(r.result, MateResult::Unknown);
    assert!(r.nodes < 5_000, "stopped late: {} nodes", r.nodes);
    let stop = AtomicBool::new(false);
    let l = MateLimits {
        time: Some(Duration::from_millis(50)),
        ..limits(u64::MAX / 2)
    };
    // Without the time limit this search would run for ~2^62 nodes: returning at all, undecided,
    // is the limit working. No upper bound on the time (no timing assertions in tests); the lower
    // bound says the solver did not give up before its limit.
    let r = solve(&pos, &l, &stop).expect("valid");
    assert_eq!(r.result, MateResult::Unknown);
    assert!(r.elapsed >= Duration::from_millis(50), "{:?}", r.elapsed);
}
