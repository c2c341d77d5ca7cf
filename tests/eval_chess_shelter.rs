//! The `king_shelter` chess terms count what their names say (Stockfish 11's shelter and storm,
//! file by file around each king, one-hot), on hand-made positions.

use kishi::chess::features::*;
use kishi::chess::ChessPos;
use kishi::game::Game;

mod eval_util;

fn pos(fen: &str) -> ChessPos {
    ChessPos::from_text(fen).unwrap_or_else(|e| panic!("{e}: {fen}"))
}

/// The non-zero counts of one side's terms, as (index, count), in index order.
fn nonzero(fen: &str, white: bool) -> Vec<(usize, i32)> {
    shelter_counts(&pos(fen), white)
        .iter()
        .enumerate()
        .filter(|(_, &c)| c != 0)
        .map(|(i, &c)| (i, c))
        .collect()
}

const fn shelter(d: usize, rank: usize) -> usize {
    S_SHELTER + d * 7 + rank
}
const fn storm(d: usize, rank: usize) -> usize {
    S_STORM + d * 7 + rank
}

#[test]
fn the_start_position() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    // The king on e1 counts the d, e and f files (edge distances 3, 3, 2): own pawns on the
    // second rank (1), enemy pawns on the seventh (6), not blocking each other.
    let want = vec![
        (shelter(2, 1), 1),
        (shelter(3, 1), 2),
        (storm(2, 6), 1),
        (storm(3, 6), 2),
    ];
    let mut want = want;
    want.sort();
    assert_eq!(nonzero(start, true), want);
    assert_eq!(
        nonzero(start, false),
        want,
        "the same for black, ranks turned"
    );
}

#[test]
fn a_fianchetto_and_a_blocked_storm() {
    // White: Kg1, pawns f2 g3 h2; black: Kg8, pawn g4 (blocked by g3).
    let fen = "6k1/8/8/8/6p1/6P1/5P1P/6K1 w - - 0 1";
    let mut want = vec![
        (shelter(2, 1), 1),       // f2
        (shelter(1, 2), 1),       // g3
        (shelter(0, 1), 1),       // h2
        (storm(2, 0), 1),         // no black pawn on f
        (S_BLOCKED_STORM + 3, 1), // g4 stands just in front of g3
        (storm(0, 0), 1),         // none on h
    ];
    want.sort();
    assert_eq!(nonzero(fen, true), want);
    // Black's king on g8: its g4 pawn is on its fifth rank (4), white's pawns on its seventh (f2,
    // h2: 6) and sixth (g3: 5); g3 stands just in front of g4: blocked.
    let mut want = vec![
        (shelter(2, 0), 1),
        (shelter(1, 4), 1),
        (shelter(0, 0), 1),
        (storm(2, 6), 1),
        (S_BLOCKED_STORM + 5, 1),
        (storm(0, 6), 1),
    ];
    want.sort();
    assert_eq!(nonzero(fen, false), want);
}

#[test]
fn pawns_behind_the_king_and_attacked_pawns_do_not_shelter() {
    // White: Kg3, pawns h2 (behind the king) and f3 (attacked by black's e4).
    let fen = "4k3/8/8/8/4p3/5PK1/7P/8 w - - 0 1";
    let mut want = vec![
        (shelter(2, 0), 1),
        (shelter(1, 0), 1),
        (shelter(0, 0), 1),
        (storm(2, 0), 1),
        (storm(1, 0), 1),
        (storm(0, 0), 1),
    ];
    want.sort();
    assert_eq!(nonzero(fen, true), want);
    // Without the e4 pawn, f3 shelters (rank 2).
    let c = shelter_counts(&pos("4k3/8/8/8/8/5PK1/7P/8 w - - 0 1"), true);
    assert_eq!(c[shelter(2, 2)], 1);
    assert_eq!(c[shelter(2, 0)], 0);
}

#[test]
fn a_king_on_the_edge_counts_the_three_files_beside_it() {
    // Ka1 with pawns a2 b3 c2: files a, b, c (edge distances 0, 1, 2).
    let fen = "7k/8/8/8/8/1P6/P1P5/K7 w - - 0 1";
    let c = shelter_counts(&pos(fen), true);
    assert_eq!(c[shelter(0, 1)], 1);
    assert_eq!(c[shelter(1, 2)], 1);
    assert_eq!(c[shelter(2, 1)], 1);
    assert_eq!(
        c.iter().sum::<i32>(),
        6,
        "three shelter and three storm counts"
    );
}

/// The evaluation with only `king_shelter` weights set equals what the feature vector says, and
/// the position turned around (colours swapped) scores the same for the side to move.
#[test]
fn the_table_moves_the_evaluation_as_its_features_say() {
    eval_util::chess_table_moves_the_evaluation(
        OFF_SHELTER,
        2 * N_SHELTER,
        "6k1/8/8/8/6p1/6P1/5P1P/6K1 w - - 0 1",
        "6k1/5p1p/6p1/6P1/8/8/8/6K1 b - - 0 1",
    );
}
