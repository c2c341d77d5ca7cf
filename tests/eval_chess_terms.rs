//! The extended chess terms (`positional_ext`) count what their names say, on hand-made
//! positions where each count can be worked out by hand.

use kishi::chess::features::*;
use kishi::chess::ChessPos;
use kishi::game::Game;

fn counts(fen: &str, white: bool) -> [i32; N_EXT] {
    let pos = ChessPos::from_text(fen).unwrap_or_else(|e| panic!("{e}: {fen}"));
    ext_counts(&pos, white)
}

#[test]
fn pawn_threat_on_an_undefended_knight() {
    // White's e4 pawn attacks the lone black knight on d5.
    let w = counts("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", true);
    assert_eq!(w[E_THREAT_PAWN_MINOR], 1);
    assert_eq!(w[E_THREAT_PAWN_MAJOR], 0);
    assert_eq!(w[E_HANGING], 1);
    assert_eq!(w[E_KING_ATTACKERS_NOQ], 1, "no attacker: slot 0");
    let b = counts("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", false);
    assert_eq!(b[E_THREAT_PAWN_MINOR], 0);
    assert_eq!(b[E_HANGING], 0);
    // Defended by a pawn, the knight is no longer hanging, still threatened.
    let w = counts("4k3/8/4p3/3n4/4P3/8/8/4K3 w - - 0 1", true);
    assert_eq!(w[E_THREAT_PAWN_MINOR], 1);
    assert_eq!(w[E_HANGING], 0);
}

#[test]
fn passed_pawn_detail() {
    // White pawn e6 (relative rank 6, index 4): stop square e7 empty but covered by the black
    // king on e8; kings at distance 6 (own, e1) and 1 (enemy) from e7; the path is not free.
    let w = counts("4k3/8/4P3/8/8/8/8/4K3 w - - 0 1", true);
    assert_eq!(w[E_PP_BLOCKED + 4], 0);
    assert_eq!(w[E_PP_SAFE_ADVANCE + 4], 0);
    assert_eq!(w[E_PP_OWN_KING + 4], 6);
    assert_eq!(w[E_PP_THEIR_KING + 4], 1);
    assert_eq!(w[E_PP_FREE_PATH + 4], 0);
    // Black king away on a8: e7 is a safe advance and the path e7-e8 is free.
    let w = counts("k7/8/4P3/8/8/8/8/4K3 w - - 0 1", true);
    assert_eq!(w[E_PP_SAFE_ADVANCE + 4], 1);
    assert_eq!(w[E_PP_FREE_PATH + 4], 1);
    assert_eq!(w[E_PP_THEIR_KING + 4], 4);
    // A black bishop on e7 blocks it (and black's pawn-less side has no passed pawn).
    let w = counts("k7/4b3/4P3/8/8/8/8/4K3 w - - 0 1", true);
    assert_eq!(w[E_PP_BLOCKED + 4], 1);
    assert_eq!(w[E_PP_SAFE_ADVANCE + 4], 0);
    // The same for black, seen from its side: pawn d3 is on its relative rank 6.
    let b = counts("4k3/8/8/8/8/3p4/8/K7 b - - 0 1", false);
    assert_eq!(b[E_PP_SAFE_ADVANCE + 4], 1);
    assert_eq!(b[E_PP_OWN_KING + 4], 6, "e8 to d2");
}

#[test]
fn pawn_chains_and_backward_pawns() {
    // c3 supports d4; d4 and e4 form a phalanx.
    let w = counts("4k3/8/8/8/3PP3/2P5/8/4K3 w - - 0 1", true);
    assert_eq!(w[E_PAWN_SUPPORTED], 1);
    assert_eq!(w[E_PAWN_PHALANX], 2);
    // d3 has its neighbour c4 ahead and d4 is hit by black's e5 pawn: backward.
    let w = counts("4k3/8/8/4p3/2P5/3P4/8/4K3 w - - 0 1", true);
    assert_eq!(w[E_PAWN_BACKWARD], 1);
}

#[test]
fn king_danger_and_safe_checks() {
    // Black king g7, zone f6-h8. White queen d1 attacks no zone square: slot 0 with a queen. Its
    // safe checking squares (on g7's lines and diagonals, not covered by black) are a1 (along
    // the first rank), d4, d7 and g4; the knight c5 checks from e6. White's king e1 has no pawn on the d, e or f file.
    let w = counts("8/6k1/8/2N5/8/8/8/3QK3 w - - 0 1", true);
    assert_eq!(w[E_KING_ATTACKERS_Q], 1);
    assert_eq!(w[E_SAFE_CHECK_Q], 4);
    assert_eq!(w[E_SAFE_CHECK_N], 1);
    assert_eq!(w[E_KING_OPEN_FILES], 3);
    // The queen on h5 hits h6, g6 and f7: one attacker with a queen.
    let w = counts("8/6k1/8/2N4Q/8/8/8/4K3 w - - 0 1", true);
    assert_eq!(w[E_KING_ATTACKERS_Q + 1], 1);
    assert_eq!(w[E_KING_ATTACKERS_Q], 0);
    // Black pawns g4/h4 storm a king on g1 (within three ranks ahead on the f-h files).
    let w = counts("4k3/8/8/8/6pp/8/5PPP/6K1 w - - 0 1", true);
    assert_eq!(w[E_PAWN_STORM], 2);
    assert_eq!(w[E_KING_OPEN_FILES], 0);
}

/// The king-danger index worked out by hand on a queen and knight attack on a castled king, and
/// nothing without an attack.
#[test]
fn king_danger_counts_its_index() {
    // White queen h5 and knight g5 against the black king g8 behind f7 g7 h7. Zone {f8 g8 h8 f7
    // g7 h7}: the queen hits h7 and f7, the knight f7 and h7 (2 attackers, weights 10 + 81;
    // 4 zone attacks); f7 and h7 are defended by the king alone (2 weak); the queen's checks
    // Qxf7 and Qxh7 are covered by the king (2 unsafe, no safe check). Index: 2·91 + 69·4 +
    // 185·2 + 148·2 + 37 = 1161, counted 1161²/16384 = 82 and 1161/64 = 18.
    let fen = "6k1/5ppp/8/6NQ/8/8/8/4K3 w - - 0 1";
    let pos = kishi::chess::ChessPos::from_text(fen).expect("valid");
    assert_eq!(king_danger_counts(&pos, true), [82, 18]);
    // Black has nothing against the white king (and no queen): no danger.
    assert_eq!(king_danger_counts(&pos, false), [0, 0]);
    // The knight alone is one attacker without a queen: not counted (its index, 81 + 69·2 +
    // 185·2 − 873 + 37, would be below 100 anyway).
    let knight =
        kishi::chess::ChessPos::from_text("6k1/5ppp/8/6N1/8/8/8/4K3 w - - 0 1").expect("valid");
    assert_eq!(king_danger_counts(&knight, true), [0, 0]);
    // The queen alone is one attacker with a queen, which the index counts: 10 + 69·2 + 185·2 +
    // 148·2 + 37 = 851, counted 851²/16384 = 44 and 851/64 = 13.
    let queen =
        kishi::chess::ChessPos::from_text("6k1/5ppp/8/7Q/8/8/8/4K3 w - - 0 1").expect("valid");
    assert_eq!(king_danger_counts(&queen, true), [44, 13]);
    // The start position: no piece reaches a king zone.
    let start = kishi::chess::ChessPos::from_text("startpos").expect("valid");
    assert_eq!(king_danger_counts(&start, true), [0, 0]);
    assert_eq!(king_danger_counts(&start, false), [0, 0]);
}
