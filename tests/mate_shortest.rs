//! The shortest-mate search ends with a proof that no shorter mate exists, also where df-pn's
//! proof-number sums overflow: Zukou #094 (23 plies). Its search with a 21-ply bound sums proof
//! numbers over a DAG that count shared subtrees many times; they reached 2³⁰, which the sums
//! read as infinite, so the root's loop stopped with neither number zero and the 23-ply answer
//! was reported as not shown shortest. (About 400,000 nodes, a few seconds.)

use kishi::mate::{solve, MateLimits, MateResult};
use kishi::shogi::mate::parse_problem;
use std::sync::atomic::AtomicBool;

#[test]
fn zukou_094_is_shown_shortest() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/tsume/zukou.tsv");
    let text = std::fs::read_to_string(path).expect("data/tsume/zukou.tsv");
    let line = text
        .lines()
        .find(|l| l.starts_with("094\t"))
        .expect("problem 094");
    let f: Vec<&str> = line.split('\t').collect();
    let pos = parse_problem(f[1]).expect("a problem");
    let stop = AtomicBool::new(false);
    let limits = MateLimits {
        nodes: Some(1_500_000),
        hash_mb: 256,
        ..Default::default()
    };
    let report = solve(&pos, &limits, &stop).expect("solvable");
    let MateResult::Mate(pv) = &report.result else {
        panic!("{:?}", report.result)
    };
    assert_eq!(pv.len(), 23);
    assert!(
        report.shortest_proven,
        "not shown shortest ({} nodes)",
        report.nodes
    );
}
