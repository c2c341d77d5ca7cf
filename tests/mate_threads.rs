//! The mate solver on several threads (`MateLimits::threads`): helpers search the root on the
//! shared table until the first proof. Threads change the order of the work, never the answers
//! (the shared tsume suite on two threads: tests/mate_tsume.rs): positions without a mate
//! are still `NoMate`, perpetual check and a pawn-drop mate are still not mates, and a long
//! Zukou problem gets its stated shortest mate. The helpers' nodes are counted in the report.

use kishi::mate::{solve, verify_mate_line, MateLimits, MateResult};
use kishi::shogi::mate::parse_problem;
use std::sync::atomic::AtomicBool;

/// Shogi Zukou #061 (29 plies), `data/tsume/zukou.tsv`.
const ZUKOU_061: &str = "9/R8/9/B1+P6/n1Bs5/n1s6/9/+pkP6/3G+R4 b 2S2N3g4l15p 1";
/// Shogi Zukou #001 (69 plies): far beyond the node limits below.
const ZUKOU_001: &str = "1pG1B4/Gs+P6/pP7/n1ls5/3k5/nL4+r1b/1+p1p+R4/1S7/2N6 b SP2gn2l11p 1";

fn limits(nodes: u64, hash_mb: usize) -> MateLimits {
    MateLimits {
        nodes: Some(nodes),
        time: None,
        hash_mb,
        shortest: true,
        threads: 2,
        ..Default::default()
    }
}

fn result(sfen: &str, nodes: u64) -> MateResult<haitaka::Move> {
    let pos = parse_problem(sfen).expect("a valid problem");
    let stop = AtomicBool::new(false);
    solve(&pos, &limits(nodes, 16), &stop)
        .expect("a valid problem")
        .result
}

#[test]
fn no_mate_perpetual_check_and_pawn_drop_on_two_threads() {
    assert_eq!(
        result("9/9/9/9/4k4/9/9/9/9 b RG 1", 2_000_000),
        MateResult::NoMate
    );
    assert_eq!(
        result("9/9/9/9/4k4/9/9/9/9 b G 1", 100_000),
        MateResult::NoMate
    );
    for perpetual in [
        "9/9/9/9/4k4/9/9/9/R3K4 b - 1",
        "8k/9/9/9/9/9/9/9/+R3K4 b - 1",
    ] {
        let r = result(perpetual, 300_000);
        assert!(!matches!(r, MateResult::Mate(_)), "{perpetual}: {r:?}");
    }
    // P*1b would be the only mate, and it is illegal (uchifuzume).
    assert_eq!(
        result("7nk/9/7S1/9/9/9/9/9/4K4 b P 1", 100_000),
        MateResult::NoMate
    );
}

#[test]
fn a_long_problem_gets_its_shortest_mate_on_two_threads() {
    let pos = parse_problem(ZUKOU_061).expect("a valid problem");
    let stop = AtomicBool::new(false);
    let r = solve(&pos, &limits(3_000_000, 256), &stop).expect("valid");
    let MateResult::Mate(pv) = &r.result else {
        panic!("not solved: {:?}", r.result);
    };
    assert_eq!(verify_mate_line(&pos, pv), Ok(29));
    assert!(r.shortest_proven, "shortest search cut");
    let (first_nodes, _) = r.first_proof.expect("a first proof");
    assert!(first_nodes <= r.nodes);
}

#[test]
fn the_helpers_nodes_are_counted() {
    // The node limit counts the main thread's nodes (checked every 1024); the helper searches
    // as long as the main thread does, and its nodes are added to the report.
    let pos = parse_problem(ZUKOU_001).expect("a valid problem");
    let stop = AtomicBool::new(false);
    let limit = 200_000;
    let r = solve(&pos, &limits(limit, 64), &stop).expect("valid");
    assert_eq!(r.result, MateResult::Unknown);
    assert!(
        r.nodes > limit + 4096,
        "{} nodes: the helper's are missing",
        r.nodes
    );
    // One thread stops at the limit (plus less than one check interval).
    let one = MateLimits {
        threads: 1,
        ..limits(limit, 64)
    };
    let r = solve(&pos, &one, &stop).expect("valid");
    assert!(r.nodes < limit + 1024, "{} nodes on one thread", r.nodes);
}
