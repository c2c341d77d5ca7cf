//! The `king_attack_pairs` chess terms are the pairwise products of an attack's components, on a
//! hand-made position whose components are worked out by hand; no attack, no terms; and the
//! table moves the evaluation as its feature vector says.

use kishi::chess::features::*;
use kishi::chess::ChessPos;
use kishi::game::Game;

mod eval_util;

fn pos(fen: &str) -> ChessPos {
    ChessPos::from_text(fen).unwrap_or_else(|e| panic!("{e}: {fen}"))
}

/// A white queen on d5 against the black king g8 behind pawns f7 g7 h7.
const QUEEN_ATTACK: &str = "6k1/5ppp/8/3Q4/8/8/5PPP/6K1 w - - 0 1";

#[test]
fn a_queen_attack_counts_every_product_of_its_components() {
    // By hand: one queen attacks the zone (f7, its only zone square: one zone attack); f7 is
    // defended by the king alone (weak); the queen can check safely from d8 and a8 (2) and
    // unsafely from f7 (the king defends it); white has a queen.
    let mut x = [0i32; KA_COMPONENTS];
    x[KA_QUEENS] = 1;
    x[KA_ZONE_ATTACKS] = 1;
    x[KA_WEAK] = 1;
    x[KA_SAFE_CHECK_Q] = 2;
    x[KA_UNSAFE_CHECKS] = 1;
    x[KA_QUEEN] = 1;
    let mut want = [0i32; N_KING_PAIRS];
    for i in 0..KA_COMPONENTS {
        for j in i..KA_COMPONENTS {
            want[ka_pair(i, j)] = x[i] * x[j];
        }
    }
    let got = king_pair_counts(&pos(QUEEN_ATTACK), true);
    assert_eq!(got.to_vec(), want.to_vec());
    assert_eq!(
        got.iter().filter(|&&c| c != 0).count(),
        21,
        "6 components, 21 pairs"
    );
    assert_eq!(got[ka_pair(KA_SAFE_CHECK_Q, KA_SAFE_CHECK_Q)], 4);
    assert_eq!(got[ka_pair(KA_QUEENS, KA_SAFE_CHECK_Q)], 2);
    // Black attacks nothing near the white king: no terms.
    assert!(king_pair_counts(&pos(QUEEN_ATTACK), false)
        .iter()
        .all(|&c| c == 0));
}

#[test]
fn pair_indices_cover_the_table_once() {
    let mut seen = [false; N_KING_PAIRS];
    for i in 0..KA_COMPONENTS {
        for j in i..KA_COMPONENTS {
            let k = ka_pair(i, j);
            assert!(!seen[k], "({i}, {j}) -> {k} twice");
            seen[k] = true;
        }
    }
    assert!(seen.iter().all(|&s| s));
}

/// The evaluation with only `king_attack_pairs` weights set equals what the feature vector
/// says, and the position turned around (colours swapped) scores the same for the side to move.
#[test]
fn the_table_moves_the_evaluation_as_its_features_say() {
    eval_util::chess_table_moves_the_evaluation(
        OFF_KING_PAIRS,
        2 * N_KING_PAIRS,
        QUEEN_ATTACK,
        "6k1/5ppp/8/8/3q4/8/5PPP/6K1 b - - 0 1",
    );
}
