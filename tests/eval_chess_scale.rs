//! The chess endgame scale factor (`src/chess/features/scale.rs`): its value on drawish
//! material, the same with the colours swapped, and carried by the feature vector exactly as the
//! evaluation applies it.

mod eval_util;

use eval_util::*;
use kishi::chess::features::{random_params, scale, ChessFeatures};
use kishi::chess::{ChessEval, ChessPos};
use kishi::eval::{FeatureSet, Weights};
use kishi::game::Game;
use std::sync::Arc;

/// (FEN, expected factor) on hand-made endgames.
const CASES: &[(&str, i32)] = &[
    // No special material: the plain taper.
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        64,
    ),
    ("4k3/pppp4/8/8/8/8/PPPP4/4K2R w - - 0 1", 64),
    // Two knights cannot force mate.
    ("1k6/8/1K1N4/8/N7/8/8/8 w - - 0 1", 0),
    // Pawnless, at most a minor apart.
    ("4k3/7R/8/4K3/5N2/8/8/4r3 w - - 0 1", 16),
    ("3k4/8/4b2K/8/5B2/8/6B1/8 w - - 0 1", 8),
    // A rook against a bare king: still a win, but the few-pawns rule (no pawns) applies.
    ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 36),
    // Bishop and the wrong rook pawn, the defending king in the corner: a draw.
    ("7k/8/6KP/8/2B5/8/8/8 w - - 0 1", 0),
    // ... the right bishop wins: only the few-pawns rule (one pawn).
    ("7k/8/6KP/8/3B4/8/8/8 b - - 0 1", 43),
    // ... a rook pawn alone with the king in front: a draw.
    ("k7/8/1K6/P7/8/8/8/8 w - - 0 1", 0),
    // Opposite-coloured bishops alone, pawns level and one up.
    ("8/5pk1/4b3/8/8/8/5PK1/2B5 w - - 0 1", 16),
    ("8/5pk1/4b3/8/8/8/4PPK1/2B5 w - - 0 1", 24),
    // Opposite-coloured bishops with rooks.
    ("r5k1/5p2/4b3/8/8/8/5P2/R1B3K1 w - - 0 1", 46),
    // A rook endgame a pawn up: few pawns for the side ahead.
    ("8/5pk1/8/8/8/8/5PP1/R5K1 w - - 0 1", 50),
];

#[test]
fn factor_of_drawish_material_and_the_same_with_colours_swapped() {
    for &(fen, want) in CASES {
        let pos = ChessPos::from_text(fen).unwrap_or_else(|e| panic!("{e}: {fen}"));
        assert_eq!(scale::factor(pos.board()), want, "{fen}");
        let rev = ChessPos::from_text(&fen_colour_reversed(fen)).expect("reversed fen");
        assert_eq!(scale::factor(rev.board()), want, "reversed {fen}");
    }
}

#[test]
fn feature_vector_carries_the_factor_as_the_evaluation_applies_it() {
    let params = random_params(11, 3000);
    let w = Weights::from_params::<ChessPos, ChessFeatures>(&params, "{}").expect("weights");
    let eval = ChessEval::new(Arc::new(w));
    let mut feats = Vec::new();
    for &(fen, _) in CASES {
        for text in [fen.to_string(), fen_colour_reversed(fen)] {
            let pos = ChessPos::from_text(&text).expect("fen");
            ChessFeatures::features(&pos, &mut feats);
            // The known-endgame rules (a bare king: several cases here) are scored on top of
            // the learned sum, outside the feature vector.
            assert_eq!(
                chess_eval_from_features(&pos, &params, &feats),
                eval.evaluate_scratch(&pos),
                "{text}"
            );
        }
        // Anti-symmetric with the factor applied.
        let pos = ChessPos::from_text(fen).expect("fen");
        let rev = ChessPos::from_text(&fen_colour_reversed(fen)).expect("fen");
        assert_eq!(
            eval.evaluate_scratch(&pos),
            eval.evaluate_scratch(&rev),
            "{fen}"
        );
    }
}

#[test]
fn built_in_evaluation_calls_dead_draws_even_and_a_queen_a_win() {
    let d = <ChessPos as kishi::eval::GameEval>::default_eval();
    for fen in [
        "1k6/8/1K1N4/8/N7/8/8/8 w - - 0 1",
        "7k/8/6KP/8/2B5/8/8/8 w - - 0 1",
        "k7/8/1K6/P7/8/8/8/8 w - - 0 1",
    ] {
        let pos = ChessPos::from_text(fen).expect("fen");
        let e = d.evaluate_scratch(&pos);
        // Only the middlegame half is left, weighted by the little phase there is.
        assert!(e.abs() <= 60, "{fen}: {e}");
    }
    let pos = ChessPos::from_text("7k/8/6K1/8/8/8/Q7/8 w - - 0 1").expect("fen");
    let e = d.evaluate_scratch(&pos);
    // Scaled by the few-pawns rule (36/64), still far more than any draw.
    assert!(e >= 400, "queen up {e}");
}
