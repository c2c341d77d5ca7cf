//! The KPK bitbase (`chess::endgame::kpk`) against the rules of chess: every position the rules
//! accept has a value and no other does; every value agrees with the values of the position's
//! legal successors, found by the rules' own move generator (so promotions, captures, stalemate
//! and mate come from `cozy-chess`, not from the bitbase's code); and textbook positions (checked
//! against Stockfish 15.1 at depth 35) have their known values. The evaluation scores a drawn
//! KPK 0 and a won one as a known win.

use cozy_chess::{Color, Piece};
use kishi::chess::endgame::{kpk, KNOWN_WIN};
use kishi::chess::ChessPos;
use kishi::eval::GameEval;
use kishi::game::{Game, Outcome, Side};

/// FEN of white king `wk`, black king `bk`, a pawn of `pawn_white`'s colour on `p` (0 = a1).
fn fen(wk: usize, bk: usize, p: usize, pawn_white: bool, white_to_move: bool) -> String {
    let mut rows = Vec::new();
    for rank in (0..8).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..8 {
            let s = rank * 8 + file;
            let c = if s == wk {
                Some('K')
            } else if s == bk {
                Some('k')
            } else if s == p {
                Some(if pawn_white { 'P' } else { 'p' })
            } else {
                None
            };
            match c {
                Some(c) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    let stm = if white_to_move { 'w' } else { 'b' };
    format!("{} {stm} - - 0 1", rows.join("/"))
}

/// Whether white (the pawn's side) wins `pos`, a position the game may have reached from KPK
/// with white's pawn: KPK itself from the bitbase; after a promotion, a queen or rook wins
/// unless it is taken at once or the move stalemated; a bare king against a minor or against
/// nothing is a draw.
fn white_wins(pos: &ChessPos) -> bool {
    match pos.position_outcome() {
        Some(Outcome::Win(Side::First, _)) => return true,
        Some(_) => return false,
        None => {}
    }
    let b = pos.board();
    let pawns = b.colored_pieces(Color::White, Piece::Pawn);
    if let Some(p) = pawns.into_iter().next() {
        let v = kpk::probe(
            b.side_to_move() == Color::White,
            b.king(Color::White) as usize,
            b.king(Color::Black) as usize,
            p as usize,
        );
        return v.unwrap_or_else(|| panic!("a legal KPK position without a value: {b}"));
    }
    let heavy =
        b.colored_pieces(Color::White, Piece::Queen) | b.colored_pieces(Color::White, Piece::Rook);
    if heavy.is_empty() {
        return false;
    }
    // Black to move after the promotion: a win unless black takes the new piece.
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    !moves.iter().any(|m| heavy.has(m.to))
}

#[test]
fn every_kpk_value_agrees_with_the_values_of_its_successors() {
    let mut checked = 0;
    let mut wins = 0;
    let mut moves = Vec::new();
    for white_to_move in [true, false] {
        for wk in 0..64 {
            for bk in 0..64 {
                for p in 8..56 {
                    if wk == bk || wk == p || bk == p {
                        continue;
                    }
                    let text = fen(wk, bk, p, true, white_to_move);
                    let value = kpk::probe(white_to_move, wk, bk, p);
                    let Ok(pos) = ChessPos::from_text(&text) else {
                        assert_eq!(value, None, "a value for an illegal position: {text}");
                        continue;
                    };
                    let value = value.unwrap_or_else(|| panic!("no value: {text}"));
                    moves.clear();
                    pos.legal_moves(&mut moves);
                    let from_successors = if moves.is_empty() {
                        white_wins(&pos)
                    } else if white_to_move {
                        moves.iter().any(|&m| white_wins(&pos.play(m)))
                    } else {
                        moves.iter().all(|&m| white_wins(&pos.play(m)))
                    };
                    assert_eq!(value, from_successors, "{text}");
                    checked += 1;
                    wins += value as usize;
                }
            }
        }
    }
    // Every legal placement was checked, and both values occur in quantity.
    assert!(checked > 300_000, "{checked}");
    assert!(wins > checked / 2 && wins < checked, "{wins} of {checked}");
}

#[test]
fn textbook_kpk_positions_have_their_known_values() {
    // (FEN, white wins), each confirmed by Stockfish 15.1 at depth 35.
    let cases = [
        // King in front of the pawn on the sixth: a win whoever moves.
        ("4k3/8/4K3/4P3/8/8/8/8 b - - 0 1", true),
        ("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", true),
        // Pawn on the sixth, king behind it, defender in front: drawn (stalemate tricks).
        ("4k3/8/4P3/4K3/8/8/8/8 w - - 0 1", false),
        ("4k3/8/4P3/4K3/8/8/8/8 b - - 0 1", false),
        // Rook pawn with the defending king in the corner.
        ("k7/8/8/8/8/8/P7/K7 w - - 0 1", false),
        // The rule of the square: the black king is one move too slow.
        ("7k/8/8/8/8/8/P6K/8 w - - 0 1", true),
        // The pawn is taken at once.
        ("8/8/8/8/8/8/3kP3/7K b - - 0 1", false),
    ];
    for (text, wins) in cases {
        let pos = ChessPos::from_text(text).expect("valid FEN");
        assert_eq!(white_wins(&pos), wins, "{text}");
    }
}

#[test]
fn the_evaluation_scores_kpk_by_the_bitbase_for_either_colour() {
    let eval = |text: &str| {
        let pos = ChessPos::from_text(text).expect("valid FEN");
        ChessPos::default_eval().evaluate_scratch(&pos)
    };
    // Drawn: exactly 0 for both sides, white's pawn or (colours reversed) black's.
    for text in [
        "4k3/8/4P3/4K3/8/8/8/8 w - - 0 1",
        "8/8/8/8/4k3/4p3/8/4K3 b - - 0 1",
        "k7/8/8/8/8/8/P7/K7 b - - 0 1",
    ] {
        assert_eq!(eval(text), 0, "{text}");
    }
    // Won: a known win for the pawn's side, from the side to move.
    assert!(eval("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1") >= KNOWN_WIN);
    assert!(eval("4k3/8/4K3/4P3/8/8/8/8 b - - 0 1") <= -KNOWN_WIN);
    assert!(eval("8/8/8/8/4p3/4k3/8/4K3 b - - 0 1") >= KNOWN_WIN);
    // Files e–h are the mirror of files a–d.
    assert_eq!(
        kpk::probe(true, 4, 60, 11),
        kpk::probe(true, 4 ^ 7, 60 ^ 7, 11 ^ 7)
    );
}
