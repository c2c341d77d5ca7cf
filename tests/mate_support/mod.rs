//! Shared by the mate solver's node-count tests: solve a problem under given limits, check that
//! the answer is a real mate, and return the nodes to the first proof (deterministic on one
//! thread, unlike time, so the tests compare an option on and off by it).

use kishi::mate::{solve, verify_mate_line, MateLimits, MateResult};
use kishi::shogi::ShogiPos;
use std::sync::atomic::AtomicBool;

/// Nodes searched to the first proof of `pos` under `limits`; panics with `what` in the message
/// when the problem is not solved or the line is not a mate.
pub fn first_proof_nodes(pos: &ShogiPos, limits: &MateLimits, what: &str) -> u64 {
    let stop = AtomicBool::new(false);
    let r = solve(pos, limits, &stop).expect("valid");
    let MateResult::Mate(pv) = &r.result else {
        panic!("{what}: not solved: {:?}", r.result);
    };
    verify_mate_line(pos, pv).expect("a mate line");
    r.first_proof.expect("proven").0
}
