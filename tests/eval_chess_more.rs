//! The `positional_more` chess terms (Stockfish 11's classical terms that `kishi-chess` lacked)
//! count what their names say, on hand-made positions where each count can be worked out by hand.

use kishi::chess::features::*;
use kishi::chess::ChessPos;
use kishi::game::Game;

fn counts(fen: &str, white: bool) -> [i32; N_MORE] {
    let pos = ChessPos::from_text(fen).unwrap_or_else(|e| panic!("{e}: {fen}"));
    more_counts(&pos, white)
}

#[test]
fn the_start_position() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    for white in [true, false] {
        let c = counts(start, white);
        // c3–f3 and c4–f4: eight safe space squares, none behind a pawn; 16 men → (15)²/16.
        assert_eq!(c[M_SPACE], 8);
        assert_eq!(c[M_SPACE_WEIGHTED], 8 * 15 * 15 / 16);
        // Knights 3 and 2 king steps from e1, bishops 2 and 1.
        assert_eq!(c[M_KING_PROTECTOR_N], 5);
        assert_eq!(c[M_KING_PROTECTOR_B], 3);
        // The h-rook has no move on the king's side of its king (as in Stockfish 11), with
        // castling rights: 1.
        assert_eq!(c[M_TRAPPED_ROOK], 1);
        for m in [
            M_THREAT_MINOR_MINOR,
            M_THREAT_ROOK_MINOR,
            M_RESTRICTED,
            M_LONG_DIAGONAL,
            M_BISHOP_XRAY_PAWNS,
            M_ROOK_QUEEN_FILE,
            M_FLANK_ATTACKS,
            M_PAWNLESS_FLANK,
        ] {
            assert_eq!(c[m], 0, "term {m}");
        }
    }
}

#[test]
fn space_counts_squares_behind_the_pawns_twice() {
    // d4 e4 alone: ten safe squares of c2–f4, four of them (d2 d3 e2 e3) behind the pawns;
    // three men, so the weighted count is 14 · 2² / 16.
    let c = counts("4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1", true);
    assert_eq!(c[M_SPACE], 14);
    assert_eq!(c[M_SPACE_WEIGHTED], 3);
    // The same for black, mirrored.
    let c = counts("4k3/8/8/3pp3/8/8/8/4K3 b - - 0 1", false);
    assert_eq!(c[M_SPACE], 14);
}

#[test]
fn threats_by_minor_and_rook() {
    let c = counts("4k3/8/8/4n3/8/2B5/8/4K3 w - - 0 1", true);
    assert_eq!(c[M_THREAT_MINOR_MINOR], 1, "Bc3 hits Ne5");
    assert_eq!(
        counts("4k3/8/8/4n3/8/2B5/8/4K3 w - - 0 1", false)[M_THREAT_MINOR_MINOR],
        0
    );
    assert_eq!(
        counts("4k3/8/8/R6n/8/8/8/4K3 w - - 0 1", true)[M_THREAT_ROOK_MINOR],
        1
    );
    let c = counts("4k3/8/8/R6p/8/8/8/4K3 w - - 0 1", true);
    assert_eq!((c[M_THREAT_ROOK_PAWN], c[M_THREAT_MINOR_PAWN]), (1, 0));
    // A pawn defended by a pawn is not a target.
    let c = counts("4k3/8/6p1/R6p/8/8/8/4K3 w - - 0 1", true);
    assert_eq!(c[M_THREAT_ROOK_PAWN], 0);
}

#[test]
fn restricted_squares() {
    // Ra1 and the black king on b8 both reach a7 and a8.
    assert_eq!(
        counts("1k6/8/8/8/8/8/8/R3K3 w - - 0 1", true)[M_RESTRICTED],
        2
    );
    assert_eq!(
        counts("1k6/8/8/8/8/8/8/R3K3 w - - 0 1", false)[M_RESTRICTED],
        2
    );
    // A black pawn on b7 adds a6 to what both reach, but a square a pawn holds is not counted.
    assert_eq!(
        counts("1k6/1p6/8/8/8/8/8/R3K3 w - - 0 1", true)[M_RESTRICTED],
        2
    );
}

