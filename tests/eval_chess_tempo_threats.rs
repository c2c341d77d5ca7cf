//! The `tempo_threats` chess terms count what their names say (the enemy men a side threatens,
//! by type, and how many pieces at once, apart for the two sides to move), on hand-made
//! positions; and the table moves the evaluation as its feature vector says.

use kishi::chess::features::*;
use kishi::chess::ChessPos;
use kishi::eval::{FeatureSet, Weights};
use kishi::game::Game;

fn pos(fen: &str) -> ChessPos {
    ChessPos::from_text(fen).unwrap_or_else(|e| panic!("{e}: {fen}"))
}

/// The non-zero counts of one side's threats, as (index, count), in index order.
fn nonzero(fen: &str, white: bool) -> Vec<(usize, i32)> {
    tempo_threat_counts(&pos(fen), white)
        .iter()
        .enumerate()
        .filter(|(_, &c)| c != 0)
        .map(|(i, &c)| (i, c))
        .collect()
}

#[test]
fn a_knight_fork_counts_two_pieces_for_the_side_that_must_answer() {
    // The white knight on c7 forks the black rook a8 and queen e6 (each attacked by a lesser
    // piece): two pieces, with black to move.
    let fen = "r2b2k1/2N5/4q3/8/8/8/8/7K b - - 0 1";
    assert_eq!(
        nonzero(fen, true),
        vec![
            (TT_THEIR_MOVE + TT_ROOK, 1),
            (TT_THEIR_MOVE + TT_QUEEN, 1),
            (TT_THEIR_MOVE + TT_MANY + 1, 1),
        ]
    );
    // Black's bishop d8 attacks the knight, which nothing defends: one piece, and black is to
    // move, so it counts in the mover's block.
    assert_eq!(
        nonzero(fen, false),
        vec![(TT_OUR_MOVE + TT_KNIGHT, 1), (TT_OUR_MOVE + TT_MANY, 1)]
    );
}

#[test]
fn a_defended_piece_attacked_by_an_equal_one_is_no_threat_but_a_pawn_attack_is() {
    // The white bishop d3 and the black bishop f5 attack each other, each defended by a pawn
    // (c2, g6): no threat either way. Then a white pawn on e4 attacks the bishop f5: a threat.
    let quiet = "4k3/8/6p1/5b2/8/3B4/2P5/4K3 w - - 0 1";
    assert_eq!(nonzero(quiet, true), vec![]);
    assert_eq!(nonzero(quiet, false), vec![]);
    let pawn = "4k3/8/6p1/5b2/4P3/3B4/2P5/4K3 w - - 0 1";
    assert_eq!(
        nonzero(pawn, true),
        vec![(TT_OUR_MOVE + TT_BISHOP, 1), (TT_OUR_MOVE + TT_MANY, 1)]
    );
}

#[test]
fn hanging_pawns_count_by_number_and_three_pieces_cap_the_one_hot() {
    // A white queen on d4 attacks the undefended black pawns a4 and h4 and the undefended
    // knight a1, bishop g7 and rook d8: two pawns, three pieces (the one-hot's last slot).
    let fen = "k2r4/6b1/8/8/p2Q3p/8/8/n3K3 b - - 0 1";
    let c = tempo_threat_counts(&pos(fen), true);
    assert_eq!(c[TT_THEIR_MOVE + TT_PAWN], 2);
    assert_eq!(c[TT_THEIR_MOVE + TT_KNIGHT], 1);
    assert_eq!(c[TT_THEIR_MOVE + TT_BISHOP], 1);
    assert_eq!(c[TT_THEIR_MOVE + TT_ROOK], 1);
    assert_eq!(c[TT_THEIR_MOVE + TT_MANY + 2], 1);
    assert_eq!(c.iter().sum::<i32>(), 6);
}

/// The evaluation with only `tempo_threats` weights set equals what the feature vector says,
/// the position turned around (colours swapped) scores the same for the side to move, and the
/// same board with the other side to move scores otherwise (the table reads the mover).
#[test]
fn the_table_moves_the_evaluation_as_its_features_say() {
    let mut params = vec![0i32; N_PARAMS];
    for i in 0..2 * N_TEMPO_THREATS {
        params[OFF_TEMPO_THREATS + i] = 32 * ((i as i32 * 7) % 23 - 11);
    }
    let w = Weights::from_params::<ChessPos, ChessFeatures>(&params, "{}").expect("weights");
    let eval = |fen: &str| {
        let p = pos(fen);
        let mut acc = Default::default();
        ChessFeatures::refresh(&w, &p, &mut acc);
        ChessFeatures::evaluate(&w, &p, &acc)
    };
    let fen = "r2b2k1/2N5/4q3/8/8/8/8/7K b - - 0 1";
    let turned = "7k/8/8/8/8/4Q3/2n5/R2B2K1 w - - 0 1";
    let other_mover = "r2b2k1/2N5/4q3/8/8/8/8/7K w - - 0 1";
    assert_ne!(eval(fen), 0);
    assert_eq!(eval(fen), eval(turned));
    assert_ne!(eval(fen), -eval(other_mover));
    let p = pos(fen);
    let mut f = Vec::new();
    ChessFeatures::features(&p, &mut f);
    let dot: i64 = f
        .iter()
        .map(|&(i, c)| params[i as usize] as i64 * c as i64)
        .sum();
    assert_eq!(dot / ChessFeatures::SCALE as i64, eval(fen) as i64);
}
