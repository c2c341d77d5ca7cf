//! `Game::escape_classes` (the move ordering's escape bonus, `ThreatOrder`): worked out by hand
//! on small chess positions, and all zeros in shogi.

use kishi::chess::ChessPos;
use kishi::game::Game;
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
    for (mv, c) in [
        ("d4c4", 2),
        ("d4e4", 2),
        ("d4d5", 2),
        ("d4d1", 2),
        ("d4d8", 0), // the bishop attacks d8 too
        ("d4h4", 0), // and h4
        ("a3b3", 3),
        ("a3a2", 3),
        ("a3c5", 3),
        ("a3a4", 0), // still on the rook's file
        ("a3e7", 0), // the bishop attacks e7: a queen must escape rooks and minors
        ("e1d2", 0),
    ] {
        assert_eq!(m[mv], c, "{mv}");
    }
    assert!(of_class(&m, 1).is_empty(), "{m:?}");
}

#[test]
fn shogi_has_no_escape_classes() {
    let m = classes::<ShogiPos>("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    assert!(m.values().all(|&c| c == 0));
}