#[test]
fn a_rook_trapped_by_its_king() {
    // Kf1 Rh1 behind f2 g2 h2, no castling: one move (g1), on the king's side: 1 + 1.
    assert_eq!(
        counts("4k3/8/8/8/8/8/5PPP/5K1R w - - 0 1", true)[M_TRAPPED_ROOK],
        2
    );
    // The rook on the other side of the king is free to count.
    assert_eq!(
        counts("4k3/8/8/8/8/8/PPP5/R4K2 w - - 0 1", true)[M_TRAPPED_ROOK],
        0
    );
}

#[test]
fn bishops_rooks_and_the_kings_flanks() {
    // Bb2 sees d4 and e5 down the long diagonal, 3 steps from its king on e1.
    let c = counts("4k3/8/8/8/8/8/1B6/4K3 w - - 0 1", true);
    assert_eq!((c[M_LONG_DIAGONAL], c[M_KING_PROTECTOR_B]), (1, 3));
    // A pawn on d4 stops the view at d4: one centre square.
    assert_eq!(
        counts("4k3/8/8/8/3P4/8/1B6/4K3 w - - 0 1", true)[M_LONG_DIAGONAL],
        0
    );
    // Bc1 x-rays black's e3 and g5 through its own knight.
    let c = counts("4k3/8/8/6p1/8/4p3/3N4/2B1K3 w - - 0 1", true);
    assert_eq!(c[M_BISHOP_XRAY_PAWNS], 2);
    // Rd1 on the black queen's file.
    assert_eq!(
        counts("3qk3/8/8/8/8/8/8/3RK3 w - - 0 1", true)[M_ROOK_QUEEN_FILE],
        1
    );
    assert_eq!(
        counts("3qk3/8/8/8/8/8/8/3RK3 w - - 0 1", false)[M_ROOK_QUEEN_FILE],
        0
    );
    // Rg1 against Kg8 (black to move, in check): g4–g8 are flank squares in black's camp; none
    // attacked twice.
    let c = counts("6k1/8/8/8/8/8/8/4K1R1 b - - 0 1", true);
    assert_eq!((c[M_FLANK_ATTACKS], c[M_FLANK_DOUBLE]), (5, 0));
    // Bh5 adds g6, f7, e8 and g4, of which g6 and g4 the rook hits too.
    let c = counts("6k1/8/8/7B/8/8/8/4K1R1 b - - 0 1", true);
    assert_eq!((c[M_FLANK_ATTACKS], c[M_FLANK_DOUBLE]), (7, 2));
    // No pawn on c–f around the kings: both flanks pawnless; a pawn on e7 fills both.
    assert_eq!(
        counts("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", true)[M_PAWNLESS_FLANK],
        1
    );
    assert_eq!(
        counts("4k3/4p3/8/8/8/8/P7/4K3 w - - 0 1", true)[M_PAWNLESS_FLANK],
        0
    );
}

fn counts2(fen: &str, white: bool) -> [i32; N_MORE2] {
    let pos = ChessPos::from_text(fen).unwrap_or_else(|e| panic!("{e}: {fen}"));
    more2_counts(&pos, white)
}

#[test]
fn connected_and_weak_unopposed_pawns() {
    // c3 supports d4; d4 and e4 stand side by side: d4 and e4 are connected, on rank 4.
    let c = counts2("4k3/8/8/8/3PP3/2P5/8/4K3 w - - 0 1", true);
    assert_eq!(c[M2_CONNECTED..M2_CONNECTED + 6], [0, 0, 2, 0, 0, 0]);
    assert_eq!(c[M2_WEAK_UNOPPOSED], 0);
    // A lone a2 is isolated and unopposed; a black a7 opposes it (and a2 opposes a7).
    assert_eq!(
        counts2("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", true)[M2_WEAK_UNOPPOSED],
        1
    );
    assert_eq!(
        counts2("4k3/p7/8/8/8/8/P7/4K3 w - - 0 1", true)[M2_WEAK_UNOPPOSED],
        0
    );
    assert_eq!(
        counts2("4k3/p7/8/8/8/8/P7/4K3 w - - 0 1", false)[M2_WEAK_UNOPPOSED],
        0
    );
}

