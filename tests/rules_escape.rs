//! `Game::escape_classes` (the move ordering's escape and check bonuses and en-prise malus,
//! `ThreatOrder`, `CheckOrder`, `EnPrise`): worked out by hand on small chess positions, and all
//! zeros in shogi.

use kishi::chess::ChessPos;
use kishi::game::{Game, CHECK_CLASS, EN_PRISE_SHIFT};
use kishi::shogi::ShogiPos;
use std::collections::BTreeMap;

/// Each legal move's text with its escape class.
fn classes<G: Game>(text: &str) -> BTreeMap<String, u8> {
    let pos = G::from_text(text).expect("a legal position");
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut out = vec![9; 3]; // stale contents must be replaced
    pos.escape_classes(&moves, &mut out);
    assert_eq!(out.len(), moves.len());
    moves
        .iter()
        .zip(out)
        .map(|(&m, c)| (pos.move_text(m), c))
        .collect()
}

/// The moves of class `c`, sorted.
fn of_class(map: &BTreeMap<String, u8>, c: u8) -> Vec<&str> {
    map.iter()
        .filter(|(_, &v)| v == c)
        .map(|(k, _)| k.as_str())
        .collect()
}

#[test]
fn a_knight_attacked_by_a_pawn_escapes_to_squares_no_pawn_attacks() {
    // The d6 pawn attacks e5; the b5 pawn attacks c4 (and a4).
    let m = classes::<ChessPos>("4k3/8/3p4/1p2N3/8/8/8/4K3 w - - 0 1");
    assert_eq!(
        of_class(&m, 1),
        ["e5c6", "e5d3", "e5d7", "e5f3", "e5f7", "e5g4", "e5g6"]
    );
    assert_eq!(m["e5c4"], 0, "c4 is attacked by a pawn too");
    assert!(
        of_class(&m, 2).is_empty() && of_class(&m, 3).is_empty(),
        "{m:?}"
    );
    for k in ["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"] {
        assert_eq!(m[k], 0, "a king move is never an escape");
    }
}

#[test]
fn a_rook_escapes_a_bishop_and_a_queen_escapes_a_rook() {
    // The f6 bishop attacks the d4 rook (and d8, e7, e5, g5, h4 …); the a8 rook attacks the a3
    // queen (and a4–a7, b8–d8).
    let m = classes::<ChessPos>("r3k3/8/5b2/8/3R4/Q7/8/4K3 w - - 0 1");
    const C: u8 = CHECK_CLASS;
    for (mv, c) in [
        ("d4c4", 2),
        ("d4d5", 2),
        ("d4d1", 2),
        ("d4e4", 2 | C), // out of the bishop's reach, and up the e-file to the king
        ("d4d8", C),     // the bishop attacks d8, and the rook checks from there
        ("d4h4", 0),     // the bishop attacks h4
        ("a3b3", 3),
        ("a3a2", 3),
        ("a3c5", 3),
        ("a3a4", C), // still on the rook's file; checks along a4–e8
        ("a3e7", C), // the bishop attacks e7: a queen must escape rooks and minors
        ("e1d2", 0),
    ] {
        assert_eq!(m[mv], c, "{mv}");
    }
    assert!(of_class(&m, 1).is_empty(), "{m:?}");
}

#[test]
fn direct_checks_are_marked_for_every_piece_but_the_king() {
    // Black: king e8, pawn f7. White: pawn e6, knight e4, bishop b3, queen d1, king e1, rook h1.
    let m = classes::<ChessPos>("4k3/5p2/4P3/8/4N3/1B6/8/3QK2R w K - 0 1");
    const C: u8 = CHECK_CLASS;
    for (mv, c) in [
        ("e4d6", C), // the knight checks from d6 and f6 …
        ("e4f6", C),
        ("e4c5", 0),
        ("b3a4", C), // … the bishop from a4 (b5, c6, d7 are empty) …
        ("b3c4", 0), // … not from c4 (its own e6 pawn is in the way)
        ("h1h8", C), // … the rook along the eighth rank …
        ("d1d8", C), // … the queen from d8 …
        ("d1e2", 0), // … not from e2 (the e6 pawn again)
        ("e6f7", C), // … a pawn from f7 (a capture: classed, though the search reads quiets only)
        ("e6e7", 0),
        ("e1g1", 0), // castling is a king move
    ] {
        assert_eq!(m[mv], c, "{mv}");
    }
    assert!(
        m.values().all(|&c| c & 3 == 0),
        "nothing is threatened: {m:?}"
    );
}

#[test]
fn unthreatened_pieces_moved_en_prise_get_their_level() {
    // Black: king a8, bishop g8 (attacks f7, e6, d5, c4, …), pawn d6 (attacks c5, e5), knight g6
    // (attacks e5, e7, f4, h4, f8), rook a4 (attacks rank 4 and the a-file). White: bishop b2,
    // queen e2, knight b1, rook c1, king e1; nothing of White's is attacked.
    let m = classes::<ChessPos>("k5b1/8/3p2n1/8/r7/8/1B2Q3/1NR1K3 w - - 0 1");
    const C: u8 = CHECK_CLASS;
    let lvl = |l: u8| l << EN_PRISE_SHIFT;
    for (mv, c) in [
        ("b2e5", lvl(1)), // a bishop onto a pawn's square
        ("b2d4", 0),      // the rook attacks d4: not lesser than a bishop
        ("c1c4", lvl(2)), // a rook onto the bishop's square
        ("c1c5", lvl(3)), // … onto the pawn's
        ("c1c6", 0),
        ("c1c8", C),          // checks along the eighth rank; nothing attacks c8
        ("e2e4", lvl(4) | C), // a queen onto the rook's rank, checking along e4–a8
        ("e2c4", lvl(5)),     // … onto the bishop's square
        ("e2e6", lvl(5)),
        ("e2e7", lvl(5)), // … onto the knight's
        ("e2e5", lvl(6)), // … onto the pawn's (and the knight's)
        ("e2e3", 0),
        ("b1a3", 0), // the rook attacks a3: not lesser than a knight
        ("e1f1", 0), // the king has no level
    ] {
        assert_eq!(m[mv], c, "{mv}");
    }
    assert!(m.values().all(|&c| c & 3 == 0), "no escapes: {m:?}");
}

#[test]
fn shogi_has_no_escape_classes() {
    let m = classes::<ShogiPos>("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    assert!(!m.is_empty() && m.values().all(|&c| c == 0));
}
