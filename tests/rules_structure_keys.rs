//! `Game::structure_key` and `Game::pieces_key`, the keys of the search's correction histories
//! (`CorrHist`, `CorrNonPawn`): in chess the first follows the pawns and nothing else, the second
//! one colour's other pieces and nothing else; shogi has neither (0).

use kishi::chess::ChessPos;
use kishi::game::{Game, Side};
use kishi::shogi::ShogiPos;

fn after(pos: &ChessPos, moves: &[&str]) -> ChessPos {
    moves.iter().fold(pos.clone(), |p, m| {
        let mv = p.parse_move(m).expect("a legal move");
        p.play(mv)
    })
}

#[test]
fn the_pawn_key_follows_the_pawns_alone() {
    let start = ChessPos::startpos();
    // Knights out and back: the same pawns, another side to move is not part of the key.
    let knights = after(&start, &["g1f3", "g8f6"]);
    assert_eq!(start.structure_key(), knights.structure_key());
    let e4 = after(&start, &["e2e4"]);
    assert_ne!(start.structure_key(), e4.structure_key());
    // The same pawns reached by two move orders.
    let a = after(&start, &["e2e4", "e7e5", "d2d4"]);
    let b = after(&start, &["d2d4", "e7e5", "e2e4"]);
    assert_eq!(a.structure_key(), b.structure_key());
    // A white pawn on e4 is not a black pawn on e4: colours count.
    let w = ChessPos::from_text("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1").expect("FEN");
    let k = ChessPos::from_text("4k3/8/8/8/4p3/8/8/4K3 w - - 0 1").expect("FEN");
    assert_ne!(w.structure_key(), k.structure_key());
}

#[test]
fn a_pieces_key_follows_its_own_colours_pieces_alone() {
    let start = ChessPos::startpos();
    let knight = after(&start, &["g1f3"]);
    assert_ne!(
        start.pieces_key(Side::First),
        knight.pieces_key(Side::First)
    );
    assert_eq!(
        start.pieces_key(Side::Second),
        knight.pieces_key(Side::Second)
    );
    // A pawn move changes neither colour's key.
    let pawn = after(&start, &["e2e4"]);
    for side in [Side::First, Side::Second] {
        assert_eq!(start.pieces_key(side), pawn.pieces_key(side));
    }
    // The two colours' identical sets in the start position still differ by square.
    assert_ne!(
        start.pieces_key(Side::First),
        start.pieces_key(Side::Second)
    );
    // A knight and a bishop on the same square are told apart.
    let n = ChessPos::from_text("4k3/8/8/8/8/8/8/2N1K3 w - - 0 1").expect("FEN");
    let b = ChessPos::from_text("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1").expect("FEN");
    assert_ne!(n.pieces_key(Side::First), b.pieces_key(Side::First));
}

#[test]
fn shogi_has_no_structure_keys() {
    let pos = ShogiPos::startpos();
    assert_eq!(pos.structure_key(), 0);
    assert_eq!(pos.pieces_key(Side::First), 0);
}