#[test]
fn king_pawn_distance_and_passed_files() {
    let c = counts2("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", true);
    assert_eq!(c[M2_KING_PAWN_DISTANCE], 4, "e1 to a2");
    assert_eq!(c[M2_PASSED_FILE], 0, "a2 is on the edge");
    assert_eq!(
        counts2("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true)[M2_KING_PAWN_DISTANCE],
        0
    );
    assert_eq!(
        counts2("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1", true)[M2_PASSED_FILE],
        1
    );
}

#[test]
fn pins_and_a_weak_queen() {
    // Re7 pins Ne2 to Ke1; Ba5 pins the d2 pawn.
    let c = counts2("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", true);
    assert_eq!((c[M2_PINNED_PIECE], c[M2_PINNED_PAWN]), (1, 0));
    let c = counts2("4k3/8/8/b7/8/8/3P4/4K3 w - - 0 1", true);
    assert_eq!((c[M2_PINNED_PIECE], c[M2_PINNED_PAWN]), (0, 1));
    // Re7 hits Qe2 through Ne4.
    assert_eq!(
        counts2("4k3/4r3/8/8/4N3/8/4Q3/K7 w - - 0 1", true)[M2_WEAK_QUEEN],
        1
    );
    assert_eq!(
        counts2("4k3/4r3/8/8/8/8/4Q3/K7 w - - 0 1", true)[M2_WEAK_QUEEN],
        0
    );
}

#[test]
fn threats_to_the_queen_outposts_and_infiltration() {
    // Nd1 reaches c3 and e3, both a knight's move from the black queen on d5.
    assert_eq!(
        counts2("4k3/8/8/3q4/8/8/8/3NK3 w - - 0 1", true)[M2_KNIGHT_ON_QUEEN],
        2
    );
    // Nf4 is a move from d5, which c4 guards and no black pawn can chase.
    let c = counts2("4k3/8/8/8/2P2N2/8/8/4K3 w - - 0 1", true);
    assert_eq!(c[M2_REACHABLE_OUTPOST], 1);
    assert_eq!(
        counts2("4k3/8/8/8/2P5/8/8/4KN2 w - - 0 1", true)[M2_REACHABLE_OUTPOST],
        0
    );
    // Qd6 in black's half: no black pawn could ever attack it, unless one stands on c7/e7.
    assert_eq!(
        counts2("4k3/8/3Q4/8/8/8/8/4K3 b - - 0 1", true)[M2_QUEEN_INFILTRATION],
        1
    );
    assert_eq!(
        counts2("4k3/4p3/3Q4/8/8/8/8/4K3 b - - 0 1", true)[M2_QUEEN_INFILTRATION],
        0
    );
}

#[test]
fn rooks_behind_passed_pawns() {
    let c = counts2("4k3/8/8/8/8/P7/8/R3K3 w - - 0 1", true);
    assert_eq!(
        (c[M2_OWN_ROOK_BEHIND_PASSER], c[M2_ENEMY_ROOK_BEHIND_PASSER]),
        (1, 0)
    );
    let c = counts2("4k3/8/8/8/8/P7/8/r3K3 w - - 0 1", true);
    assert_eq!(
        (c[M2_OWN_ROOK_BEHIND_PASSER], c[M2_ENEMY_ROOK_BEHIND_PASSER]),
        (0, 1)
    );
    // A rook in front of the pawn does not count.
    let c = counts2("r3k3/8/8/8/8/P7/8/4K3 w - - 0 1", true);
    assert_eq!(c[M2_ENEMY_ROOK_BEHIND_PASSER], 0);
}
