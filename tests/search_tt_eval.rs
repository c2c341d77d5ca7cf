//! The static evaluation a transposition-table entry stores is reused instead of computed again
//! (`SearchParams::tt_eval`). An entry's value must be exactly the evaluation of its position, so
//! the search with reuse visits the same tree as without it: same node count, score and move. A
//! new evaluation (`Engine::set_eval`) clears the table, whose values are the old evaluation's.

use kishi::chess::ChessPos;
use kishi::eval::material::MaterialEval;
use kishi::eval::{Evaluator, GameEval};
use kishi::game::{Game, GameHistory};
use kishi::search::{Engine, Limits, SearchConfig, SearchOutcome, SearchParams};
use kishi::shogi::ShogiPos;

fn search<G: Game, E: Evaluator<G> + Clone>(
    engine: &mut Engine<G, E>,
    pos: &G,
    depth: u32,
    tt_eval: bool,
) -> SearchOutcome<G::Move> {
    engine.set_config(SearchConfig {
        params: SearchParams {
            tt_eval,
            ..SearchParams::default()
        },
        ..SearchConfig::default()
    });
    let h = GameHistory::new(pos.clone());
    engine.search_sync(&h, &Limits::depth(depth), Box::new(|_| {}))
}

fn same_tree<G: Game, E: Evaluator<G> + Clone>(eval: E, pos: &G, depth: u32) {
    let with = search(&mut Engine::new(eval.clone(), 1, 16), pos, depth, true);
    let without = search(&mut Engine::new(eval, 1, 16), pos, depth, false);
    assert!(with.nodes > 1000, "{} nodes", with.nodes);
    assert_eq!(
        (with.nodes, with.score, with.best),
        (without.nodes, without.score, without.best),
        "{}",
        pos.to_text()
    );
}

const CHESS: [&str; 4] = [
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "2r3k1/1q1nbppp/r3p3/3pP3/pPpP4/P1Q2N2/2RN1PPP/2R4K b - - 0 23",
];

#[test]
fn reusing_stored_evaluations_searches_the_same_tree() {
    for fen in CHESS {
        let pos = ChessPos::from_text(fen).expect("valid FEN");
        same_tree(<ChessPos as GameEval>::default_eval(), &pos, 9);
    }
    let shogi =
        ShogiPos::from_text("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2")
            .expect("valid SFEN");
    same_tree(MaterialEval, &shogi, 7);
}

#[test]
fn a_new_evaluation_clears_the_table() {
    let pos = ChessPos::from_text(CHESS[1]).expect("valid FEN");
    let learned = <ChessPos as GameEval>::default_eval();
    let other = <ChessPos as GameEval>::load_eval(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/eval_weights/chess-kp.kwt"
    )))
    .expect("a shipped chess file");
    // An engine that searched this position with another evaluation, then switched to the
    // learned one, searches exactly as a new engine with the learned one.
    let mut switched = Engine::new(other, 1, 16);
    let before = search(&mut switched, &pos, 8, true);
    switched.set_eval(learned.clone());
    let after = search(&mut switched, &pos, 8, true);
    let fresh = search(&mut Engine::new(learned, 1, 16), &pos, 8, true);
    assert_ne!(
        before.nodes, fresh.nodes,
        "the two evaluations search alike"
    );
    assert_eq!((after.nodes, after.score), (fresh.nodes, fresh.score));
}
