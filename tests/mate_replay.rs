//! Kawano's simulation in the mate solver (`src/mate/dfpn/simulate.rs`): an interposition whose
//! sibling on the same square is proven is first proven by replaying the sibling's proof. The
//! replayed proofs must be real (the same mate, the same shortest length as without replay) and
//! must save work (node counts are deterministic, unlike time).

mod mate_support;

use kishi::mate::{solve, verify_mate_line, MateLimits, MateResult};
use kishi::shogi::mate::parse_problem;
use mate_support::first_proof_nodes;
use std::sync::atomic::AtomicBool;

/// Zukou #062, 23 plies: the defender interposes on one square with several pieces in turn.
const ZUKOU_062: &str = "7l+b/9/9/9/6+b2/6G1G/8r/5+p1Sk/5g+p2 b R3Sg4n3l16p 1";

fn limits(replay: bool, shortest: bool) -> MateLimits {
    MateLimits {
        nodes: Some(1_000_000),
        time: None,
        hash_mb: 256,
        shortest,
        replay,
        // The replay alone: double-count elimination changes the order in which #062's
        // interpositions are searched, and with it on the replay saves little here (59,762
        // against 63,898 nodes; docs/mate.md §24).
        double_count: false,
        ..Default::default()
    }
}

#[test]
fn replayed_proofs_give_the_same_shortest_mate() {
    let pos = parse_problem(ZUKOU_062).expect("a valid problem");
    let stop = AtomicBool::new(false);
    let mut lengths = Vec::new();
    for replay in [true, false] {
        let r = solve(&pos, &limits(replay, true), &stop).expect("valid");
        let MateResult::Mate(pv) = &r.result else {
            panic!("replay {replay}: not solved: {:?}", r.result);
        };
        let plies = verify_mate_line(&pos, pv).expect("a mate line");
        assert!(r.shortest_proven, "replay {replay}: shortest search cut");
        if replay {
            assert!(r.replayed > 0, "no node was proven by a replay");
        } else {
            assert_eq!(r.replayed, 0, "replays with the replay switched off");
        }
        lengths.push(plies);
    }
    assert_eq!(
        lengths,
        vec![23, 23],
        "the stated length, with and without replay"
    );
}

#[test]
fn replaying_proofs_saves_nodes_to_the_first_proof() {
    let pos = parse_problem(ZUKOU_062).expect("a valid problem");
    let first =
        |replay: bool| first_proof_nodes(&pos, &limits(replay, false), &format!("replay {replay}"));
    let (with, without) = (first(true), first(false));
    // Measured: 64,209 against 87,825 nodes with the repetition test of docs/mate.md §28
    // (31,800 against 62,824 before it, §15: the test changed the order of the search).
    assert!(
        with * 5 < without * 4,
        "replay {with} nodes, search alone {without}: less than a fifth saved"
    );
}
