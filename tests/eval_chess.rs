//! Chess `kishi-chess` evaluation: incremental material/KP equals from scratch after every move
//! (random playouts and real games), colour reversal, and the feature vector reproducing the
//! evaluation exactly, with every table filled with random weights.

mod eval_util;

use eval_util::*;
use kishi::chess::features::{random_params, ChessAcc, ChessFeatures};
use kishi::chess::ChessEval;
use kishi::chess::ChessPos;
use kishi::eval::rng::SplitMix64;
use kishi::eval::{Evaluator, FeatureSet, Weights};
use kishi::game::Game;
use std::sync::{Arc, OnceLock};

struct Fixture {
    params: Vec<i32>,
    eval: ChessEval,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let params = random_params(5, 3000);
        let w = Weights::from_params::<ChessPos, ChessFeatures>(&params, "{}").expect("weights");
        Fixture {
            params,
            eval: ChessEval::new(Arc::new(w)),
        }
    })
}

fn check_line(eval: &ChessEval, positions: &[ChessPos], moves: &[cozy_chess::Move]) {
    let mut acc = ChessAcc::default();
    eval.refresh(&positions[0], &mut acc);
    for (i, &mv) in moves.iter().enumerate() {
        let mut next = ChessAcc::default();
        eval.update(&positions[i], mv, &positions[i + 1], &acc, &mut next);
        let mut fresh = ChessAcc::default();
        eval.refresh(&positions[i + 1], &mut fresh);
        assert_eq!(
            next.sums(),
            fresh.sums(),
            "incremental != scratch after {} in {}",
            positions[i].move_text(mv),
            positions[i].to_text()
        );
        assert_eq!(
            eval.evaluate(&positions[i + 1], &next),
            eval.evaluate_scratch(&positions[i + 1])
        );
        acc = next;
    }
}

#[test]
fn incremental_equals_scratch_on_2000_random_playouts() {
    let f = fixture();
    let mut rng = SplitMix64::new(99);
    let mut plies = 0;
    for _ in 0..2000 {
        let (positions, moves) = random_playout::<ChessPos>(&mut rng, 300);
        plies += moves.len();
        check_line(&f.eval, &positions, &moves);
    }
    assert!(plies > 100_000, "{plies}");
}

#[test]
fn incremental_equals_scratch_on_500_real_games() {
    let f = fixture();
    let lines = read_lines("chess/chess_gm2400_train.txt.xz", 500);
    assert_eq!(lines.len(), 500);
    let mut plies = 0;
    for line in &lines {
        let (positions, moves) = replay::<ChessPos>(line);
        plies += moves.len();
        check_line(&f.eval, &positions, &moves);
    }
    assert!(plies > 20_000, "{plies}");
}

fn sample_positions(n: usize, seed: u64) -> Vec<ChessPos> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let len = 5 + rng.below(120);
        let (positions, _) = random_playout::<ChessPos>(&mut rng, len);
        out.push(positions.last().expect("nonempty").clone());
    }
    out
}

#[test]
fn colour_reversal_negates_the_evaluation() {
    let f = fixture();
    let d = <ChessPos as kishi::eval::GameEval>::default_eval();
    for pos in sample_positions(400, 3) {
        let text = pos.to_text();
        let rev = ChessPos::from_text(&fen_colour_reversed(&text))
            .unwrap_or_else(|e| panic!("{e} from {text}"));
        // Equal from the side to move = negated from white's view.
        assert_eq!(
            f.eval.evaluate_scratch(&pos),
            f.eval.evaluate_scratch(&rev),
            "{text}"
        );
        assert_eq!(d.evaluate_scratch(&pos), d.evaluate_scratch(&rev), "{text}");
    }
}

#[test]
fn feature_vector_reproduces_the_evaluation() {
    let f = fixture();
    let mut feats = Vec::new();
    for pos in sample_positions(300, 4) {
        ChessFeatures::features(&pos, &mut feats);
        assert!(feats.windows(2).all(|w| w[0].0 < w[1].0));
        // The known-endgame rules (a bare king against mating material) are scored on top of
        // the learned sum, outside the feature vector; everywhere else they change nothing.
        assert_eq!(
            chess_eval_from_features(&pos, &f.params, &feats),
            f.eval.evaluate_scratch(&pos),
            "{}",
            pos.to_text()
        );
    }
}

#[test]
fn default_evaluation_is_sensible() {
    let d = <ChessPos as kishi::eval::GameEval>::default_eval();
    let start = ChessPos::startpos();
    let e = d.evaluate_scratch(&start);
    // White's first-move advantage: a few tens of centipawns (the built-in file, fitted to
    // Stockfish's scores x1.5, gives about 35), never a piece.
    assert!((0..=60).contains(&e), "start position {e}");
    // A queen up is worth about a queen.
    let up = ChessPos::from_text("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        .expect("fen");
    let e = d.evaluate_scratch(&up);
    assert!((800..=1100).contains(&e), "queen up {e}");
    let b = d.breakdown(&up);
    assert_eq!(b.last().expect("total").1, e);
}
